"""Independent re-check of many sets' Definition 4 evidence at once (the fast path's thousands of sets).

It re-checks the evidence, not the analysis: each witness p must give E_p[c_ŷ] − E_p[c_Y] > 0 for every
member ŷ, each certificate λ must give c_Y(y) − Σ λ_ŷ c_ŷ(y) >= 0 for every class y. Its arithmetic is its
own: where the cells involved are exact rationals, integers (numpy int64 while products stay below 2^62,
Python integers beyond); elsewhere the scheme's certified cell enclosures combined by this module's own
interval operations (each rounded result widened by one ulp, sums by Higham's bound γ_n Σ|x|). Whatever this
cannot confirm is handed back for the one-by-one check with mpmath intervals and sympy.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from verifier.verdict import SetPossibility, Truth

_U = 2.0**-53
_CHUNK = 2048


def check_possibility_batch(scheme, entries: list[SetPossibility]) -> list[SetPossibility]:
    """Confirm what can be confirmed at once; return the entries left for the one-by-one check."""
    cells = getattr(scheme, "cells", None)
    index = getattr(scheme.rows, "index", None)
    if cells is None or index is None:
        return list(entries)
    left = [e for e in entries if e.status not in (Truth.TRUE, Truth.FALSE)]
    for status, weights_of in ((Truth.TRUE, _witness), (Truth.FALSE, _certificate)):
        group = [e for e in entries if e.status is status]
        for start in range(0, len(group), _CHUNK):
            part = group[start:start + _CHUNK]
            weights = [weights_of(e, scheme.K) for e in part]
            usable = [(e, w) for e, w in zip(part, weights) if w is not None]
            left += [e for e, w in zip(part, weights) if w is None]
            if not usable:
                continue
            rows = np.array([index[e.members] for e, _ in usable])
            ok = _confirm(cells, rows, [w for _, w in usable], status is Truth.TRUE)
            left += [e for (e, _), good in zip(usable, ok) if not good]
    return left


_SEEN: dict[int, tuple[object, Fraction]] = {}  # id -> (the exact number, kept alive; its Fraction)


def _fraction(x) -> Fraction:
    known = _SEEN.get(id(x))
    if known is not None and known[0] is x:
        return known[1]
    value = Fraction(int(x.p), int(x.q)) if hasattr(x, "p") else Fraction(x)  # sympy, or a plain int
    if len(_SEEN) < 100_000:
        _SEEN[id(x)] = (x, value)
    return value


def _witness(entry: SetPossibility, K: int) -> list[Fraction] | None:
    p = entry.witness
    if p is None or len(p) != K:
        return None
    out = [_fraction(x) for x in p]
    nonzero = [x for x in out if x]
    return out if all(x > 0 for x in nonzero) and sum(nonzero) == 1 else None


def _certificate(entry: SetPossibility, K: int) -> list[Fraction] | None:
    lam = entry.certificate
    if lam is None or set(lam) - entry.members:
        return None
    out = [_fraction(lam[h]) if h in lam else Fraction(0) for h in range(K)]
    return out if all(x >= 0 for x in out) and sum(out) == 1 else None


def _confirm(cells, rows: np.ndarray, weights: list[list[Fraction]], witness: bool) -> np.ndarray:
    """witness: Σ_y p_y (c_ŷ(y) − c_Y(y)) > 0 for ŷ in Y;  certificate: c_Y(y) − Σ_ŷ λ_ŷ c_ŷ(y) >= 0 for all y."""
    K = cells.K
    members = cells.members[rows]
    det_exact, row_exact = cells.rows.exact[:K], cells.rows.exact[rows]
    # which sets meet an inexact cell, counted by matrix products (sets x K), not as a sets x K x K cube
    # (2 GB of the 2.4 GB peak of a 1,000-leaf tree); counts up to K are exact in floats
    inexact = (~det_exact).astype(float)
    if witness:
        support = np.array([[w != 0 for w in ws] for ws in weights])
        touched = (members.astype(float) @ inexact) > 0  # (set, y): some member ŷ has c_ŷ(y) inexact
        exact = ~(support & touched).any(axis=1) & ~(support & ~row_exact).any(axis=1)
    else:
        used = np.array([[w != 0 for w in ws] for ws in weights])
        exact = ~(used & (inexact.sum(axis=1) > 0)[None, :]).any(axis=1) & row_exact.all(axis=1)
    ok = np.zeros(len(rows), bool)
    if exact.any() and cells.rows.num is not None:
        ok[exact] = _integers(cells, rows[exact], [w for w, e in zip(weights, exact) if e], witness)
    if (~exact).any():
        ok[~exact] = _intervals(cells, rows[~exact], [w for w, e in zip(weights, exact) if not e], witness)
    return ok


def _integers(cells, rows, weights, witness: bool) -> np.ndarray:
    K = cells.K
    q = [lcm(*(w.denominator for w in ws if w)) for ws in weights]
    a = [[w.numerator * (d // w.denominator) if w else 0 for w in ws] for ws, d in zip(weights, q)]
    num = np.where(cells.rows.exact, cells.rows.num, 0)
    det, row = num[:K], num[rows]
    magnitude = int(np.abs(num).max()) if num.dtype != object else max(abs(int(num.max())), abs(int(num.min())))
    big = max(max(max(abs(x) for x in r) for r in a), 1) * max(magnitude, 1) * K
    if big < 2**62 and num.dtype != object:
        A, det, row = np.array(a, dtype=np.int64), det.astype(np.int64), row.astype(np.int64)
    else:
        A, det, row = np.array(a, dtype=object), det.astype(object), row.astype(object)
    members = cells.members[rows]
    if witness:  # (n, K_h): Σ_y a_y c_h(y) − Σ_y a_y c_Y(y)
        index, w = _support(weights)
        if index.shape[1] * 4 > K:  # wide supports: one product over every class
            gap = A @ det.T - (A * row).sum(axis=1)[:, None]
        else:  # narrow ones (two-point p at 200 classes): gathered over each p's support, in blocks
            coefficients = np.where(w > 0, np.take_along_axis(A, index, 1), 0).astype(A.dtype)  # padding: 0
            own = np.take_along_axis(row, index, 1)  # (n, j)
            gap = np.empty((len(rows), K), dtype=A.dtype)
            step = max(1, 4_000_000 // (K * index.shape[1]))
            for start in range(0, len(rows), step):
                part = slice(start, start + step)
                terms = det.T[index[part]].transpose(0, 2, 1) - own[part][:, None, :]  # (n, h, j)
                gap[part] = (coefficients[part][:, None, :] * terms).sum(axis=2)
        return ((gap > 0) | ~members).all(axis=1)
    slack = row * np.array(q, dtype=A.dtype)[:, None] - A @ det  # (n, K_y): q c_Y(y) − Σ_h a_h c_h(y)
    return (slack >= 0).all(axis=1)


def _intervals(cells, rows, weights, witness: bool) -> np.ndarray:
    K = cells.K
    lo, hi = cells.rows.lo, cells.rows.hi
    members = cells.members[rows]
    if witness:  # terms p_y (c_h(y) − c_Y(y)) as intervals, [n, h, j] over the support y = index[n, j] of p
        index, w = _support(weights)
        w_lo, w_hi = np.maximum(np.nextafter(w, -np.inf), 0.0), np.where(w > 0, np.nextafter(w, np.inf), 0.0)
        det_lo, det_hi = lo[:K].T[index], hi[:K].T[index]  # (n, j, h)
        own_lo, own_hi = np.take_along_axis(lo[rows], index, 1), np.take_along_axis(hi[rows], index, 1)
        d_lo = _down(np.swapaxes(det_lo, 1, 2) - own_hi[:, None, :])
        d_hi = _up(np.swapaxes(det_hi, 1, 2) - own_lo[:, None, :])
        t_lo, t_hi = _times_nonnegative(w_lo[:, None, :], w_hi[:, None, :], d_lo, d_hi)
        low, _ = _sum(t_lo, t_hi)
        return ((low > 0) | ~members).all(axis=1)
    w = np.array([[float(x) for x in ws] for ws in weights])
    w_lo, w_hi = np.maximum(np.nextafter(w, -np.inf), 0.0), np.nextafter(w, np.inf)
    # c_Y(y) − Σ_h λ_h c_h(y): terms [n, h, y]
    t_lo, t_hi = _times_nonnegative(w_lo[:, :, None], w_hi[:, :, None], lo[None, :K, :], hi[None, :K, :])
    mix_lo, mix_hi = _sum(np.swapaxes(t_lo, 1, 2), np.swapaxes(t_hi, 1, 2))  # (n, y)
    return (_down(lo[rows] - mix_hi) >= 0).all(axis=1)


def _support(weights: list[list[Fraction]]) -> tuple[np.ndarray, np.ndarray]:
    """Each p's nonzero classes and their weights as floats, padded (weight exactly 0) with its first class."""
    support = [[y for y, x in enumerate(ws) if x] for ws in weights]
    width = max(1, max(len(s) for s in support))
    index, w = np.zeros((len(weights), width), dtype=np.int64), np.zeros((len(weights), width))
    for i, s in enumerate(support):
        index[i] = s + [s[0]] * (width - len(s))
        w[i, :len(s)] = [float(weights[i][y]) for y in s]
    return index, w


def _times_nonnegative(w_lo, w_hi, x_lo, x_hi):
    """[w_lo, w_hi] x [x_lo, x_hi] with w >= 0."""
    with np.errstate(invalid="ignore", over="ignore"):
        low = np.minimum(w_lo * x_lo, w_hi * x_lo)
        high = np.maximum(w_lo * x_hi, w_hi * x_hi)
    return _down(np.where(np.isnan(low), -np.inf, low)), _up(np.where(np.isnan(high), np.inf, high))


def _sum(t_lo, t_hi):
    n = t_lo.shape[-1]
    gamma = n * _U / (1 - n * _U)
    with np.errstate(invalid="ignore", over="ignore"):
        low = t_lo.sum(axis=-1) - gamma * np.abs(t_lo).sum(axis=-1) * (1 + 2.0**-50) - n * 2.0**-1074
        high = t_hi.sum(axis=-1) + gamma * np.abs(t_hi).sum(axis=-1) * (1 + 2.0**-50) + n * 2.0**-1074
    return _down(low), _up(high)


def _down(x):
    return np.nextafter(x, -np.inf)


def _up(x):
    return np.nextafter(x, np.inf)
