"""Where the zero sets of a decomposition's polynomials meet inside the box (`analysis.plane_cells`): every
common zero of two of them, and of one with its derivative in b (isolated and singular points), exactly, with
the sign pattern there and its a-value as an event; and the cache decompositions in one box share.

A pair's common zeros are found in sheared coordinates u = a + k·b: b eliminated by the resultant, each zero is
(A(μ), B(μ)) for a real root μ of one of its irreducible factors, from the gcd of the two over Q(μ), which must
be linear (else the next shear is tried). Signs there are read off balls, and where a ball holds zero, exactly
in Q(μ).

Owns: `Shared`, `Meets`, `NotDecomposed`. May import: errors, `analysis.real_algebraic`, `analysis.plane_polynomials`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import flint

from verifier.analysis.plane_polynomials import coefficients as _coefficients
from verifier.analysis.plane_polynomials import compose as _compose
from verifier.analysis.plane_polynomials import fmpq as _fmpq
from verifier.analysis.plane_polynomials import in_a as _in_a
from verifier.analysis.plane_polynomials import normal as _normal
from verifier.analysis.plane_polynomials import rational_point as _rational_point
from verifier.analysis.plane_polynomials import value_of as _value_of
from verifier.analysis.plane_polynomials import within as _within
from verifier.analysis.real_algebraic import Field, Real, real_roots
from verifier.analysis.real_algebraic import evaluate_ball as _evaluate
from verifier.errors import DoesNotApply

SHEARS = (0, 1, -1, 2, -2, 3, -3)  # u = a + k·b: a generic one puts two common zeros on two lines


class NotDecomposed(DoesNotApply):
    """The decomposition cannot be completed exactly (a singular intersection, or more work than MAX_WORK)."""


class Shared:
    """What decompositions in one box may share, computed once: each polynomial's real roots in the box on a line
    a = rational, and each pair's common zeros in the box (both independent of the other polynomials and of a
    constant factor). A pure cache: a decomposition with it finds exactly what it finds without."""

    def __init__(self, box):
        self.box = box
        self.roots: dict[tuple, list[Real]] = {}  # (polynomial's number, a's numerator and denominator) -> roots
        self.meets: dict[tuple, list | bool] = {}  # (numbers of the two, or of one and "d") -> common zeros
        self.numbers: dict[tuple, int] = {}  # a polynomial up to a constant -> its number here (cheap to hash)
        b_lo, b_hi = box[1]
        self.window = None if None in (b_lo, b_hi) else \
            flint.arb(_fmpq((b_lo + b_hi) / 2)) + flint.arb(0, flint.arb(_fmpq((b_hi - b_lo) / 2)).upper())

    def number(self, p) -> int:
        """The polynomial's number here (the same for a constant multiple)."""
        return self.numbers.setdefault(_normal(p), len(self.numbers))


@dataclass(frozen=True)
class _AlgebraicPoint:
    """A common zero (across(root), along(root)) inside the box, with balls of both coordinates, its a-value as a
    real algebraic number and the point itself when rational."""
    root: Real
    field: Field
    across: flint.fmpq_poly
    along: flint.fmpq_poly
    x: flint.arb
    y: flint.arb
    a: Real
    rational: tuple[Fraction, Fraction] | None


