"""Batch decisions when every class is treated alike: c_Y(y) = a_|Y| for y ∈ Y and b_|Y| otherwise.

The best set of size k is then the k likeliest classes (a_k < b_k), the k least likely (a_k > b_k) or, when
a_k = b_k, any k classes (reported as the first k, as `decide` reports the first of tied optima). Its expected
cost times the row's sum S is V_k = b_k·S + (a_k − b_k)·M_k, with M_k the mass of those k classes, so a row
needs a sort and K comparisons, never 2^K sets.

Floats search and separate, integers decide. The sort of a block's floats is exact where the floats are the
values (binary rows) or where non-zero floats of a row are equal only for equal values, checked in integers
(rounding is monotone, so it keeps every strict order, and zeros are exact). V_k is computed in floats with a
proven bound: each term b_k·S and (a_k − b_k)·M_k is within γ_{K+3} relative of its value (inputs within
2^-53, a cumulative sum of K non-negative terms, the rounded cost, one product and one sum), so
|fl(V_k) − V_k| ≤ 2(K + 4)·2^-53·(|b_k|·S + |a_k − b_k|·M_k)
plus an absolute 1e-300 for underflow. A row whose best size is below every other by more than both bounds
(and whose order is exact) is decided there; any other row (a tie, a near tie, equal non-zero floats in a
rounded row) is decided exactly in integers: its numerators sorted, V_k·q·total compared as integers.
When every best set is the k likeliest classes, only the values are sorted (no order): a row's set is then every
class above its cut value and the lowest classes of the cut's group, as many as the sorted values put inside.

Owns: `symmetric_costs`, `decide_symmetric`. May import: `using.exact.exact_rows`, `scheme`.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, lcm

import numpy as np

from verifier.scheme import ClassSet, Scheme
from verifier.using.exact import ExactRows, U

MAX_KNOWN = 1 << 16  # masks whose sets are kept between blocks (u65 at K = 10 predicts about 1,000 sets)
_SETS: dict[int, dict[int, ClassSet]] = {}  # K -> mask -> its set


def symmetric_costs(scheme: Scheme) -> tuple[list[Fraction], list[Fraction]] | None:
    """(a, b) with c_Y(y) = a[|Y|] for y ∈ Y and b[|Y|] otherwise, when that holds exactly for every cell."""
    K = scheme.K
    cells = getattr(scheme, "cells", None)
    if cells is not None:
        return _symmetric_arrays(cells)
    a: list[Fraction | None] = [None] * (K + 1)
    b: list[Fraction | None] = [None] * (K + 1)
    for members in scheme.all_sets:
        for y in range(K):
            v = scheme.cost(members, y)
            if not getattr(v, "is_Rational", False):
                return None
            value = Fraction(int(v.p), int(v.q))
            table = a if y in members else b
            if table[len(members)] is None:
                table[len(members)] = value
            elif table[len(members)] != value:
                return None
    return [x or Fraction(0) for x in a], [x or Fraction(0) for x in b]


def _symmetric_arrays(cells) -> tuple[list[Fraction], list[Fraction]] | None:
    """The same test on the fast path's exact integer arrays, without a cell-by-cell pass."""
    rows = cells.rows
    if not rows.exact.all():
        return None
    num, member = np.asarray(rows.num), cells.members
    a, b = [Fraction(0)] * (cells.K + 1), [Fraction(0)] * (cells.K + 1)
    order = np.argsort(cells.sizes, kind="stable")  # the rows of each size together: one pass, not one per size
    sizes, starts = np.unique(cells.sizes[order], return_index=True)
    for k, rows_k in zip(sizes.tolist(), np.split(order, starts[1:])):  # the family's sizes, not every size to K
        inside = member[rows_k]
        for table, where in ((a, inside), (b, ~inside)):
            values = num[rows_k][where]
            if values.size and np.any(values != values.flat[0]):
                return None
            if values.size:
                table[k] = Fraction(int(values.flat[0]), int(rows.den))
    return a, b


