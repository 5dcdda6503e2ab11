"""Sums of `Cells` along an axis, exact where every term is exact and certified everywhere.

A list over a set's members (`[c(yh, y) for yh in Y]`) is the common case: values c(y, yh) that do not depend
on the set, and a mask (set, yh) that does not depend on y. Its sums are then matrix products, mask x values^T,
never the sets x K x K grid; the rounding bound γ_n Σ|x_i| holds for any order of summation, so BLAS's order is
covered too.

Owns: `masked_sum`. May import: `formula.cells`, `formula.rationals`.
"""

from __future__ import annotations

import numpy as np

from verifier.formula.cells import Cells, where
from verifier.formula.rationals import SAFE, down, magnitude, up

PRODUCT_FROM = 4096  # sets x classes from which a product pays for its setup


def masked_sum(cells: Cells, mask: np.ndarray) -> Cells:
    """Σ along the last axis of the elements where `mask` is set; the enclosure is widened by the rounding
    bound of recursive summation, |fl(Σ) − Σ| <= γ_n Σ|x_i| with γ_n = nu/(1 − nu) (Higham, §3.1)."""
    product = _as_product(cells, mask)
    return _grid_sum(cells, mask) if product is None else _product_sum(cells, *product)


def _grid_sum(cells: Cells, mask: np.ndarray) -> Cells:
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


def _as_product(cells: Cells, mask: np.ndarray) -> tuple[np.ndarray, int] | None:
    """(the mask as sets x members, the number of values per set) when the sum is a matrix product: values of
    shape (1, K, M) (finite enclosures), a mask (S, K or 1, M) whose rows do not change along the K axis."""
    if cells.lo.ndim != 3 or mask.ndim != 3 or cells.shape[0] != 1 or mask.shape[2] != cells.shape[2] \
            or mask.shape[1] not in (1, cells.shape[1]) or mask.shape[0] * cells.shape[1] < PRODUCT_FROM:
        return None
    if not (np.isfinite(cells.lo).all() and np.isfinite(cells.hi).all()):
        return None  # 0 x inf would be nan
    first = mask[:, :1, :]
    if mask.shape[1] > 1 and not (mask == first).all():
        return None
    return first[:, 0, :], cells.shape[1]


def _product_sum(cells: Cells, mask: np.ndarray, K: int) -> Cells:
    """The masked sum as products: exact where every present value is exact, within γ_n Σ|x_i| elsewhere."""
    m = mask.astype(np.float64)
    lo_v, hi_v = cells.lo[0], cells.hi[0]  # (K, M)
    n = mask.shape[-1]
    gamma = (n * 2.0**-53) / (1 - n * 2.0**-53)
    with np.errstate(over="ignore", invalid="ignore"):
        lo = m @ lo_v.T - gamma * (m @ np.abs(lo_v).T) * (1 + 2.0**-50) - n * 2.0**-1074
        hi = m @ hi_v.T + gamma * (m @ np.abs(hi_v).T) * (1 + 2.0**-50) + n * 2.0**-1074
    lo, hi = down(lo), up(hi)
    lo = np.where(m @ (lo_v < 0).T.astype(np.float64) == 0, np.maximum(lo, 0.0), lo)  # non-negatives only
    hi = np.where(m @ (hi_v > 0).T.astype(np.float64) == 0, np.minimum(hi, 0.0), hi)
    out = Cells.enclosure(lo, hi)
    # exact where no inexact value is present (counts below 2^53): an empty sum too, which is exactly 0 as
    # the grid sum says, even when no cell at all is exact
    exact = m @ (~cells.exact[0]).T.astype(np.float64) == 0
    if not exact.any():
        return out
    if cells.num is None:
        return Cells(np.where(exact, 0.0, out.lo), np.where(exact, 0.0, out.hi), np.zeros(exact.shape, np.int64), 1,
                     exact)
    num = np.where(cells.exact[0], cells.num[0], 0)
    if num.dtype == object or magnitude(num) * n >= SAFE:
        total = mask.astype(object) @ num.astype(object).T
    else:
        total = mask.astype(np.int64) @ num.T
    sums = Cells.from_exact(np.where(exact, total, 0), cells.den, exact)
    return Cells(np.where(exact, np.maximum(out.lo, sums.lo), out.lo), np.where(exact, np.minimum(out.hi, sums.hi),
                 out.hi), sums.num, sums.den, exact)
