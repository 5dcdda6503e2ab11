"""Scores of a set-valued classifier: its mean cost under the scheme (Eq. 4, exact), with a bootstrap
confidence interval, and the usual summaries of set predictions with Zaffalon et al.'s closed forms.

With |Ŷ| = k and the truth y: discounted accuracy 1/k if y ∈ Ŷ (else 0); u65 = 1.6/k − 0.6/k² and
u80 = 2.2/k − 1.2/k² if y ∈ Ŷ (the utilities with u(1/2) = 0.65 and 0.8); F_β = (1 + β²)/(β² + k) if y ∈ Ŷ
(recall 1, precision 1/k). The mean cost is exact: the instances are grouped by (set, true class), so the sum
is Σ count · c_Ŷ(y) / N over few distinct cells. The confidence interval is a statistical estimate (percentile
bootstrap with a fixed seed, in floats, `bootstrap`) and is labelled as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp

from verifier.using.bootstrap import BOOTSTRAP, SEED, bootstrap_interval, percentile_intervals, resample_means
from verifier.using.data import Predictions
from verifier.scheme import Scheme

__all__ = ["BOOTSTRAP", "SEED", "Scores", "add_intervals", "bootstrap_interval", "f_beta", "grouped", "score", "u65",
           "u80"]


@dataclass
class Scores:
    name: str
    n: int
    mean_cost: sp.Expr  # exact
    mean_cost_float: float
    interval: tuple[float, float] | None  # bootstrap percentile interval of the mean cost (None: not computed)
    level: float
    determinacy: Fraction  # share of singleton predictions
    mean_size: Fraction
    single_accuracy: Fraction | None  # accuracy on the determinate predictions (None if there are none)
    set_accuracy: Fraction  # share of predictions that contain the truth
    discounted_accuracy: Fraction
    u65: Fraction
    u80: Fraction
    f_beta: dict[str, Fraction] = field(default_factory=dict)
    costs: np.ndarray | None = field(default=None, repr=False)  # per-instance costs (floats, for the paired tests)
    truth: np.ndarray | None = field(default=None, repr=False)  # the true classes: paired tests check they match
    dataset: str | None = None  # the data set the predictions come from (None: the input names none)
    cell_costs: list[sp.Expr] | None = field(default=None, repr=False)  # exact cost of each (set, true class) cell
    cell_of: np.ndarray | None = field(default=None, repr=False)  # ... and each instance's cell (exact differences)
    resampled: np.ndarray | None = field(default=None, repr=False)  # mean cost over each bootstrap resample

    def __repr__(self) -> str:
        """One line: the classifier, its size and its main answers, e.g. Scores('cautious', n=300, mean cost
        953/1800 ≈ 0.5294, determinacy 0.61)."""
        name = _short(self.name) + ("" if self.dataset is None else f" on {_short(self.dataset)}")
        exact = str(self.mean_cost)
        cost = f"{self.mean_cost_float:.4g}" if len(exact) > 40 else exact if self.mean_cost.is_Integer else \
            f"{exact} ≈ {self.mean_cost_float:.4f}"
        return f"Scores({name}, n={self.n}, mean cost {cost}, determinacy {float(self.determinacy):.4g})"


def _short(text: str, limit: int = 40) -> str:
    """A name quoted on one line, cut to `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def u65(k: int, hit: bool) -> Fraction:
    return Fraction(16, 10 * k) - Fraction(6, 10 * k * k) if hit else Fraction(0)


def u80(k: int, hit: bool) -> Fraction:
    return Fraction(22, 10 * k) - Fraction(12, 10 * k * k) if hit else Fraction(0)


def f_beta(k: int, hit: bool, beta: Fraction) -> Fraction:
    return (1 + beta * beta) / (beta * beta + k) if hit else Fraction(0)


def grouped(pred: Predictions) -> tuple[list[tuple[frozenset[int], int, int]], np.ndarray]:
    """The distinct (predicted set, true class) cells with their counts, and each instance's cell index."""
    K = pred.masks.shape[1]
    keys = pred.masks.astype(np.int64) @ (1 << np.arange(K, dtype=np.int64))
    pairs, inverse, counts = np.unique(np.stack([keys, pred.truth]), axis=1, return_inverse=True, return_counts=True)
    cells = [(frozenset(i for i in range(K) if int(pairs[0, j]) >> i & 1), int(pairs[1, j]), int(counts[j]))
             for j in range(pairs.shape[1])]
    return cells, np.asarray(inverse).reshape(-1)


def score(scheme: Scheme, pred: Predictions, betas: list[Fraction] = (), level: float = 0.95,
          interval: bool = True) -> Scores:
    """The scores of one classifier; `interval=False` leaves the bootstrap interval to the caller (None), which
    resamples every classifier of a data set at once (`bootstrap.resample_means`)."""
    n, K = pred.masks.shape
    if K != scheme.K:
        raise ValueError("predictions and scheme disagree on the classes")
    sizes = pred.masks.sum(axis=1)
    hits = pred.masks[np.arange(n), pred.truth]
    cells, inverse = grouped(pred)
    total, floats, exact = sp.Integer(0), np.empty(len(cells)), []
    for j, (members, y, count) in enumerate(cells):
        cost = scheme.cost(members, y)
        exact.append(cost)
        total += count * cost
        floats[j] = rounded(cost)
    per_instance = floats[inverse]
    mean = total / n
    resampled = resample_means(per_instance[None, :])[0] if interval else None
    ci = tuple(percentile_intervals(resampled[None, :], level)[0].tolist()) if interval else None

    by_size = {}  # (k, hit) -> count: the closed forms need only these
    for k, h in zip(sizes.tolist(), hits.tolist()):
        by_size[(k, h)] = by_size.get((k, h), 0) + 1

    def mean_of(f) -> Fraction:
        return sum((c * f(k, h) for (k, h), c in by_size.items()), Fraction(0)) / n

    single = sizes == 1
    return Scores(
        pred.name, n, mean, rounded(mean), ci, level,
        Fraction(int(single.sum()), n), Fraction(int(sizes.sum()), n),
        Fraction(int(hits[single].sum()), int(single.sum())) if single.any() else None,
        Fraction(int(hits.sum()), n), mean_of(lambda k, h: Fraction(1, k) if h else Fraction(0)),
        mean_of(u65), mean_of(u80),
        {str(b): mean_of(lambda k, h, b=b: f_beta(k, h, b)) for b in betas}, per_instance, pred.truth,
        dataset=pred.dataset, cell_costs=exact, cell_of=inverse, resampled=resampled)


def add_intervals(scores: list[Scores], level: float) -> None:
    """The bootstrap interval of every score without one: the classifiers of each size resampled together, one
    index matrix for all (the same draws as one classifier alone), their resampled means kept for the pairs."""
    by_size: dict[int, list[Scores]] = {}
    for s in scores:
        if s.resampled is None:
            by_size.setdefault(s.n, []).append(s)
    for group in by_size.values():
        means = resample_means(np.stack([np.asarray(s.costs, dtype=float) for s in group]))
        for s, row, (low, high) in zip(group, means, percentile_intervals(means, level).tolist()):
            s.resampled, s.interval, s.level = row, (low, high), level