def decide_symmetric(block: ExactRows, a: list[Fraction], b: list[Fraction], top: int | None = None) \
        -> tuple[list[ClassSet], list[int], int]:
    """(prediction, how many sets tie for the optimum, rows decided in integers) for a block of rows; `top`:
    sets of at most that many classes (`{max_size: top}`), else every size."""
    n, K = block.floats.shape
    if n == 0:
        return [], [], 0
    top = K if top is None else min(top, K)
    F = block.floats
    ks = np.arange(1, top + 1)
    bf = np.array([float(b[k]) for k in ks])
    df = np.array([float(a[k] - b[k]) for k in ks])
    likeliest = np.array([a[k] < b[k] for k in ks])
    alike = np.array([a[k] == b[k] for k in ks])
    width = min(K, top + 1)  # sets of at most top classes need the first top + 1 of each order only
    # no size below K keeps the least likely classes (u65, Ha, ...; at K every order gives the whole row's mass):
    # one sort
    one_sort = bool((likeliest | alike)[:K - 1].all())
    # every best set the k likeliest, any size: the sorted values suffice (4 times faster than the order); each
    # row's set is found from its cut below
    values_only = one_sort and width == K and not alike.any() and K <= 52
    order = None if values_only else _leading(-F, width)  # likeliest first, the lower class first among equals
    down = -np.sort(-F, axis=1) if values_only else np.take_along_axis(F, order, axis=1)
    if one_sort:
        rising, up = order, down
    else:
        rising = _leading(F, width)
        up = np.take_along_axis(F, rising, axis=1)
    prefix = np.cumsum(down, axis=1)  # one cumulative sum serves the total, and the masses from the top
    total = prefix[:, -1:] if width == K else F.sum(axis=1, keepdims=True)
    from_top = prefix[:, :top]
    mass = from_top if likeliest.all() else \
        np.where(likeliest, from_top, from_top if up is down else np.cumsum(up[:, :top], axis=1))
    value = bf * total + df * mass
    error = 2 * (K + 4) * U * (np.abs(bf) * total + np.abs(df) * mass) + 1e-300 * (1 + np.abs(bf) + np.abs(df))
    rows = np.arange(n)
    best = np.argmin(value, axis=1)
    high = value[rows, best] + error[rows, best]
    low = value - error
    low[rows, best] = np.inf
    certain = np.min(low, axis=1) > high
    if block.rel:  # rounded floats: the order (of the first top + 1, enough for sets of at most top) is exact
        for ranked_floats, ranks in ((down, order), (up, rising)) if rising is not order else ((down, order),):
            same = (ranked_floats[:, 1:width] == ranked_floats[:, :width - 1]) & (ranked_floats[:, 1:width] > 0)
            for i in np.flatnonzero(same.any(axis=1) & certain).tolist():  # where equal non-zero floats are
                num = block.num[i]  # equal values, checked in integers
                o = ranks[i] if ranks is not None else np.argsort(-F[i], kind="stable")
                certain[i] = all(num[o[j]] == num[o[j + 1]] for j in np.flatnonzero(same[i]).tolist())
    k = best + 1
    one_order = up is down or likeliest.all()  # every best set is a top-k (u65, Ha, ...): no choice per row
    ranked_values = down[:, :top] if one_order else np.where(likeliest[best][:, None], down[:, :top], up[:, :top])
    cut = ranked_values[rows, best][:, None]
    inside = ((ranked_values == cut) & (np.arange(top) < k[:, None])).sum(axis=1)  # tied at the cut, inside
    equal = (F == cut).sum(axis=1)
    if block.rel and top + 1 < K:  # the cut's group may reach past the checked order: decide those rows exactly
        last = np.where(likeliest[best], down[:, top], up[:, top])
        certain &= ~((last == cut[:, 0]) & (cut[:, 0] > 0))
    if not values_only:
        ranked = order[:, :top] if one_order else np.where(likeliest[best][:, None], order[:, :top], rising[:, :top])
        within = np.arange(top) < k[:, None]
    # every row as the floats decided it (vectorised), then the rows they could not decide, one by one in integers
    if values_only:  # the k likeliest: every class above the cut, then the lowest classes of the cut's group
        bits = np.ldexp(1.0, np.arange(K))  # 2^j: sums of distinct ones are exact below 2^53
        at = F == cut
        masks = ((F > cut) @ bits + np.where(equal == inside, at @ bits, 0.0)).astype(np.int64)
        for i in np.flatnonzero(equal != inside).tolist():  # equal floats at the cut, not all inside
            masks[i] += sum(1 << j for j in np.flatnonzero(at[i])[:inside[i]].tolist())
        masks = masks.tolist()
    elif K < 63 and not alike.any():  # each row's set is the first k of its order: a running OR of its bits
        masks = np.bitwise_or.accumulate(np.left_shift(1, ranked.astype(np.int64)), axis=1)[rows, best].tolist()
    else:
        chosen = np.where(within, ranked, K)
        if alike.any():  # a size whose sets all cost alike: its first k classes
            chosen = np.where(alike[best][:, None], np.where(within, np.arange(top), K), chosen)
        if K < 64:
            masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), chosen.astype(np.uint64))
                                         & np.uint64(2 ** K - 1), axis=1).tolist()
        else:  # one key per row from its first k classes (a mask of K bits would not fit)
            masks = [tuple(sorted(row[:kk])) for row, kk in zip(chosen.tolist(), k.tolist())]
    if K < 64:
        known = _SETS.setdefault(K, {})  # each mask's set, made once per process (a few thousand at most)
        if len(known) > MAX_KNOWN:
            known.clear()
        for m in set(masks).difference(known):
            known[m] = frozenset(y for y in range(K) if m >> y & 1)
        sets = known
    else:
        sets = {m: frozenset(m) for m in set(masks)}
    predictions = [sets[m] for m in masks]
    counts = _ways(K, k, alike[best], equal, inside)
    unsure = np.flatnonzero(~certain).tolist()
    for i in unsure:
        predictions[i], counts[i] = _exact_row(block.num[i], block.total[i], a, b, top)
    return predictions, counts, len(unsure)


