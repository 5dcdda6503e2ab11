"""The fast path for large completions: the same demands and objective as `solve.Solver`, as linear programs
searched by HiGHS and decided exactly (`exact_lp`), with every answer re-checked in exact rationals.

The conjunctive part of the demands (the *core*: P3, P4, P10, P5's equalities, fixed cells, ...) is a linear
program that splits into independent blocks, one per set (no atom ties two sets' cells; the margin is fixed
or maximised block by block). Its exact optimum bounds the full problem's from below, since the full
feasible set lies inside the core's. The disjunctive demands (P2's "some class", P9, a wish such as "P8
fails", and Property 1's "some set is possible", checked through a witness distribution found by HiGHS and
verified in Fractions) are then *evaluated* exactly at the core's optimum: when they all hold, that point is
feasible for the full problem, so it is the full problem's optimum, exactly. The margin-free bound is the
core's value at margin 0, reached by the segment from that point to the designed one (every disjunction has
one branch holding at both ends, so along the whole segment). Whenever a step cannot be confirmed this way,
`Unconfirmed` says which, and the caller uses the exact z3 path; an infeasible core is never trusted to
HiGHS: the caller asks the exact path, whose conflict machinery explains it.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from verifier.designing import linear
from verifier.designing.exact_lp import Block, solve_blocks
from verifier.designing.objective import Objective
from verifier.designing.problem import DesignProblem
from verifier.designing.request import Request
from verifier.designing.solve import MarginTooLarge, Phases, Solution
from verifier.engines.margins import Bound
from verifier.errors import Unsettled

M = linear.MARGIN


class Unconfirmed(Unsettled):
    """The fast path could not decide this exactly; the exact path must."""


def fast_run(problem: DesignProblem, request: Request, objective: Objective, margin: Fraction | None,
             timeout_ms: int = 20_000) -> Phases:
    """The fast path's phases: firm demands and every wish kept, the largest margin, then the optimum at the margin,
    each decided by HiGHS and confirmed exactly. Raises `Unconfirmed` where it cannot decide, and `MarginTooLarge` for a
    margin beyond the largest."""
    wants_p1 = any(d.pid == "P1" and d.holds for d in request.demands)
    if any(d.pid == "P1" and not d.holds for d in request.demands):
        raise Unconfirmed("'P1 fails' is only encoded by the exact path")
    kept = list(request.firm) + list(request.wishes)  # every wish kept: confirmed below, or the exact path decides
    conditions = [problem.condition(d) for d in kept if d.pid != "P1"]
    conditions += [problem.pinned(c) for c in problem.fixed_cells] + list(problem.t.side) + list(objective.side)
    try:
        atoms, disjunctions, ok = linear.split(conditions)
        goal, _ = linear.linear(objective.expression)
    except linear.NotLinear as exc:
        raise Unconfirmed(f"not linear: {exc}") from None
    if not ok:
        raise Unconfirmed("a demand is false outright")
    if any(dict(a.coeffs).get(M, 0) < 0 or (a.equality and M in dict(a.coeffs)) for a in atoms):
        raise Unconfirmed("the margin enters a relation the wrong way")
    sign = 1 if objective.minimize else -1
    goal = {v: sign * a for v, a in goal.items()}
    scale = max([abs(v) for row in problem.determinate for v in row] + [Fraction(0)]) or Fraction(1)
    groups = _groups(atoms, goal, [problem.symbols[c.key].name for c in problem.cells])
    check = _Checker(problem, disjunctions, wants_p1)

    # the largest margin: block by block (the blocks share nothing but the margin, and a smaller margin is easier)
    per_block = _solve(groups, goal, None, scale, timeout_ms, maximise_margin=True)
    largest_core = min([scale] + [-a for a in per_block])
    if largest_core <= 0:
        raise Unconfirmed("the core has no positive margin (infeasible, or HiGHS says so): the exact path explains")
    values, _ = _point(groups, goal, largest_core, timeout_ms)
    if not check.holds(values, largest_core):
        raise Unconfirmed("at the core's largest margin a disjunctive demand fails")
    largest = Bound(largest_core, True)
    if margin is None:
        margin = min(scale / 100, largest_core)
    elif margin > largest_core:
        raise MarginTooLarge(margin, largest)
    values, value = _point(groups, goal, margin, timeout_ms)
    if not check.holds(values, margin):
        raise Unconfirmed("at the core's optimum a disjunctive demand fails")
    free = _free_bound(groups, goal, values, value, margin, check, timeout_ms)
    cells = {c.key: values.get(problem.symbols[c.key].name, Fraction(0)) for c in problem.cells}
    solution = Solution(cells, margin, largest, scale, sign * value, Bound(sign * free.value, free.attained))
    return Phases(True, kept=kept, solution=solution)


def _groups(atoms, goal, cells) -> list[tuple[list[str], list[linear.Atom]]]:
    parent: dict[str, str] = {}

    def find(v):
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v
    for v in list(goal) + cells:
        find(v)
    for a in atoms:
        names = [v for v in a.variables if v != M]
        for v in names[1:]:
            parent[find(v)] = find(names[0])
        for v in names[:1]:
            find(v)
    members: dict[str, list[str]] = {}
    for v in parent:
        if v != M:
            members.setdefault(find(v), []).append(v)
    placed: dict[str, list] = {r: [] for r in members}
    loose = []
    for a in atoms:
        names = [v for v in a.variables if v != M]
        (placed[find(names[0])] if names else loose).append(a)
    return [(vs, placed[r] + loose) for r, vs in members.items()]


def _solve(groups, goal, margin, scale, timeout_ms, maximise_margin=False, cap=None):
    """Each block's exact optimum: of the goal at a fixed margin, or of -margin (with goal <= cap if given)."""
    blocks = []
    for k, (vs, atoms) in enumerate(groups):
        names = vs + [M] if maximise_margin else vs
        index = {v: i for i, v in enumerate(names)}
        rows = []
        for a in atoms:
            coeffs, rhs = {}, -a.const
            for v, c in a.coeffs:
                if v == M and not maximise_margin:
                    rhs -= c * margin
                else:
                    coeffs[index[v]] = c
            rows.append((coeffs, rhs, a.equality))
        if maximise_margin:
            rows.append(({index[M]: Fraction(1)}, scale, False))
            if cap is not None:
                rows.append(({index[v]: goal[v] for v in vs if v in goal}, cap[k], False))
            cost = {index[M]: Fraction(-1)}
        else:
            cost = {index[v]: goal[v] for v in vs if v in goal}
        blocks.append(Block(names, rows, cost))
    answers = solve_blocks(blocks, timeout_ms)
    for a in answers:
        if a.status != "optimal":
            raise Unconfirmed(f"a block is {a.status} (not trusted to HiGHS: the exact path decides)")
    return answers if not maximise_margin or cap is not None else [a.objective for a in answers]


