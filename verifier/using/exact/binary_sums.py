"""Exact row sums of a float64 block without one Python integer per value, for `--p-file` .npy rows.

A float64 x ≥ 2^-65 is m·2^e with an integer m < 2^53 and e ≥ −117, so x·2^117 = m·2^(e+117) is an integer
below 2^118 when x ≤ 2. Each such term is cut into three integer limbs (bits 0-38, 39-77, and 78 up; in floats,
exactly, by scaling and floor), each limb summed over the row in int64 (K·2^40 < 2^63 for K < 2^20), and the
carries propagated: the row's exact sum times 2^117, in integers, vectorised. A row sums to exactly 1 iff the
limbs are (0, 0, 2^39); it is within the tolerance 10^-6 if a float estimate of the difference (relative error
below 2^-50) says so with room to spare. Values below 2^-65 stay out of the limbs: their sum is positive and at
most n·2^-65 for n of them, too little to hide on which side of 1 the row is unless the rest is that close below
1 (`_status`). Any other row (a value above 2, a negative, a difference near the tolerance) is marked for the
caller's exact check, one row at a time.

The rows' integers (`num`, `total` of `ExactRows`) are made only for the rows that ask for them (a tie, a near
tie), as Python integers, the same as `exact_rows.binary_rows` makes for every row.

Owns: `fast_binary_rows`. May import: `using.exact.exact_rows`.
"""

from __future__ import annotations

import numpy as np

from verifier.using.exact.exact_rows import ExactRows, float_parts

FIXED = 117  # bits below 1 held exactly
LIMB = 39
MASK = (1 << LIMB) - 1
EXACT, RESCALED, CHECK = 0, 1, 2  # a row's status: sums to 1; within 1e-6 of it; to be checked exactly
TOLERANCE = 1e-6


class LazyNum:
    """Row i's integers m_j·2^(e_j − low_i), made from the row's doubles when asked for (a sequence of lists, as
    `ExactRows.num`): most rows never need them, so the block's mantissas and exponents are never made whole."""

    def __init__(self, block: np.ndarray):
        self.block = block

    def __len__(self) -> int:
        return len(self.block)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return LazyNum(self.block[i])
        m, e, _, low = float_parts(self.block[i:i + 1])
        low = int(low[0])
        return [x << (y - low) if x else 0 for x, y in zip(m[0].tolist(), e[0].tolist())]

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class LazyLow:
    """Row i's power of two (its lowest exponent among its non-zero values), made when asked for."""

    def __init__(self, block: np.ndarray):
        self.block = block

    def __len__(self) -> int:
        return len(self.block)

    def __getitem__(self, i) -> int:
        return int(float_parts(self.block[i:i + 1])[3][0])


class LazyTotal:
    """Row i's exact total, the sum of its integers, made when asked for."""

    def __init__(self, num: LazyNum):
        self.num = num

    def __len__(self) -> int:
        return len(self.num)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return LazyTotal(self.num[i])
        return sum(self.num[i])

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _limbs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bits 0-38, 39-77 and 78 up of x·2^117, summed over each row (int64), for doubles 0 ≤ x ≤ 2 with x·2^117 an
    integer. Cut in floats, each step exact: scaling by 2^39 is exact, so are floor and the fraction y − floor(y),
    and the last fraction times 2^39 is the integer of bits 0-38."""
    top = np.floor(x * 2.0 ** LIMB)
    rest = (x * 2.0 ** LIMB - top) * 2.0 ** LIMB
    middle = np.floor(rest)
    parts = ((rest - middle) * 2.0 ** LIMB, middle, top)
    # A row of doubles in [0, 2] has limbs below 2^39, 2^39 and at most 2^40: with K ≤ 2^13 classes every partial
    # sum is an integer of at most 2^53, which a double holds, so summing in floats is exact in any order.
    if x.shape[1] <= 1 << (53 - LIMB - 1):
        return tuple(part.sum(axis=1).astype(np.int64) for part in parts)
    return tuple(part.astype(np.int64).sum(axis=1) for part in parts)


def _status(one: np.ndarray, below: np.ndarray, gap: np.ndarray, tiny: np.ndarray) -> np.ndarray:
    """Each row's status from its part P at or above 2^-65 (exactly 1 or not: `one`; below 1 or not: `below`;
    |P − 1| estimated by `gap` to a relative 2^-50) and the number n of its values below 2^-65, whose sum S is
    in (0, n·2^-65] when n > 0. With n = 0, P is the row. Otherwise the row is P + S: above 1 when P ≥ 1, and
    then within the tolerance if gap + n·2^-65 is, with room; below 1 when 1 − P exceeds n·2^-65 (gap proves
    it with room), and then within the tolerance if gap is. Any other row is checked exactly."""
    room = TOLERANCE * (1 - 1e-9)
    plain = np.where(one, EXACT, np.where(gap < room, RESCALED, CHECK))
    bound = tiny * 2.0 ** -65
    above = ~below & (gap + bound < room)
    short = below & (gap * (1 - 2.0 ** -49) > bound) & (gap < room)
    return np.where(tiny > 0, np.where(above | short, RESCALED, CHECK), plain)


def fast_binary_rows(block: np.ndarray) -> tuple[ExactRows, np.ndarray, np.ndarray] | None:
    """(rows with lazy integers, each row's status EXACT/RESCALED/CHECK, each row's power of two `low`: the exact
    value of row i is num·2^low) for finite float64 rows; None when K is too wide for the int64 limbs."""
    n, K = block.shape
    if K >= 1 << 20 or K == 0:
        return None
    tiny = (block != 0) & (np.abs(block) < 2.0 ** -65)  # m·2^e (m < 2^53) with e + 117 < 0: below 2^-65
    fits = ((block >= 0) & (block <= 2.0)).all(axis=1) & (block != 0).any(axis=1)
    # the rows that do not fit get garbage limbs, and status CHECK
    l0, l1, l2 = _limbs(np.where(tiny | ~np.isfinite(block), 0.0, np.clip(block, 0.0, 4.0)))
    l1 = l1 + (l0 >> LIMB)  # carries: the sum times 2^117 is l0 + l1·2^39 + l2·2^78, limbs below 2^39
    l0 = l0 & MASK
    l2 = l2 + (l1 >> LIMB)
    l1 = l1 & MASK
    one = (l0 == 0) & (l1 == 0) & (l2 == 1 << LIMB)
    gap = np.abs((l2 - (1 << LIMB)).astype(np.float64) * 2.0 ** (2 * LIMB - FIXED)
                 + l1.astype(np.float64) * 2.0 ** (LIMB - FIXED) + l0.astype(np.float64) * 2.0 ** -FIXED)
    status = np.where(fits, _status(one, l2 < 1 << LIMB, gap, tiny.sum(axis=1)), CHECK)
    num = LazyNum(block)
    return ExactRows(np.asarray(block, dtype=np.float64), num, LazyTotal(num), 0.0), status, LazyLow(block)
