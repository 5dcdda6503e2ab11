"""Real algebraic numbers, exactly: the real roots of a rational polynomial, each a `Root` (its irreducible
polynomial and a rational interval holding it alone) or a `Fraction`; their order; the sign of a rational
polynomial at one; and arithmetic in the field Q(α) a root generates (`Field`: polynomials in α modulo its
irreducible polynomial), with the gcd of polynomials over it.

Roots come from python-flint's certified isolation (`fmpz_poly.complex_roots`: balls holding one root each; a
real root has an exactly zero imaginary part) and are then handled in rationals only: an interval is narrowed
by bisection (the irreducible polynomial changes sign across it, its roots being simple and irrational), and a
sign is read from a ball evaluation once the ball excludes zero, after an exact test that the value is not zero
(divisibility by the irreducible polynomial). Nothing here is decided in floating point.

Owns: `Root`, `real_roots`, `sign_at`, `evaluate_ball`, `order`, `simplest_between`, `Field`. May import: nothing
of verifier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import flint

MAX_BITS = 4_096  # a nonzero value's sign is always found before this width; beyond, something is wrong


@dataclass(eq=False)
class Root:
    """One irrational real root of an irreducible integer polynomial, alone in [lo, hi] (rational ends, never
    roots themselves). `index` is its rank among the polynomial's real roots (sympy's CRootOf index)."""
    poly: flint.fmpz_poly
    lo: Fraction
    hi: Fraction
    index: int
    key: tuple = field(default=())
    _ball: flint.arb | None = field(default=None, repr=False)

    def narrow(self) -> None:
        """Halve the interval, keeping the root inside (the polynomial changes sign across it)."""
        mid = (self.lo + self.hi) / 2
        at = _sign(self.poly, mid)
        if at == 0:  # impossible for an irreducible polynomial of degree >= 2; kept exact regardless
            raise ArithmeticError(f"{self.poly} has the rational root {mid}")
        if at == _sign(self.poly, self.lo):
            self.lo = mid
        else:
            self.hi = mid
        self._ball = None

    def ball(self) -> flint.arb:
        """The interval as an arb ball (kept until the interval narrows)."""
        if self._ball is None:
            mid, rad = (self.lo + self.hi) / 2, (self.hi - self.lo) / 2
            self._ball = flint.arb(_fmpq(mid)) + flint.arb(0, _fmpq_upper(rad))
        return self._ball

    def approximate(self, bits: int = 60) -> Fraction:
        """A rational within 2^-bits of the root."""
        while self.hi - self.lo > Fraction(1, 2**bits):
            self.narrow()
        return (self.lo + self.hi) / 2


Real = Fraction | Root


def real_roots(poly) -> list[Real]:
    """Every distinct real root of a nonzero rational polynomial (fmpq_poly or fmpz_poly), ascending."""
    numerator = poly.numer() if isinstance(poly, flint.fmpq_poly) else poly
    if numerator.degree() < 1:
        return []
    if numerator.degree() == 1:
        return [Fraction(-int(numerator[0]), int(numerator[1]))]
    if numerator.degree() == 2:
        return _quadratic_roots(numerator)
    out: list[Real] = []
    for factor, _ in numerator.factor()[1]:
        if factor.degree() == 1:
            out.append(Fraction(-int(factor[0]), int(factor[1])))
            continue
        factor = factor if int(factor[factor.degree()]) > 0 else -factor
        reals = sorted((r for r, _ in factor.complex_roots() if r.imag == 0), key=lambda r: r.real.mid())
        key = tuple(int(c) for c in factor.coeffs())
        for index, r in enumerate(reals):
            mid, rad = _exact(r.real.mid()), _exact(r.real.rad())
            root = Root(factor, mid - rad, mid + rad, index, key=(key, index))
            while _sign(factor, root.lo) * _sign(factor, root.hi) >= 0:
                root.lo, root.hi = root.lo - rad, root.hi + rad  # a ball's rounded ends: widen, still alone
                rad *= 2
            out.append(root)
    return order(out)


def _quadratic_roots(poly: flint.fmpz_poly) -> list[Real]:
    """The real roots of an integer quadratic by the formula: rationals when the discriminant is a square, else
    the two roots of the (irreducible) primitive polynomial in intervals from an integer square root."""
    content = math.gcd(*(int(c) for c in poly.coeffs()))
    c, b, a = (int(x) // content for x in poly.coeffs())
    if a < 0:
        a, b, c = -a, -b, -c
    d = b * b - 4 * a * c
    if d < 0:
        return []
    r = math.isqrt(d)
    if r * r == d:
        return sorted({Fraction(-b - r, 2 * a), Fraction(-b + r, 2 * a)})
    scale = 2**64
    low = Fraction(math.isqrt(d * scale * scale), scale)  # low < √d < low + 1/scale
    high = low + Fraction(1, scale)
    key = (c, b, a)
    irreducible = flint.fmpz_poly([c, b, a])
    return [Root(irreducible, (-b - high) / (2 * a), (-b - low) / (2 * a), 0, key=(key, 0)),
            Root(irreducible, (-b + low) / (2 * a), (-b + high) / (2 * a), 1, key=(key, 1))]


def order(values: list[Real]) -> list[Real]:
    """Distinct real algebraic numbers in ascending order (intervals narrowed until they are apart)."""
    while True:
        ranked = sorted(values, key=_low)
        overlapping = [(x, y) for x, y in zip(ranked, ranked[1:]) if _high(x) >= _low(y)]
        if not overlapping:
            return ranked
        for x, y in overlapping:
            if isinstance(x, Fraction) and isinstance(y, Fraction):
                raise ArithmeticError("equal values given as distinct")
            for v in (x, y):
                if isinstance(v, Root):
                    v.narrow()


def _low(x: Real) -> Fraction:
    return x if isinstance(x, Fraction) else x.lo


def _high(x: Real) -> Fraction:
    return x if isinstance(x, Fraction) else x.hi


def simplest_between(x: Real | None, y: Real | None) -> Fraction:
    """A rational strictly between x and y (None: unbounded on that side): the integer nearest 0 when one lies
    between, else the one with the smallest denominator."""
    lo = None if x is None else (x if isinstance(x, Fraction) else x.hi)
    hi = None if y is None else (y if isinstance(y, Fraction) else y.lo)
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if lo is None or lo < 0:
        return -_simplest(-hi, None if lo is None else -lo)
    return _simplest(lo, hi)


def sign_at(poly: flint.fmpq_poly, x: Real) -> int:
    """The exact sign of a rational polynomial at a real algebraic number."""
    if isinstance(x, Fraction):
        value = poly(_fmpq(x))
        return (value > 0) - (value < 0)
    if poly.is_zero():
        return 0
    first = evaluate_ball(poly, x.ball())
    if not first.contains(0):
        return 1 if first > 0 else -1
    if (poly % flint.fmpq_poly(x.poly)).is_zero():
        return 0
    return _ball_sign(lambda: evaluate_ball(poly, x.ball()), x)


def _ball_sign(evaluate, root: Root) -> int:
    """The sign of a value known to be nonzero, from ball evaluations as the root's interval narrows."""
    while True:
        value = evaluate()
        if value > 0:
            return 1
        if value < 0:
            return -1
        if root.hi - root.lo < Fraction(1, 2**MAX_BITS):
            raise ArithmeticError("a nonzero value's sign was not found")
        for _ in range(8):
            root.narrow()
        flint.ctx.prec = max(flint.ctx.prec, 2 * (root.hi - root.lo).denominator.bit_length() + 64)