def _point(groups, goal, margin, timeout_ms):
    answers = _solve(groups, goal, margin, None, timeout_ms)
    values = {v: x for a in answers for v, x in a.values.items()}
    return values, sum((a.objective for a in answers), Fraction(0))


def _free_bound(groups, goal, values, value, margin, check, timeout_ms) -> Bound:
    """The goal's infimum with the margin only positive: the core's value at margin 0, reached along the
    segment to the designed point; attained when every block keeps that value at some positive margin."""
    answers = _solve(groups, goal, Fraction(0), None, timeout_ms)
    at_zero = {v: x for a in answers for v, x in a.values.items()}
    v0 = sum((a.objective for a in answers), Fraction(0))
    if not check.along(at_zero, values, margin):
        raise Unconfirmed("the margin-free bound: no common branch along the segment")
    if v0 == value:
        return Bound(v0, True)
    caps = [a.objective for a in answers]
    reach = _solve(groups, goal, None, margin, timeout_ms, maximise_margin=True, cap=caps)
    m1 = min(-a.objective for a in reach)
    if m1 <= 0:
        return Bound(v0, False)  # some block gets dearer at every positive margin: the full problem too
    point, v1 = _point(groups, goal, m1, timeout_ms)
    if v1 != v0 or not check.holds(point, m1):
        raise Unconfirmed("the margin-free bound's attainment")
    return Bound(v0, True)


class _Checker:
    """The disjunctive demands, decided exactly at a point (Property 1 through a verified witness)."""

    def __init__(self, problem: DesignProblem, disjunctions, wants_p1: bool):
        self.p, self.disjunctions, self.wants_p1 = problem, disjunctions, wants_p1
        self.witness: tuple[frozenset, list[Fraction]] | None = None

    def holds(self, values, margin) -> bool:
        point = {**values, M: margin}
        if not all(linear.holds(d, point) for d in self.disjunctions):
            return False
        return not self.wants_p1 or self._possible(values, margin)

    def along(self, start, end, margin) -> bool:
        """Every disjunction has a branch holding at (start, margin 0) and (end, margin): so on the segment."""
        a, b = {**start, M: Fraction(0)}, {**end, M: margin}

        def both(node) -> bool:
            if isinstance(node, linear.Atom) or node in (True, False):
                return linear.holds(node, a) and linear.holds(node, b)
            return (all if node[0] == "and" else any)(both(k) for k in node[1])
        if not all(both(d) for d in self.disjunctions):
            return False
        if not self.wants_p1:
            return True
        members, p = self.witness
        return self._gap(start, members, p) >= 0 and self._gap(end, members, p) >= margin

    def _row(self, values, members):
        return [values.get(self.p.symbols[f"{sorted(members)}:{y}"].name, Fraction(0))
                for y in range(len(self.p.spec.classes))]

    def _gap(self, values, members, p) -> Fraction:
        det, row = self.p.determinate, self._row(values, members)
        mine = sum((q * c for q, c in zip(p, row)), Fraction(0))
        return min(sum((q * det[h][y] for y, q in enumerate(p)), Fraction(0)) - mine for h in members)

    def _possible(self, values, margin) -> bool:
        K = len(self.p.spec.classes)
        sets = sorted({c.members for c in self.p.cells}, key=len)
        for members in sets:
            p = self._search(values, members, K)
            if p is not None and self._gap(values, members, p) >= margin:
                self.witness = (members, p)
                return True
        return False

    def _search(self, values, members, K) -> list[Fraction] | None:
        """max t: p·(c_h - c_Y) >= t for h in Y, p in the simplex (HiGHS), the p rounded to an exact distribution."""
        det, row = self.p.determinate, self._row(values, members)
        A = [[-(float(det[h][y]) - float(row[y])) for y in range(K)] + [1.0] for h in sorted(members)]
        res = linprog([0.0] * K + [-1.0], A_ub=A, b_ub=[0.0] * len(A), A_eq=[[1.0] * K + [0.0]], b_eq=[1.0],
                      bounds=[(0, None)] * K + [(None, None)], method="highs")
        if res.status != 0 or res.x[-1] <= 0:
            return None
        p = [max(Fraction(float(v)).limit_denominator(10**6), Fraction(0)) for v in np.asarray(res.x[:K])]
        total = sum(p)
        return [q / total for q in p] if total > 0 else None
