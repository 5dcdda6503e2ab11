"""Comparing classifiers over several data sets, as Demšar (2006, Section 3.2.2) does: each data set's mean costs
ranked within it (1 = lowest mean cost; mean costs equal exactly share the average of their ranks), Friedman's
χ²_F = 12N/(k(k+1)) (Σ_j R_j² − k(k+1)²/4) (no tie correction, as in the paper), the same divided by the tie
correction 1 − Σ(t³ − t)/(N k (k² − 1)) over the groups of t tied mean costs (what scipy.stats.friedmanchisquare
and autorank give; the one printed first, equal to χ²_F without ties), and Iman and Davenport's
F_F = (N−1)χ²_F / (N(k−1) − χ²_F) from the uncorrected χ²_F (Demšar's formula), all exact rationals from the
ranks, their p-values (χ² with k−1, F with k−1 and (k−1)(N−1) degrees of freedom), and Nemenyi's critical
difference CD = q_α √(k(k+1)/(6N)) with q_α = studentized range quantile(1 − α, k, ∞)/√2. Pairs whose average
ranks differ by more than CD are named only after a significant Iman-Davenport test (after a significant χ²_F
when F_F is infinite: every data set ranks the classifiers alike, where the F approximation gives no p-value).
Ranks, χ²_F and F_F are exact; p-values and CD are statistical quantities in floats, never verdicts.
scipy.stats is imported only when the test runs."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.using.evaluate import Scores

TEST = ("Friedman test on the per-data-set mean costs (Demšar 2006): chi-square with the tie correction (as "
        "scipy.stats.friedmanchisquare), also without it (Demšar's formula), and Iman and Davenport's F from the "
        "uncorrected chi-square")


@dataclass(kw_only=True)
class Friedman:
    """Friedman's test over several data sets, with Iman-Davenport's F_F and Nemenyi's critical difference:
    exact ranks and statistics, p-values rounded once. Built by keyword."""

    datasets: list[str]
    classifiers: list[str]  # those present on every data set, in the order first seen
    left_out: list[str]  # classifiers missing from some data set: not in the test
    ranks: dict[str, Fraction]  # average rank over the data sets (1 = lowest mean cost), exact
    chi2: Fraction  # Friedman's χ²_F without tie correction (Demšar's formula), exact from the ranks
    p_value: float  # of chi2: χ² with k − 1 degrees of freedom
    ff: Fraction | None  # Iman-Davenport's F_F; None when infinite (χ²_F = N(k−1): every data set ranks alike)
    ff_p_value: float | None  # None when F_F is infinite
    df: tuple[int, int]  # F_F's degrees of freedom, (k − 1, (k − 1)(N − 1))
    alpha: float
    critical_difference: float  # Nemenyi's, at alpha
    different: list[tuple[str, str]]  # average ranks further apart than CD, after a significant F_F; else []
    mean_costs: dict[str, sp.Expr]  # each classifier's mean cost averaged over the data sets (unweighted), exact
    disagreements: list[tuple[str, str]]  # (x, y): x ranks better on average, yet y has the lower mean cost
    tie_factor: Fraction = Fraction(1)  # 1 − Σ(t³ − t)/(N k (k² − 1)); 1 without tied mean costs
    chi2_corrected: Fraction | None = None  # chi2 / tie_factor (scipy's statistic); None when tie_factor is 0
    p_corrected: float | None = None  # of chi2_corrected; None when it is undefined (every data set all tied)

    @property
    def significant(self) -> bool:
        """The gate of Nemenyi's test: Iman-Davenport's p-value below alpha, or χ²_F's when F_F is infinite."""
        return (self.ff_p_value if self.ff_p_value is not None else self.p_value) < self.alpha


def ranks(values: list[sp.Expr]) -> list[Fraction]:
    """Ranks 1..k of exact values, 1 for the least; values equal exactly share the average of their ranks. A
    difference no certified comparison settles is ordered by floats (never seen with a spec's costs)."""
    def order(i: int, j: int) -> int:
        sign = certified.compare(values[i], values[j]).value
        if sign is None:
            x, y = certified.to_float(values[i]), certified.to_float(values[j])
            sign = (x > y) - (x < y)
        return sign

    by_value = sorted(range(len(values)), key=cmp_to_key(order))
    out, start = [Fraction(0)] * len(values), 0
    while start < len(by_value):
        end = start + 1
        while end < len(by_value) and order(by_value[start], by_value[end]) == 0:
            end += 1
        for i in by_value[start:end]:
            out[i] = Fraction(start + 1 + end, 2)  # the mean of ranks start+1 .. end
        start = end
    return out


