"""Exact rational arrays for `cells`: numerators over one common denominator, int64 while magnitudes stay
below 2^62 and Python integers beyond, with the enclosure of num/den that the float side needs.

Owns: integer arithmetic on numerator arrays. May import: numpy, flint (exact integer roots), `limits`.
"""

from __future__ import annotations

import math

import flint
import numpy as np

from verifier.errors import DoesNotApply
from verifier.limits import MAX_EXACT_BITS

SAFE = 2**62  # int64 magnitudes kept below this; beyond, exact numerators become Python ints (object arrays)
MAX_DEN_BITS = 4000  # a common denominator larger than this stops being exact (the enclosure remains)


class CellsError(DoesNotApply):
    """An operation the fast path cannot carry out soundly (e.g. a divisor whose enclosure contains 0).

    The caller falls back to the exact interpreter, which decides or reports a located error."""


def down(x: np.ndarray) -> np.ndarray:
    """The next float below each element (one ulp toward -inf)."""
    return np.nextafter(x, -np.inf)


def up(x: np.ndarray) -> np.ndarray:
    """The next float above each element (one ulp toward +inf)."""
    return np.nextafter(x, np.inf)


def enclose_ratio(num: np.ndarray, den: int):
    """Enclosure of num/den with one correctly rounded division and one ulp outward: numpy when numerator and
    denominator are floats exactly (|x| <= 2^53), else Python's int division, which is correctly rounded too."""
    num = np.asarray(num)
    small = num.dtype != object and den <= 2**53 and (num.size == 0 or int(np.abs(num).max()) <= 2**53)
    if small:
        q = num.astype(np.float64) / float(den)
    else:
        q = np.array([big_ratio(int(v), den) for v in num.flat], dtype=np.float64).reshape(num.shape)
    lo, hi = down(q), up(q)
    zero = num == 0
    lo, hi = np.where(zero, 0.0, lo), np.where(zero, 0.0, hi)
    if small and den == 1:  # integers below 2^53 are floats exactly
        lo, hi = np.where(zero, lo, q), np.where(zero, hi, q)
    return lo, hi


def big_ratio(n: int, d: int) -> float:
    """n / d as a float, correctly rounded, saturating to +-inf beyond the float range."""
    try:
        return n / d  # Python divides big integers correctly rounded
    except OverflowError:
        return math.inf if n > 0 else -math.inf


def common(a, b):
    """Numerators over one common denominator (exactness masks are the callers' business)."""
    den = math.lcm(a.den, b.den)
    an = scale(a.num if a.num is not None else np.zeros(a.shape, np.int64), den // a.den)
    bn = scale(b.num if b.num is not None else np.zeros(b.shape, np.int64), den // b.den)
    return an, bn, den


def magnitude(num: np.ndarray) -> int:
    """The largest absolute value of the numerators (0 for an empty array)."""
    if num.size == 0:
        return 0
    if num.dtype == object:
        return max(abs(int(num.max())), abs(int(num.min())))
    return int(np.abs(num).max())


def scale(num: np.ndarray, factor: int) -> np.ndarray:
    """The numerators multiplied by `factor`, moving to Python ints (object arrays) when int64 could overflow."""
    if factor == 1:
        return num
    if num.dtype != object and factor < SAFE and magnitude(num) * factor < SAFE:
        return np.asarray(num * factor)
    return np.asarray(num.astype(object) * factor)


def zeroed(c, exact) -> np.ndarray:
    """The numerators of `c` where `exact` is set, 0 elsewhere."""
    return np.where(exact, c.num, 0)


def add_exact(a, b, exact):
    """The exact sum of two arrays where `exact` is set (0 elsewhere), as (numerators, common denominator)."""
    an, bn, den = common(a, b)
    an, bn = np.where(exact, an, 0), np.where(exact, bn, 0)
    if an.dtype != object and bn.dtype != object and magnitude(an) + magnitude(bn) >= SAFE:
        an = an.astype(object)
    return sized(np.asarray(an + bn)), den


def sized(num: np.ndarray) -> np.ndarray:
    """Numerators within MAX_EXACT_BITS (the exact interpreter's bound): beyond, a CellsError sends the spec to
    the exact interpreter, which stops at the same step with a located message instead of growing for minutes."""
    if num.dtype == object and num.size and magnitude(num).bit_length() > MAX_EXACT_BITS:
        raise CellsError(f"the exact numbers grow beyond {MAX_EXACT_BITS:,} bits")
    return num


def mul_exact(a, b, exact):
    """The exact product of two arrays where `exact` is set (0 elsewhere), as (numerators, denominator), reduced by
    their common gcd."""
    an, bn = zeroed(a, exact), zeroed(b, exact)
    if an.dtype != object and bn.dtype != object and magnitude(an) * magnitude(bn) >= SAFE:
        an = an.astype(object)
    num, den = sized(np.asarray(an * bn)), a.den * b.den
    g = gcd_all(num, den)
    if g >= SAFE and num.dtype != object:  # all numerators 0: g is the whole denominator
        num = num.astype(object)
    return (np.asarray(num // g), den // g) if g > 1 else (num, den)


def gcd_all(num: np.ndarray, den: int) -> int:
    """The gcd of the denominator and every numerator."""
    if num.dtype == object:
        g = den
        for v in num.flat:
            g = math.gcd(g, int(v))
            if g == 1:
                break
        return g
    return math.gcd(int(np.gcd.reduce(num.reshape(-1))) if num.size else 0, den)


def exact_sign(c) -> np.ndarray:
    """The sign (-1, 0 or 1) of each exact numerator; 0 where there is none, so meaningful only where the element is
    exact."""
    if c.num is None:
        return np.zeros(c.shape, np.int64)
    return np.sign(c.num).astype(np.int64) if c.num.dtype != object else np.vectorize(
        lambda v: (v > 0) - (v < 0), otypes=[np.int64])(c.num)


def exact_nonzero(c) -> np.ndarray:
    """Where the exact numerator is nonzero (False where there is none)."""
    return exact_sign(c) != 0


def root(n: int, q: int) -> int | None:
    """The exact q-th root of n >= 0, or None."""
    if n < 0:
        return None
    r = int(flint.fmpz(n).root(q))
    return r if r**q == n else None
