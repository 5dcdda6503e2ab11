"""Paired comparisons of many classifiers at once, in chunks of pairs: for every pair of a chunk together, the
per-instance differences and their signs, the counts, the bootstrap interval and the paired tests.

Signs are decided on the exact costs, as one pair at a time did: every distinct exact cost of the data set gets
an id, a pair's instance is the code (id of a's cost, id of b's cost), and each distinct code present in a chunk
is decided once (one certified comparison, cached over the whole data set) and looked up for every instance.
The bootstrap distribution of a pair is the difference of the two classifiers' rows of resampled means (the
same resampled instances for both, `bootstrap`). The Wilcoxon signed-rank test is scipy's, called once per
group of pairs with the same number of non-zero differences and the same null distribution (scipy's vectorised
call computes each row as its one-dimensional call does); the sign test is scipy's binomtest, once per distinct
(count, trials). Floats here are statistical estimates; counts and signs are exact."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from verifier.formula import certified
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.using.compare.signed_ranks import METHODS, cliffs_delta, wilcoxon_rows
from verifier.using.evaluate import (
    BOOTSTRAP,
    COUNTS_FROM,
    SEED,
    counts_means,
    few_values,
    percentile_intervals,
    resample_means,
)

WILCOXON = ("Wilcoxon signed-rank test, two-sided, zero differences dropped (Wilcoxon's treatment, scipy's "
            "zero_method='wilcox'), the null distribution scipy's method='auto' chooses")
EXACT, PERMUTATION, NORMAL = METHODS["exact"], METHODS["permutation"], METHODS["asymptotic"]
SIGN_TEST = "exact two-sided sign test (binomial, 1/2) on the non-zero differences"
CI_METHOD = (f"paired bootstrap percentile interval, a statistical estimate ({BOOTSTRAP:,} resamples of the "
             f"instances, the same for both classifiers; seed {SEED})")
CHUNK_VALUES = 1_000_000  # pairs x instances per chunk (about 8 MB per array)
CHUNK_PAIRS = 500  # at most this many pairs per chunk: the unit of work a time limit keeps or drops


@dataclass
class PairComparison:
    """One pair of classifiers on the instances of a data set: the difference of mean costs and the counts of
    which costs less (exact, but for the `undecided` instances a float signed), the signed-rank test, sign test
    and bootstrap interval (statistical, in floats)."""

    a: str
    b: str
    dataset: str | None
    n: int
    difference: sp.Expr  # exact: mean cost of a minus mean cost of b
    difference_float: float
    lower: str | None  # the classifier of lower mean cost, decided exactly (None: equal mean costs)
    ci: tuple[float, float]  # paired bootstrap percentile interval of the difference
    level: float
    a_lower: int  # instances where a costs less than b (decided on the exact costs)
    b_lower: int
    ties: int
    test: str  # the test as run (with its null distribution), or why there is none
    statistic: float | None  # min(W+, W-), scipy's statistic for the two-sided test
    p_value: float | None  # None: no non-zero difference, the p-value is undefined
    favours: str | None  # the side the signed ranks lean to (the larger rank sum of differences in its favour)
    sign_p: float | None
    undecided: int = 0  # instances whose cost difference no certified comparison signed (the float's sign used)
    method: str | None = None  # scipy's method for the Wilcoxon p-value: 'exact', 'permutation' or 'asymptotic'
    rank_biserial: float | None = None  # matched-pairs rank-biserial r of a − b (positive: a costs more)
    cliffs_delta: float | None = None  # P(a costs more) − P(a costs less), over all pairs of instances
    p_holm: float | None = None
    sign_p_holm: float | None = None
    significant: bool | None = None  # p_holm < alpha
    sign_significant: bool | None = None  # sign_p_holm < alpha

    @property
    def more_wins(self) -> str | None:
        """The classifier that costs less on more instances (the sign test's direction); None: as many each."""
        return self.a if self.a_lower > self.b_lower else self.b if self.b_lower > self.a_lower else None


class ExactSigns:
    """The exact costs of one data set's classifiers as ids, and the certified sign and float of the difference
    of any two of them, each decided once."""

    def __init__(self, scores):
        self.scores = scores
        self.ids = None  # (C, n) id of each instance's exact cost, or None: some scores carry no exact cells
        if all(s.cell_costs is not None and s.cell_of is not None for s in scores):
            table: dict = {}
            self.values = []
            rows = []
            for s in scores:
                ids = []
                for cost in s.cell_costs:
                    if cost not in table:
                        table[cost] = len(self.values)
                        self.values.append(cost)
                    ids.append(table[cost])
                rows.append(np.asarray(ids, dtype=np.int64)[np.asarray(s.cell_of)])
            self.ids = np.stack(rows) if rows else None
        self.costs = np.stack([np.asarray(s.costs, dtype=float) for s in scores])
        self._known: dict[int, tuple[int, float, bool]] = {}
        self.by_counts = [few_values(row) is not None for row in self.costs]  # not resampled by the indices

    def resampled(self, resampled: np.ndarray, ia: np.ndarray, ib: np.ndarray, d: np.ndarray) -> np.ndarray:
        """Each pair's resampled mean differences: the difference of its rows when both were resampled by the
        shared indices and its differences are not few; else the bootstrap of its own differences."""
        means = resampled[ia] - resampled[ib]
        if d.shape[1] < 2 * COUNTS_FROM and not any(self.by_counts):
            return means
        for j, (i, k) in enumerate(zip(ia.tolist(), ib.tolist())):
            few = few_values(d[j])
            if few is not None:
                means[j] = counts_means(*few)
            elif self.by_counts[i] or self.by_counts[k]:
                means[j] = resample_means(d[j][None, :])[0]
        return means

    def differences(self, ia: np.ndarray, ib: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per pair and instance: the float of the exact difference a - b (0 exactly for a tie), its sign, and
        the number of instances per pair whose sign no certified comparison settled (the float's sign used)."""
        if self.ids is None:
            d = self.costs[ia] - self.costs[ib]
            return d, np.sign(d).astype(np.int8), np.zeros(len(ia), dtype=np.int64)
        width = len(self.values)
        codes, inverse = np.unique(self.ids[ia] * width + self.ids[ib], return_inverse=True)
        signs, floats, open_ = np.empty(len(codes), np.int8), np.empty(len(codes)), np.empty(len(codes), bool)
        for j, code in enumerate(codes.tolist()):
            if code not in self._known:
                self._known[code] = self._decide(*divmod(code, width))
            signs[j], floats[j], open_[j] = self._known[code]
        inverse = np.asarray(inverse).reshape(len(ia), -1)
        return floats[inverse], signs[inverse], open_[inverse].sum(axis=1)

    def _decide(self, i: int, k: int) -> tuple[int, float, bool]:
        x, y = self.values[i], self.values[k]
        sign = certified.compare(x, y).value
        value = rounded(x - y) if sign != 0 else 0.0
        if sign is None:
            return int(np.sign(value)), value, True
        return sign, value, False


def pair_chunk(scores, signs: ExactSigns, resampled: np.ndarray, ia: np.ndarray, ib: np.ndarray,
               level: float) -> list[PairComparison]:
    """The comparisons of the pairs (scores[ia[j]], scores[ib[j]]), all computed together."""
    d, s, undecided = signs.differences(ia, ib)
    a_lower, b_lower = (s < 0).sum(axis=1), (s > 0).sum(axis=1)
    ties = s.shape[1] - a_lower - b_lower
    statistic, p, methods, favours, biserial = wilcoxon_rows(d)
    delta = cliffs_delta(signs.costs[ia], signs.costs[ib])
    cis = percentile_intervals(signs.resampled(resampled, ia, ib, d), level)
    columns = zip(ia.tolist(), ib.tolist(), a_lower.tolist(), b_lower.tolist(), ties.tolist(), statistic.tolist(),
                  p.tolist(), methods, favours.tolist(), cis.tolist(), undecided.tolist(), biserial.tolist(),
                  delta.tolist())
    out = []
    for j, (i, k, below, above, tied, w, p_value, method, side, ci, open_, r, cd) in enumerate(columns):
        a, b = scores[i], scores[k]
        difference = a.mean_cost - b.mean_cost
        order = certified.compare(a.mean_cost, b.mean_cost).value
        lower = None if order == 0 else a.name if (order if order is not None else np.sign(np.mean(d[j]))) < 0 \
            else b.name
        defined = method is not None and math.isfinite(p_value)
        if method is None:
            test = (f"{WILCOXON}: not run, no non-zero difference ({a.name} and {b.name} cost the same on every "
                    "instance; p undefined)")
        else:
            test = f"{WILCOXON}: {METHODS[method]}" if defined else f"{WILCOXON}: p undefined"
        out.append(PairComparison(
            a.name, b.name, a.dataset, a.n, difference, rounded(difference), lower, tuple(ci), level,
            below, above, tied, test=test, statistic=w if defined else None, p_value=p_value if defined else None,
            favours=None if method is None else a.name if side < 0 else b.name if side > 0 else None,
            sign_p=sign_test(below, above) if defined else None, undecided=open_,
            method=method if defined else None, rank_biserial=r if defined else None,
            cliffs_delta=cd if math.isfinite(cd) else None))
    return out


@lru_cache(maxsize=100_000)
def sign_test(a_lower: int, b_lower: int) -> float:
    """The exact two-sided sign test's p-value: scipy's binomtest(a_lower, a_lower + b_lower, 1/2)."""
    return float(_stats().binomtest(a_lower, a_lower + b_lower, 0.5).pvalue)


def _stats():
    """scipy.stats, loaded by the comparisons that need it (importing it costs about half a second)."""
    from scipy import stats

    return stats
