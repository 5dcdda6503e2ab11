"""Abstention cost curves for every classifier of a scores file, under a two-class spec swept over one or two of
its parameters: per scenario the optimal window of each classifier and of the trivial classifier (always P,
always N or always abstain: a classifier whose scores are all equal), its cost in the spec's terms and in the
normal form, its thresholds; per classifier the VACC and the area where abstaining pays; per pair of
classifiers of a data set the differential cost. Every window is re-checked by `recheck` before it is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import numpy as np

from verifier import limits
from verifier.errors import UsageError
from verifier.using.abstention.batch import optimal_windows
from verifier.using.abstention.normal_form import Scenario
from verifier.using.abstention.recheck import Recheck, recheck
from verifier.using.abstention.score_staircase import Hull, Staircase, staircase
from verifier.using.abstention.scores_file import Scores
from verifier.using.abstention.volume import Volume, exact_volume, grid_volume
from verifier.using.abstention.windows import Window

TRIVIAL = "trivial"  # the name of the trivial classifier in every data set
MAX_PAIRS = 100


@dataclass
class ClassifierCurves:
    """One classifier on one data set: per scenario (None where excluded) its optimal window, that window's cost
    in the spec's terms, and its thresholds (l, u) ("-inf" below every score, "inf" above); its VACC and its
    re-check."""

    name: str
    dataset: str | None
    positives: int
    negatives: int
    windows: list[Window | None]
    costs: list[Fraction | None]
    thresholds: list[tuple[Fraction | str, Fraction | str] | None]  # "-inf" or "inf" at the ends
    volume: Volume
    recheck: Recheck

    @property
    def n(self) -> int:
        """The instances of the data set: positives plus negatives."""
        return self.positives + self.negatives

    @property
    def label(self) -> str:
        """The classifier's name, followed by its data set in brackets when it has one."""
        return self.name if self.dataset is None else f"{self.name} ({self.dataset})"


@dataclass
class Difference:
    """first minus second, in the spec's expected cost, per scenario (None where excluded)."""

    first: ClassifierCurves
    second: ClassifierCurves
    values: list[Fraction | None]

    def __post_init__(self):  # the signs and the extremes once: every report reads them
        self._signs = [None if v is None else (v.numerator > 0) - (v.numerator < 0) for v in self.values]
        self._extremes = {}
        for sign in (-1, 1):
            found = [(v * sign, s) for s, (v, g) in enumerate(zip(self.values, self._signs)) if g == sign]
            self._extremes[sign] = max(found) if found else None

    def count(self, sign: int) -> int:
        """The scenarios where the difference has this sign (-1: the first is cheaper, 1: the second, 0: equal)."""
        return sum(1 for g in self._signs if g == sign)

    def extreme(self, sign: int) -> tuple[Fraction, int] | None:
        """The largest advantage of the first (sign -1: most negative) or of the second (sign 1), and where."""
        return self._extremes[sign]


@dataclass
class AbstentionCurves:
    """The curves of one scores file: the swept parameters and their grids, the scenarios, each classifier's
    curves (the trivial classifier of each data set included) and the differential costs made."""

    path: str
    parameters: list[str]
    grids: list[list[Fraction]]
    scenarios: list[Scenario]
    classifiers: list[ClassifierCurves]
    differences: list[Difference] = field(default_factory=list)
    note: str | None = None  # why not every pair of classifiers has a differential cost

    @property
    def admissible(self) -> list[int]:
        """The indices of the scenarios that have a normal form (not excluded)."""
        return [s for s, sc in enumerate(self.scenarios) if sc.excluded is None]


