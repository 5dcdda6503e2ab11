"""u = 1 − t of rows as double words (`using.exact.double_word`) with a bound on their relative error, for the doubt
cost (`using.certainty.doubt`): t = Π_{i≠j} χ_i of probabilities, or Π_{i≠j} ξ_i of logits.

- Binary probability rows (their doubles are their values): with S = ΣF, R = S − F_j (the sum of the others),
  g_k = F_j − F_k (exact, Knuth's TwoSum) and a'_k = R + F_k, χ_k = g_k/S and 1 − χ_k = a'_k/S, so
  u_m = u_{m−1}·χ_k + (1 − χ_k) with only positive terms: never cancelling, even for a row near one-hot. In
  the scaled form U_m = u_m·S^m, U_m = U_{m−1}·g_k + a'_k·P_{m−1}, P_m = P_{m−1}·S, u = U/P, each step's relative
  error grows by at most (K + 4)ε (ε = `double_word.EPS`; R and a'_k within Kε, S^m within m(K + 1)ε): u is
  within 1.01·((K − 1)(2K + 5) + 1)ε. The columns are taken in order with the top's place given to the last
  (t is the same in any order), one column a step on contiguous rows. Rows whose sum is not within 2^-10 of
  1, or with a χ_k or 1 − χ_k below about 2^-200 (zero aside), are left to the exact route (`inf`), where the
  double words' range could fail.
- Binary logit rows: ξ_k = y_j − y_k exactly (TwoSum), t their product (within 1.01·(K − 2)ε, every partial
  product inside the safe range, else `inf`) and u = 1 − t, within (err_t·t + 4u²·|u|)/|u|: it cancels only where
  t is near 1, and then its bound says so.
- Rows whose exact values are integers or Fractions (decimal files): u = N/D exactly, rounded to a double word
  (hi = N/D correctly rounded, lo the rest correctly rounded: within u² relative).
A tie for the top (t = 0) is u = 1 exactly.

Owns: `probability_words`, `logit_words`, `rational_word`. May import: numpy, `using.exact.double_word`.
"""

from __future__ import annotations

import math

import numpy as np

from verifier.using.exact import double_word as dw

U = 2.0 ** -53
SMALL = 2.0 ** -200


def _pick(mask, x, y):
    return np.where(mask, x[0], y[0]), np.where(mask, x[1], y[1])


def probability_words(F: np.ndarray, top: np.ndarray, tied: np.ndarray) -> tuple[tuple, np.ndarray]:
    """((hi, lo), err) of u = 1 − t for rows of non-negative doubles F with top column `top`."""
    n, K = F.shape
    idx = np.arange(n)
    high = F[idx, top]
    others = F.copy()
    others[idx, top] = F[:, K - 1]  # the top's place taken by the last column: t is the same in any order
    others = np.ascontiguousarray(others[:, :K - 1].T)  # (K − 1, n): one row a step
    with np.errstate(all="ignore"):
        R = dw.double(np.zeros(n))
        for k in range(K - 1):
            R = dw.add(R, dw.double(others[k]))
        S = dw.add(R, dw.double(high))
        ok = (np.abs(S[0] - 1) <= 2.0 ** -10) & ((high - others).min(axis=0) >= SMALL)
        ok &= (R[0] + others.min(axis=0) >= SMALL) | (R[0] == 0)  # a'_k ≥ R + min F_k (R = 0: one-hot)
        scaled, power = dw.double(np.zeros(n)), dw.double(np.ones(n))
        for k in range(K - 1):
            g = dw.two_sum(high, -others[k])  # F_j − F_k exactly
            a = dw.add(R, dw.double(others[k]))
            scaled = dw.add(dw.mul(scaled, g), dw.mul(a, power))
            power = dw.mul(power, S)
        u = dw.div(scaled, power)
    err = np.where(ok, 1.01 * ((K - 1) * (2 * K + 5) + 1) * dw.EPS, math.inf)
    return _tie(u, err, tied)


def logit_words(Z: np.ndarray, top: np.ndarray, tied: np.ndarray) -> tuple[tuple, np.ndarray]:
    """((hi, lo), err) of u = 1 − t for rows of logits (doubles, their values) with top column `top`."""
    n, K = Z.shape
    high = Z[np.arange(n), top]
    one = dw.double(np.ones(n))
    with np.errstate(all="ignore"):
        t, ok = one, np.ones(n, dtype=bool)
        for k in range(K):
            at_top = top == k
            xi = _pick(at_top, one, dw.two_sum(high, -Z[:, k]))
            t = dw.mul(t, xi)
            ok &= at_top | ((np.abs(xi[0]) >= dw.SAFE[0]) & (np.abs(xi[0]) <= dw.SAFE[1]))
            ok &= (np.abs(t[0]) >= dw.SAFE[0]) & (np.abs(t[0]) <= dw.SAFE[1])
        u = dw.add(one, dw.neg(t))
        err_t = 1.01 * max(K - 2, 0) * dw.EPS
        err = (err_t * np.abs(t[0]) * (1 + 2.0 ** -50) / np.abs(u[0])) * (1 + 2.0 ** -50) + 4 * U * U
    err = np.where(ok & (u[0] != 0), err, math.inf)
    return _tie(u, err, tied)


def _tie(u, err, tied):
    """A tie for the top: t = 0, u = 1 exactly."""
    return _pick(tied, dw.double(np.ones(len(tied))), u), np.where(tied, 0.0, err)


def rational_word(numerator: int, denominator: int) -> tuple[float, float, float]:
    """(hi, lo, err) of the exact N/D (D > 0) as a double word: hi = N/D correctly rounded and lo the rest
    correctly rounded, so within u² relative (err); inf where N/D is beyond the double words' range."""
    if numerator == 0:
        return 0.0, 0.0, 0.0
    try:
        hi = numerator / denominator  # correctly rounded integer division
    except OverflowError:
        return math.nan, 0.0, math.inf
    if not dw.SAFE[0] <= abs(hi) <= dw.SAFE[1]:
        return hi, 0.0, math.inf
    m, d = hi.as_integer_ratio()
    lo = (numerator * d - m * denominator) / (denominator * d)
    return hi, lo, 1.01 * U * U
