"""No other zero near an end of θ's range where a comparison of power means is exactly 0.

A difference that vanishes exactly at an end t0 (a set tied there) cannot be separated from 0 on any
stretch touching t0 by enclosing d itself. The mean value theorem can: if d(t0) = 0 and the enclosure of d'
over [t0, t1] excludes 0, then d(θ) = d'(ξ)(θ − t0) ≠ 0 for every θ in (t0, t1]. Where the exponent e(θ) of
every mean is > 0, GenMean(e, A) is the explicit (Σ_{a∈A, a>0} a^e / |A|)^(1/e), smooth in θ, so sympy
differentiates it exactly and python-flint encloses the derivative over the stretch, in up to 2^SPLITS
pieces (certified). Stretches 2^-k of the interval, for growing k, are tried.

Owns: `zero_end`. May import: formula, lazy_sympy.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.formula import certified
from verifier.formula.enclose import Unsupported, enclose
from verifier.formula.genmean import genmean_class
from verifier.lazy_sympy import sympy as sp

PREC = 128
MAX_HALVINGS = 40
SPLITS = 5  # halvings of a stretch over which d' is enclosed piece by piece (up to 2^5 pieces)


def zero_end(d: sp.Expr, theta: sp.Symbol, end: Fraction, other: Fraction) -> Fraction | None:
    """A rational θ1 strictly between `end` and `other` (or `other` itself) such that d has no zero for θ
    strictly past `end` up to θ1 included, when d(end) = 0 exactly, every mean's exponent is > 0 on that
    stretch and its values are rational; None when that is not so or d' is not proved of one sign."""
    found = _explicit(d, theta)
    if found is None or certified.sign(d.subs(theta, _rational(end))).value != 0:
        return None
    explicit, exponents = found
    slope = sp.diff(explicit, theta)
    for k in range(MAX_HALVINGS + 1):
        reach = end + (other - end) / 2**k
        if any(not q.subs(theta, _rational(x)).is_positive for q in exponents for x in (end, reach)):
            continue  # affine exponents: > 0 at both ends of the stretch is > 0 on all of it
        if _one_sign(slope, theta, min(end, reach), max(end, reach), SPLITS) is not None:
            return reach
    return None


def _one_sign(expr, theta, low: Fraction, high: Fraction, depth: int) -> int | None:
    """The sign expr keeps on all of [low, high], from enclosures over it or over halves of it (down to
    `depth` halvings); None when not proved."""
    ball = flint.arb(flint.fmpq(*_nd((low + high) / 2)), flint.fmpq(*_nd((high - low) / 2)))
    try:
        enclosed = enclose(expr, PREC, {theta: ball})
    except (Unsupported, ValueError, ZeroDivisionError):
        return None
    if enclosed > 0 or enclosed < 0:
        return 1 if enclosed > 0 else -1
    return None if depth == 0 else _split(expr, theta, low, high, depth)


def _split(expr, theta, low: Fraction, high: Fraction, depth: int) -> int | None:
    middle = (low + high) / 2
    left = _one_sign(expr, theta, low, middle, depth - 1)
    if left is None:
        return None
    return left if _one_sign(expr, theta, middle, high, depth - 1) == left else None


def _explicit(d: sp.Expr, theta) -> tuple[sp.Expr, set] | None:
    """(d with every GenMean written out, their exponents), when each mean has rational values >= 0 and an
    exponent affine in θ (written out, it is d only where the exponent is > 0); None otherwise."""
    GenMean = genmean_class()
    means = d.atoms(GenMean)
    for mean in means:
        q, *values = mean.args
        if not all(v.is_Rational and v >= 0 for v in values) or not q.is_polynomial(theta) or \
                sp.Poly(q, theta).degree() > 1:
            return None
    if not means:
        return None  # rational functions have their own exact route
    return d.xreplace({m: _written(m) for m in means}), {m.args[0] for m in means}


def _written(mean) -> sp.Expr:
    q, *values = mean.args
    return (sp.Add(*[v**q for v in values if v > 0]) / len(values)) ** (1 / q)


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _nd(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator
