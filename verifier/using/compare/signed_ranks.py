"""The Wilcoxon signed-rank test row by row, as scipy.stats.wilcoxon(d) runs it by default (two-sided,
zero_method='wilcox', correction=False, method='auto'), with the effect sizes reviewers ask for beside it.

scipy's method='auto' (scipy 1.15 on): more than 50 differences (zeros included) -> the normal approximation;
else no zero and no tie among the |differences| -> the exact null distribution; else at most 13 differences ->
a permutation test over all 2^n sign assignments (exact, given the ties and zeros); else the normal
approximation with tie correction. The choice is made here per row, and scipy is called with that method, so a
row's p-value is the one scipy's own 'auto' gives for it alone, whatever scipy version decides 'auto' otherwise
(a batch call of scipy's 'auto' decides for all rows at once). The distributions are scipy's, never re-derived.

Effect sizes (statistical estimates, floats): the matched-pairs rank-biserial correlation
r = (R+ − R−) / (R+ + R−) over the non-zero differences d = a − b (Kerby 2014; positive: a costs more), and
Cliff's δ = P(cost of a > cost of b) − P(cost of a < cost of b) over all n² pairs of instances, from scipy's
Mann-Whitney U (δ = 2U/n² − 1; positive: a tends to cost more)."""

from __future__ import annotations

import numpy as np

EXACT_AT_MOST = 50  # scipy's 'auto': the exact distribution for at most this many differences
PERMUTATION_AT_MOST = 13  # 2^13 sign assignments: fewer than scipy's 9,999 resamples, so all are enumerated
PERMUTATION_VALUES = 20_000_000  # rows x 2^n x n per permutation_test call (its resamples in memory, ~160 MB)
METHODS = {
    "exact": "exact null distribution (no zero difference, no ties among the |differences|, at most 50 of them)",
    "permutation": ("exact permutation distribution over all 2^n sign assignments (zero or tied differences, "
                    "at most 13 of them)"),
    "asymptotic": ("normal approximation with tie correction, no continuity correction (more than 50 "
                   "differences, or zero or tied ones among more than 13)"),
}


def auto_method(n: int, zeros: bool, tied: bool) -> str:
    """scipy.stats.wilcoxon's method='auto' choice for one row of n differences (zeros counted in n)."""
    if n > EXACT_AT_MOST:
        return "asymptotic"
    if not zeros and not tied:
        return "exact"
    return "permutation" if n <= PERMUTATION_AT_MOST else "asymptotic"


def wilcoxon_rows(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, list, np.ndarray, np.ndarray]:
    """Per row of d (pairs x instances): scipy's statistic min(R+, R−) and two-sided p-value, the method used
    ('exact', 'permutation', 'asymptotic'; None: no non-zero value, not run), the side the signed ranks favour
    (-1: the negative values, 1: the positive ones, 0: neither) and the matched-pairs rank-biserial r (NaN when
    not run)."""
    stats = _stats()
    rows, n = d.shape
    statistic, p, r = np.full(rows, np.nan), np.full(rows, np.nan), np.full(rows, np.nan)
    methods: list = [None] * rows
    favours = np.zeros(rows, dtype=np.int8)
    nonzero = d != 0
    counts = nonzero.sum(axis=1)
    for m in np.unique(counts[counts > 0]).tolist():
        where = np.flatnonzero(counts == m)
        x = d[where][nonzero[where]].reshape(len(where), m)  # each row's non-zero values, in their order
        magnitudes = np.abs(x)
        tied = (np.diff(np.sort(magnitudes, axis=1), axis=1) == 0).any(axis=1)
        chosen = np.array([auto_method(n, m < n, t) for t in tied.tolist()])
        for method in ("exact", "permutation", "asymptotic"):
            rows_of = chosen == method
            if not rows_of.any():
                continue
            if method == "permutation":
                statistic[where[rows_of]], p[where[rows_of]] = permutation_rows(d[where[rows_of]])
                continue
            # the exact distribution sees no zeros here; the normal one gets the whole rows, zeros and all, as scipy
            values = x[rows_of] if method == "exact" else d[where[rows_of]]
            result = stats.wilcoxon(values, axis=1, zero_method="wilcox", correction=False, method=method)
            statistic[where[rows_of]] = result.statistic
            p[where[rows_of]] = result.pvalue
        ranks = stats.rankdata(magnitudes, axis=1)
        negative, positive = (ranks * (x < 0)).sum(axis=1), (ranks * (x > 0)).sum(axis=1)
        favours[where] = np.sign(positive - negative).astype(np.int8)
        r[where] = (positive - negative) / (positive + negative)
        for j, method in zip(where.tolist(), chosen.tolist()):
            methods[j] = method
    return statistic, p, methods, favours, r


def permutation_rows(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy.stats.wilcoxon's permutation test (what method='auto' runs for at most 13 differences with zeros
    or ties), row by row: min(R+, R−) and the two-sided p-value of scipy's permutation_test over all 2^n sign
    assignments. The statistic R+ is the sum of the positive signed ranks (ranks of the non-zero |d|, zeros
    signed 0), which a sign flip of d flips alike; given to permutation_test vectorised (scipy's own call
    evaluates it once per row and assignment, minutes for thousands of pairs), and once per distinct multiset
    of signed ranks, on which the distribution and R+ depend. Ranks are multiples of 1/2, so the sums are
    exact and the p-values scipy's, bit for bit (tests check it)."""
    stats = _stats()
    zeros = (d == 0).sum(axis=1, keepdims=True)
    signed = np.sign(d) * (stats.rankdata(np.abs(d), axis=1) - zeros)
    distinct, inverse = np.unique(np.sort(signed, axis=1), axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    plus = np.where(distinct > 0, distinct, 0).sum(axis=1)
    minus = -np.where(distinct < 0, distinct, 0).sum(axis=1)
    p = np.empty(len(distinct))
    rows_per_call = max(1, PERMUTATION_VALUES // (2 ** d.shape[1] * d.shape[1]))
    for start in range(0, len(distinct), rows_per_call):
        block = distinct[start:start + rows_per_call]
        p[start:start + rows_per_call] = stats.permutation_test(
            (block,), _positive_sum, permutation_type="samples", vectorized=True, n_resamples=9999,
            alternative="two-sided", axis=-1).pvalue
    return np.minimum(plus, minus)[inverse], p[inverse]


def _positive_sum(signed: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.where(signed > 0, signed, 0).sum(axis=axis)


def cliffs_delta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per row: Cliff's δ of a's values against b's (pairs x instances each), 2U/(n m) − 1 with U scipy's
    Mann-Whitney statistic of a (ties count one half); NaN for empty rows."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    if a.shape[1] == 0 or b.shape[1] == 0:
        return np.full(a.shape[0], np.nan)
    u = _stats().mannwhitneyu(a, b, axis=1, method="asymptotic", use_continuity=False).statistic
    return 2 * np.asarray(u, dtype=float) / (a.shape[1] * b.shape[1]) - 1


def _stats():
    """scipy.stats, loaded by the comparisons that need it (importing it costs about half a second)."""
    from scipy import stats

    return stats
