"""Design over two parameters: where in their plane a scheme fits a setting, fits with warnings, or does not fit,
exactly.

The check pipeline already decides each property for every admissible value of all the parameters, with the
exact region where a failing property holds (`analysis.regions`: a condition in the parameters, from z3's
quantifier elimination). A setting's column of the paper's Table VIII combines those regions: the scheme fits
where every necessary property holds (and every `--with` / `--without` demand is met), and fits without warnings
where every desirable property holds and every undesirable one fails too. The boundary is stated as conditions,
one per property whose verdict changes inside the plane. The map is drawn from exact evaluations of those
conditions at the rational points of a grid over the admissible window: rationals in, rationals out, so each
point is decided exactly; a point where some region is not known is undecided.

Owns: `map_plane`, `PlaneMap`, `GRID`. May import: analysis, scheme, spec, formula, properties, `designing.request`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from verifier.analysis.parameter_range import admissible_range
from verifier.analysis.pipeline import analyse
from verifier.analysis.regions import readable_condition
from verifier.designing.request import Request
from verifier.errors import SpecError
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Level
from verifier.properties.settings import TABLE_VIII
from verifier.spec.model import Spec
from verifier.verdict import Verdict

GRID = 48  # points per side of the drawn map (each decided exactly)
STATUSES = ("fits", "fits with warnings", "does not fit", "undecided", "inadmissible")


@dataclass
class PlaneMap:
    """Where a two-parameter scheme fits a setting: `fits` and `clean` as exact conditions (sympy; None where
    a region is unknown), the property conditions behind them, the window and the grid of exact statuses."""

    setting: str
    parameters: tuple[str, str]
    window: tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]
    holds_where: dict[str, sp.Basic | None]  # property -> where it holds (true, false, a condition, None)
    texts: dict[str, str]  # property -> its condition as the check report writes it
    firm: list[tuple[str, bool]]  # (property, must hold) for "fits"
    wishes: list[tuple[str, bool]]  # (property, must hold) for "fits without warnings"
    grid: list[list[str]] = field(default_factory=list)  # grid[j][i]: y index j, x index i
    fits_text: str = ""  # where it fits, simplified under the assumptions ("" when a region is unknown)
    fits_somewhere: bool | None = None  # the simplified condition is not false (None: a region is unknown)
    clean_text: str = ""  # where it fits without warnings

    def kind(self, pid: str) -> str:
        """Where `pid` holds: "everywhere", "nowhere", "region" (a condition) or "unknown"."""
        c = self.holds_where.get(pid)
        return "unknown" if c is None else "everywhere" if c is sp.true else "nowhere" if c is sp.false else "region"

    @property
    def boundaries(self) -> list[str]:
        """The properties whose verdict changes inside the plane (their region is a proper condition)."""
        return [pid for pid in self.holds_where if self.kind(pid) == "region"]

    def counts(self) -> dict[str, int]:
        """How many grid points have each status, in the order of STATUSES (absent statuses left out)."""
        flat = [s for row in self.grid for s in row]
        return {s: flat.count(s) for s in STATUSES if s in flat}


def map_plane(spec: Spec, request: Request, timeout_ms: int, time_limit_s: float | None = None) -> PlaneMap:
    """Decide where a two-parameter scheme fits the request's setting: each property's region, the exact grid of
    statuses, and where it fits with and without warnings."""
    analysis = analyse(spec, timeout_ms, time_limit_s=time_limit_s)
    scheme = analysis.scheme
    x, y = scheme.symbols
    holds_where, texts = {}, {}
    for r in analysis.results:
        pid, verdict = r.property.id, r.verdict.value
        holds_where[pid] = (sp.true if verdict == Verdict.HOLDS
                            else sp.false if verdict == Verdict.FAILS and r.holds_nowhere
                            else r.region_formula if verdict == Verdict.FAILS else None)
        texts[pid] = ("every admissible value" if verdict == Verdict.HOLDS else "no admissible value"
                      if holds_where[pid] is sp.false else r.region or "unknown")
        if holds_where[pid] is not None and holds_where[pid] not in (sp.true, sp.false):  # simplest form
            texts[pid], holds_where[pid] = readable_condition(scheme, holds_where[pid], timeout_ms)
    levels = TABLE_VIII[request.setting]
    firm = [(d.pid, d.holds) for d in request.demands if levels.get(d.pid) == Level.N or d.why.startswith("asked")]
    wishes = [(d.pid, d.holds) for d in request.demands if (d.pid, d.holds) not in firm]
    window = (_window(scheme, x), _window(scheme, y))
    plane = PlaneMap(request.setting, (x.name, y.name), window, holds_where, texts, firm, wishes)
    plane.grid = _grid(plane, scheme, x, y)
    plane.fits_text, fits = _where(plane, scheme, firm, timeout_ms)
    plane.fits_somewhere = None if fits is None else fits is not sp.false
    plane.clean_text, _ = _where(plane, scheme, firm + wishes, timeout_ms)
    return plane


def _where(plane: PlaneMap, scheme, demands, timeout_ms: int) -> tuple[str, sp.Basic | None]:
    """Where every demand is met, as one condition simplified under the assumptions (text, formula); ("", None)
    when some region is not known."""
    parts = []
    for pid, holds in demands:
        condition = plane.holds_where.get(pid)
        if condition is None:
            return "", None
        parts.append(condition if holds else sp.Not(condition))
    return readable_condition(scheme, sp.And(*parts), timeout_ms)


def _window(scheme, symbol) -> tuple[Fraction, Fraction]:
    """The assumptions' bounds on one parameter; an open side is drawn 2 beyond the other (a default view)."""
    try:
        low, high = admissible_range(scheme, symbol)
    except SpecError:
        low = high = None
    lo = Fraction(str(low)) if low is not None and low.is_Rational else None
    hi = Fraction(str(high)) if high is not None and high.is_Rational else None
    if lo is None and hi is None:
        return Fraction(0), Fraction(2)
    return (lo if lo is not None else hi - 2), (hi if hi is not None else lo + 2)


