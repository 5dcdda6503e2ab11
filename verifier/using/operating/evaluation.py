"""Operating-condition uncertainty for every classifier of a scores file: per certainty γ the expected cost curve
K_v(c) on a grid and the expected loss L_v (exact for γ = 0 and γ = ∞), the paper's identities checked exactly
on the data when the spec is the paper's cost proportion, and the classifiers compared per γ: by L_v (exactly,
or by more than both error bounds) and, for γ = 0 and γ = ∞ with segment methods, by a paired Wilcoxon test on
each instance's exact loss (Holm-adjusted over every pair and γ)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import numpy as np

from verifier import limits
from verifier.formula.rounded import rounded
from verifier.using.abstention import Hull, Scores, staircase
from verifier.using.compare import holm, wilcoxon_rows
from verifier.using.operating.identities import Identities, identities, paper_form
from verifier.using.operating.lines import Costs, Lines
from verifier.using.operating.methods import optimal_segments, rate_points, score_segments
from verifier.using.operating.uncertainty import Choice, Weight, loss

GRID = [Fraction(i, 100) for i in range(101)]


@dataclass
class ClassifierLoss:
    """One classifier's results: per γ its expected cost curve K_v with error bounds and its loss L_v, the
    paper's identities on its scores (None where they do not apply), and per-instance exact losses for the test."""

    name: str
    dataset: str | None
    n: int
    curves: dict  # γ -> (K values on GRID, error bound per value)
    losses: dict  # γ -> Loss
    identities: Identities | None
    instance_losses: dict = field(default_factory=dict)  # γ -> per-instance exact losses (segments, γ in {0, ∞})

    @property
    def label(self) -> str:
        """The classifier's name, followed by its data set in brackets when it has one."""
        return self.name if self.dataset is None else f"{self.name} ({self.dataset})"


@dataclass
class PairLoss:
    """Two classifiers of a data set at one γ (None: ∞): which has the lower L_v (None: not decided), the
    difference, and the paired Wilcoxon test where there is one (p-values statistical, in floats)."""

    first: str
    second: str
    dataset: str | None
    gamma: float | None
    cheaper: str | None  # the classifier of lower L_v, None when not decided
    difference: float  # L(first) − L(second): the exact difference rounded once where both are exact
    p_value: float | None = None
    p_holm: float | None = None
    test_favours: str | None = None  # the classifier the test's signed ranks favour (None: neither, or no test)


@dataclass
class Conditions:
    """The operating-condition evaluation of one scores file: the parameter, the threshold choice method, the
    weight w and the certainties γ, each classifier's losses, and the pairs compared."""

    path: str
    parameter: str
    method: str
    weight: Weight
    gammas: list
    classifiers: list[ClassifierLoss]
    pairs: list[PairLoss]
    paper: bool  # the spec is the paper's cost proportion: the identities apply


def conditions(path: str, parameter: str, costs: Costs, method: str, gammas: list, weight: Weight,
               found: list[Scores], into: list | None = None) -> Conditions:
    """The losses of every classifier, then the pairs. The Conditions made is appended to `into` before any work,
    and filled a classifier at a time: what a time limit stops keeps the classifiers done (pairs come last)."""
    result = Conditions(path, parameter, method, weight, gammas, [], [], paper_form(costs) and weight.uniform)
    if into is not None:
        into.append(result)
    out = result.classifiers
    for scores in found:
        limits.check_time()
        stairs = staircase(scores.ranks, scores.positive, scores.score)
        lines = Lines(stairs, costs)
        if method == "score":
            choice = Choice(lines, segments=score_segments(lines, stairs.scores))
        elif method == "optimal":
            choice = Choice(lines, segments=optimal_segments(lines, Hull(stairs)))
        else:
            choice = Choice(lines, rate=rate_points(lines))
        curves = {g: choice.curve(g, GRID) for g in gammas}
        losses = {g: loss(choice, g, weight) for g in gammas}
        paper = paper_form(costs) and weight.uniform
        ids = identities(stairs) if paper and (method != "score" or _probabilities(stairs)) else None
        found_loss = ClassifierLoss(scores.name, scores.dataset, stairs.n, curves, losses, ids)
        if choice.segments is not None and weight.uniform:
            found_loss.instance_losses = {g: _instance_losses(choice, scores, g) for g in gammas
                                          if g == 0 or g is None}
        out.append(found_loss)
    result.pairs = _pairs(out, gammas)
    return result


