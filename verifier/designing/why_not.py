"""When no matrix meets the firm demands: which demands and fixed cells conflict, and what lifts it.

The parts are the firm demands and the fixed cells; z3 decides every question exactly (linear real arithmetic,
margin free). What is established:
- minimal conflicts (MUSes): sets of parts that cannot all hold, each part needed for that set. Dropping one
  part of a conflict may leave another one, so they are enumerated (MARCO: a map of unexplored subsets, each
  seed shrunk to a conflict or grown to a maximal feasible set and blocked), all of them when there are few;
- a smallest correction: the fewest parts whose removal leaves a matrix. Only parts the user may remove count:
  fixed cells (left open) and demands that are not necessary in the setting (`--free` refuses those). A
  correction must hit every conflict, so the least hitting set of the conflicts found bounds its size from
  below; it is re-solved, and if a conflict remains, that conflict joins the list (implicit hitting sets).
  When the smallest is out of the search budget, a minimal one (each part needed, checked) is given instead;
- the least total change (L1) of the fixed cells that keeps every demand (`repair`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import z3

from verifier import limits
from verifier.designing.objective import Objective
from verifier.designing.problem import Cell, DesignProblem
from verifier.designing.request import Demand, Request
from verifier.designing.solve import Conflict, Solver, Undecided
from verifier.engines.margins import Bound
from verifier.errors import Unsettled
from verifier.properties import Level
from verifier.properties.settings import TABLE_VIII

MAX_CONFLICTS = 8  # enumerated in full up to this many; the search stops at one more ("more exist")
MAX_CALLS = 3000  # solver questions for each search, conflicts then correction (incremental, usually < 2 ms)


@dataclass(frozen=True)
class Part:
    """One part of a conflict: a demand or a fixed cell, and whether it may be removed."""
    label: str  # as `Solver.literals` words it
    demand: Demand | None = None
    cell: Cell | None = None
    removable: bool = True  # a necessary demand is not: no scheme without it fits the setting

    def advice(self) -> str:
        """What lifts this part: leave the cell open, or the --free option for the demand."""
        if self.cell is not None:
            return f"leave {self.cell.label} open (null in the spec) instead of fixing it at {self.cell.given}"
        d = self.demand
        asked = d.why.split("asked with ", 1)[1] if d.why.startswith("asked with ") else None
        return f"--free {d.pid}" + (f" in place of {asked} {d.pid}" if asked else "")


@dataclass
class Diagnosis:
    """Why nothing fits: the minimal conflicts found, the smallest correction, and how far the search got."""
    conflicts: list[list[Part]]  # minimal conflicts found, the first being the solver's
    complete: bool  # every minimal conflict is listed
    more: bool  # more than MAX_CONFLICTS exist (that many were found)
    correction: list[Part] | None  # parts whose removal leaves a matrix (checked), None when none exists or found
    smallest: bool  # proved: removing fewer parts never leaves a matrix
    lower_bound: int  # no removal of fewer parts leaves a matrix (it leaves a conflict found intact)
    no_correction: list[Part] | None = None  # a conflict among necessary demands only (so no correction exists)
    lifted_alone: dict[str, bool] = field(default_factory=dict)  # first conflict's part -> dropping it alone
    # leaves a matrix (checked; absent when not asked)
    stopped: str = ""  # why a search stopped early ("" when it did not)
    calls: int = 0


class _Budget(Unsettled):
    pass


class _Search:
    """One incremental z3 solver, every part tracked by a literal; subsets are lists of part indices."""

    def __init__(self, solver: Solver, literals: dict, budget: int):
        self.p, self.lits, self.budget, self.calls = solver.p, list(literals), budget, 0
        self.met: set[int] = set()  # the parts the last feasible answer's model meets
        self.core: list[int] = []  # the parts in the last infeasible answer's core
        self.conditions = [condition for condition, _ in literals.values()]
        self.s = z3.Solver(ctx=self.p.ctx)
        self.s.set("timeout", limits.question_ms(solver.timeout_ms))
        self.s.add(self.p.margin > 0, *self.p.t.side)
        self.s.add(*[z3.Implies(x, c) for x, c in zip(self.lits, self.conditions)])

    def sat(self, subset) -> bool:
        """Whether the parts in `subset` can hold together; keeps the model, or the core of the conflict."""
        if self.calls >= self.budget:
            raise _Budget()
        self.calls += 1
        answer = self.s.check(*[self.lits[i] for i in subset])
        if answer == z3.unknown:
            raise Undecided(self.s.reason_unknown())
        if answer == z3.sat:
            model = self.s.model()
            self.met = {i for i, c in enumerate(self.conditions) if z3.is_true(model.eval(c, model_completion=True))}
            return True
        names = {str(x) for x in self.s.unsat_core()}
        self.core = [i for i in subset if str(self.lits[i]) in names]
        return False

    def shrink(self, subset) -> tuple[int, ...]:
        """A minimal conflict inside an infeasible `subset`: z3's core, then each part dropped if it can be."""
        if self.sat(subset):
            raise AssertionError("a conflict was asked of a feasible set of parts")
        core = self.core
        for i in list(core):
            if i in core and not self.sat([j for j in core if j != i]):
                core = self.core
        return tuple(sorted(core))

    def grow(self, subset, hints: bool = True) -> set[int]:
        """A maximal feasible set containing `subset`, just found feasible. Parts a model meets are taken as
        hints; the result is re-checked (it blocks a region of the search, so it must be feasible)."""
        kept = set(subset) | (self.met if hints else set())
        for i in range(len(self.lits)):
            if i not in kept and self.sat(sorted(kept | {i})):
                kept |= {i} | (self.met if hints else set())
        return kept if not hints or self.sat(sorted(kept)) else self.grow(subset, hints=False)


