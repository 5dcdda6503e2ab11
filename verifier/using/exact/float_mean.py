"""The mean of float64 values as the exact mean of the doubles, rounded once (round to nearest, ties to even):
the same float on every machine, whatever the summation order numpy would choose.

Each double is m·2^e exactly (frexp: an integer |m| < 2^53); m is cut into a high and a low 26-bit part, each
summed per exponent in floats (`bincount`), exactly while a chunk has fewer than 2^25 values (every partial sum
stays an integer below 2^53); the per-exponent sums are then shifted and added as Python integers: the exact sum,
divided by n as a Fraction and rounded once. Infinities and nan give what the exact sum of extended reals
gives (nan for +inf with −inf).

Owns: `exact_mean`. May import: numpy.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

CHUNK = 1 << 24
SHIFT = 1074 + 53  # frexp's m·2^e of the least double has e = −1126: every e + SHIFT is positive


def exact_mean(values) -> float | None:
    """The exact mean of the doubles `values`, correctly rounded; None for no values."""
    x = np.asarray(values, dtype=np.float64).ravel()
    if len(x) == 0:
        return None
    finite = np.isfinite(x)
    if not finite.all():
        if np.isnan(x).any() or (np.isposinf(x).any() and np.isneginf(x).any()):
            return math.nan
        return math.inf if np.isposinf(x).any() else -math.inf
    total = 0  # the exact sum times 2^SHIFT
    for start in range(0, len(x), CHUNK):
        total += _scaled_sum(x[start:start + CHUNK])
    return float(Fraction(total, len(x) << SHIFT))


def _scaled_sum(x: np.ndarray) -> int:
    """Σx·2^SHIFT exactly, as an integer."""
    mant, exponent = np.frexp(x)
    m = (mant * 2.0 ** 53).astype(np.int64)  # exact: |mant| < 1 with at most 53 significant bits
    e = exponent.astype(np.int64) - 53 + SHIFT  # ≥ 0
    high = m >> 26
    low = m - (high << 26)  # in [0, 2^26)
    base = int(e.min())
    sums_high = np.bincount(e - base, weights=high.astype(np.float64))
    sums_low = np.bincount(e - base, weights=low.astype(np.float64))
    total = 0
    for k in np.flatnonzero((sums_high != 0) | (sums_low != 0)).tolist():
        total += ((int(sums_high[k]) << 26) + int(sums_low[k])) << k
    return total << base