class Field:
    """Q(α) for a real root α of an irreducible polynomial m: elements are rational polynomials reduced mod m."""

    def __init__(self, root: Real):
        self.root = root
        self.modulus = flint.fmpq_poly([-_fmpq(root), 1]) if isinstance(root, Fraction) \
            else flint.fmpq_poly(root.poly)

    def reduce(self, x: flint.fmpq_poly) -> flint.fmpq_poly:
        """x mod the irreducible polynomial."""
        return x % self.modulus

    def inverse(self, x: flint.fmpq_poly) -> flint.fmpq_poly:
        """1/x in the field (x nonzero), by the extended gcd with the irreducible polynomial."""
        g, s, _ = x.xgcd(self.modulus)
        return self.reduce(s / g[0])

    def sign(self, x: flint.fmpq_poly) -> int:
        """The exact sign of the element x(α)."""
        return sign_at(self.reduce(x), self.root)

    def gcd(self, f: list, g: list) -> list:
        """The monic gcd of two polynomials over the field, each a list of coefficients (lowest first)."""
        f, g = self._trim(f), self._trim(g)
        while g:
            f, g = g, self._remainder(f, g)
        if not f:
            return []
        lead = self.inverse(f[-1])
        return [self.reduce(c * lead) for c in f]

    def squarefree(self, f: list) -> list:
        """The monic product of the distinct irreducible factors of f over the field (f / gcd(f, f'))."""
        f = self._trim(f)
        if len(f) < 3:
            return self.gcd(f, f)
        derivative = [self.reduce(c * k) for k, c in enumerate(f)][1:]
        repeated = self.gcd(f, derivative)
        if len(repeated) < 2:
            return self.gcd(f, f)
        quotient, rest = [], list(f)
        lead = self.inverse(repeated[-1])
        while len(rest) >= len(repeated):
            factor = self.reduce(rest[-1] * lead)
            shift = len(rest) - len(repeated)
            quotient.append((shift, factor))
            for i, c in enumerate(repeated):
                rest[shift + i] = self.reduce(rest[shift + i] - factor * c)
            rest = self._trim(rest)
        out = [flint.fmpq_poly([0])] * (quotient[0][0] + 1)
        for shift, factor in quotient:
            out[shift] = factor
        return self.gcd(out, out)

    def _trim(self, f: list) -> list:
        f = [self.reduce(c) for c in f]
        while f and f[-1].is_zero():
            f.pop()
        return f

    def _remainder(self, f: list, g: list) -> list:
        lead = self.inverse(g[-1])
        f = list(f)
        while len(f) >= len(g):
            factor = self.reduce(f[-1] * lead)
            shift = len(f) - len(g)
            for i, c in enumerate(g):
                f[shift + i] = self.reduce(f[shift + i] - factor * c)
            f = self._trim(f)
        return f