def diagnose(solver: Solver, request: Request, first: Conflict, budget: int | None = None) -> Diagnosis:
    """Look for the minimal conflicts among the firm demands and fixed cells, starting from the solver's first, and for
    the fewest parts whose removal leaves a matrix, within a budget of z3 calls."""
    budget = budget or MAX_CALLS
    literals = solver.literals(request.firm, solver.p.fixed_cells)
    parts = _parts(request, solver.p.fixed_cells, literals)
    search = _Search(solver, literals, budget)
    everything = list(range(len(parts)))
    removable = {i for i, part in enumerate(parts) if part.removable}
    index = {part.label: i for i, part in enumerate(parts)}
    found = [tuple(sorted(index[label] for label in first.parts))]
    out = Diagnosis([], False, False, None, False, 1)
    try:
        for i in found[0]:
            out.lifted_alone[parts[i].label] = search.sat([j for j in everything if j != i])
        out.complete, out.more = _enumerate(search, len(parts), found)
    except Unsettled as exc:
        out.stopped = _why_stopped(exc, search)
    search.budget = search.calls + budget
    try:
        _correct(search, everything, removable, found, out)
    except Unsettled as exc:
        out.stopped = out.stopped or _why_stopped(exc, search)
        search.budget = search.calls + len(removable) + 2  # enough for a minimal correction, part by part
        try:
            _minimal_correction(search, everything, removable, out)
        except Unsettled:
            pass
    found[1:] = sorted(found[1:], key=lambda mus: (len(mus), mus))  # the solver's first, then the smallest
    out.conflicts = [[parts[i] for i in mus] for mus in found]
    if out.no_correction is not None:
        out.no_correction = [parts[i] for i in out.no_correction]
    out.correction = None if out.correction is None else [parts[i] for i in sorted(out.correction)]
    out.calls = search.calls
    return out


def _parts(request: Request, fixed: list[Cell], literals: dict) -> list[Part]:
    labels = [label for _, label in literals.values()]
    levels = TABLE_VIII[request.setting]
    demands = [Part(label, demand=d, removable=levels[d.pid] != Level.N) for d, label in zip(request.firm, labels)]
    return demands + [Part(label, cell=c) for c, label in zip(fixed, labels[len(request.firm):])]