def _grid(plane: PlaneMap, scheme, x, y) -> list[list[str]]:
    (x0, x1), (y0, y1) = plane.window
    assumed = [c for c, _ in scheme.assumptions]
    out = []
    for j in range(GRID):
        row = []
        for i in range(GRID):
            point = {x: sp.Rational(*_frac(x0 + (x1 - x0) * Fraction(2 * i + 1, 2 * GRID))),
                     y: sp.Rational(*_frac(y0 + (y1 - y0) * Fraction(2 * j + 1, 2 * GRID)))}
            row.append(_status(plane, assumed, point))
        out.append(row)
    return out


def _frac(q: Fraction) -> tuple[int, int]:
    return q.numerator, q.denominator


def _status(plane: PlaneMap, assumed, point) -> str:
    """The exact status at a rational point: sympy evaluates every condition on rationals to true or false."""
    admissible = [_truth(c, point) for c in assumed]
    if False in admissible:
        return "inadmissible"
    if None in admissible:
        return "undecided"
    held = {pid: _truth(c, point) for pid, c in plane.holds_where.items()}

    def met(demands):
        truths = [None if held.get(pid) is None else held[pid] == holds for pid, holds in demands]
        return False if False in truths else None if None in truths else True

    fits = met(plane.firm)
    if fits is False:
        return "does not fit"
    clean = met(plane.wishes)
    if fits is None or clean is None:
        return "undecided"
    return "fits" if clean else "fits with warnings"


def _truth(condition, point) -> bool | None:
    """A condition at a rational point, decided by certified signs (`formula.certified`), never by a float;
    None when a comparison is not settled."""
    if condition is None:
        return None
    if condition in (sp.true, True) or condition in (sp.false, False):
        return bool(condition)
    if isinstance(condition, (sp.And, sp.Or)):
        parts = [_truth(c, point) for c in condition.args]
        if isinstance(condition, sp.And):
            return False if False in parts else None if None in parts else True
        return True if True in parts else None if None in parts else False
    if isinstance(condition, sp.Not):
        inner = _truth(condition.args[0], point)
        return None if inner is None else not inner
    if not isinstance(condition, sp.core.relational.Relational):
        return None
    if not isinstance(condition.lhs, sp.Expr) or not isinstance(condition.rhs, sp.Expr):
        # a relation between conditions (sympy writes "c holds" as Eq(True, c)): equal or unequal truth values
        sides = (_truth(condition.lhs, point), _truth(condition.rhs, point))
        if None in sides or condition.rel_op not in ("==", "!="):
            return None
        return (sides[0] == sides[1]) == (condition.rel_op == "==")
    sign = certified.compare(condition.lhs.subs(point), condition.rhs.subs(point)).value
    if sign is None:
        return None
    return {">=": sign >= 0, ">": sign > 0, "<=": sign <= 0, "<": sign < 0, "==": sign == 0, "!=": sign != 0}[
        condition.rel_op]
