"""Exact row sums of a float64 block without one Python integer per value, for `--p-file` .npy rows.

A float64 x ≥ 2^-65 is m·2^e with an integer m < 2^53 and e ≥ −117, so x·2^117 = m·2^(e+117) is an integer
below 2^118 when x ≤ 2. Each such term is cut into three integer limbs (bits 0-38, 39-77, and 78 up), each limb
summed over the row in int64 (K·2^40 < 2^63 for K < 2^20), and the carries propagated: the row's exact sum
times 2^117, in integers, vectorised. A row sums to exactly 1 iff the limbs are (0, 0, 2^39); it is within the
tolerance 10^-6 if a float estimate of the difference (relative error below 2^-50) says so with room to spare.
Any other row (a value below 2^-65 or above 2, a negative, a difference near the tolerance) is marked for the
caller's exact check, one row at a time.

The rows' integers (`num`, `total` of `ExactRows`) are made only for the rows that ask for them (a tie, a near
tie), as Python integers, the same as `exact_rows.binary_rows` makes for every row.

Owns: `fast_binary_rows`. May import: `using.exact_rows`.
"""

from __future__ import annotations

import numpy as np

from verifier.using.exact_rows import ExactRows, float_parts

FIXED = 117  # bits below 1 held exactly
LIMB = 39
MASK = (1 << LIMB) - 1
EXACT, RESCALED, CHECK = 0, 1, 2  # a row's status: sums to 1; within 1e-6 of it; to be checked exactly
TOLERANCE = 1e-6


class LazyNum:
    """Row i's integers m_j·2^(e_j − low_i), made when asked for (a sequence of lists, as `ExactRows.num`)."""

    def __init__(self, m: np.ndarray, e: np.ndarray, low: np.ndarray):
        self.m, self.e, self.low = m, e, low

    def __len__(self) -> int:
        return len(self.low)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return LazyNum(self.m[i], self.e[i], self.low[i])
        low = int(self.low[i])
        return [x << (y - low) if x else 0 for x, y in zip(self.m[i].tolist(), self.e[i].tolist())]

    def __iter__(self):
        return (self[i] for i in range(len(self)))


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


def _limb(m: np.ndarray, s: np.ndarray, base: int, top: bool) -> np.ndarray:
    """Bits base.. base+LIMB−1 (all bits from base up if `top`) of m·2^s, for 0 ≤ m < 2^53 and s ≥ 0 (uint64).
    At most one of the two shifts is non-zero; a left shift's bits beyond 64 are bits the mask drops anyway,
    and the top limb has none (m·2^s ≤ 2^118, so m·2^(s−78) ≤ 2^40)."""
    t = s - base
    right = np.minimum(np.maximum(-t, 0), 63).astype(np.uint64)
    if top:
        return (m >> right) << np.maximum(t, 0).astype(np.uint64)
    return ((m >> right) << np.minimum(np.maximum(t, 0), LIMB).astype(np.uint64)) & np.uint64(MASK)


def fast_binary_rows(block: np.ndarray) -> tuple[ExactRows, np.ndarray, np.ndarray] | None:
    """(rows with lazy integers, each row's status EXACT/RESCALED/CHECK, each row's power of two `low`: the exact
    value of row i is num·2^low) for finite float64 rows; None when K is too wide for the int64 limbs."""
    n, K = block.shape
    if K >= 1 << 20 or K == 0:
        return None
    m, e, nonzero, low = float_parts(block)
    s = np.where(nonzero, e + FIXED, 0)
    fits = ((s >= 0) & (m >= 0) & (block <= 2.0)).all(axis=1) & nonzero.any(axis=1)
    mu = m.astype(np.uint64)  # the rows that do not fit get garbage limbs, and status CHECK
    l0, l1, l2 = (_limb(mu, s, base, top).sum(axis=1).astype(np.int64)
                  for base, top in ((0, False), (LIMB, False), (2 * LIMB, True)))
    l1 = l1 + (l0 >> LIMB)  # carries: the sum times 2^117 is l0 + l1·2^39 + l2·2^78, limbs below 2^39
    l0 = l0 & MASK
    l2 = l2 + (l1 >> LIMB)
    l1 = l1 & MASK
    one = (l0 == 0) & (l1 == 0) & (l2 == 1 << LIMB)
    gap = np.abs((l2 - (1 << LIMB)).astype(np.float64) * 2.0 ** (2 * LIMB - FIXED)
                 + l1.astype(np.float64) * 2.0 ** (LIMB - FIXED) + l0.astype(np.float64) * 2.0 ** -FIXED)
    within = gap < TOLERANCE * (1 - 1e-9)
    status = np.where(fits & one, EXACT, np.where(fits & within, RESCALED, CHECK))
    num = LazyNum(m, e, low)
    return ExactRows(np.asarray(block, dtype=np.float64), num, LazyTotal(num), 0.0), status, low