def _ways(K: int, k: np.ndarray, alike: np.ndarray, equal: np.ndarray, inside: np.ndarray) -> list[int]:
    """How many sets tie with each row's: C(K, k) where any k classes do, C(equal, inside) where the cut is tied."""
    if K <= 66:  # a table in int64: C(66, 33) < 2^63
        ways = np.array([[comb(n, r) for r in range(K + 1)] for n in range(K + 1)], dtype=np.int64)
        return np.where(alike, ways[K, k], np.where(equal > inside, ways[equal, inside], 1)).tolist()
    return [comb(K, kk) if same else (comb(e, inn) if e > inn else 1)
            for kk, same, e, inn in zip(k.tolist(), alike.tolist(), equal.tolist(), inside.tolist())]


def _leading(key: np.ndarray, width: int) -> np.ndarray:
    """The first `width` columns of each row's stable ascending order of `key` (the lower class first among
    equals): a partition, then a sort of those columns; a row whose boundary value has equals left outside is
    sorted in full, so the lower classes among them are kept."""
    K = key.shape[1]
    if width >= K:
        return np.argsort(key, axis=1, kind="stable")
    part = np.argpartition(key, width - 1, axis=1)[:, :width]
    order = np.take_along_axis(part, np.lexsort((part, np.take_along_axis(key, part, axis=1)), axis=1), axis=1)
    boundary = np.take_along_axis(key, order[:, -1:], axis=1)
    kept = (np.take_along_axis(key, order, axis=1) == boundary).sum(axis=1)
    redo = np.flatnonzero((key == boundary).sum(axis=1) > kept)
    if redo.size:
        order[redo] = np.argsort(key[redo], axis=1, kind="stable")[:, :width]
    return order


def _exact_row(num: list[int], total: int, a: list[Fraction], b: list[Fraction], limit: int | None = None) \
        -> tuple[ClassSet, int]:
    """The optimum of one row in integers: V_k·q·total = B_k·total + (A_k − B_k)·M_k, with M_k in numerators."""
    K = len(num)
    q = lcm(*(x.denominator for x in a[1:] + b[1:]))
    A = [x.numerator * (q // x.denominator) for x in a]
    B = [x.numerator * (q // x.denominator) for x in b]
    order = sorted(range(K), key=lambda y: (-num[y], y))
    rising = sorted(range(K), key=lambda y: (num[y], y))
    best, chosen, count = None, None, 0
    for k in range(1, (limit or K) + 1):
        if A[k] == B[k]:
            top, ways = list(range(k)), comb(K, k)
        else:
            ranked = order if A[k] < B[k] else rising
            top = ranked[:k]
            cut = num[ranked[k - 1]]
            ways = comb(sum(1 for y in range(K) if num[y] == cut), sum(1 for y in top if num[y] == cut))
        value = B[k] * total + (A[k] - B[k]) * sum(num[y] for y in top)
        if best is None or value < best:
            best, chosen, count = value, frozenset(top), ways
        elif value == best:
            count += ways
    return chosen, count