def _enumerate(search: _Search, n: int, found: list[tuple[int, ...]]) -> tuple[bool, bool]:
    """MARCO over the parts; `found` is extended in place. Returns (complete, more than MAX_CONFLICTS exist)."""
    ctx = z3.Context()
    chosen = [z3.Bool(f"part {i}", ctx) for i in range(n)]
    unexplored = z3.Solver(ctx=ctx)
    for mus in found:
        unexplored.add(z3.Or([z3.Not(chosen[i]) for i in mus]))
    while unexplored.check() == z3.sat:
        model = unexplored.model()
        seed = [i for i in range(n) if not z3.is_false(model.eval(chosen[i]))]  # unassigned: in (seeds large)
        if search.sat(seed):
            rest = [chosen[i] for i in range(n) if i not in search.grow(seed)]
            unexplored.add(z3.Or(rest))  # every feasible set's subsets are explored
        else:
            found.append(search.shrink(seed))
            if len(found) > MAX_CONFLICTS:
                return False, True
            mus = found[-1]
            unexplored.add(z3.Or([z3.Not(chosen[i]) for i in mus]))  # every superset holds a conflict
    return True, False


def _correct(search: _Search, everything: list[int], removable: set[int], found: list, out: Diagnosis) -> None:
    """The smallest correction, by implicit hitting sets over the conflicts found."""
    if not search.sat([i for i in everything if i not in removable]):
        out.no_correction = search.shrink([i for i in everything if i not in removable])
        return
    while True:
        fix = _least_hitting_set([set(mus) & removable for mus in found])
        out.lower_bound = len(fix)
        if search.sat([i for i in everything if i not in fix]):
            out.correction, out.smallest = fix, True
            return
        mus = search.shrink([i for i in everything if i not in fix])  # misses `fix`: a conflict not yet found
        found.append(mus)
        out.more = out.more or len(found) > MAX_CONFLICTS


def _minimal_correction(search: _Search, everything: list[int], removable: set[int], out: Diagnosis) -> None:
    """Remove every removable part, then put each back while a matrix still exists: each one left is needed."""
    fix = set(removable)
    if out.no_correction is not None or not search.sat([i for i in everything if i not in fix]):
        return
    for i in sorted(removable):
        if search.sat([j for j in everything if j not in fix - {i}]):
            fix.discard(i)
    out.correction, out.smallest = fix, len(fix) <= out.lower_bound


def _least_hitting_set(sets: list[set[int]]) -> set[int]:
    """Exact: a pseudo-Boolean minimisation over the parts that occur (each set is non-empty here)."""
    ctx = z3.Context()
    elements = sorted(set().union(*sets))
    pick = {i: z3.Bool(f"fix {i}", ctx) for i in elements}
    opt = z3.Optimize(ctx=ctx)
    opt.add(*[z3.Or([pick[i] for i in s]) for s in sets])
    opt.minimize(z3.Sum([z3.If(pick[i], 1, 0) for i in elements]))
    if opt.check() != z3.sat:
        raise Undecided(opt.reason_unknown())
    model = opt.model()
    return {i for i in elements if z3.is_true(model.eval(pick[i]))}


def _why_stopped(exc: Exception, search: _Search) -> str:
    if isinstance(exc, _Budget):
        return f"the search stopped after {search.calls} solver questions"
    return f"z3 gave no answer in time ({exc})"


# -- the least change of the fixed cells ----------------------------------------------------------------------
@dataclass
class Repair:
    """The least change to the fixed cells that lets the firm demands hold: the cells moved and the repaired matrix."""
    least_change: Bound  # the infimum of the total change, margin free
    total: Fraction  # the total change of the repair below
    margin: Fraction
    changes: list[tuple[str, Fraction, Fraction]]  # (cell, fixed value, repaired value)
    open_values: dict[str, Fraction]  # every cell of the repaired matrix


def repair(problem: DesignProblem, solver: Solver, request: Request, margin: Fraction | None) -> Repair | None:
    """None when no change of the fixed cells helps (the demands conflict with the determinate costs alone)."""
    fixed = problem.fixed_cells
    if not fixed:
        return None
    firm = solver.literals(request.firm, [])
    if solver.check(firm, list(firm)) == z3.unsat:
        return None
    side, distance = [], []
    for cell in fixed:
        d = z3.Real(f"change {cell.label}", problem.ctx)
        x, a = problem.var(cell), problem.value(cell.given)
        side += [d >= x - a, d >= a - x]
        distance.append(d)
    objective = Objective("repair", "least total change of the fixed cells", z3.Sum(distance), True, side)
    solution = solver.optimise([condition for condition, _ in firm.values()], objective, margin)
    changes = [(c.label, c.given, solution.values[c.key]) for c in fixed if solution.values[c.key] != c.given]
    return Repair(solution.objective_bound, solution.objective_value, solution.margin, changes, solution.values)
