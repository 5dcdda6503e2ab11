"""Two classifiers compared over several data sets, as Demšar (2006, Section 3.1.3) recommends: the Wilcoxon
signed-rank test on the differences of their mean costs, one per data set (a data set is one observation, the
instances within it are not), beside the counts of data sets where each has the lower mean cost (exact) and the
sign test on them. Every pair of the classifiers present on every data set, or, beyond MAX_PAIRS pairs, each
against the one of best average rank. p-values come from scipy (`signed_ranks`, as scipy's method='auto' runs
it); `compare` adjusts them with Holm over these pairs (a family of its own, apart from the per-instance pairs).
Signs of the differences are decided on the exact mean costs; p-values and r are statistical estimates."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from verifier.formula import certified
from verifier.formula.rounded import rounded
from verifier.using.compare.signed_ranks import METHODS, wilcoxon_rows

MAX_PAIRS = 1000
TEST = ("Wilcoxon signed-rank test over the data sets (Demšar 2006, Section 3.1.3): one difference of mean costs "
        "per data set, two-sided, zero differences dropped (zero_method 'wilcox'), the null distribution scipy's "
        "method='auto' chooses; p-values Holm-adjusted over these pairs")


@dataclass
class DatasetPair:
    """One pair of classifiers over the data sets, one difference of mean costs per data set: which is lower
    where (decided exactly), the Wilcoxon signed-rank and sign tests and their Holm adjustments (statistical, in
    floats)."""

    a: str
    b: str
    datasets: int
    a_lower: int  # data sets where a's mean cost is lower (decided exactly)
    b_lower: int
    ties: int
    method: str | None  # 'exact', 'permutation', 'asymptotic'; None: every mean cost equal, not run
    statistic: float | None
    p_value: float | None
    rank_biserial: float | None  # of the differences a − b (positive: a costs more)
    sign_p: float | None
    p_holm: float | None = None
    significant: bool | None = None
    sign_p_holm: float | None = None
    test_favours: str | None = None  # the classifier the signed ranks favour (None: neither, or not run)
    lower_mean_cost: str | None = None  # the lower mean cost averaged over the data sets, exactly (None: equal)

    @property
    def test(self) -> str:
        """The test as run, with its null distribution, or why it was not run."""
        if self.method is None:
            return f"not run: {self.a} and {self.b} have equal mean costs on every data set"
        return f"{TEST}; {METHODS[self.method]}"


def dataset_pairs(groups: dict, names: list[str], ranks: dict) -> tuple[list[DatasetPair], str | None]:
    """The pairs of `names` (present on every data set of `groups`, data set -> its scores) compared over the
    data sets, and a note when they are each against the best average rank rather than every pair."""
    present = [{s.name: s for s in group} for group in groups.values()]
    k = len(names)
    note = None
    if k * (k - 1) // 2 <= MAX_PAIRS:
        plan = list(combinations(names, 2))
    else:
        best = min(names, key=lambda c: ranks[c])
        plan = [(c, best) for c in names if c != best]
        note = (f"{k * (k - 1) // 2:,} pairs of classifiers is more than {MAX_PAIRS:,}: over the data sets, each is "
                f"compared with {best}, the best average rank")
    if not plan:
        return [], note
    signs = np.zeros((len(plan), len(present)), dtype=np.int8)
    d = np.zeros((len(plan), len(present)))
    totals = [0] * len(plan)  # Σ over the data sets of a − b, exact: its sign says whose average is lower
    for i, (a, b) in enumerate(plan):
        for j, p in enumerate(present):
            difference = p[a].mean_cost - p[b].mean_cost
            totals[i] += difference
            sign = certified.compare(p[a].mean_cost, p[b].mean_cost).value
            value = rounded(difference) if sign != 0 else 0.0
            signs[i, j] = sign if sign is not None else int(np.sign(value))
            d[i, j] = value if signs[i, j] != 0 else 0.0
    statistic, p_values, methods, sides, biserial = wilcoxon_rows(d)
    out = []
    for i, (a, b) in enumerate(plan):
        below, above = int((signs[i] < 0).sum()), int((signs[i] > 0).sum())
        run = methods[i] is not None and math.isfinite(p_values[i])
        out.append(DatasetPair(a, b, len(present), below, above, len(present) - below - above,
                               methods[i] if run else None, float(statistic[i]) if run else None,
                               float(p_values[i]) if run else None, float(biserial[i]) if run else None,
                               _sign_test(below, above) if run else None,
                               test_favours=(a if sides[i] < 0 else b if sides[i] > 0 else None) if run else None,
                               lower_mean_cost=_lower(a, b, totals[i])))
    return out, note


def _lower(a: str, b: str, total) -> str | None:
    sign = certified.sign(total).value if total != 0 else 0
    return None if not sign else a if sign < 0 else b


def _sign_test(a_lower: int, b_lower: int) -> float:
    from scipy import stats

    return float(stats.binomtest(a_lower, a_lower + b_lower, 0.5).pvalue)