def friedman_statistics(average_ranks: list[Fraction], n: int) -> tuple[Fraction, Fraction | None]:
    """χ²_F and F_F (None when infinite) from k average ranks over n data sets, exactly."""
    k = len(average_ranks)
    chi2 = Fraction(12 * n, k * (k + 1)) * (sum(r * r for r in average_ranks) - Fraction(k * (k + 1) ** 2, 4))
    denominator = n * (k - 1) - chi2
    return chi2, ((n - 1) * chi2 / denominator if denominator != 0 else None)


def tie_factor(rows: list[list[Fraction]], k: int) -> Fraction:
    """The Friedman tie correction 1 − Σ(t³ − t)/(N k (k² − 1)), t the size of each group of equal ranks within a
    data set's row (scipy.stats.friedmanchisquare's): 1 without ties, 0 when every row is all tied."""
    ties = 0
    for row in rows:
        for t in Counter(row).values():
            ties += t ** 3 - t
    return 1 - Fraction(ties, len(rows) * k * (k * k - 1))


def critical_difference(k: int, n: int, alpha: float) -> float:
    """Nemenyi's critical difference CD = q_α √(k(k+1)/(6N)) for k classifiers over n data sets: a statistical
    quantity in floats."""
    q = _stats().studentized_range.ppf(1 - alpha, k, math.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6 * n)))


def friedman_test(groups: dict[str | None, list[Scores]], alpha: float) -> tuple[Friedman | None, str | None]:
    """The test over the data sets of `groups` (data set -> its scores), or None and why it is not run."""
    datasets = [str(d) for d in groups]
    present = [{s.name: s for s in group} for group in groups.values()]
    seen = list(dict.fromkeys(s.name for group in groups.values() for s in group))
    names = [c for c in seen if all(c in p for p in present)]
    left_out = [c for c in seen if c not in names]
    if len(names) < 2:
        return None, (f"the Friedman test needs at least two classifiers present on every data set; "
                      f"{len(names):,} of {len(seen):,} are on all {len(datasets)}")
    n, k = len(datasets), len(names)
    table = [[p[c].mean_cost for c in names] for p in present]
    totals = [Fraction(0)] * k
    ranked = [ranks(row) for row in table]
    for row in ranked:
        totals = [t + r for t, r in zip(totals, row)]
    average = [t / n for t in totals]
    chi2, ff = friedman_statistics(average, n)
    df = (k - 1, (k - 1) * (n - 1))
    stats = _stats()
    p = float(stats.chi2.sf(float(chi2), k - 1))
    factor = tie_factor(ranked, k)
    corrected = chi2 / factor if factor else None
    p_corrected = None if corrected is None else float(stats.chi2.sf(float(corrected), k - 1))
    ff_p = None if ff is None else float(stats.f.sf(float(ff), *df))
    cd = critical_difference(k, n, alpha)
    gate = (ff_p if ff_p is not None else p) < alpha
    different = [(names[i], names[j]) for i, j in combinations(range(k), 2)
                 if gate and abs(average[i] - average[j]) > cd]
    mean_costs = {c: sum((row[j] for row in table), sp.Integer(0)) / n for j, c in enumerate(names)}
    disagreements = []
    for i, j in combinations(range(k), 2):
        x, y = (i, j) if average[i] < average[j] else (j, i)
        if average[x] != average[y] and certified.compare(mean_costs[names[x]], mean_costs[names[y]]).value == 1:
            disagreements.append((names[x], names[y]))
    return Friedman(datasets=datasets, classifiers=names, left_out=left_out, ranks=dict(zip(names, average)),
                    chi2=chi2, p_value=p, ff=ff, ff_p_value=ff_p, df=df, alpha=alpha, critical_difference=cd,
                    different=different, mean_costs=mean_costs, disagreements=disagreements, tie_factor=factor,
                    chi2_corrected=corrected, p_corrected=p_corrected), None


def _stats():
    """scipy.stats, loaded when the test runs (importing it costs about half a second)."""
    from scipy import stats

    return stats
