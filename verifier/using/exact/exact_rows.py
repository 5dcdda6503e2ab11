"""Blocks of distributions held exactly as integers, with floats beside them to search and separate.

Row i of an `ExactRows` is exactly num[i][j] / total[i] (non-negative integers, total[i] = Σ_j num[i][j] > 0):
a row read from a file is divided by its exact sum without one Fraction per value. A float64 x is m·2^e with
an integer m < 2^53, so a binary row is m_j·2^(e_j − e_min) over 2^(−e_min); a decimal row is its digits over a
common power of ten. `floats` are the same row times a positive per-row scale, each within `rel`·|value| plus
`TINY` (rel = 0: exact, as a binary row's own floats are; rel = 2^-53: correctly rounded). A float is 0 exactly
when its value is (a non-zero value that would round to 0 is kept at the least subnormal instead, with its
sign), so that floats never merge a zero with a positive probability and have the sign of their value.

An `ExactRows` is also a sequence of exact rows (`Fraction` lists), for code that wants one row at a time.
`IntervalRows` holds interval credal sets the same way: both bounds of a row over one denominator.

Owns: `ExactRows`, `IntervalRows`, `binary_rows`, `rational_rows`, `decimal_row`, `interval_block`,
`interval_rows`. May import: `errors` (nothing else of the package).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

import numpy as np

U = 2.0 ** -53  # unit roundoff of float64
TINY = 2.0 ** -1074  # the absolute error a rounding to a subnormal (or to 0) may add
FAST_CHARS = 40  # a plain decimal this short is read from its digits; anything else goes through `numbers`


@dataclass
class ExactRows:
    """A block of distributions held exactly: row i is num[i][j] / total[i], with floats beside it, each within
    `rel`·|value| plus TINY of the row times a positive scale (rel = 0: exact)."""

    floats: np.ndarray  # (n, K) float64: num[i] times a positive scale, within rel·|x| + TINY of it
    num: list[list[int]]
    total: list[int]
    rel: float

    def __len__(self) -> int:
        return len(self.total)

    def __getitem__(self, i: int) -> list[Fraction]:
        t = self.total[i]
        return [Fraction(x, t) for x in self.num[i]]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def rows(self, start: int, stop: int) -> ExactRows:
        """Rows start..stop (stop excluded) as an ExactRows of their own, sliced, nothing recomputed."""
        return ExactRows(self.floats[start:stop], self.num[start:stop], self.total[start:stop], self.rel)


def float_parts(block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each double of the block as m·2^e exactly (int64 m below 2^53), which are non-zero, and each row's lowest
    exponent among its non-zero values (0 for a row of zeros)."""
    mant, exponent = np.frexp(block)
    m = (mant * 2.0 ** 53).astype(np.int64)  # exact: every double is an integer below 2^53 times 2^(e − 53)
    e = exponent.astype(np.int64) - 53
    nonzero = m != 0
    low = np.where(nonzero, e, 1 << 40).min(axis=1)
    return m, e, nonzero, np.where(low == 1 << 40, 0, low)


def binary_rows(block: np.ndarray) -> tuple[ExactRows, list[int]]:
    """Finite, non-negative float64 rows as integers, with each row's power of two: value = num·2^shift exactly.
    A row of zeros has total 0 (the caller refuses it)."""
    m, e, nonzero, low = float_parts(block)
    shift = np.where(nonzero, e - low[:, None], 0)
    num = m.astype(object) << shift.astype(object)
    total = num.sum(axis=1) if block.shape[1] else np.zeros(len(block), dtype=object)
    return ExactRows(np.asarray(block, dtype=np.float64), num.tolist(), [int(t) for t in total.tolist()], 0.0), \
        low.tolist()


def _float(x: Fraction) -> float:
    try:
        f = float(x)  # correctly rounded (an integer division)
    except OverflowError:  # 1e400 in a file: beyond every float, with its sign; the exact checks refuse the row
        return math.inf if x > 0 else -math.inf
    return (TINY if x > 0 else -TINY) if f == 0.0 and x != 0 else f


