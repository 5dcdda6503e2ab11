"""No zero of a sum of power means near an end of θ's range where their common exponent q tends to 0+.

There every mean of a list holding a 0 tends to 0 like (k/n)^(1/q) (k positive values of n), so the difference
is exponentially flat and certified bisection cannot exclude a zero. The lemma: write each term as
c_j·M_q(A_j) = c_j·α_j^(1/q)·H_j(q), with α_j = k_j/n_j and H_j(q) = M_q(A_j⁺), the mean of the positive values
(a constant, or a list without zeros, has α = 1). M_q is non-decreasing in q (the power-mean inequality) and
M_0 is the geometric mean, so for q in (0, ε]: H_j(q) lies in [H_j(0), H_j(ε)], and (α_j/α*)^(1/q) in
(0, (α_j/α*)^(1/ε)] for α_j < α*, the largest α. Divided by α*^(1/q) > 0, d is L(q) + R(q): the leading group
L(q) = Σ_{α_j = α*} c_j H_j(q), bounded by its terms' ends, and |R(q)| <= Σ_{α_j < α*} |c_j| (α_j/α*)^(1/ε)
H_j(ε). When L(0) ≠ 0 (certified) these bounds give d the sign of L(0) on all of (0, ε] once ε is small
enough; ε = 2^-k is tried for growing k, every bound an arb ball (certified, never a float).

Handled: d = k + Σ c_j·GenMean(q, A_j) with c_j and k polynomials in θ with rational coefficients (a moving
witness's comparisons; each enclosed over the stretch, so L(0)'s sign is that at the end), rational values
>= 0, one exponent q affine in θ, q = 0 at the end and q > 0 towards the other end. Anything else: None (the
caller's other routes apply).

Owns: `flat_end`. May import: formula, lazy_sympy.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.formula import certified
from verifier.formula.genmean import genmean_class
from verifier.lazy_sympy import sympy as sp

PREC = 192
MAX_HALVINGS = 48  # ε = 2^-k for k up to this; beyond it the leading group is too close to 0 to tell


def flat_end(d: sp.Expr, theta: sp.Symbol, end: Fraction, other: Fraction) -> Fraction | None:
    """A rational θ1 strictly between `end` and `other` (or `other` itself) such that d has no zero for θ
    strictly past `end` up to θ1 included, when the exponent vanishes at `end` (module docstring); None when
    the lemma does not apply or does not settle it."""
    parsed = _terms(d, theta)
    if parsed is None:
        return None
    exponent, terms = parsed
    slope = sp.diff(exponent, theta)
    if exponent.subs(theta, _rational(end)) != 0 or not slope.is_Rational or slope == 0:
        return None
    reach = slope * (_rational(other) - _rational(end))  # the exponent at `other`
    if not reach.is_positive:
        return None
    top = max(alpha for alpha, _, _ in terms)
    lead = [(c, values) for alpha, c, values in terms if alpha == top]
    rest = [(alpha / top, c, values) for alpha, c, values in terms if alpha != top]
    at_end = sp.Add(*[c.subs(theta, _rational(end)) * _geometric(values) for c, values in lead])
    sign = certified.sign(at_end).value
    if sign in (None, 0):
        return None  # L(0) = 0 or undecided: the leading group does not decide the sign
    for k in range(1, MAX_HALVINGS + 1):
        epsilon = min(sp.Rational(1, 2**k), reach)
        far = _rational(end) + epsilon / slope
        stretch = _hull(_rational(end), far)
        if _settled(sign, epsilon, theta, stretch, lead, rest):
            return Fraction(int(far.p), int(far.q))
    return None


def _settled(sign: int, epsilon, theta, stretch: flint.arb, lead, rest) -> bool:
    """Whether sign·d / α*^(1/q) > 0 for every q in (0, ε], by the bounds of the module docstring, each
    coefficient c_j(θ) enclosed over the stretch of θ where q is in [0, ε]."""
    eps = flint.arb(flint.fmpq(int(epsilon.p), int(epsilon.q)))
    total = flint.arb(0)  # encloses sign·L(q) for every q in (0, ε]
    for c, values in lead:
        total += sign * _coefficient(c, theta, stretch) * _mean_ball(values, None).union(_mean_ball(values, eps))
    bound = flint.arb(0)  # the largest |R| on (0, ε]
    for ratio, c, values in rest:
        bound += abs(_coefficient(c, theta, stretch)).upper() * _ball(ratio) ** (1 / eps) * _mean_ball(values, eps)
    return bool(total.lower() - bound.upper() > 0)


def _coefficient(c: sp.Expr, theta, stretch: flint.arb) -> flint.arb:
    """c(θ) enclosed for every θ in the stretch (a polynomial: interval arithmetic is an enclosure)."""
    if not c.has(theta):
        return _ball(c)
    return sum((_ball(a) * stretch**k for (k,), a in sp.Poly(c, theta).terms()), flint.arb(0))


def _hull(a: sp.Rational, b: sp.Rational) -> flint.arb:
    return _ball(a).union(_ball(b))


def _mean_ball(values, q) -> flint.arb:
    """H(q) = M_q of the positive values as a ball (q = None: the geometric mean, its limit at 0+)."""
    balls = [_ball(v) for v in values if v > 0]
    if q is None:
        return (sum((b.log() for b in balls), flint.arb(0)) / len(balls)).exp()
    return (sum((b ** q for b in balls), flint.arb(0)) / len(balls)) ** (1 / q)


def _geometric(values) -> sp.Expr:
    positive = [v for v in values if v > 0]
    return sp.Mul(*positive) ** sp.Rational(1, len(positive))


def _terms(d: sp.Expr, theta):
    """(q, [(α, c, positive values)]) for d = k + Σ c·GenMean(q, values) with rational values and coefficients
    c, k polynomials in θ with rational coefficients, or None; the constant k is a term with α = 1 and the
    single value 1 (H = 1 for every q)."""
    GenMean = genmean_class()
    exponent, coefficients, constant = None, {}, sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(d)):
        means = [f for f in sp.Mul.make_args(term) if isinstance(f, GenMean)]
        if len(means) > 1:
            return None
        if not means:
            constant += term
            continue
        q, *values = means[0].args
        if not all(v.is_Rational and v >= 0 for v in values) or (exponent is not None and q != exponent):
            return None
        exponent = q
        coefficients[means[0]] = coefficients.get(means[0], 0) + term / means[0]
    if exponent is None or not exponent.is_polynomial(theta) or sp.Poly(exponent, theta).degree() != 1:
        return None
    out = [] if constant == 0 else [(Fraction(1), constant, (sp.Integer(1),))]
    for mean, c in coefficients.items():
        positive = tuple(v for v in mean.args[1:] if v > 0)
        if positive and c != 0:
            out.append((Fraction(len(positive), len(mean.args) - 1), c, positive))
    if not all(c.is_polynomial(theta) and all(a.is_Rational for a in sp.Poly(c, theta).coeffs()) for _, c, _ in out):
        return None
    return exponent, out


def _ball(x) -> flint.arb:
    x = sp.Rational(x)
    return flint.arb(flint.fmpq(int(x.p), int(x.q)))


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)
