"""Comparing classifiers pair by pair on the same instances of one data set, by their per-instance costs under
the scheme: the exact difference of mean costs, a paired bootstrap interval of it, the Wilcoxon signed-rank test
and the exact sign test, both with p-values Holm-adjusted over every pair tested. `compare` adds, with several
data sets, the Friedman test over them (verifier.analysis.use.friedman).

Exact values (mean costs, their differences, the counts of instances where one classifier costs less) stay
exact: signs of per-instance differences are decided on the exact costs. Intervals and p-values are statistical
estimates in floats, labelled as such, never verdicts. scipy.stats is imported only when a test runs."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import sympy as sp

from verifier.analysis.use.evaluate import BOOTSTRAP, SEED, Scores, bootstrap_interval
from verifier.analysis.use.friedman import Friedman, friedman_test
from verifier.errors import UsageError
from verifier.formula import certified

WILCOXON = "Wilcoxon signed-rank test, two-sided, zero differences dropped (Wilcoxon's treatment)"
EXACT = "exact null distribution (no ties among the non-zero |differences|, at most 50 of them)"
NORMAL = "normal approximation with tie correction, no continuity correction"
SIGN_TEST = "exact two-sided sign test (binomial, 1/2) on the non-zero differences"
CI_METHOD = (f"paired bootstrap percentile interval, a statistical estimate ({BOOTSTRAP} resamples of the "
             f"instances, the same for both classifiers; seed {SEED})")
ONE_DATASET = ("Friedman/Nemenyi compare classifiers over several data sets (Demšar 2006); these predictions come "
               "from one data set: add a 'dataset' column or give one file per data set")


@dataclass
class PairComparison:
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
    p_holm: float | None = None
    sign_p_holm: float | None = None
    significant: bool | None = None  # p_holm < alpha


@dataclass
class Comparison:
    alpha: float
    level: float
    pairs: list[PairComparison]
    tested: int  # the pairs with a p-value: the size of Holm's family
    friedman: Friedman | None
    why_no_friedman: str | None


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: the i-th smallest of m p-values times (m - i + 1), made monotone and capped
    at 1, given back in the input order."""
    m, adjusted, running = len(p_values), [0.0] * len(p_values), 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def compare(scores: list[Scores], alpha: float = 0.05, level: float = 0.95) -> Comparison:
    groups: dict[str | None, list[Scores]] = {}
    for s in scores:
        groups.setdefault(s.dataset, []).append(s)
    pairs = []
    for group in groups.values():
        _paired(group)
        pairs += [_pair(a, b, level) for a, b in combinations(group, 2)]
    tested = [p for p in pairs if p.p_value is not None]
    for p, adjusted in zip(tested, holm([p.p_value for p in tested])):
        p.p_holm, p.significant = adjusted, adjusted < alpha
    for p, adjusted in zip(tested, holm([p.sign_p for p in tested])):
        p.sign_p_holm = adjusted
    friedman, why = (friedman_test(groups, alpha) if len(groups) >= 2 else (None, ONE_DATASET))
    return Comparison(alpha, level, pairs, len(tested), friedman, why)


def _paired(scores: list[Scores]) -> None:
    where = f" on data set {scores[0].dataset!r}" if scores[0].dataset is not None else ""
    sizes = {s.n for s in scores}
    if len(sizes) > 1:
        raise UsageError(f"the classifiers{where} were not scored on the same instances (" +
                         ", ".join(f"{s.name}: {s.n}" for s in scores) + "); paired tests need equal lengths")
    for s in scores[1:]:
        if s.truth is not None and scores[0].truth is not None and not np.array_equal(s.truth, scores[0].truth):
            i = int(np.flatnonzero(s.truth != scores[0].truth)[0])
            raise UsageError(f"{scores[0].name} and {s.name}{where} have different true classes at instance {i}; "
                             "paired tests need the same instances in the same order")


def _pair(a: Scores, b: Scores, level: float) -> PairComparison:
    d, signs, undecided = differences(a, b)
    difference = a.mean_cost - b.mean_cost
    order = certified.compare(a.mean_cost, b.mean_cost).value
    lower = None if order == 0 else a.name if (order if order is not None else np.sign(np.mean(d))) < 0 else b.name
    counts = dict(a_lower=int((signs < 0).sum()), b_lower=int((signs > 0).sum()), ties=int((signs == 0).sum()))
    test, statistic, p, favours = _wilcoxon(d, a.name, b.name)
    sign_p = None
    if p is not None:
        sign_p = float(_stats().binomtest(counts["a_lower"], counts["a_lower"] + counts["b_lower"], 0.5).pvalue)
    return PairComparison(a.name, b.name, a.dataset, a.n, difference, certified.to_float(difference), lower,
                          bootstrap_interval(d, level), level, **counts, test=test, statistic=statistic,
                          p_value=p, favours=favours, sign_p=sign_p, undecided=undecided)


def differences(a: Scores, b: Scores) -> tuple[np.ndarray, np.ndarray, int]:
    """Per-instance differences a - b: floats for the tests and the bootstrap, and their signs decided on the
    exact costs, one certified comparison per distinct pair of (set, true class) cells. An exact tie is a float
    0; a sign no comparison settles takes the float's sign, and those instances are counted."""
    if a.cell_costs is None or b.cell_costs is None or a.cell_of is None or b.cell_of is None:
        d = a.costs - b.costs
        return d, np.sign(d).astype(np.int64), 0
    cells, inverse, counts = np.unique(np.stack([a.cell_of, b.cell_of]), axis=1, return_inverse=True,
                                       return_counts=True)
    floats, signs, undecided = np.zeros(cells.shape[1]), np.zeros(cells.shape[1], dtype=np.int64), 0
    for j, (i, k) in enumerate(cells.T.tolist()):
        x, y = a.cell_costs[i], b.cell_costs[k]
        sign = certified.compare(x, y).value
        if sign != 0:
            floats[j] = certified.to_float(x - y)
        if sign is None:
            sign, undecided = int(np.sign(floats[j])), undecided + int(counts[j])
        signs[j] = sign
    inverse = np.asarray(inverse).reshape(-1)
    return floats[inverse], signs[inverse], undecided


def _wilcoxon(d: np.ndarray, a: str, b: str) -> tuple[str, float | None, float | None, str | None]:
    nonzero = d[d != 0]
    if nonzero.size == 0:
        return (f"{WILCOXON}: not run, no non-zero difference ({a} and {b} cost the same on every instance; "
                "p undefined)"), None, None, None
    magnitudes = np.abs(nonzero)
    exact = nonzero.size <= 50 and np.unique(magnitudes).size == nonzero.size
    result = _stats().wilcoxon(nonzero, zero_method="wilcox", correction=False,
                               method="exact" if exact else "asymptotic")
    ranks = _stats().rankdata(magnitudes)
    in_favour_of_a, in_favour_of_b = ranks[nonzero < 0].sum(), ranks[nonzero > 0].sum()
    favours = a if in_favour_of_a > in_favour_of_b else b if in_favour_of_b > in_favour_of_a else None
    p = float(result.pvalue)
    if not np.isfinite(p):
        return f"{WILCOXON}: p undefined", None, None, favours
    return f"{WILCOXON}, {EXACT if exact else NORMAL}", float(result.statistic), p, favours


def _stats():
    """scipy.stats, loaded by the comparisons that need it (importing it costs about half a second)."""
    from scipy import stats

    return stats