def rational_rows(rows: Sequence[Sequence[Fraction]], K: int | None = None) -> ExactRows:
    """Exact rows (each non-negative with a positive sum) over the least common denominator of each row."""
    num, total, floats = [], [], []
    for p in rows:
        d = lcm(*(x.denominator for x in p)) if len(p) else 1
        n = [x.numerator * (d // x.denominator) for x in p]
        num.append(n)
        total.append(sum(n))
        floats.append([_float(x) for x in p])
    width = K if K is not None else (len(floats[0]) if floats else 0)
    return ExactRows(np.array(floats, dtype=np.float64).reshape(len(floats), width), num, total, U)


def _plain(s: str) -> tuple[int, int] | None:
    """(digits, power of ten to divide by) of plain decimal text (digits, a dot, an exponent of at most two
    digits such as e-05); None for anything else, which `numbers.exact` then reads or refuses with its reason."""
    if len(s) > FAST_CHARS or not s.isascii():
        return None
    mantissa, e, exponent = s.replace("E", "e").partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    if not digits.isdigit():
        return None
    if not e:
        return int(digits), len(frac)
    power = exponent[1:] if exponent[:1] in "+-" else exponent
    if not power.isdigit() or len(power) > 2:  # 10^-99 is far within numbers' bounds; beyond: read there
        return None
    return int(digits), len(frac) - int(exponent)


@lru_cache(maxsize=64)
def _same_places(places: int) -> re.Pattern:
    """A row of fields joined by commas, each up to 9 digits, a dot and exactly `places` digits (0.250000): at
    most 40 characters, so a field's float is 0 only when its digits are."""
    field = rf"[0-9]{{1,9}}\.[0-9]{{{places}}}"
    return re.compile(rf"{field}(?:,{field})*")


def _same_places_row(texts: Sequence[str]) -> tuple[list[int], int, list[float]] | None:
    """The common row written by a program (every value with the same number of decimal places), read in a few
    C-level passes; None for any other row."""
    first = texts[0] if texts else ""
    places = len(first) - 1 - first.find(".") if "." in first else 0
    if not 0 < places <= 30:
        return None
    joined = ",".join(texts)
    if _same_places(places).fullmatch(joined) is None:
        return None
    return list(map(int, joined.replace(".", "").split(","))), 10 ** places, list(map(float, texts))


def decimal_row(texts: Sequence[str], read: Callable[[int], Fraction]) -> tuple[list[int], int, list[float]]:
    """One row of decimal text as (integers, their common denominator, floats). Plain decimal text (digits, one
    dot, a short exponent, at most FAST_CHARS characters) is read from its digits; any other text through
    `read(j)`, which returns the exact value or raises the located error."""
    same = _same_places_row(texts)
    if same is not None:
        return same
    nums, scales, floats, other = [], [], [], None
    for j, text in enumerate(texts):
        s = text.strip()
        whole, _, frac = s.partition(".")
        digits = whole + frac
        if digits.isdigit() and digits.isascii() and len(s) <= FAST_CHARS:  # the common case: 0.35
            nums.append(int(digits))
            scales.append(len(frac))
            floats.append(float(s))  # correctly rounded; at most 40 characters: 0 only when its digits are
            continue
        plain = _plain(s)
        if plain is not None:
            f = float(s)
            nums.append(plain[0])
            scales.append(plain[1])
            floats.append(TINY if f == 0.0 and plain[0] else f)
        else:
            x = read(j)
            other = other or {}
            other[j] = x
            nums.append(0)
            scales.append(0)
            floats.append(_float(x))
    top = max(scales, default=0)
    if other is None and top >= 0 and min(scales, default=0) >= 0:
        return [n if e == top else n * 10 ** (top - e) for n, e in zip(nums, scales)], 10 ** top, floats
    values = [other[j] if other and j in other else Fraction(n * 10 ** max(0, -e), 10 ** max(0, e))
              for j, (n, e) in enumerate(zip(nums, scales))]
    d = lcm(*(x.denominator for x in values))
    return [x.numerator * (d // x.denominator) for x in values], d, floats


@dataclass
class IntervalRows:
    """n interval credal sets: class j of row i lies in [lo_num, hi_num] / den exactly (object arrays of
    integers), and in [lo, hi] as floats, each within 2^-53 relative plus TINY."""
    lo: np.ndarray  # (n, K) float64
    hi: np.ndarray
    lo_num: np.ndarray  # (n, K) object: Python integers
    hi_num: np.ndarray
    den: np.ndarray  # (n,) object

    def __len__(self) -> int:
        return len(self.den)

    def bounds(self, i: int) -> list[tuple[Fraction, Fraction]]:
        """Row i's probability intervals as exact Fractions, (lower, upper) for each class."""
        d = self.den[i]
        return [(Fraction(a, d), Fraction(b, d)) for a, b in zip(self.lo_num[i], self.hi_num[i])]


def interval_block(num: list[list[int]], den: list[int], floats: list[list[float]], K: int) -> IntervalRows:
    """Rows of 2K integers (lo, hi of each class in turn) over their row's denominator, with their floats."""
    n = len(den)
    ints = np.empty((n, 2 * K), dtype=object)
    if n:
        ints[:] = num
    f = np.array(floats, dtype=np.float64).reshape(n, 2 * K)
    d = np.empty(n, dtype=object)
    d[:] = den
    return IntervalRows(f[:, 0::2], f[:, 1::2], ints[:, 0::2], ints[:, 1::2], d)


def interval_rows(sets: Sequence[Sequence[tuple[Fraction, Fraction]]], K: int) -> IntervalRows:
    """Exact bounds (lo, hi per class) over the least common denominator of each row."""
    num, den, floats = [], [], []
    for bounds in sets:
        values = [x for pair in bounds for x in pair]
        d = lcm(*(x.denominator for x in values))
        num.append([x.numerator * (d // x.denominator) for x in values])
        den.append(d)
        floats.append([_float(x) for x in values])
    return interval_block(num, den, floats, K)
