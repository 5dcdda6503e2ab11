"""Complete an extended matrix for a setting: the design, the freedom left, or why it cannot be done.

The designed matrix is written as a spec and verified by the ordinary checker before it is returned; its
verdicts fill `expect:`, and a firm demand or kept wish that the checker does not confirm is a bug, raised.
When no matrix meets the firm demands, `why_not` says which parts conflict and what lifts the conflict.

Route: beyond 130 set cells (5 classes, or a prediction family as large; or with `method="fast"`) the optimum is
found by the fast path (`fast.py`: HiGHS, every block's optimum confirmed exactly); what it cannot confirm, and
every infeasible problem, goes to the exact z3 path (`solve.py`), and `route` says which one answered and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from verifier.analysis.pipeline import Analysis, analyse
from verifier.designing.fast import Unconfirmed, fast_run
from verifier.designing.freedom import CellRange, Progress, freedom
from verifier.designing.objective import Objective, make_objective
from verifier.designing.problem import DesignProblem
from verifier.designing.region import Region, pick_cells, regions
from verifier.designing.request import Demand, Request
from verifier.designing.solve import Conflict, Solution, Solver
from verifier.designing.spec_text import spec_text
from verifier.designing.why_not import Diagnosis, Repair, diagnose, repair
from verifier.limits import MAX_DESIGN_CLASSES
from verifier.spec.model import Spec
from verifier.spec.reader import spec_from_text
from verifier.version import __version__

SMALL_DESIGN_CELLS = (2 ** MAX_DESIGN_CLASSES - MAX_DESIGN_CLASSES - 1) * MAX_DESIGN_CLASSES  # 130 set cells


class DesignCheckFailed(Exception):
    """The checker contradicts the solver on the designed matrix: a bug in verify."""


@dataclass
class Completion:
    """What `complete` returns: the designed spec and its check, or the conflict, its diagnosis and repair; the demands
    kept and dropped, the freedom left per cell and the route taken."""
    spec: Spec
    request: Request
    objective: Objective
    feasible: bool
    conflict: Conflict | None = None  # one minimal conflict (the solver's first)
    diagnosis: Diagnosis | None = None  # every minimal conflict when few, and the smallest correction
    repair: Repair | None = None
    kept: list[Demand] = field(default_factory=list)
    dropped: list[tuple[Demand, Conflict]] = field(default_factory=list)
    solution: Solution | None = None
    ranges: list[CellRange] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)  # the feasible region on pairs of open cells
    text: str = ""  # the designed spec
    check: Analysis | None = None  # the checker's report on it
    problem: DesignProblem | None = None
    route: str = "exact"  # "fast" (HiGHS, confirmed exactly) or "exact" (z3), with why in `route_note`
    route_note: str = ""


def complete(spec: Spec, request: Request, objective: str = "closest", to: str | None = None,
             margin: Fraction | None = None, timeout_ms: int = 20_000, ranges: bool = True,
             region: list[str] = (), method: str = "auto", progress: Progress | None = None) -> Completion:
    """`region`: open cells ('h,b:n') whose feasible region to compute; by default all of them when 2 or 3.
    `method`: "auto" (the fast path beyond SMALL_DESIGN_CELLS set cells), "fast" or "exact". `progress(text)` is
    told each step (the solve, then each open cell's range, the region, the check)."""
    tell = progress or (lambda text: None)
    problem = DesignProblem(spec)
    large = len(problem.cells) > SMALL_DESIGN_CELLS  # 5 classes of every set, or a family as large
    pictured = pick_cells(problem, list(region)) if (ranges and not large) or region else []
    goal = make_objective(problem, objective, to)
    solver = Solver(problem, timeout_ms)
    route, note, phases = "exact", "", None
    if method == "fast" or (method == "auto" and large):
        try:
            phases, route = fast_run(problem, request, goal, margin, timeout_ms), "fast"
            note = ("The optimum was found by HiGHS and confirmed exactly, set by set (exact vertex and dual "
                    "certificate in rationals); the demands that are disjunctions were checked exactly at it.")
        except Unconfirmed as exc:
            note = f"The fast path could not confirm this ({exc}); the exact path (z3) answered."
    if phases is None:
        tell("solving the demands")
        phases = solver.run(request, goal, margin)
    out = Completion(spec, request, goal, phases.feasible, phases.conflict, kept=phases.kept,
                     dropped=phases.dropped, solution=phases.solution, problem=problem, route=route,
                     route_note=note)
    if not phases.feasible:
        out.diagnosis = diagnose(solver, request, phases.conflict)
        out.repair = repair(problem, solver, request, margin)
        return out
    conditions = [] if large and not pictured else \
        [problem.condition(d) for d in phases.kept] + [problem.pinned(c) for c in problem.fixed_cells]
    if ranges and large:
        out.route_note += (f" The freedom left (each cell's range) is not computed beyond {SMALL_DESIGN_CELLS:,} set "
                           f"cells ({MAX_DESIGN_CLASSES:,} classes).")
    elif ranges:
        out.ranges = freedom(problem, conditions, timeout_ms, tell, phases.solution)
    if pictured:
        tell("the feasible region of the pictured cells")
        out.regions = regions(problem, conditions, pictured, phases.solution.values, timeout_ms)
    tell("checking the designed matrix")
    out.text, out.check = _verified(problem, request, phases, goal, spec.path, out.route_note.strip())
    return out


def _verified(problem: DesignProblem, request: Request, phases, goal: Objective, source: str, route: str = ""):
    solution = phases.solution
    how = (f"verify design {__version__} from {source}: {request.setting} setting, objective "
           f"{goal.text}, strict inequalities met with a margin of at least {solution.margin}")
    notes = [f"Every strict inequality the demands ask for holds with a margin of at least {solution.margin}."]
    if goal.rounded:
        notes.append(f"{goal.rounded} irrational target value(s) were rounded to 12 significant digits to steer "
                     "the choice; the costs below are exact.")
    if route:
        notes.append(route)
    draft = spec_text(problem, solution.values, request.setting, how, {}, notes)
    analysis = analyse(spec_from_text(draft, "<designed>"), timeout_ms=20_000)
    verdicts = {r.property.id: r.verdict.value for r in analysis.results}
    for demand in phases.kept:
        wanted = "holds" if demand.holds else "fails"
        if verdicts[demand.pid] != wanted:
            raise DesignCheckFailed(f"the designed matrix was to have {demand.label}, but the checker says "
                                    f"{verdicts[demand.pid]}")
    text = spec_text(problem, solution.values, request.setting, how, verdicts, notes)
    return text, analysis
