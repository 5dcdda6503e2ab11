"""Every sign pattern a list of polynomials in two parameters (a, b) takes in a rectangle of the plane, each with
a point where it is taken: an exact cylindrical decomposition, bounded by the polynomials' degrees.

The projection onto a is the polynomials' leading coefficients, discriminants and pairwise resultants in b (and
those free of b themselves): over an open interval between two of their real roots (a sector), every
polynomial's roots in b are simple, distinct from the others' and move continuously, so one rational a per
sector shows every pattern of that stripe. Lifting at a rational a is exact in Q[b]: the distinct real roots
of the specialised polynomials (`analysis.real_algebraic`), a rational between each two, the roots themselves,
each polynomial's sign at each (zero by divisibility, else a certified ball). Rational section values are
lifted the same way. At an irrational section value α the only patterns no stripe shows are at points where
two of the polynomials vanish, or a curve has an isolated point (the polynomial and its derivative in b): each
is computed exactly as (α, B(α)) with B in Q(α) (the gcd of the two polynomials over Q(α) is linear in b; else
the other variable is eliminated), and every polynomial is evaluated there in Q(α). On a line a = α from a
polynomial free of b, the patterns of the stripes beside it with that polynomial's sign set to 0 are offered
as `sure=False` (a superset: whatever is stated from them is exact, but such a pattern alone proves nothing).
A pair whose intersection is not linear either way raises `NotDecomposed` (the intersections:
`analysis.plane_meets`).

With the box bounded in b, the stripes are swept left to right (`analysis.plane_sweep`): a stripe's roots are
the previous stripe's, with only the polynomials that vanish on the section value between them isolated again.
Decompositions in one box (one per set of a scheme) share each polynomial's roots on a line and each pair's
common zeros (`Shared`). Neither changes what is found; both change how much is computed.

Owns: `Cell`, `decompose`. May import: `analysis.real_algebraic`, `analysis.plane_polynomials`,
`analysis.plane_meets`, `analysis.plane_sweep`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint

from verifier.analysis.plane_meets import Meets, NotDecomposed, Shared, key_of
from verifier.analysis.plane_polynomials import (
    all_roots as _all_roots,
)
from verifier.analysis.plane_polynomials import (
    at as _at,
)
from verifier.analysis.plane_polynomials import (
    coefficients as _coefficients,
)
from verifier.analysis.plane_polynomials import (
    in_a as _in_a,
)
from verifier.analysis.plane_polynomials import (
    less as _less,
)
from verifier.analysis.plane_polynomials import (
    neighbour as _neighbour,
)
from verifier.analysis.plane_polynomials import (
    normal as _normal,
)
from verifier.analysis.plane_polynomials import (
    point as _point,
)
from verifier.analysis.plane_polynomials import (
    size as _size,
)
from verifier.analysis.plane_polynomials import (
    within as _within,
)
from verifier.analysis.plane_sweep import Redo, sweep, walk
from verifier.analysis.real_algebraic import Real, order, real_roots, sign_at, simplest_between
from verifier.analysis.real_algebraic import evaluate_ball as _evaluate

SWEEP = True  # stripes' roots ordered from the stripe before (`analysis.plane_sweep`); False: each lifted in full
MAX_WORK = 2_000_000  # polynomial evaluations at points, a bound on the work of one decomposition


@dataclass(frozen=True)
class Cell:
    """One sign pattern, with a rational point where it is taken (None: taken only at algebraic points), and
    whether it is certainly taken (`sure`) or offered as a superset."""
    signs: tuple[int, ...]
    point: tuple[Fraction, Fraction] | None
    sure: bool = True


def decompose(polys: list, box: tuple[tuple[Fraction | None, Fraction | None], ...],
              shared: Shared | None = None) -> list[Cell]:
    """The sign patterns of `polys` (flint fmpq_mpoly in (a, b), lex) taken at points of the closed `box`
    ((a_lo, a_hi), (b_lo, b_hi), None unbounded), in a fixed order, rational points first. `shared`: the
    cache of earlier decompositions in the same box."""
    ctx = polys[0].context() if polys else flint.fmpq_mpoly_ctx.get(("a", "b"), "lex")
    known = {_normal(p) for p in polys}
    edges = []  # where a curve leaves the box is where the picture inside changes: the edges are polynomials too
    for variable, (lo, hi) in zip(ctx.gens(), box):
        for end in (lo, hi):
            if end is not None:
                edge = variable - flint.fmpq(end.numerator, end.denominator)
                if _normal(edge) not in known:
                    known.add(_normal(edge))
                    edges.append(edge)
    if shared is None or shared.box != box:
        shared = Shared(box)
    cells = _Decomposition(list(polys) + edges, box, shared).run()
    if not edges:
        return cells
    out: dict[tuple[int, ...], Cell] = {}
    for cell in cells:  # sure, rational points first: the first cell of each pattern is kept
        signs = cell.signs[:len(polys)]
        known_cell = out.get(signs)
        if known_cell is None or (cell.sure and not known_cell.sure):
            out[signs] = Cell(signs, cell.point, cell.sure)
    return list(out.values())


class _Decomposition(Meets):
    def __init__(self, polys: list, box, shared: Shared):
        self.polys, self.box, self.shared = polys, box, shared
        self.keys = [shared.number(p) for p in polys]
        self.found: dict[tuple[int, ...], Cell] = {}
        self.work = 0
        self.in_b = [_coefficients(p, 1) for p in polys]  # polynomial in b, coefficients in Q[a]
        self.in_a = [_coefficients(p, 0) for p in polys]
        self.terms = [[(flint.arb(c), i, j) for (i, j), c in p.to_dict().items()] for p in polys]  # for balls
        self.degrees = [max([len(c) for c in self.in_a] + [1]), max([len(c) for c in self.in_b] + [1])]
        self.events: list[Real] = []  # a-values where two zero sets meet inside the box
        self.zeros_at: dict[object, set[int]] = {}  # an event's a-value -> the polynomials vanishing there

    def run(self) -> list[Cell]:
        a_lo, a_hi = self.box[0]
        self.active = [i for i in range(len(self.polys)) if self._meets_box(i)]
        self.active_set = set(self.active)
        self.vertical = [i for i in self.active if len(self.in_b[i]) == 1]
        self._intersections()
        values = [x for x in self._sections() if _within(x, a_lo, a_hi)]
        pieces = [(y, simplest_between(x, y)) for x, y in zip([None, *values], [*values, None])]
        pieces = [(y, s) for y, s in pieces if _within(s, a_lo, a_hi)]  # (the section above, the stripe's a)
        stripes = [s for _, s in pieces]
        simplest_first = sorted(range(len(stripes)), key=lambda i: (stripes[i].denominator, abs(stripes[i].numerator)))
        if SWEEP and None not in self.box[1] and len(stripes) > 1:
            moved = [self.zeros_at.get(key_of(y), set()) for y, _ in pieces[:-1]]
            try:
                lines = sweep(self, stripes, moved)
            except Redo as exc:
                raise NotDecomposed(f"a stripe's roots were not simple ({exc})") from None
            before = {i: walk(lines[i]) for i in simplest_first}  # simple points found first
        else:
            before = {i: self._lift(stripes[i], stripe=True) for i in simplest_first}
        for value in values:
            if isinstance(value, Fraction) and any(_at(self.in_b[i], value).is_zero() for i in self.vertical):
                self._lift(value, stripe=False)
        self._vertical_lines(values, stripes, before)
        return sorted(self.found.values(), key=lambda c: (not c.sure, c.point is None, _size(c.point)))

    def _meets_box(self, i: int) -> bool:
        """Whether the zero set of polynomial i may meet the closed box: it crosses an edge, or (conservatively)
        its discriminant in b has a root in the box's a-range; always when the box is unbounded."""
        (a_lo, a_hi), (b_lo, b_hi) = self.box
        if None in (a_lo, a_hi, b_lo, b_hi):
            return True
        for side, fixed, lo, hi in ((1, a_lo, b_lo, b_hi), (1, a_hi, b_lo, b_hi), (0, b_lo, a_lo, a_hi),
                                    (0, b_hi, a_lo, a_hi)):
            line = _at(self.in_b[i] if side == 1 else self.in_a[i], fixed)
            if line.is_zero() or any(_within(r, lo, hi) for r in real_roots(line)):
                return True
        if len(self.in_b[i]) > 2:
            return any(_within(r, a_lo, a_hi) for r in real_roots(_in_a(self.polys[i].discriminant(1))))
        return False

    def _sections(self) -> list[Real]:
        """The a-values where the picture inside the box can change, ascending: where two zero sets meet in the
        box (`events`), where one has a vertical tangent or a singular point, where one free of b vanishes,
        and (b unbounded) where a leading coefficient in b vanishes."""
        projection = []
        for i in self.active:
            coefficients = self.in_b[i]
            if len(coefficients) == 1:
                projection.append(coefficients[0])
                continue
            if None in self.box[1]:
                projection.append(coefficients[-1])
            if len(coefficients) > 2:
                projection.append(_in_a(self.polys[i].discriminant(1)))
        found = {x if isinstance(x, Fraction) else x.key: x for x in _all_roots(projection)}
        for x in self.events:
            found.setdefault(x if isinstance(x, Fraction) else x.key, x)
        return order(list(found.values()))

    def _lift(self, a: Fraction, stripe: bool) -> list[tuple[int, ...]]:
        """Every pattern on the line at a rational a inside the box; the patterns of its open cells. In a
        stripe, every root is simple and no two polynomials share one, so each root flips one sign."""
        lines = [_at(c, a) for c in self.in_b]
        b_lo, b_hi = self.box[1]
        roots: dict[object, tuple[Real, int]] = {}
        for i in self.active:
            if not lines[i].is_zero():
                for r in self.roots_in_box(i, a, lines[i]):
                    roots.setdefault(r if isinstance(r, Fraction) else r.key, (r, i))
        kept = order([r for r, _ in roots.values()])
        owner = {id(r): i for r, i in roots.values()}
        ends = [b_lo, *kept, b_hi]
        gaps = [(x, y) if x is None or y is None or _less(x, y) else None for x, y in zip(ends, ends[1:])]
        out = []  # gaps[k]: the open interval below kept[k] inside the box; None if empty
        if not stripe or all(g is None for g in gaps):
            for gap in gaps:
                if gap is not None:
                    b = simplest_between(*gap)
                    signs = self._signs(lines, b)
                    self._add(signs, (a, b))
                    out.append(signs)
            for b in kept:
                self._add(self._signs(lines, b), _point(a, b))
            return out
        first = next(k for k, g in enumerate(gaps) if g is not None)
        signs = list(self._signs(lines, simplest_between(*gaps[first])))
        if first > 0:  # the box's lower edge is a root: its pattern is the open cell's above with that one 0
            i = owner[id(kept[first - 1])]
            self._add(tuple(0 if j == i else s for j, s in enumerate(signs)), _point(a, kept[first - 1]))
        for k in range(first, len(kept) + 1):
            if gaps[k] is not None:
                gap = gaps[k]
                self._add(tuple(signs), lambda gap=gap: (a, simplest_between(*gap)))
                out.append(tuple(signs))
            if k == len(kept):
                break
            i = owner[id(kept[k])]
            self._add(tuple(0 if j == i else s for j, s in enumerate(signs)), _point(a, kept[k]))
            signs[i] = -signs[i]
        last = max(k for k, g in enumerate(gaps) if g is not None)
        if last > first and out[-1] != self._signs(lines, simplest_between(*gaps[last])):
            raise NotDecomposed(f"the signs at a = {a} did not follow the roots (a root was not simple)")
        return out

    def roots_in_box(self, i: int, a: Fraction, line) -> list[Real]:
        """Polynomial i's real roots in the box's b-range on the line a (`line`: it specialised there), ascending;
        shared with the other decompositions in the box."""
        key = (self.keys[i], a.numerator, a.denominator)
        inside = self.shared.roots.get(key)
        if inside is None:
            b_lo, b_hi = self.box[1]
            if None not in (b_lo, b_hi) and not _evaluate(line, self.shared.window).contains(0):
                inside = []  # no root in the b-range
            else:
                inside = [r for r in real_roots(line) if _within(r, b_lo, b_hi)]
            self.shared.roots[key] = inside
        return inside

    def _signs(self, lines: list, b: Real) -> tuple[int, ...]:
        self.spend(len(lines))
        return tuple(0 if line.is_zero() else sign_at(line, b) for line in lines)

    def spend(self, evaluations: int) -> None:
        """Count work (polynomial evaluations and patterns walked); beyond MAX_WORK the decomposition stops."""
        self.work += evaluations
        if self.work > MAX_WORK:
            raise NotDecomposed(f"more than {MAX_WORK:,} evaluations")

    def add(self, signs: tuple[int, ...], point, sure: bool = True) -> None:
        """Record a pattern (`_add`), for the sweep."""
        self._add(signs, point, sure)

    def _add(self, signs: tuple[int, ...], point, sure: bool = True) -> None:
        """Record a pattern; `point` may be a callable making it (made only when the pattern is new here)."""
        known = self.found.get(signs)
        simpler = known is not None and isinstance(point, tuple) and sure and known.sure and \
            (known.point is None or _size(point) < _size(known.point))
        if known is None or simpler or (sure and not known.sure) or \
                (known.point is None and point is not None and sure):
            self.found[signs] = Cell(signs, point() if callable(point) else point,
                                     sure or (known is not None and known.sure))

    def _vertical_lines(self, values: list[Real], stripes: list[Fraction], before: dict) -> None:
        """Lines a = α (α irrational) where a polynomial free of b vanishes: the patterns of the stripes on either
        side with its sign 0, as a superset."""
        free = [i for i in self.active if len(self.in_b[i]) == 1]
        for value in values:
            if isinstance(value, Fraction):
                continue
            zero = [i for i in free if sign_at(self.in_b[i][0], value) == 0]
            if not zero:
                continue
            beside = [k for k, s in enumerate(stripes) if _neighbour(s, value, values)]
            for k in beside:
                for signs in before[k]:
                    self._add(tuple(0 if i in zero else s for i, s in enumerate(signs)), None, sure=False)
