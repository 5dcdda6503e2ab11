"""The masses of a family's sets, row by row, without the family's matrix: a hierarchy's nodes in one pass over
the tree, intervals as differences of prefix sums; then the optimum of V_Y = b_n·S + (a_n − b_n)·M_Y.

Floats search: S and the masses are sums of at most K non-negative terms, each input within 2^-53 relative
(`ExactRows`), so each is within γ_{K+2} of its value; a prefix-sum difference is within 2γ_{K+2}·S plus one
rounding. The bound used for every candidate, 4(K + 4)·2^-53·(|b_n| + |a_n − b_n|)·S plus 1e-300 for
underflow, covers both, the rounded costs and the products. A row whose best set is below every other by more
than both bounds is decided there; any other row (a tie, a near tie) is decided in integers, every allowed set
compared, ties counted, and the first in table order (by size, then in class order) reported.

Owns: `decide_tree`, `decide_intervals`. May import: `using.exact.exact_rows`, `scheme`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from verifier.scheme import ClassSet
from verifier.using.exact import ExactRows, U


def _floats(a: list[Fraction], b: list[Fraction], sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    bf = np.array([float(b[n]) for n in range(len(b))])[sizes]
    df = np.array([float(a[n] - b[n]) for n in range(len(a))])[sizes]
    return bf, df


def _integers(a: list[Fraction], b: list[Fraction]) -> tuple[list[int], list[int]]:
    q = lcm(*(x.denominator for x in a[1:] + b[1:]))
    return [x.numerator * (q // x.denominator) for x in a], [x.numerator * (q // x.denominator) for x in b]


def _radius(K: int, bf: np.ndarray, df: np.ndarray, total: np.ndarray) -> np.ndarray:
    return 4 * (K + 4) * U * (np.abs(bf) + np.abs(df)) * total + 1e-300 * (1 + np.abs(bf) + np.abs(df))


def children(K: int, nodes) -> list[list[int]]:
    """For each node (listed by size, laminar), its direct children as candidate indices (classes 0..K-1,
    then node j at K + j): each class's smallest enclosing node so far, as the nodes grow."""
    owner = list(range(K))
    out = []
    for j, members in enumerate(nodes):
        out.append(sorted({owner[y] for y in members}))
        for y in members:
            owner[y] = K + j
    return out


def decide_tree(block: ExactRows, a: list[Fraction], b: list[Fraction], nodes) \
        -> tuple[list[ClassSet], list[int], int]:
    """A hierarchy's optimum per row: the singletons, then the nodes (by size, then in class order)."""
    n, K = block.floats.shape
    if n == 0:
        return [], [], 0
    kids = children(K, nodes)
    sizes = np.array([1] * K + [len(m) for m in nodes])
    mass = np.empty((n, K + len(nodes)))
    mass[:, :K] = block.floats
    for j, below in enumerate(kids):
        mass[:, K + j] = mass[:, below].sum(axis=1)
    total = block.floats.sum(axis=1, keepdims=True)
    bf, df = _floats(a, b, sizes)
    value = bf * total + df * mass
    radius = _radius(K, bf, df, total)
    certain, best = _separated(value, radius)
    sets = [frozenset((y,)) for y in range(K)] + [frozenset(m) for m in nodes]
    predictions, counts, exact = [], [], 0
    A, B = _integers(a, b)
    for i, (sure, k) in enumerate(zip(certain.tolist(), best.tolist())):
        if sure:
            predictions.append(sets[k])
            counts.append(1)
            continue
        exact += 1
        num = block.num[i]
        masses = list(num) + [0] * len(nodes)
        for j, below in enumerate(kids):
            masses[K + j] = sum(masses[c] for c in below)
        values = [B[s] * block.total[i] + (A[s] - B[s]) * m for s, m in zip(sizes.tolist(), masses)]
        low = min(values)
        predictions.append(sets[values.index(low)])
        counts.append(values.count(low))
    return predictions, counts, exact


def _separated(value: np.ndarray, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows = np.arange(len(value))
    best = np.argmin(value, axis=1)
    high = value[rows, best] + radius[rows, best]
    low = value - radius
    low[rows, best] = np.inf
    return np.min(low, axis=1) > high, best


def decide_intervals(block: ExactRows, a: list[Fraction], b: list[Fraction]) \
        -> tuple[list[ClassSet], list[int], int]:
    """Intervals' optimum per row: the singletons, then the intervals by size, then by first class. Each size
    keeps its least value and its runner-up, so no row holds all K(K+1)/2 values at once."""
    n, K = block.floats.shape
    if n == 0:
        return [], [], 0
    prefix = np.zeros((n, K + 1))
    np.cumsum(block.floats, axis=1, out=prefix[:, 1:])
    total = prefix[:, -1]
    bf, df = _floats(a, b, np.arange(K + 1))
    best_value = np.full(n, np.inf)
    best_radius = np.zeros(n)
    best_set = np.zeros((n, 2), dtype=np.int64)  # (size, first class)
    other = np.full(n, np.inf)  # a lower bound on every other candidate
    rows = np.arange(n)
    for size in range(1, K + 1):
        window = prefix[:, size:] - prefix[:, :-size]
        value = bf[size] * total[:, None] + df[size] * window
        radius = _radius(K, bf[size], df[size], total)
        start = np.argmin(value, axis=1)
        least = value[rows, start]
        runner = np.partition(value, 1, axis=1)[:, 1] if value.shape[1] > 1 else np.full(n, np.inf)
        better = least < best_value  # strictly: an earlier candidate keeps a tie
        other = np.minimum(other, np.where(better, best_value - best_radius, least - radius))
        other = np.minimum(other, runner - radius)
        best_value = np.where(better, least, best_value)
        best_radius = np.where(better, radius, best_radius)
        best_set[better] = np.stack([np.full(n, size), start], axis=1)[better]
    certain = other > best_value + best_radius
    predictions, counts, exact = [], [], 0
    A, B = _integers(a, b)
    for i, (sure, (size, first)) in enumerate(zip(certain.tolist(), best_set.tolist())):
        if sure:
            predictions.append(frozenset(range(first, first + size)))
            counts.append(1)
            continue
        exact += 1
        chosen, count = _exact_intervals(block.num[i], block.total[i], A, B)
        predictions.append(chosen)
        counts.append(count)
    return predictions, counts, exact


def _exact_intervals(num: list[int], total: int, A: list[int], B: list[int]) -> tuple[ClassSet, int]:
    K = len(num)
    prefix = [0]
    for x in num:
        prefix.append(prefix[-1] + x)
    best, chosen, count = None, None, 0
    for size in range(1, K + 1):
        for first in range(K - size + 1):
            value = B[size] * total + (A[size] - B[size]) * (prefix[first + size] - prefix[first])
            if best is None or value < best:
                best, chosen, count = value, (size, first), 1
            elif value == best:
                count += 1
    return frozenset(range(chosen[1], chosen[1] + chosen[0])), count