def evaluate_ball(poly: flint.fmpq_poly, x: flint.arb) -> flint.arb:
    """An enclosure of poly(x) for a ball x (Horner in arb)."""
    out = flint.arb(0)
    for c in reversed(poly.coeffs()):
        out = out * x + flint.arb(c)
    return out


def _sign(poly: flint.fmpz_poly, x: Fraction) -> int:
    value = flint.fmpq_poly(poly)(_fmpq(x))
    return (value > 0) - (value < 0)


def _exact(x: flint.arb) -> Fraction:
    mantissa, exponent = (int(v) for v in x.man_exp())
    return Fraction(mantissa << exponent) if exponent >= 0 else Fraction(mantissa, 1 << -exponent)


def _fmpq(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _fmpq_upper(x: Fraction) -> flint.arb:
    return flint.arb(_fmpq(x)).upper()


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _simplest(lo: Fraction, hi: Fraction | None) -> Fraction:
    """The rational with the smallest denominator strictly inside (lo, hi), lo >= 0 (hi None: unbounded), the
    smallest such, by continued fractions."""
    above = Fraction(_floor(lo) + 1)
    if hi is None or above < hi:
        return above
    whole = _floor(lo)
    return whole + 1 / _simplest(1 / (hi - whole), 1 / (lo - whole) if lo > whole else None)
