"""Solving a design request in stated phases, every answer exact (z3 over linear real arithmetic).

1. The firm demands and the fixed cells, with some positive margin: feasible or not. If not, one minimal
   conflict (each part needed for it; dropping one part may still leave another conflict), and `why_not`
   explains further (every minimal conflict when few, the smallest correction, the least change of the cells).
2. The wishes (avoid the undesirable properties), added one by one in Table VIII order; a wish that conflicts
   is dropped and one minimal conflict containing it named (the kept set is maximal, not necessarily maximum).
3. The largest margin the strict relations allow (capped at the largest determinate cost).
4. The objective at a fixed margin (`--margin`, by default 1/100 of the largest determinate cost, or the
   largest margin if that is smaller): every relation is then closed, so the optimum is attained, and its
   cells are exact rationals. The objective's bound with the margin free (> 0) is reported too; it may be an
   infimum that no matrix attains, because the strict relations only approach it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import z3

from verifier import limits
from verifier.designing.objective import Objective
from verifier.designing.problem import Cell, DesignProblem
from verifier.designing.request import Demand, Request
from verifier.engines.margins import Bound, bound
from verifier.errors import Unsettled, UsageError
from verifier.numbers import shown


class Undecided(Unsettled):
    """z3 gave no answer within the time limit."""


@dataclass
class Conflict:
    """Demands and fixed cells that cannot all hold together."""
    parts: list[str]  # plain words: demands and fixed cells that cannot all hold; each one is needed for that


@dataclass
class Solution:
    """The designed matrix: each cell's exact value, the margin used and the largest one, and the objective's value and
    bound."""
    values: dict[str, Fraction]  # cell key -> exact value
    margin: Fraction
    largest_margin: Bound
    margin_cap: Fraction  # the largest margin searched (the largest determinate cost)
    objective_value: Fraction
    objective_bound: Bound  # with the margin free: the infimum (minimize) or supremum (maximize)
    unbounded: bool = False


@dataclass
class Phases:
    """What the solver established, phase by phase."""
    feasible: bool
    conflict: Conflict | None = None
    kept: list[Demand] = field(default_factory=list)
    dropped: list[tuple[Demand, Conflict]] = field(default_factory=list)
    solution: Solution | None = None


class Solver:
    """The exact design path: z3 decides whether the demands can hold, finds minimal conflicts and the optimum."""
    def __init__(self, problem: DesignProblem, timeout_ms: int):
        self.p, self.timeout_ms = problem, timeout_ms
        self.scale = max([abs(v) for row in problem.determinate for v in row] + [Fraction(0)]) or Fraction(1)

    # -- tracked feasibility ----------------------------------------------------------------------------
    def literals(self, demands: list[Demand], pinned: list[Cell]) -> dict[z3.BoolRef, tuple[z3.BoolRef, str]]:
        """A tracking literal for each demand and pinned cell, mapped to (its condition, its words)."""
        out = {}
        for d in demands:
            out[z3.Bool(f"demand {d.pid} {'holds' if d.holds else 'fails'}", self.p.ctx)] = (
                self.p.condition(d), f"{d.label} ({d.why})")
        for c in pinned:
            out[z3.Bool(f"fixed {c.label}", self.p.ctx)] = (self.p.pinned(c),
                                                             f"{c.label} = {c.given} (fixed in the spec)")
        return out

    def check(self, literals: dict, chosen: list[z3.BoolRef]) -> z3.CheckSatResult:
        """Whether the chosen literals' conditions can hold together with a positive margin (sat or unsat); keeps the
        unsat core. Raises Undecided when z3 gives no answer."""
        s = z3.Solver(ctx=self.p.ctx)
        s.set("timeout", limits.question_ms(self.timeout_ms))
        s.add(self.p.margin > 0, *self.p.t.side)
        for lit, (condition, _) in literals.items():
            s.add(z3.Implies(lit, condition))
        answer = s.check(*chosen)
        if answer == z3.unknown:
            raise Undecided(s.reason_unknown())
        self._core = s.unsat_core() if answer == z3.unsat else None
        return answer

    def conflict(self, literals: dict, chosen: list[z3.BoolRef]) -> Conflict:
        """A minimal conflict: without any one part, the others can hold together (deletion-based minimisation of
        z3's core). Other conflicts may remain once a part is dropped: `why_not.diagnose` looks for them."""
        self.check(literals, chosen)
        core = [x for x in chosen if any(x.eq(c) for c in self._core)]
        for x in list(core):
            trial = [c for c in core if not c.eq(x)]
            if self.check(literals, trial) == z3.unsat:
                core = trial
        return Conflict([literals[x][1] for x in core])

    # -- the phases -------------------------------------------------------------------------------------
    def run(self, request: Request, objective: Objective, margin: Fraction | None) -> Phases:
        """The exact path's phases: the firm demands (a conflict when they cannot hold), each wish kept where it can be,
        then the optimum."""
        firm = self.literals(request.firm, self.p.fixed_cells)
        chosen = list(firm)
        if self.check(firm, chosen) == z3.unsat:
            return Phases(False, self.conflict(firm, chosen))
        phases = Phases(True, kept=list(request.firm))
        literals = dict(firm)
        for wish in request.wishes:
            extra = self.literals([wish], [])
            trial = {**literals, **extra}
            if self.check(trial, chosen + list(extra)) == z3.sat:
                literals, chosen = trial, chosen + list(extra)
                phases.kept.append(wish)
            else:
                phases.dropped.append((wish, self.conflict(trial, chosen + list(extra))))
        conditions = [literals[x][0] for x in chosen]
        phases.solution = self.optimise(conditions, objective, margin)
        return phases

    def optimise(self, conditions: list[z3.BoolRef], objective: Objective, margin: Fraction | None) -> Solution:
        """The optimum of the objective under the conditions at the given margin (by default a hundredth of the largest
        determinate cost, or less), with the largest margin and the bound with the margin free. Raises MarginTooLarge or
        Undecided."""
        m = self.p.margin
        largest = self._optimum(conditions + [m > 0, m <= self.p.value(self.scale)], m, minimize=False)
        if margin is None:
            margin = min(self.scale / 100, largest.value)
            if margin == largest.value and not largest.attained:
                margin = largest.value / 2
        elif largest.value is not None and (margin > largest.value
                                            or (margin == largest.value and not largest.attained)):
            raise MarginTooLarge(margin, largest)
        fixed = conditions + objective.side + [m == self.p.value(margin)]
        opt = self._optimizer(fixed)
        handle = opt.minimize(objective.expression) if objective.minimize else opt.maximize(objective.expression)
        if opt.check() != z3.sat:
            raise Undecided(opt.reason_unknown())
        value = bound(opt.lower(handle) if objective.minimize else opt.upper(handle))
        free = self._optimum(conditions + objective.side + [m > 0], objective.expression, objective.minimize)
        if value.value is None:  # unbounded: keep a feasible matrix, say so
            s = self._optimizer(fixed)
            s.check()
            model = s.model()
            return Solution(self.p.cell_values(model), margin, largest, self.scale, Fraction(0), free, unbounded=True)
        pinned = self._optimizer(fixed + [objective.expression == self.p.value(value.value)])
        if pinned.check() != z3.sat:
            raise Undecided("the optimum could not be re-attained")
        return Solution(self.p.cell_values(pinned.model()), margin, largest, self.scale, value.value, free)

    def _optimizer(self, conditions: list[z3.BoolRef]) -> z3.Optimize:
        opt = z3.Optimize(ctx=self.p.ctx)
        opt.set("timeout", limits.question_ms(self.timeout_ms))
        opt.add(*self.p.t.side, *conditions)
        return opt

    def _optimum(self, conditions: list[z3.BoolRef], expression: z3.ArithRef, minimize: bool) -> Bound:
        opt = self._optimizer(conditions)
        handle = opt.minimize(expression) if minimize else opt.maximize(expression)
        if opt.check() != z3.sat:
            raise Undecided(opt.reason_unknown())
        return bound(opt.lower(handle) if minimize else opt.upper(handle))


class MarginTooLarge(UsageError):
    """A --margin the strict relations do not allow (beyond the largest margin)."""
    def __init__(self, margin: Fraction, largest: Bound):
        self.margin, self.largest = margin, largest
        text = str(margin) if len(str(margin)) <= 40 else shown(str(margin))
        super().__init__(f"--margin {text} is not achievable: the strict relations allow margins "
                         f"{'up to' if largest.attained else 'below'} {largest.value}")
