"""The percentile bootstrap of `verify evaluate`, for every classifier of a data set at once.

One resample index matrix (BOOTSTRAP rows of n instance indices, drawn by a numpy Generator seeded with SEED) is
applied to every classifier's per-instance costs: row b of the result holds each classifier's mean cost over the
b-th resample. A paired comparison then needs no resampling of its own: the mean of the differences a - b over a
resample is mean(a[idx]) - mean(b[idx]), so its bootstrap distribution is the difference of two rows, and both
classifiers are resampled alike. The indices are drawn in the same blocks, in the same order, as the scalar
loop that resampled one classifier at a time (`rng.integers(0, n, size=(block, n))`), so a classifier's
interval is the same number whichever classifiers are scored beside it, and the same as before vectorising.
Intervals are statistical estimates in floats, never verdicts.

Many instances with few distinct values (n at least COUNTS_FROM times the number of distinct values, as a
classifier's costs under a scheme mostly are): a resample is then drawn as how many of its n instances carry each
distinct value, Multinomial(n, counts / n), which is the distribution of the resampled instances' values that the
index draws give, at a cost in the distinct values rather than in n (10^6 instances: milliseconds, where the
indices take tens of seconds). Such a vector is resampled on its own, with a Generator seeded with SEED; a pair of
classifiers that is not resampled by indices on both sides is resampled through its own differences alike."""

from __future__ import annotations

import numpy as np

BOOTSTRAP = 2000
SEED = 20170101
BLOCK_VALUES = 4_000_000  # about 32 MB of indices or gathered costs at a time
COUNTS_FROM = 64  # n values with at most n / COUNTS_FROM distinct ones are resampled by counts


def few_values(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The distinct values and their counts when they are few enough to resample by counts, else None."""
    n = len(values)
    if n < 2 * COUNTS_FROM:
        return None
    distinct, counts = np.unique(values, return_counts=True)
    return (distinct, counts) if COUNTS_FROM * len(distinct) <= n else None


def counts_means(distinct: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """(BOOTSTRAP,) resampled means of n values given as distinct values and counts: each resample's counts are
    Multinomial(n, counts / n), as resampling the n instances gives."""
    n = int(counts.sum())
    drawn = np.random.default_rng(SEED).multinomial(n, counts / n, size=BOOTSTRAP)
    return drawn @ distinct / n


def resample_means(costs: np.ndarray) -> np.ndarray:
    """(C, n) per-instance costs -> (C, BOOTSTRAP) mean cost of each classifier over each resample (the same
    resampled instances for every classifier)."""
    costs = np.atleast_2d(np.asarray(costs, dtype=float))
    classifiers, n = costs.shape
    rng = np.random.default_rng(SEED)
    means = np.empty((classifiers, BOOTSTRAP))
    if n == 0 or classifiers == 0:
        means.fill(np.nan)
        return means
    by_counts = [few_values(row) for row in costs]
    for c, few in enumerate(by_counts):
        if few is not None:
            means[c] = counts_means(*few)
    costs_by_index = [c for c, few in enumerate(by_counts) if few is None]
    if not costs_by_index:
        return means
    block = max(1, min(100, BLOCK_VALUES // n))
    # many short rows: gather a chunk of classifiers at once; long rows: one classifier at a time (np.take
    # along axis 1 of a long matrix is several times slower than one row's gather)
    chunk = max(1, BLOCK_VALUES // (block * n)) if n < 1000 else 1
    for start in range(0, BOOTSTRAP, block):
        rows = min(block, BOOTSTRAP - start)
        idx = rng.integers(0, n, size=(rows, n), dtype=np.int32 if n < 2**31 else np.int64)  # the same draws
        for first in range(0, len(costs_by_index), chunk):
            which = costs_by_index[first:first + chunk]
            if chunk == 1:
                means[which[0], start:start + rows] = costs[which[0]][idx].mean(axis=1)
            else:
                means[which, start:start + rows] = np.take(costs[which], idx, axis=1).mean(axis=2)
    return means


def percentile_intervals(means: np.ndarray, level: float) -> np.ndarray:
    """(P, B) resampled means -> (P, 2) percentile intervals at `level` (each row's quantiles, as np.quantile
    gives them for that row alone)."""
    means = np.atleast_2d(means)
    tail = (1 - level) / 2
    if means.shape[0] == 0:
        return np.empty((0, 2))
    return np.quantile(means, [tail, 1 - tail], axis=1).T


def bootstrap_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of `values` (one classifier's costs, or the per-instance
    differences of a pair)."""
    low, high = percentile_intervals(resample_means(np.asarray(values, dtype=float)[None, :]), level)[0]
    return float(low), float(high)
