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

Handled: d = k + Σ c_j·GenMean(q, A_j) with rational c_j and k, rational values >= 0, one exponent q affine in θ,
q = 0 at the end and q > 0 towards the other end. Anything else: None (the caller's other routes apply).

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
    sign = certified.sign(sp.Add(*[c * _geometric(values) for c, values in lead])).value
    if sign in (None, 0):
        return None  # L(0) = 0 or undecided: the leading group does not decide the sign
    for k in range(1, MAX_HALVINGS + 1):
        epsilon = min(sp.Rational(1, 2**k), reach)
        if _settled(sign, epsilon, lead, rest):
            return Fraction(_rational(end) + epsilon / slope)
    return None


def _settled(sign: int, epsilon, lead, rest) -> bool:
    """Whether sign·d / α*^(1/q) > 0 for every q in (0, ε], by the bounds of the module docstring."""
    eps = flint.arb(flint.fmpq(int(epsilon.p), int(epsilon.q)))
    worst = flint.arb(0)  # the least value of sign·L on (0, ε]
    for c, values in lead:
        at_zero, at_eps = _mean_ball(values, None), _mean_ball(values, eps)
        scaled = sign * c
        worst += _ball(scaled) * (at_zero if scaled > 0 else at_eps)
    bound = flint.arb(0)  # the largest |R| on (0, ε]
    for ratio, c, values in rest:
        bound += _ball(abs(c)) * _ball(ratio) ** (1 / eps) * _mean_ball(values, eps)
    return bool(worst - bound > 0)


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
    """(q, [(α, c, positive-or-all values)]) for d = k + Σ c·GenMean(q, values), or None; the constant k is a
    term with α = 1 and the single value k (H = k for every q)."""
    GenMean = genmean_class()
    exponent, out = None, []
    for term in sp.Add.make_args(d):
        if not term.has(theta):
            if not term.is_Rational:
                return None
            if term != 0:
                out.append((Fraction(1), term, (sp.Integer(1),)))
            continue
        c, mean = term.as_coeff_Mul()
        if not (c.is_Rational and isinstance(mean, GenMean)):
            return None
        q, *values = mean.args
        if not all(v.is_Rational and v >= 0 for v in values) or (exponent is not None and q != exponent):
            return None
        exponent = q
        positive = [v for v in values if v > 0]
        if positive:
            out.append((Fraction(len(positive), len(values)), c, tuple(positive)))
    if exponent is None or not exponent.is_polynomial(theta) or sp.Poly(exponent, theta).degree() != 1:
        return None
    return exponent, out


def _ball(x) -> flint.arb:
    x = sp.Rational(x)
    return flint.arb(flint.fmpq(int(x.p), int(x.q)))


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)
