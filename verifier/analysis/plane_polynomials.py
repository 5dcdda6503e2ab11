"""The polynomial and real-number helpers of the plane's decomposition (`analysis.plane_cells`): a polynomial
in (a, b) seen as one in either variable, specialised at a rational, up to a constant; comparisons of real
algebraic numbers with each other and with a box's ends; a value in Q(α) as a real algebraic number.

Owns: the helpers below. May import: `analysis.real_algebraic`.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.analysis.real_algebraic import Field, Real, Root, order, real_roots
from verifier.analysis.real_algebraic import evaluate_ball as _evaluate


def normal(p) -> tuple:
    """The polynomial up to a nonzero constant factor."""
    terms = p.to_dict()
    lead = terms[max(terms)]
    return tuple(sorted((m, c / lead) for m, c in terms.items()))


def compose(c: flint.fmpq_poly, x: flint.fmpq_poly, field: Field) -> flint.fmpq_poly:
    """c(x) in the field (Horner, reduced at each step)."""
    out = flint.fmpq_poly([0])
    for coefficient in reversed(c.coeffs()):
        out = field.reduce(out * x + coefficient)
    return out


def rational_point(across: flint.fmpq_poly, along: flint.fmpq_poly, root: Real):
    """The point (across(root), along(root)) when both are rational, else None."""
    if isinstance(root, Fraction) or (across.degree() < 1 and along.degree() < 1):
        return (value_of(across, root), value_of(along, root))
    return None


def point(a: Fraction, b: Real) -> tuple[Fraction, Fraction] | None:
    """(a, b) when b is rational, else None."""
    return (a, b) if isinstance(b, Fraction) else None


def value_of(other: flint.fmpq_poly, root: Real) -> Real:
    """other(root) as a real algebraic number: the one root of its norm whose interval holds its ball."""
    if other.degree() < 1:
        return Fraction(int(other[0].p), int(other[0].q))
    if isinstance(root, Fraction):
        value = other(fmpq(root))
        return Fraction(int(value.p), int(value.q))
    ctx = flint.fmpq_mpoly_ctx.get(("x", "y"), "lex")
    x, y = ctx.gens()
    minimal = sum((int(c) * y**k for k, c in enumerate(root.poly.coeffs())), ctx.from_dict({}))
    shifted = x - sum((c * y**k for k, c in enumerate(other.coeffs())), ctx.from_dict({}))
    candidates = real_roots(in_a(minimal.resultant(shifted, 1)))
    while True:
        ball = _evaluate(other, root.ball())
        near = [c for c in candidates if (ball.contains(fmpq(c)) if isinstance(c, Fraction)
                                          else ball.overlaps(c.ball()))]
        if len(near) == 1 and not isinstance(near[0], Fraction):
            return near[0]
        for r in [root, *[c for c in near if isinstance(c, Root)]]:
            r.narrow()
        flint.ctx.prec = max(flint.ctx.prec, 2 * (root.hi - root.lo).denominator.bit_length() + 64)


def neighbour(stripe: Fraction, value: Root, values: list[Real]) -> bool:
    """Whether no section value lies between the stripe's sample and the value."""
    i = values.index(value)
    left = values[i - 1] if i > 0 else None
    right = values[i + 1] if i + 1 < len(values) else None
    return (less(stripe, value) and (left is None or less(left, stripe))) or \
        (less(value, stripe) and (right is None or less(stripe, right)))


def less(x: Real, y: Real) -> bool:
    """x < y (distinct algebraic numbers ordered by narrowing; rationals compared directly)."""
    if isinstance(x, Fraction) and isinstance(y, Fraction):
        return x < y
    if isinstance(y, Fraction):
        while True:  # an irrational root is never equal to a rational
            if x.hi < y:
                return True
            if x.lo > y:
                return False
            x.narrow()
    if isinstance(x, Fraction):
        return not less(y, x)
    return x is not y and order([x, y])[0] is x


def within(x: Real, lo: Fraction | None, hi: Fraction | None) -> bool:
    """lo <= x <= hi (an irrational x is never equal to a rational end)."""
    if isinstance(x, Fraction):
        return (lo is None or lo <= x) and (hi is None or x <= hi)
    return (lo is None or less(lo, x)) and (hi is None or less(x, hi))


def all_roots(polys: list) -> list[Real]:
    """The distinct real roots of nonzero rational polynomials in one variable, ascending."""
    found: dict[object, Real] = {}
    for poly in polys:
        if poly.is_zero() or poly.degree() < 1:
            continue
        for r in real_roots(poly):
            found.setdefault(r if isinstance(r, Fraction) else r.key, r)
    return order(list(found.values()))


def coefficients(p, variable: int) -> list[flint.fmpq_poly]:
    """p as a polynomial in `variable` (0: a, 1: b) with coefficients polynomials in the other, lowest first."""
    by_power: dict[int, dict[int, flint.fmpq]] = {}
    for exponents, c in p.to_dict().items():
        by_power.setdefault(exponents[variable], {})[exponents[1 - variable]] = c
    top = max(by_power, default=0)
    out = []
    for k in range(top + 1):
        terms = by_power.get(k, {})
        out.append(flint.fmpq_poly([terms.get(i, 0) for i in range(max(terms, default=0) + 1)]))
    return out


def in_a(p) -> flint.fmpq_poly:
    """A polynomial free of b as one in a."""
    return coefficients(p, 1)[0] if not p.is_zero() else flint.fmpq_poly([0])


def in_b(p) -> flint.fmpq_poly:
    """A polynomial free of a as one in b."""
    return coefficients(p, 0)[0] if not p.is_zero() else flint.fmpq_poly([0])


def at(coefficients: list[flint.fmpq_poly], a: Fraction) -> flint.fmpq_poly:
    """The polynomial in b at a rational a (its coefficients in a evaluated)."""
    x = fmpq(a)
    return flint.fmpq_poly([c(x) for c in coefficients])


def fmpq(x: Fraction) -> flint.fmpq:
    """A Fraction as flint's rational."""
    return flint.fmpq(x.numerator, x.denominator)


def size(point) -> tuple:
    """Simplest first: the smallest denominators, then the smallest numerators."""
    if point is None:
        return ()
    return (sum(x.denominator for x in point), sum(abs(x.numerator) for x in point), point)
