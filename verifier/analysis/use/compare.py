"""Comparing classifiers on the same instances by their per-instance costs under the scheme: the Wilcoxon
signed-rank test for each pair, and for three or more the Friedman test with Nemenyi's critical difference of
average ranks (Demšar 2006), all from scipy. These are statistical statements (p-values at a level), reported
as such, never as verdicts."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from verifier.analysis.use.evaluate import Scores
from verifier.errors import UsageError


@dataclass
class PairTest:
    a: str
    b: str
    statistic: float | None
    p_value: float | None
    better: str | None  # the classifier of lower mean cost when the difference is significant
    note: str = ""


@dataclass
class Friedman:
    statistic: float
    p_value: float
    ranks: dict[str, float]  # average rank (1 = cheapest)
    critical_difference: float  # Nemenyi, at the level
    different: list[tuple[str, str]]  # pairs whose average ranks differ by more than the critical difference


def _paired(scores: list[Scores]) -> None:
    sizes = {s.n for s in scores}
    if len(sizes) > 1:
        raise UsageError("the classifiers were not scored on the same instances (" +
                         ", ".join(f"{s.name}: {s.n}" for s in scores) + "); paired tests need equal lengths")
    for s in scores[1:]:
        if s.truth is not None and scores[0].truth is not None and not np.array_equal(s.truth, scores[0].truth):
            i = int(np.flatnonzero(s.truth != scores[0].truth)[0])
            raise UsageError(f"{scores[0].name} and {s.name} have different true classes at instance {i}; paired "
                             "tests need the same instances in the same order")


def wilcoxon_pairs(scores: list[Scores], alpha: float = 0.05) -> list[PairTest]:
    _paired(scores)
    out = []
    for a, b in combinations(scores, 2):
        d = a.costs - b.costs
        if not np.any(d):
            out.append(PairTest(a.name, b.name, None, None, None, "identical costs on every instance"))
            continue
        result = _stats().wilcoxon(a.costs, b.costs, zero_method="wilcox")
        p = float(result.pvalue)
        nonzero = d[d != 0]  # the direction the signed ranks lean: W- > W+ means a costs less
        ranks = _stats().rankdata(np.abs(nonzero))
        lower = a.name if ranks[nonzero < 0].sum() > ranks[nonzero > 0].sum() else b.name
        better = lower if p < alpha else None
        out.append(PairTest(a.name, b.name, float(result.statistic), p, better))
    return out


def friedman_nemenyi(scores: list[Scores], alpha: float = 0.05) -> Friedman | None:
    if len(scores) < 3:
        return None
    _paired(scores)
    table = np.stack([s.costs for s in scores], axis=1)  # instances x classifiers
    if np.all(table == table[:, :1]):
        return None  # every instance ties every classifier: there is no ranking to test
    with np.errstate(all="ignore"):
        result = _stats().friedmanchisquare(*table.T)
    if not np.isfinite(result.pvalue):
        return None
    ranks = _stats().rankdata(table, axis=1).mean(axis=0)
    k, n = table.shape[1], table.shape[0]
    q = _stats().studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    cd = float(q * math.sqrt(k * (k + 1) / (6 * n)))
    names = [s.name for s in scores]
    significant = result.pvalue < alpha  # Nemenyi's post-hoc pairs only after a significant Friedman test
    different = [(names[i], names[j]) for i, j in combinations(range(k), 2)
                 if significant and abs(ranks[i] - ranks[j]) > cd]
    return Friedman(float(result.statistic), float(result.pvalue), dict(zip(names, map(float, ranks))), cd, different)


def _stats():
    """scipy.stats, loaded by the comparisons that need it (importing it costs about half a second)."""
    from scipy import stats

    return stats