def conditions_of_rows(path: str, parameter: str, a: list, b: list, gammas: list, weight: Weight,
                       classifiers: list, into: list | None = None) -> Conditions:
    """The score-driven method generalised (`sets`): `classifiers` are (name, exact probability rows, true class
    indices); each row predicts its Bayes-optimal set at the presumed value. `into` as for `conditions`."""
    from verifier.using.operating.sets import RowChoice

    result = Conditions(path, parameter, "score", weight, gammas, [], [], False)
    if into is not None:
        into.append(result)
    out = result.classifiers
    for name, rows, truth in classifiers:
        limits.check_time()
        choice = RowChoice(rows, truth, a, b)
        found = ClassifierLoss(name, None, len(truth), {g: choice.curve(g, GRID) for g in gammas},
                               {g: loss(choice, g, weight) for g in gammas}, None)
        if weight.uniform:
            found.instance_losses = {g: choice.instance_losses(g) for g in gammas if g == 0 or g is None}
        out.append(found)
    result.pairs = _pairs(out, gammas)
    return result


def _probabilities(stairs) -> bool:
    return not stairs.scores or (stairs.scores[0] >= 0 and stairs.scores[-1] <= 1)


def _instance_losses(choice: Choice, scores: Scores, gamma) -> np.ndarray:
    """Each instance's exact share of L_v (uniform w), for the paired test: over the segments of ĉ, its cost at
    the true c averaged (γ = 0: over c uniform, the cost being affine, at c = 1/2; γ = ∞: over the segment).
    Exact, so that two classifiers' equal losses give a difference of exactly 0, which the test sets aside."""
    c = choice.lines.costs
    k = choice.lines.stairs.k
    table = []  # per true class: the exact loss of an instance of each distinct score g (0-based)
    for as_one, as_zero in ((c.one_as_one, c.one_as_zero), (c.zero_as_one, c.zero_as_zero)):
        base = Fraction(0)
        switch = [Fraction(0)] * (k + 2)  # by cut: what calling class 0 adds on those segments
        for lo, hi, cut in choice.segments:
            at = Fraction(1, 2) if gamma == 0 else (lo + hi) / 2
            one = as_one.at(at)
            base += (hi - lo) * one
            switch[cut] += (hi - lo) * (as_zero.at(at) - one)
        # an instance of distinct score g is called class 0 on the segments whose cut is at least g + 1
        column, total = [Fraction(0)] * k, Fraction(0)
        for cut in range(k, 0, -1):
            total += switch[cut]
            column[cut - 1] = base + total
        table.append(np.array(column, dtype=object))
    ranks = np.unique(scores.ranks, return_inverse=True)[1]
    return np.where(scores.positive, table[0][ranks], table[1][ranks])


def _pairs(found: list[ClassifierLoss], gammas: list) -> list[PairLoss]:
    from scipy.stats import wilcoxon

    out = []
    for a, b in combinations(found, 2):
        if a.dataset != b.dataset:
            continue
        for g in gammas:
            la, lb = a.losses[g], b.losses[g]
            diff = la.value - lb.value
            if la.exact_value is not None and lb.exact_value is not None:
                exact = la.exact_value - lb.exact_value
                cheaper, diff = None if exact == 0 else a.name if exact < 0 else b.name, rounded(exact)
            else:
                cheaper = None if abs(diff) <= la.error + lb.error else a.name if diff < 0 else b.name
            pair = PairLoss(a.name, b.name, a.dataset, g, cheaper, diff)
            if g in a.instance_losses and g in b.instance_losses:
                d = np.array([float(x) for x in a.instance_losses[g] - b.instance_losses[g]])  # exact zeros stay 0
                if np.any(d != 0):
                    pair.p_value = float(wilcoxon(d).pvalue)
                    side = int(wilcoxon_rows(d[None, :])[3][0])  # the signed ranks' side: −1 the first costs less
                    pair.test_favours = a.name if side < 0 else b.name if side > 0 else None
            out.append(pair)
    tested = [p for p in out if p.p_value is not None]
    for p, adjusted in zip(tested, holm([p.p_value for p in tested])):
        p.p_holm = adjusted
    return out