def abstention_curves(path: str, names: list[str], grids: list[list[Fraction]], scenarios: list[Scenario],
                      found: list[Scores], into: AbstentionCurves | None = None, pairs: str | None = None) \
        -> AbstentionCurves:
    """Everything for the classifiers in `found`, plus the trivial classifier of each data set, added to `into`
    (a fresh AbstentionCurves when None) one classifier at a time: what a time limit stops keeps what was done.
    `pairs` (None, 'all', 'best' or 'name:NAME', as `compare.check_pairs` gives it): the differential costs made
    (`_pairs`), besides each classifier against the trivial one."""
    out = into if into is not None else AbstentionCurves(path, names, grids, scenarios, [])
    for dataset in dict.fromkeys(s.dataset for s in found):
        mine = [s for s in found if s.dataset == dataset]
        positive = mine[0].positive
        if not all(np.array_equal(s.positive, positive) for s in mine):
            raise UsageError("every classifier of a data set is scored on the same rows")  # guarded by the reader
        real = []
        for s in mine:
            limits.check_time()  # outside the main thread no alarm fires: stop between classifiers
            real.append(_classifier(s, scenarios))
            out.classifiers.append(real[-1])
        trivial = Scores(name=TRIVIAL, dataset=dataset, ranks=np.zeros(len(positive), dtype=np.int64), texts=("0",),
                         positive=positive)
        plain = _classifier(trivial, scenarios)
        differences = [_difference(a, b) for a, b in _pairs(real, pairs, out)] + \
            [_difference(c, plain) for c in real]
        out.classifiers.append(plain)
        out.differences += differences
    return out


def _pairs(real: list[ClassifierCurves], pairs: str | None, out: AbstentionCurves) -> list[tuple]:
    """The pairs of a data set's classifiers whose differential cost is made: every pair ('all'; by default
    while a data set has at most MAX_PAIRS), each against the one of least VACC ('best': the least lower bound
    where a VACC is only bounded, the first of equals), or each against the one named ('name:NAME')."""
    if pairs is None:
        pairs = "all" if len(real) * (len(real) - 1) // 2 <= MAX_PAIRS else "best"
        if pairs == "best":
            out.note = (f"{len(real):,} classifiers make more than {MAX_PAIRS:,} pairs: each is compared with the one "
                        "of least VACC; --pairs all compares every pair")
    if pairs == "all":
        return list(combinations(real, 2))
    if pairs == "best":
        reference = min(real, key=lambda c: c.volume.low)
    else:
        from verifier.using.compare import NAMED

        reference = next((c for c in real if c.name == pairs[len(NAMED):]), None)
        if reference is None:
            return []
    return [(c, reference) for c in real if c is not reference]


def _classifier(scores: Scores, scenarios: list[Scenario]) -> ClassifierCurves:
    stairs = staircase(scores.ranks, scores.positive, scores.score)
    hull = Hull(stairs)
    kept = [s for s, sc in enumerate(scenarios) if sc.excluded is None]
    windows: list[Window | None] = [None] * len(scenarios)
    points = [(scenarios[s].mu, scenarios[s].nu, scenarios[s].nu_n) for s in kept]
    for s, w in zip(kept, optimal_windows(stairs, hull, points)):
        windows[s] = w
    checked = recheck(stairs, points, [windows[s] for s in kept])
    if checked.disagreement:
        raise AssertionError(f"abstention window of {scores.name} refuted by the re-check {checked.disagreement}")
    positives = int(stairs.positives[-1])
    negatives = int(stairs.negatives[-1])
    costs = [None if w is None else s.spec_cost(w.cost, positives, negatives) for s, w in zip(scenarios, windows)]
    seen: dict[int, Fraction | str] = {}
    ends = [None if w is None else (_threshold(stairs, w.low, seen), _threshold(stairs, w.high, seen))
            for w in windows]
    volume = exact_volume(stairs, hull) or grid_volume(stairs, hull)
    return ClassifierCurves(scores.name, scores.dataset, positives, negatives, windows, costs, ends, volume, checked)


def _threshold(stairs: Staircase, cut: int, seen: dict) -> Fraction | str:
    if cut not in seen:
        value = stairs.threshold(cut)
        seen[cut] = value if value is not None else "-inf" if cut == 0 else "inf"
    return seen[cut]


def _difference(a: ClassifierCurves, b: ClassifierCurves) -> Difference:
    return Difference(a, b, [None if x is None or y is None else x - y for x, y in zip(a.costs, b.costs)])
