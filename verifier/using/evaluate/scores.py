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
from verifier.scheme import Scheme
from verifier.using.evaluate.bootstrap import BOOTSTRAP, SEED, bootstrap_interval, percentile_intervals, resample_means
from verifier.using.evaluate.cell_costs import CellCosts, RowCosts, exact_sum
from verifier.using.inputs import Predictions

__all__ = ["BOOTSTRAP", "SEED", "Scores", "add_intervals", "bootstrap_interval", "f_beta", "grouped", "row_keys",
           "score", "u65", "u80"]


@dataclass(kw_only=True)
class Scores:
    """One classifier's scores on one data set under the scheme: the exact mean cost (and its float, correctly
    rounded), its bootstrap interval, and the usual summaries of set predictions. Built by keyword."""

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
    """Zaffalon et al.'s u65 of a set of k classes, exactly: 1.6/k − 0.6/k² if it holds the truth (`hit`), else 0."""
    return Fraction(16, 10 * k) - Fraction(6, 10 * k * k) if hit else Fraction(0)


def u80(k: int, hit: bool) -> Fraction:
    """Zaffalon et al.'s u80 of a set of k classes, exactly: 2.2/k − 1.2/k² if it holds the truth (`hit`), else 0."""
    return Fraction(22, 10 * k) - Fraction(12, 10 * k * k) if hit else Fraction(0)


def f_beta(k: int, hit: bool, beta: Fraction) -> Fraction:
    """F_β of a set of k classes, exactly: (1 + β²)/(β² + k) if it holds the truth (`hit`), else 0."""
    return (1 + beta * beta) / (beta * beta + k) if hit else Fraction(0)


def row_keys(masks: np.ndarray, *columns: np.ndarray) -> np.ndarray:
    """One key of bytes per row, for any number of classes: its set's bits packed from the highest class down
    (keys compare as the numbers Σ 2^i over the set's classes i do), then each of `columns` as a big-endian
    int64, so that sorting the keys sorts by (set, columns...)."""
    n, K = masks.shape
    bits = np.zeros((n, -K % 8 + K), dtype=bool)
    bits[:, -K % 8:] = masks[:, ::-1]
    parts = [np.packbits(bits, axis=1)] + [np.asarray(c, dtype=">i8").reshape(n, 1).view(np.uint8) for c in columns]
    keys = np.ascontiguousarray(np.concatenate(parts, axis=1))
    return keys.view(np.dtype((np.void, keys.shape[1]))).reshape(-1)


def grouped(pred: Predictions) -> tuple[list[tuple[frozenset[int], int, int]], np.ndarray]:
    """The distinct (predicted set, true class) cells with their counts, and each instance's cell index; cells in
    the order of (the set as the binary number Σ 2^i over its classes i, the true class) (`row_keys`: no mask
    of 64 bits, which sets past the 64th class overflowed)."""
    n = pred.masks.shape[0]
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    _, first, inverse, counts = np.unique(row_keys(pred.masks, pred.truth), return_index=True, return_inverse=True,
                                          return_counts=True)
    cells = [(frozenset(np.flatnonzero(pred.masks[i]).tolist()), int(pred.truth[i]), int(c))
             for i, c in zip(first.tolist(), counts.tolist())]
    return cells, np.asarray(inverse).reshape(-1)


def score(scheme: Scheme | CellCosts, pred: Predictions, betas: list[Fraction] = (), level: float = 0.95,
          interval: bool = True) -> Scores:
    """The scores of one classifier under a built scheme, or under the exact costs of its cells however they are
    found (`cell_costs`: without the matrix, at any number of classes); `interval=False` leaves the bootstrap
    interval to the caller (None), which resamples every classifier of a data set at once
    (`bootstrap.resample_means`)."""
    costs = scheme if isinstance(scheme, CellCosts) else RowCosts(scheme)
    n, K = pred.masks.shape
    if K != costs.K:
        raise ValueError("predictions and scheme disagree on the classes")
    sizes = pred.masks.sum(axis=1)
    hits = pred.masks[np.arange(n), pred.truth]
    cells, inverse = grouped(pred)
    exact = costs.costs([(members, y) for members, y, _ in cells])
    memo: dict = {}  # each distinct exact value rounded once (correctly)
    floats = np.array([memo[c] if c in memo else memo.setdefault(c, rounded(c)) for c in exact], dtype=float)
    total = exact_sum(exact, [count for _, _, count in cells])
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
        name=pred.name, n=n, mean_cost=mean, mean_cost_float=rounded(mean), interval=ci, level=level,
        determinacy=Fraction(int(single.sum()), n), mean_size=Fraction(int(sizes.sum()), n),
        single_accuracy=Fraction(int(hits[single].sum()), int(single.sum())) if single.any() else None,
        set_accuracy=Fraction(int(hits.sum()), n),
        discounted_accuracy=mean_of(lambda k, h: Fraction(1, k) if h else Fraction(0)),
        u65=mean_of(u65), u80=mean_of(u80),
        f_beta={str(b): mean_of(lambda k, h, b=b: f_beta(k, h, b)) for b in betas}, costs=per_instance,
        truth=pred.truth, dataset=pred.dataset, cell_costs=exact, cell_of=inverse, resampled=resampled)


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
