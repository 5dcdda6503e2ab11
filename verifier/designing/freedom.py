"""The freedom a request leaves: for each open cell, the exact set of values it can take with the others free.

The set is the projection of the feasible region (strict relations strict: the margin only has to be
positive) onto one cell: z3's quantifier elimination for linear real arithmetic gives it as a condition on
that cell alone, decided at its breakpoints into disjoint intervals with open or closed ends (`margins.
projection`). When elimination does not finish in time, the hull [inf, sup] from two exact optimisations is
given instead, and marked as a hull: a gap inside it is then not excluded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from verifier import limits
from verifier.designing.lp_freedom import lp_ranges
from verifier.designing.problem import Cell, DesignProblem
from verifier.designing.solve import Solution
from verifier.engines.margins import Interval, bound, projection

Progress = Callable[[str], None]  # told what is being done, e.g. "the freedom of open cell 3 of 44"


@dataclass
class CellRange:
    """The values one open cell can still take with the demands kept: exact intervals, or only their hull."""
    cell: Cell
    intervals: list[Interval]
    exact: bool  # False: the hull only

    @property
    def forced(self) -> bool:
        """Whether the cell can take one value only."""
        return len(self.intervals) == 1 and self.intervals[0].low is not None and \
            self.intervals[0].low == self.intervals[0].high

    def text(self) -> str:
        """The range as the report writes it (a union of intervals, a hull, or why it is unknown)."""
        if not self.exact and not self.intervals:
            return "unknown (z3 gave no answer within the time limit; raise --timeout)"
        shown = " ∪ ".join(i.text() for i in self.intervals) or "no value"
        return shown if self.exact else f"within {shown} (hull; gaps not excluded)"


def freedom(problem: DesignProblem, conditions: list[z3.BoolRef], timeout_ms: int,
            progress: Progress | None = None, solution: Solution | None = None) -> list[CellRange]:
    """The range of every open cell under the conditions, the other cells and the margin free: exact by linear
    programs around the designed `solution` where the demands' form allows (`lp_freedom`), else by projection, else
    the hull. `progress` is told before each cell that needs a projection (most of a design's time)."""
    body = conditions + [problem.margin > 0] + list(problem.t.side)
    variables = [problem.margin] + list(problem.t.variables.values())
    if progress is not None:
        progress("the freedom of the open cells")
    decided = {} if solution is None else lp_ranges(problem, conditions, solution.values, solution.margin, timeout_ms)
    out = []
    for done, cell in enumerate(problem.open_cells):
        if cell.key in decided:
            out.append(CellRange(cell, decided[cell.key], True))
            continue
        if progress is not None:
            progress(f"the freedom of open cell {done + 1} of {len(problem.open_cells)}")
        x = problem.var(cell)
        others = [v for v in variables if not v.eq(x)]
        intervals = projection(body, x, others, timeout_ms)
        if intervals is not None:
            out.append(CellRange(cell, intervals, True))
        else:
            hull = _hull(problem, body, x, timeout_ms)
            out.append(CellRange(cell, [hull] if hull else [], False))
    return out


def _hull(problem: DesignProblem, body, x, timeout_ms: int) -> Interval | None:
    ends = []
    for minimize in (True, False):
        opt = z3.Optimize(ctx=problem.ctx)
        opt.set("timeout", limits.question_ms(timeout_ms))
        opt.add(*body)
        handle = opt.minimize(x) if minimize else opt.maximize(x)
        if opt.check() != z3.sat:
            return None  # no answer in time: no range is claimed
        ends.append(bound(opt.lower(handle) if minimize else opt.upper(handle)))
    low, high = ends
    return Interval(low.value, high.value, low.attained and low.value is not None,
                    high.attained and high.value is not None)
