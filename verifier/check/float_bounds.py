"""The checker's quick enclosure of an exact number: float bounds [lo, hi] from IEEE arithmetic rounded
outward, for sums, products, quotients, integer powers and square roots of rationals (power means, sqrt in
specs). Anything else gives None and the caller falls back to the mpmath intervals of `checker._interval`.

Why it is rigorous: IEEE 754 rounds +, −, ×, ÷ and sqrt correctly (to nearest), and Python's int / int is
correctly rounded too, so each result is within half an ulp of the exact operation on the bounds; stepping
one ulp outward (math.nextafter) after every operation keeps the exact value inside. Why it exists: mpmath's
interval objects cost ~0.1 ms per operation, and the optimality re-check needs bounds for every distinct
cell (753 at 9 classes). It shares nothing with the engines (they use python-flint balls).
"""

from __future__ import annotations

import math

from verifier.errors import DoesNotApply
from verifier.lazy_sympy import sympy as sp

_MAX_POWER = 64
_EXACT_INT = 2 ** 53


class _Unsupported(DoesNotApply):
    pass


def float_bounds(expr: sp.Expr) -> tuple[float, float] | None:
    """(lo, hi) floats with lo <= expr <= hi, or None when the expression is outside the rules above or the
    bounds are not finite."""
    try:
        return _bounds(expr)
    except (_Unsupported, OverflowError, ZeroDivisionError):
        return None


def _bounds(e: sp.Expr) -> tuple[float, float]:
    if e.is_Rational:
        p, q = int(e.p), int(e.q)
        if q == 1 and abs(p) < _EXACT_INT:
            return float(p), float(p)
        return _outward(p / q, p / q)
    if isinstance(e, sp.Add):
        lo, hi = _bounds(e.args[0])
        for term in e.args[1:]:
            a, b = _bounds(term)
            lo, hi = _outward(lo + a, hi + b)
        return lo, hi
    if isinstance(e, sp.Mul):
        lo, hi = _bounds(e.args[0])
        for factor in e.args[1:]:
            lo, hi = _times((lo, hi), _bounds(factor))
        return lo, hi
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if exponent == sp.S.Half:
            lo, hi = _bounds(base)
            if lo < 0:
                raise _Unsupported("a square root of a base not certainly >= 0")
            return _outward(math.sqrt(lo), math.sqrt(hi))
        if exponent.is_Integer and 0 < abs(int(exponent)) <= _MAX_POWER:
            box = _bounds(base)
            out = box
            for _ in range(abs(int(exponent)) - 1):
                out = _times(out, box)
            return out if exponent > 0 else _inverse(out)
    raise _Unsupported(type(e).__name__)


def _times(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    products = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return _outward(min(products), max(products))


def _inverse(a: tuple[float, float]) -> tuple[float, float]:
    if a[0] <= 0 <= a[1]:
        raise _Unsupported("a reciprocal of an interval holding 0")
    return _outward(1 / a[1], 1 / a[0])


def _outward(lo: float, hi: float) -> tuple[float, float]:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise _Unsupported("not finite")
    return math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
