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
A pair whose intersection is not linear either way raises `NotDecomposed`.

Owns: `Cell`, `decompose`, `NotDecomposed`. May import: errors, `analysis.real_algebraic`,
`analysis.plane_polynomials`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import flint

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
    compose as _compose,
)
from verifier.analysis.plane_polynomials import (
    fmpq as _fmpq,
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
    rational_point as _rational_point,
)
from verifier.analysis.plane_polynomials import (
    size as _size,
)
from verifier.analysis.plane_polynomials import (
    value_of as _value_of,
)
from verifier.analysis.plane_polynomials import (
    within as _within,
)
from verifier.analysis.real_algebraic import Field, Real, order, real_roots, sign_at, simplest_between
from verifier.analysis.real_algebraic import evaluate_ball as _evaluate
from verifier.errors import DoesNotApply

MAX_WORK = 2_000_000  # polynomial evaluations at points, a bound on the work of one decomposition
SHEARS = (0, 1, -1, 2, -2, 3, -3)  # u = a + k·b: a generic one puts two common zeros on two lines


class NotDecomposed(DoesNotApply):
    """The decomposition cannot be completed exactly (a singular intersection, or more work than MAX_WORK)."""


@dataclass(frozen=True)
class Cell:
    """One sign pattern, with a rational point where it is taken (None: taken only at algebraic points), and
    whether it is certainly taken (`sure`) or offered as a superset."""
    signs: tuple[int, ...]
    point: tuple[Fraction, Fraction] | None
    sure: bool = True


def decompose(polys: list, box: tuple[tuple[Fraction | None, Fraction | None], ...]) -> list[Cell]:
    """The sign patterns of `polys` (flint fmpq_mpoly in (a, b), lex) taken at points of the closed `box`
    ((a_lo, a_hi), (b_lo, b_hi), None unbounded), in a fixed order, rational points first."""
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
    cells = _Decomposition(list(polys) + edges, box).run()
    if not edges:
        return cells
    out: dict[tuple[int, ...], Cell] = {}
    for cell in cells:  # sure, rational points first: the first cell of each pattern is kept
        signs = cell.signs[:len(polys)]
        known_cell = out.get(signs)
        if known_cell is None or (cell.sure and not known_cell.sure):
            out[signs] = Cell(signs, cell.point, cell.sure)
    return list(out.values())


