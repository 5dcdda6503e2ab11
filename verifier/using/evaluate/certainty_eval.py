"""Certainty and doubt per classifier in `evaluate --probabilities ... --certainty`: each row's certainty
(`using.certainty.rows`) beside its optimal set and the truth, summarised per classifier (quantiles; the mean
minimum certainty of right singletons, wrong singletons and indeterminate sets), and, between classifiers on the
same instances, a paired comparison of their per-row minimum certainty (Wilcoxon's signed-rank test).

Owns: `ClassifierCertainty`, `certainty_of`, `paired_certainty`. May import: `using.decide.batch`,
`using.certainty.rows`, `using.exact.exact_rows`, `using.inputs.logits` and `using.decide.logit_decide` (logits:
the raw variants).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError
from verifier.formula.rounded import rounded
from verifier.scheme import Scheme
from verifier.using.certainty import BlockCertainty, block_certainty
from verifier.using.decide import BatchDecider, LogitDecider
from verifier.using.exact import ExactRows, rational_rows
from verifier.using.inputs import LogitRows, raw_certainty

OUTCOMES = ("right", "wrong", "indeterminate")  # a singleton holding the truth, one that does not, a larger set


@dataclass
class ClassifierCertainty:
    """One classifier's rows: their certainty and what the optimal set was worth against the truth."""
    name: str
    certainty: BlockCertainty
    outcome: np.ndarray  # (n,) int: index into OUTCOMES
    covered: np.ndarray  # (n,) bool: the optimal set holds the truth

    def mean_min_certainty(self, rows: np.ndarray | None = None) -> float | None:
        """The mean of the rows' exact minimum certainties (all rows, or those where `rows`), rounded once."""
        if not hasattr(self, "_exact"):
            self._exact = self.certainty.exact_minimums()
        chosen = range(len(self._exact)) if rows is None else np.flatnonzero(rows).tolist()
        values = [Fraction(*self._exact[i]) for i in chosen]
        return rounded(sum(values, Fraction(0)) / len(values)) if values else None

    def by_outcome(self) -> dict[str, dict]:
        """For each outcome: how many rows, the mean minimum certainty and the median maximum doubt."""
        out = {}
        for k, label in enumerate(OUTCOMES):
            rows = self.outcome == k
            n = int(rows.sum())
            out[label] = {"rows": n, "mean_min_certainty": self.mean_min_certainty(rows) if n else None,
                          "median_max_doubt": _median(self.certainty.max_doubt[rows]) if n else None,
                          "ties": int(self.certainty.tied[rows].sum())}
        return out


def _median(values: np.ndarray) -> float:
    """The lower median (a value of the data: an infinite doubt stays inf, never nan)."""
    return float(np.quantile(values, 0.5, method="inverted_cdf"))


def certainty_of(scheme: Scheme, name: str, blocks, truth: np.ndarray, where: str,
                 batch: Callable[[], BatchDecider] | None = None) -> ClassifierCertainty:
    """Certainty, decision and outcome of every row (blocks of `ExactRows`, or (rows, rescaled) pairs); `batch`
    makes the decider of rows of probabilities (default: `BatchDecider` of the scheme), so that the decisions are
    the ones `decide` and `evaluate` make on the spec's route."""
    batch = batch or (lambda: BatchDecider(scheme))
    decider, parts = None, []
    for block in blocks:
        if isinstance(block, tuple):
            block = block[0]
        if isinstance(block, LogitRows):  # logits: decided on their softmax, the raw certainty of the logits
            decider = decider or LogitDecider(scheme)
            decider.add(block)
            parts.append(raw_certainty(block))
            continue
        decider = decider or batch()
        rows = block if isinstance(block, ExactRows) else rational_rows(block, scheme.K)
        decider.add(rows)
        parts.append(block_certainty(rows))
    decider = decider or batch()
    predictions = decider.result.predictions
    if len(predictions) != len(truth):
        raise UsageError(f"{where}: {len(predictions):,} rows of probabilities but {len(truth):,} true classes; "
                         "one per instance is expected")
    truth = np.asarray(truth)
    covered = np.array([int(t) in m for m, t in zip(predictions, truth.tolist())], dtype=bool)
    single = np.array([len(m) == 1 for m in predictions], dtype=bool)
    outcome = np.where(single, np.where(covered, 0, 1), 2)
    return ClassifierCertainty(name, BlockCertainty.join(parts), outcome, covered)


@dataclass
class PairedCertainty:
    """Two classifiers' per-row minimum certainties compared on the same instances: the differences exact and
    ranked exactly, the median difference, statistic and p-value statistical floats (or why there is no test)."""

    first: str
    second: str
    rows: int
    nonzero: int  # rows whose minimum certainties differ (Wilcoxon's method drops the others)
    median_difference: float  # first − second, over every row
    statistic: float | None
    p_value: float | None
    why_not: str = ""
    favours: str | None = None  # the classifier whose larger minimum certainties the signed ranks favour
    test: str = ("Wilcoxon signed-rank test on the per-row minimum certainty (scipy.stats.wilcoxon, two-sided, "
                 "zero differences dropped)")


def paired_certainty(a: ClassifierCertainty, b: ClassifierCertainty) -> PairedCertainty:
    """Whether one classifier is more certain than the other on the same instances: the exact per-row
    differences of minimum certainty, ranked exactly (equal |d| share their rank), rounded once at the end."""
    from scipy import stats

    x, y = a.certainty.exact_minimums(), b.certainty.exact_minimums()
    diff = sorted(Fraction(*p) - Fraction(*q) for p, q in zip(x, y))
    nonzero = sum(1 for d in diff if d != 0)
    middle = len(diff) // 2
    median = rounded(diff[middle] if len(diff) % 2 else (diff[middle - 1] + diff[middle]) / 2) if diff else \
        float("nan")
    if nonzero == 0:
        return PairedCertainty(a.name, b.name, len(diff), 0, median, None, None,
                               "every row has the same minimum certainty under both: nothing to test")
    # Wilcoxon's test sees only the signs and the ranks of |d|: each d as sign × its exact rank is the same test
    rank_of = exact_ranks([abs(d) for d in diff if d != 0])
    signed = [(1 if d > 0 else -1) * rank_of[abs(d)] if d != 0 else 0.0 for d in diff]
    result = stats.wilcoxon(np.array(signed, dtype=np.float64), zero_method="wilcox", alternative="two-sided")
    side = sum(signed)  # R+ − R−: positive when the first is more certain by the signed ranks
    return PairedCertainty(a.name, b.name, len(diff), nonzero, median, float(result.statistic),
                           float(result.pvalue), favours=a.name if side > 0 else b.name if side < 0 else None)


def exact_ranks(values: list[Fraction]) -> dict[Fraction, float]:
    """Each distinct value's rank among `values` (1 for the least), equal values sharing the mean of theirs."""
    counts: dict[Fraction, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    ranks, position = {}, 1
    for value in sorted(counts):
        ranks[value], position = position + (counts[value] - 1) / 2, position + counts[value]
    return ranks
