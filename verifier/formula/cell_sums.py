"""Sums of `Cells` along an axis, exact where every term is exact and certified everywhere.

Owns: `masked_sum`. May import: `formula.cells`, `formula.rationals`.
"""

from __future__ import annotations

import numpy as np

from verifier.formula.cells import Cells, where
from verifier.formula.rationals import SAFE, down, magnitude, up


def masked_sum(cells: Cells, mask: np.ndarray) -> Cells:
    """Σ along the last axis of the elements where `mask` is set; the enclosure is widened by the rounding
    bound of recursive summation, |fl(Σ) − Σ| <= γ_n Σ|x_i| with γ_n = nu/(1 − nu) (Higham, §3.1)."""
    x = where(mask, cells, Cells.rational(0, (1,) * cells.lo.ndim))
    n = x.shape[-1]
    gamma = (n * 2.0**-53) / (1 - n * 2.0**-53)
    with np.errstate(over="ignore", invalid="ignore"):
        lo = x.lo.sum(axis=-1) - gamma * np.abs(x.lo).sum(axis=-1) * (1 + 2.0**-50) - n * 2.0**-1074
        hi = x.hi.sum(axis=-1) + gamma * np.abs(x.hi).sum(axis=-1) * (1 + 2.0**-50) + n * 2.0**-1074
    lo, hi = down(lo), up(hi)
    lo = np.where((x.lo >= 0).all(axis=-1), np.maximum(lo, 0.0), lo)  # a sum of non-negatives is >= 0
    hi = np.where((x.hi <= 0).all(axis=-1), np.minimum(hi, 0.0), hi)
    out = Cells.enclosure(lo, hi)
    exact = x.exact.all(axis=-1)
    if x.num is None or not exact.any():
        return out
    num = np.where(x.exact, x.num, 0)
    if num.dtype == object or magnitude(num) * n >= SAFE:
        total = num.astype(object).sum(axis=-1)
    else:
        total = num.sum(axis=-1)
    sums = Cells.from_exact(np.where(exact, total, 0), x.den, exact)
    return Cells(np.where(exact, np.maximum(out.lo, sums.lo), out.lo), np.where(exact, np.minimum(out.hi, sums.hi),
                 out.hi), sums.num, sums.den, exact)
