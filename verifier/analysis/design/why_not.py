"""When no matrix meets the firm demands: the least change to the fixed cells that would make one exist.

The conflict itself comes from the solver (`Solver.conflict`, irreducible: drop any part and a matrix exists).
The repair minimises the total absolute change (L1) of the cells the spec fixes, over matrices that meet every
firm demand: exactly, as an infimum with the margin free (it may not be attained, when a strict relation is
what forced the change), and attained at the design margin, with the changed cells listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import z3

from verifier.analysis.design.objective import Objective
from verifier.analysis.design.problem import DesignProblem
from verifier.analysis.design.request import Request
from verifier.analysis.design.solve import Solver
from verifier.engines.margins import Bound


@dataclass
class Repair:
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
