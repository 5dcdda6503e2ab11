"""Decisions from logits when every class is treated alike (c_Y(y) = a_|Y| for y ∈ Y, b_|Y| otherwise, rational):
a sort of each row and K comparisons, never every set.

Softmax is strictly increasing in each logit, so the order of p = softmax(y) is the order of y, exactly, and
equal logits give equal probabilities. As in `symmetric`, the best set of size k is then the k largest logits
(a_k < b_k), the k smallest (a_k > b_k) or any k classes (a_k = b_k, reported as the first k); among equal
logits at the cut the lower classes are taken, which is the set `min(optimal, key=(len, sorted))` reports.
Its expected cost times Σ_i e^{y_i − m} is V_k = b_k·S + (a_k − b_k)·M_k with S = Σ_i W_i and M_k the W of
those k classes, W = e^{y − m}. Only sets of one size tie by swapping equal logits (any other set of that size
holds a strictly smaller or larger weight, as e^x is strictly increasing), so a row's tied optima are
C(equal, inside) at the cut per tied size (C(K, k) where a_k = b_k).

Floats screen with a proven bound: W from `logit_exact.bounded_exp`, each within its relative error r (the
exponential's and the rounding of y − m, as `LogitDecider` bounds them), sums of at most K non-negative terms,
each cost rounded once, one product and one sum: |fl(V_k) − V_k| ≤ (3r + 4(K + 4)·2^-53)·(|b_k|·S + |a_k − b_k|·M_k)
plus K·TINY_WEIGHT·(|b_k| + |a_k − b_k|) for weights near the subnormal range. A row whose best size is below
every other by more than both bounds is decided there. A row of rounded decimals with two equal floats (whose
order the floats do not decide), and any row not separated, is decided exactly: its candidates compared by
`softmax_sign` (Lindemann–Weierstrass for exact ties, arb balls otherwise).

Owns: `symmetric_logit_rows`, `exact_symmetric_row`. May import: `using.decide.logit_exact`, `using.inputs.logits`.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from verifier.using.decide.logit_exact import TINY_WEIGHT, row_exps, softmax_sign
from verifier.using.inputs import LogitRows

_U = 2.0 ** -53


def symmetric_logit_rows(rows: LogitRows, a: list[Fraction], b: list[Fraction], W: np.ndarray, rel: np.ndarray,
                         known: dict) -> tuple[list, list[int], list[int], int]:
    """(predictions, tied optima, rows left undecided, rows decided exactly) of a block of logit rows; W and rel:
    the block's weights and their relative errors (`logit_exact.weights`); `known`: mask -> set, kept by the
    caller between blocks."""
    Z = rows.floats
    n, K = Z.shape
    ks = range(1, K + 1)
    bf = np.array([float(b[k]) for k in ks])
    df = np.array([float(a[k] - b[k]) for k in ks])
    likeliest = np.array([a[k] < b[k] for k in ks])
    alike = np.array([a[k] == b[k] for k in ks])
    down = np.argsort(-Z, axis=1, kind="stable")  # largest logit first, the lower class first among equals
    up = np.argsort(Z, axis=1, kind="stable")  # smallest first, the lower class first among equals
    index = np.arange(n)[:, None]
    total = W.sum(axis=1, keepdims=True)
    mass = np.where(likeliest, np.cumsum(W[index, down], axis=1), np.cumsum(W[index, up], axis=1))
    value = bf * total + df * mass
    r = rel.max(axis=1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        error = (3 * r + 4 * (K + 4) * _U) * (np.abs(bf) * total + np.abs(df) * mass) \
            + K * TINY_WEIGHT * (np.abs(bf) + np.abs(df)) + 1e-300
    rows_i = np.arange(n)
    best = np.argmin(value, axis=1)
    high = value[rows_i, best] + error[rows_i, best]
    low = value - error
    low[rows_i, best] = np.inf
    certain = np.min(low, axis=1) > high  # nan (an infinite bound) is never certain
    if rows.exact is not None:  # rounded decimals: equal floats may be unequal values, so the order is not known
        ranked = np.take_along_axis(Z, down, axis=1)
        certain &= ~(ranked[:, 1:] == ranked[:, :-1]).any(axis=1)
    # each row's set as the floats found it: the first k of its order (masks of K bits, K < 63 here)
    chosen = np.where(likeliest[best][:, None], down, up)
    bits = np.left_shift(np.int64(1), chosen.astype(np.int64))
    masks = np.bitwise_or.accumulate(bits, axis=1)[rows_i, best]
    masks = np.where(alike[best], (np.int64(1) << (best + 1).astype(np.int64)) - 1, masks).tolist()
    for m in set(masks).difference(known):
        known[m] = frozenset(y for y in range(K) if m >> y & 1)
    predictions = [known[m] for m in masks]
    cut = Z[rows_i, chosen[rows_i, best]][:, None]
    equal = (Z == cut).sum(axis=1)
    inside = ((np.take_along_axis(Z, chosen, axis=1) == cut) & (np.arange(K) <= best[:, None])).sum(axis=1)
    ways = np.array([[comb(e, i) for i in range(K + 1)] for e in range(K + 1)], dtype=np.int64)
    counts = np.where(alike[best], ways[K, best + 1], ways[equal, inside]).tolist()
    undecided, unsure = [], np.flatnonzero(~certain).tolist()
    for i in unsure:
        predictions[i], counts[i], doubt = exact_symmetric_row(rows.row(i), a, b)
        if doubt:
            undecided.append(i)
    return predictions, counts, undecided, len(unsure)


def exact_symmetric_row(y: list[Fraction], a: list[Fraction], b: list[Fraction]) -> tuple[frozenset, int, bool]:
    """One row's optimum at softmax(y), exactly: (the set reported, tied optima, some comparison undecided)."""
    K = len(y)
    down = sorted(range(K), key=lambda i: (-y[i], i))
    up = sorted(range(K), key=lambda i: (y[i], i))
    candidates = []
    for k in range(1, K + 1):
        if a[k] == b[k]:
            members, ways = list(range(k)), comb(K, k)
        else:
            members = (down if a[k] < b[k] else up)[:k]
            cut = y[members[-1]]
            ways = comb(sum(1 for x in y if x == cut), sum(1 for i in members if y[i] == cut))
        inside = set(members)
        candidates.append((frozenset(members), ways, [a[k] if i in inside else b[k] for i in range(K)]))
    exps, unsure = row_exps(y), False

    def sign(z: int, w: int) -> int | None:
        return softmax_sign([p - q for p, q in zip(candidates[z][2], candidates[w][2])], y, exps)

    best = 0
    for z in range(1, K):
        s = sign(z, best)
        unsure |= s is None
        if s == -1:
            best = z
    tied = [best]
    for z in range(K):
        s = 0 if z == best else sign(z, best)
        unsure |= s is None
        if s == 0 and z != best:
            tied.append(z)
    tied.sort()  # sizes rising: the first is the smallest set
    return candidates[tied[0]][0], sum(candidates[z][1] for z in tied), unsure