class _Decomposition:
    def __init__(self, polys: list, box):
        self.polys, self.box = polys, box
        self.found: dict[tuple[int, ...], Cell] = {}
        self.work = 0
        self.in_b = [_coefficients(p, 1) for p in polys]  # polynomial in b, coefficients in Q[a]
        self.in_a = [_coefficients(p, 0) for p in polys]
        self.events: list[Real] = []  # a-values where two zero sets meet inside the box

    def run(self) -> list[Cell]:
        a_lo, a_hi = self.box[0]
        self.active = [i for i in range(len(self.polys)) if self._meets_box(i)]
        self._intersections()
        values = [x for x in self._sections() if _within(x, a_lo, a_hi)]
        stripes = [simplest_between(x, y) for x, y in zip([None, *values], [*values, None])]
        stripes = [x for x in stripes if _within(x, a_lo, a_hi)]
        simplest_first = sorted(range(len(stripes)), key=lambda i: (stripes[i].denominator, abs(stripes[i].numerator)))
        before = {i: self._lift(stripes[i], stripe=True) for i in simplest_first}  # simple points found first
        vertical = [i for i in self.active if len(self.in_b[i]) == 1]
        for value in values:
            if isinstance(value, Fraction) and any(_at(self.in_b[i], value).is_zero() for i in vertical):
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
        window = None if None in (b_lo, b_hi) else \
            flint.arb(_fmpq((b_lo + b_hi) / 2)) + flint.arb(0, flint.arb(_fmpq((b_hi - b_lo) / 2)).upper())
        for i in self.active:
            if not lines[i].is_zero():
                if window is not None and not _evaluate(lines[i], window).contains(0):
                    continue  # no root in the box's b-range
                for r in real_roots(lines[i]):
                    if _within(r, b_lo, b_hi):
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

    def _signs(self, lines: list, b: Real) -> tuple[int, ...]:
        self.work += len(lines)
        if self.work > MAX_WORK:
            raise NotDecomposed(f"more than {MAX_WORK:,} evaluations")
        return tuple(0 if line.is_zero() else sign_at(line, b) for line in lines)

    def _add(self, signs: tuple[int, ...], point, sure: bool = True) -> None:
        """Record a pattern; `point` may be a callable making it (made only when the pattern is new here)."""
        known = self.found.get(signs)
        simpler = known is not None and isinstance(point, tuple) and sure and known.sure and \
            (known.point is None or _size(point) < _size(known.point))
        if known is None or simpler or (sure and not known.sure) or \
                (known.point is None and point is not None and sure):
            self.found[signs] = Cell(signs, point() if callable(point) else point,
                                     sure or (known is not None and known.sure))

    def _intersections(self) -> None:
        """Where two zero sets meet inside the box (or one and its derivative in b: isolated and singular
        points), each point exact; their a-values are the events."""
        pairs = []
        for i, j in itertools.combinations(self.active, 2):
            if len(self.in_b[i]) > 1 or len(self.in_b[j]) > 1:
                if len(self.in_a[i]) > 1 or len(self.in_a[j]) > 1:
                    pairs.append((self.polys[i], self.polys[j]))
        for i in self.active:
            if len(self.in_b[i]) > 2:
                pairs.append((self.polys[i], self.polys[i].derivative(1)))
        for p, q in pairs:
            if not any(self._meet(p, q, k) for k in SHEARS):
                raise NotDecomposed(f"the curves {p} = 0 and {q} = 0 meet at several points of one line "
                                    f"a + k·b = const for every shear k tried")

    def _meet(self, p, q, k: int) -> bool:
        """The common zeros of p and q in the box, in the coordinates (u, b) with u = a + k·b: b eliminated, each
        zero is (A(μ), B(μ)) for a real root μ of an irreducible factor of the resultant; False when some line
        u = μ holds more than one of them (their gcd over Q(μ) is not linear)."""
        a, b = p.context().gens()
        if k:
            p, q = p.compose(a - k * b, b), q.compose(a - k * b, b)
        projected = _in_a(p.resultant(q, 1))
        if projected.is_zero():
            return False
        (a_lo, a_hi), (b_lo, b_hi) = self.box
        lo = None if None in (a_lo, b_lo, b_hi) else a_lo + min(k * b_lo, k * b_hi)
        hi = None if None in (a_hi, b_lo, b_hi) else a_hi + max(k * b_lo, k * b_hi)
        for m, _ in projected.numer().factor()[1]:
            roots = [r for r in real_roots(m) if _within(r, lo, hi)]
            if not roots:
                continue
            field = Field(roots[0])
            common = field.squarefree(field.gcd(_coefficients(p, 1), _coefficients(q, 1)))
            if len(common) > 2:
                return False
            if len(common) < 2:
                continue
            along = field.reduce(-common[0])  # b as a polynomial in the root μ
            across = field.reduce(flint.fmpq_poly([0, 1]) - k * along)  # a = μ − k·b
            for root in roots:
                self._at_algebraic(root, across, along)
        return True

    def _at_algebraic(self, root: Real, across: flint.fmpq_poly, along: flint.fmpq_poly) -> None:
        """The pattern at (across(root), along(root)) when it lies in the box; its a-value becomes an event."""
        field = Field(root)
        if isinstance(root, Fraction):
            self._at_rational(_value_of(field.reduce(across), root), _value_of(field.reduce(along), root))
            return
        for x, (lo, hi) in zip((across, along), self.box):
            if (lo is not None and field.sign(x - flint.fmpq_poly([_fmpq(lo)])) < 0) or \
                    (hi is not None and field.sign(x - flint.fmpq_poly([_fmpq(hi)])) > 0):
                return
        across, along = field.reduce(across), field.reduce(along)
        x, y = _evaluate(across, root.ball()), _evaluate(along, root.ball())
        signs = []
        for coefficients in self.in_b:
            ball = flint.arb(0)
            for c in reversed(coefficients):
                ball = ball * y + _evaluate(c, x)
            if not ball.contains(0):
                signs.append(1 if ball > 0 else -1)
                continue
            value, power = flint.fmpq_poly([0]), flint.fmpq_poly([1])
            for c in coefficients:
                value = field.reduce(value + _compose(c, across, field) * power)
                power = field.reduce(power * along)
            signs.append(field.sign(value))
        self.work += len(signs)
        self._add(tuple(signs), _rational_point(field.reduce(across), field.reduce(along), root))
        self.events.append(_value_of(field.reduce(across), root))

    def _at_rational(self, a: Fraction, b: Fraction) -> None:
        if not (_within(a, *self.box[0]) and _within(b, *self.box[1])):
            return
        x, y = _fmpq(a), _fmpq(b)
        values = [p(x, y) for p in self.polys]
        self.work += len(values)
        self._add(tuple((v > 0) - (v < 0) for v in values), (a, b))
        self.events.append(a)

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
