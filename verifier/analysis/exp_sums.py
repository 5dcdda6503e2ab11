"""Zeros of exponential sums G(s) = Σ_b c_b·b^s (positive rational bases b, rational c_b) in closed form.

Lemma: G(s) = b0^s·Σ_b c_b·(b/b0)^s for any base b0, and b0^s > 0, so G has the zeros of the second sum. When
every ratio b/b0 is an integer power of one rational g > 1 (b/b0 = g^k: the ratios generate a multiplicative
group of rank at most one, read from their prime factorisations), then with u = g^s > 0 that sum is u^m·P(u)
for the polynomial P(u) = Σ_b c_b·u^(k_b − m), m = min k_b. As s ↦ g^s is a bijection from the reals onto
u > 0, the real zeros of G are exactly s = log(u0) / log(g) for the positive real roots u0 of P (sympy's exact
real roots: rationals or algebraic numbers). So 3^s = 2 gives s = log 2 / log 3, 3^s = 4^s gives s = 0, and
1 + 2^s = 4·(1/2)^s gives u² + u − 4 = 0 and s = log((√17 − 1)/2) / log 2.

Ratios that are not so related (2^s + 3^s = 3: 2 and 3 generate a group of rank two) get `None`: no closed form
is attempted, and the caller keeps its certified enclosure.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp

MAX_FACTORED = 10**15  # numerators and denominators factored to compare bases (costs are small numbers)


def zeros_of_sum(coefficients: dict[sp.Rational, sp.Rational]) -> list[sp.Expr] | None:
    """Every real zero s of Σ c_b·b^s exactly, or None when the lemma does not apply (or G vanishes everywhere)."""
    terms = {b: c for b, c in coefficients.items() if c != 0}
    if not terms or any(not (b.is_Rational and b > 0 and c.is_Rational) for b, c in terms.items()):
        return None
    first = next(iter(terms))
    powers = _common_base([b / first for b in terms])  # G(s) = first^s · Σ c_b·(b / first)^s: same zeros
    if powers is None:
        return None
    g, k = powers
    if g == 1:  # one base: a nonzero multiple of first^s
        return []
    lowest = min(k.values())
    u = sp.Dummy("u")
    poly = sp.Poly(sp.Add(*[c * u ** (k[b / first] - lowest) for b, c in terms.items()]), u)
    roots = [root for root in set(poly.real_roots()) if root > 0]  # exact: rationals, radicals or CRootOf
    return [sp.log(root) / sp.log(g) for root in roots]


def power_sum_coefficients(A, B) -> dict[sp.Expr, int]:
    """G(s) = Σ_{a∈A} a^s − Σ_{b∈B} b^s as {base: coefficient} (zeros contribute nothing for s > 0)."""
    coefficients: dict[sp.Expr, int] = {}
    for values, sign in ((A, 1), (B, -1)):
        for v in values:
            if v != 0:
                coefficients[v] = coefficients.get(v, 0) + sign
    return coefficients


def zeros_in(exponent, coefficients, theta, lo: Fraction, hi: Fraction) -> list[sp.Expr] | None:
    """The zeros in [lo, hi] of Σ c_b·b^(e(θ)), e affine in θ, exactly; None when the bases admit no closed form.
    The caller knows they are its difference's zeros where e ≠ 0; where e = 0 such a zero is only a candidate (an
    extra breakpoint is decided there, like any other)."""
    found = zeros_of_sum({sp.Rational(b): sp.Rational(c) for b, c in coefficients.items()})
    if found is None:
        return None
    slope, intercept = sp.Poly(exponent, theta).all_coeffs()
    ends = (sp.Rational(lo.numerator, lo.denominator), sp.Rational(hi.numerator, hi.denominator))
    out = []
    for s0 in found:
        t0 = (s0 - intercept) / slope
        if any(certified.compare(t0, end).value is None for end in ends):
            return None
        if certified.compare(ends[0], t0).value <= 0 <= certified.compare(ends[1], t0).value:
            out.append(t0)
    return out


def _common_base(bases: list[sp.Rational]) -> tuple[sp.Rational, dict[sp.Rational, int]] | None:
    """g > 1 and integers k_b with b = g^k_b for every base, or None when no such g exists."""
    vectors = {}
    for b in bases:
        if max(abs(b.p), b.q) > MAX_FACTORED:
            return None
        vector = dict(sp.factorint(b.p))
        for prime, e in sp.factorint(b.q).items():
            vector[prime] = vector.get(prime, 0) - e
        vectors[b] = vector
    first = next((v for v in vectors.values() if v), None)
    if first is None:
        return sp.Integer(1), {b: 0 for b in bases}
    step = 0
    for e in first.values():
        step = gcd(step, abs(e))
    direction = {prime: e // step for prime, e in first.items()}  # primitive: every parallel vector is k·it
    g = sp.Mul(*[sp.Integer(prime) ** e for prime, e in direction.items()])
    if g < 1:
        direction, g = {prime: -e for prime, e in direction.items()}, 1 / g
    pivot, unit = next(iter(direction.items()))
    k = {}
    for b, vector in vectors.items():
        multiple, rest = divmod(vector.get(pivot, 0), unit)
        if rest or set(vector) - set(direction) or any(vector.get(p, 0) != multiple * e for p, e in direction.items()):
            return None
        k[b] = multiple
    return g, k