class Meets:
    """The intersection part of a decomposition: needs `polys`, `box`, `active`, `in_a`, `in_b`, `keys`, `terms`,
    `degrees`, `shared`, `work`, `events`, `zeros_at` and `_add`."""

    def _intersections(self) -> None:
        """Where two zero sets meet inside the box (or one and its derivative in b: isolated and singular
        points), each point exact; their a-values are the events."""
        pairs = []
        for i, j in itertools.combinations(self.active, 2):
            if len(self.in_b[i]) > 1 or len(self.in_b[j]) > 1:
                if len(self.in_a[i]) > 1 or len(self.in_a[j]) > 1:
                    pairs.append((self.polys[i], self.polys[j], tuple(sorted((self.keys[i], self.keys[j])))))
        for i in self.active:
            if len(self.in_b[i]) > 2:
                pairs.append((self.polys[i], self.polys[i].derivative(1), (self.keys[i], "d")))
        for p, q, key in pairs:
            met = self.shared.meets.get(key)
            if met is None:
                met = self.shared.meets[key] = self._common_zeros(p, q)
            if met is False:
                raise NotDecomposed(f"the curves {p} = 0 and {q} = 0 meet at several points of one line "
                                    f"a + k·b = const for every shear k tried")
            for point in met:
                if isinstance(point, tuple):
                    self._at_rational(*point)
                else:
                    self._at_algebraic(point)

    def _common_zeros(self, p, q) -> list | bool:
        """The common zeros of p and q in the box (`_meet`, at the first shear whose lines hold at most one each),
        each a rational (a, b) or an `_AlgebraicPoint`; False if no shear serves."""
        for k in SHEARS:
            found = self._meet(p, q, k)
            if found is not None:
                return [x for x in (self._located(*zero) for zero in found) if x is not None]
        return False

    def _meet(self, p, q, k: int) -> list | None:
        """The common zeros of p and q in the box, in the coordinates (u, b) with u = a + k·b: b eliminated, each
        zero is (A(μ), B(μ)) for a real root μ of an irreducible factor of the resultant, given as (μ, A, B);
        None when some line u = μ holds more than one of them (their gcd over Q(μ) is not linear)."""
        a, b = p.context().gens()
        if k:
            p, q = p.compose(a - k * b, b), q.compose(a - k * b, b)
        projected = _in_a(p.resultant(q, 1))
        if projected.is_zero():
            return None
        found = []
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
                return None
            if len(common) < 2:
                continue
            along = field.reduce(-common[0])  # b as a polynomial in the root μ
            across = field.reduce(flint.fmpq_poly([0, 1]) - k * along)  # a = μ − k·b
            found.extend((root, across, along) for root in roots)
        return found

    def _located(self, root: Real, across: flint.fmpq_poly, along: flint.fmpq_poly):
        """The zero (across(root), along(root)): a rational (a, b), an `_AlgebraicPoint`, or None outside the box."""
        field = Field(root)
        if isinstance(root, Fraction):
            return (_value_of(field.reduce(across), root), _value_of(field.reduce(along), root))
        for x, (lo, hi) in zip((across, along), self.box):
            if (lo is not None and field.sign(x - flint.fmpq_poly([_fmpq(lo)])) < 0) or \
                    (hi is not None and field.sign(x - flint.fmpq_poly([_fmpq(hi)])) > 0):
                return None
        across, along = field.reduce(across), field.reduce(along)
        return _AlgebraicPoint(root, field, across, along, _evaluate(across, root.ball()),
                               _evaluate(along, root.ball()), _value_of(across, root),
                               _rational_point(across, along, root))

    def _at_algebraic(self, point: _AlgebraicPoint) -> None:
        """The pattern at an algebraic zero in the box; its a-value becomes an event."""
        field, across, along = point.field, point.across, point.along
        signs = []
        xs, ys = _powers(point.x, self.degrees[0]), _powers(point.y, self.degrees[1])
        for coefficients, terms in zip(self.in_b, self.terms):
            ball = flint.arb(0)
            for c, i, j in terms:
                ball += c * xs[i] * ys[j]
            if not ball.contains(0):
                signs.append(1 if ball > 0 else -1)
                continue
            value, power = flint.fmpq_poly([0]), flint.fmpq_poly([1])
            for c in coefficients:
                value = field.reduce(value + _compose(c, across, field) * power)
                power = field.reduce(power * along)
            signs.append(field.sign(value))
        self.work += len(signs)
        self._add(tuple(signs), point.rational)
        self._event(point.a, signs)

    def _at_rational(self, a: Fraction, b: Fraction) -> None:
        if not (_within(a, *self.box[0]) and _within(b, *self.box[1])):
            return
        x, y = _fmpq(a), _fmpq(b)
        values = [p(x, y) for p in self.polys]
        self.work += len(values)
        signs = tuple((v > 0) - (v < 0) for v in values)
        self._add(signs, (a, b))
        self._event(a, signs)

    def _event(self, a: Real, signs) -> None:
        """An a-value where zero sets meet in the box, and which polynomials vanish there (they move)."""
        self.events.append(a)
        self.zeros_at.setdefault(key_of(a), set()).update(i for i, s in enumerate(signs) if s == 0)


def key_of(x: Real) -> object:
    """A real algebraic number as a dictionary key (equal numbers, equal keys)."""
    return x if isinstance(x, Fraction) else x.key


def _powers(x: flint.arb, n: int) -> list[flint.arb]:
    """1, x, ..., x^(n-1)."""
    out = [flint.arb(1)]
    for _ in range(n - 1):
        out.append(out[-1] * x)
    return out
