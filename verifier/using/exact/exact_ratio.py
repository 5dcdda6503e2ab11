"""A binary row's minimum certainty (F_j − F_s)/ΣF and maximum doubt ΣF/(F_j − F_s) correctly rounded, for a
million rows at once, from the row's own doubles (each the exact value it holds).

Error-free transformations (Knuth's TwoSum, Dekker's product with Veltkamp's split; IEEE addition and
multiplication only, so every machine gives the same bits) hold F_j − F_s exactly as gh + gl and ΣF as sh + sl
within K²u² relative (u = 2^-53); the quotient's float q is then corrected by the residual, q + δ within
(K² + 16)·u² of the exact ratio. Its correctly rounded value is the rounding of q + δ unless q + δ lies that
close to a midpoint between two floats: such rows (rare: the band is u² wide), and rows whose doubles are so large
or so small that a product could overflow or underflow, are left to the caller's integers (`None` there).

Owns: `rounded_ratios`. May import: numpy, `using.exact.double_word`.
"""

from __future__ import annotations

import numpy as np

from verifier.using.exact.double_word import SAFE, U, _two_product  # the error-free transforms
from verifier.using.exact.double_word import two_sum as _two_sum


def _quotient(nh, nl, dh, dl, K: int):
    """(nh + nl)/(dh + dl) correctly rounded where certain; nan where the rounding is not settled."""
    with np.errstate(all="ignore"):
        q = nh / dh
        p, pe = _two_product(q, dh)
        delta = (((nh - p) - pe) + nl - q * dl) / dh
        y, e = _two_sum(q, delta)
        near = (K * K + 16) * U * U * np.abs(y) * 2
        gap = np.spacing(np.abs(y)) / 2
        mantissa, _ = np.frexp(np.abs(y))
        gap = np.where((mantissa == 0.5) & (np.sign(e) == -np.sign(y)), gap / 2, gap)  # below a power of two
        settled = np.isfinite(y) & (np.abs(np.abs(e) - gap) > near) & (np.abs(y) > SAFE[0]) & (np.abs(y) < SAFE[1])
    return np.where(settled, y, np.nan)


def rounded_ratios(F: np.ndarray, high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of non-negative doubles F with top value `high` and second `low` (high > low): the correctly
    rounded (high − low)/ΣF and ΣF/(high − low), nan where the caller must use its integers."""
    n, K = F.shape
    sh, sl = F[:, 0].copy(), np.zeros(n)
    for k in range(1, K):
        sh, e = _two_sum(sh, F[:, k])
        sl += e
    gh = high - low
    gl = (high - gh) - low  # exact: high ≥ low ≥ 0 (Fast2Sum)
    rows_safe = (np.where(F > 0, F, 1.0).min(axis=1) > SAFE[0]) & (F.max(axis=1) < SAFE[1]) & (gh > SAFE[0])
    least = np.where(rows_safe, _quotient(gh, gl, sh, sl, K), np.nan)
    doubt = np.where(rows_safe, _quotient(sh, sl, gh, gl, K), np.nan)
    return least, doubt
