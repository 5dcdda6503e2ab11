"""Decisions for many distributions at once (one row per instance), exact in every result.

Rows arrive as `ExactRows` (integers over each row's exact sum, with floats beside them; lists of Fractions
are converted). Two routes. When every class is treated alike (c_Y(y) depends only on |Y| and on whether
y ∈ Y: a_k inside, b_k outside, rational), the best set of each size k is the k likeliest classes or the k
least likely, so each row needs a sort and K comparisons (`symmetric`: floats under a proven bound, integers
for the rows it cannot separate), never 2^K. Otherwise every set's expected cost is computed as floats in one
product, widened by a proven bound on the rounding (Higham's bound for a K-term dot product, plus each cell's
own error); a row whose best set is certainly below every other is decided there, and any other row (a tie, a
near tie) is decided exactly by `decide`. A restricted family (`{max_size: k}`, a hierarchy, intervals) whose
costs treat every class alike is decided from the allowed sets' masses instead (`family_decide`).

Credal sets (one interval credal set per row) are decided by `credal_batch`, vectorised over the rows, except
e-admissibility, decided set by set in z3 for the classes maximality leaves; what the scheme contributes is
built once (`SchemeRows`). Every batch ends with a `BatchSummary`.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.engines.expected import ExpectedCosts
from verifier.errors import UsageError
from verifier.scheme import ClassSet, Scheme
from verifier.using.decide.credal import MAX_CREDAL_CLASSES, RULES, CredalSet, Rule, SchemeRows, _admissible_at
from verifier.using.decide.credal_batch import CredalRow, decide_rows, prediction_costs, undominated
from verifier.using.decide.family_decide import FamilyRoute, route_for
from verifier.using.decide.precise import decide
from verifier.using.decide.symmetric import decide_symmetric, symmetric_costs
from verifier.using.exact import ExactRows, IntervalRows, interval_rows, rational_rows

_U = 2.0 ** -52
CHUNK = 1 << 22  # rows x sets of floats per block


@dataclass
class BatchDecision:
    """The decisions of a batch of rows: each row's prediction (of tied optima the one `decide` reports), how
    many sets tie for its optimum, the rows with an undecided comparison, the route taken and how many rows the
    floats left to exact arithmetic."""

    predictions: list[ClassSet]
    tied_optima: list[int]  # how many sets tie for the optimum in each row (1: a unique optimum)
    undecided: list[int]  # rows where some difference was not decided (irrational costs only)
    route: str  # "symmetric", "vectorised", or a family's own: "hierarchy", "intervals"
    exact_rows: int  # rows the floats could not separate, decided in exact arithmetic (either route)

    def summary(self) -> BatchSummary:
        """The batch summed up (`summarise`), counting the rows with several tied optima and the undecided rows."""
        return summarise(self.predictions, sum(1 for n in self.tied_optima if n > 1), len(self.undecided))


@dataclass
class BatchSummary:
    """A batch summed up: its rows, each set predicted with its count, the determinacy and mean set size (exact
    fractions), and the rows with ties or with an undecided comparison."""

    rows: int
    predicted: list[tuple[ClassSet, int]]  # each set predicted, with its count: most frequent first, then by set
    determinacy: Fraction  # the share of rows predicting a single class
    mean_size: Fraction
    rows_with_ties: int  # several sets tied for the optimum (gamma-maximin: for the least upper expected cost)
    rows_with_undecided: int  # some comparison was not decided (irrational costs; z3 without an answer)


def summarise(predictions: list[ClassSet], rows_with_ties: int, rows_with_undecided: int) -> BatchSummary:
    """The `BatchSummary` of a batch's predictions, given its counts of rows with ties and with an undecided
    comparison (determinacy and mean size 0 when there are no rows)."""
    n = len(predictions)
    counts = Counter(predictions)
    predicted = sorted(counts.items(), key=lambda t: (-t[1], len(t[0]), sorted(t[0])))
    singletons = sum(c for m, c in counts.items() if len(m) == 1)
    sizes = sum(len(m) * c for m, c in counts.items())
    return BatchSummary(n, predicted, Fraction(singletons, n or 1), Fraction(sizes, n or 1), rows_with_ties,
                        rows_with_undecided)


SYMMETRIC_FROM = 8  # below, the product over 2^K sets is as fast as the sort (measured: 10,000 rows in ~5 ms)


class BatchDecider:
    """Decisions block by block, with the route (and the expected-cost arrays) prepared once per scheme."""

    def __init__(self, scheme: Scheme, costs: ExpectedCosts | None = None, family: FamilyRoute | None = None):
        self.scheme = scheme  # `costs`: the scheme's expected-cost arrays, when already made (one per scheme)
        if family is None and (scheme.orbits is not None or scheme.partial):  # representatives are not every set
            raise ValueError("a reduced scheme holds some sets only: decide on its route (api.use_route)")
        # a restricted family whose costs treat classes alike: the sets' masses (`family_decide`), no product;
        # `family` given: the route was found without the family's matrix, and `scheme` has representatives only
        self.family = family or (route_for(scheme) if scheme.family_restricted else None)
        self.ab = symmetric_costs(scheme) if self.family is None and scheme.K >= SYMMETRIC_FROM and \
            not scheme.family_restricted else None
        self.costs = None if self.ab is not None or self.family is not None else costs or ExpectedCosts(scheme)
        route = self.family.route if self.family is not None else "symmetric" if self.ab is not None else "vectorised"
        self.result = BatchDecision([], [], [], route, 0)

    def fresh(self) -> BatchDecider:
        """A decider of a new batch on the same prepared route (its arrays shared, not made again)."""
        decider = copy.copy(self)
        decider.result = BatchDecision([], [], [], self.result.route, 0)
        return decider

    def add(self, rows: ExactRows | list[list[Fraction]]) -> None:
        """A block of rows: exact rows read from a file, or exact (normalised) distributions."""
        offset = len(self.result.predictions)
        rows = rows if isinstance(rows, ExactRows) else rational_rows(rows, self.scheme.K)
        if self.family is not None:
            predictions, counts, exact = self.family.decide(rows)
            b = BatchDecision(predictions, counts, [], self.family.route, exact)
        else:
            b = _symmetric(self.scheme.K, rows, *self.ab) if self.ab is not None else \
                _vectorised(self.scheme, rows, self.costs)
        self.result.predictions += b.predictions
        self.result.tied_optima += b.tied_optima
        self.result.undecided += [offset + i for i in b.undecided]
        self.result.exact_rows += b.exact_rows


def decide_batch(scheme: Scheme, rows: list[list[Fraction]]) -> BatchDecision:
    """The decisions of `scheme` for exact distributions, one per row, made as one block by a `BatchDecider`."""
    decider = BatchDecider(scheme)
    decider.add(rows)
    return decider.result


def _symmetric(K: int, rows, a: list[Fraction], b: list[Fraction]) -> BatchDecision:
    block = rows if isinstance(rows, ExactRows) else rational_rows(rows, K)
    predictions, counts, exact = decide_symmetric(block, a, b)
    return BatchDecision(predictions, counts, [], "symmetric", exact)


def _vectorised(scheme: Scheme, rows, costs: ExpectedCosts | None = None) -> BatchDecision:
    """Every set's expected cost (times the row's sum) in one float product per chunk; a row not separated by
    the bound is decided by `decide` on its exact row."""
    costs = costs or ExpectedCosts(scheme)
    rows = rows if isinstance(rows, ExactRows) else rational_rows(rows, scheme.K)
    sets, F = costs.sets, costs.floats
    radius = cell_radius(costs)
    P = rows.floats  # the exact row times a positive scale, each value within 2^-53 relative (Higham: K + 4)
    predictions: list[ClassSet | None] = [None] * len(rows)
    counts, undecided, exact_rows = [1] * len(rows), [], 0
    step = max(1, CHUNK // max(1, len(sets)))
    for start in range(0, len(rows), step):
        block = P[start:start + step]
        centre = block @ F.T
        error = block @ radius.T + (scheme.K + 4) * _U * (block @ np.abs(F).T) + 1e-300
        best = np.argmin(centre, axis=1)
        high = centre[np.arange(len(block)), best] + error[np.arange(len(block)), best]
        low = centre - error
        low[np.arange(len(block)), best] = np.inf
        certain = np.min(low, axis=1) > high
        predictions[start:start + len(block)] = [sets[k] for k in best.tolist()]  # the uncertain rows: below
        for offset in np.flatnonzero(~certain).tolist():
            i = start + offset
            exact_rows += 1
            d = decide(scheme, rows[i], costs)
            predictions[i], counts[i] = d.prediction, len(d.optimal)
            if d.undecided:
                undecided.append(i)
    return BatchDecision(predictions, counts, undecided, "vectorised", exact_rows)


class CredalBatchDecider:
    """One rule applied to many interval credal sets: maximality, interval dominance and gamma-maximin
    vectorised over the rows (`credal_batch`: floats with a proven bound, exact integers where it cannot
    separate); e-admissibility set by set in z3 (`credal`), for the maximal classes only (the e-admissible
    classes are maximal, and a single maximal class is e-admissible, as the set is not empty). The scheme's
    exact rows (and z3 context) are built once; the rule, the number of classes and the costs' rationality are
    checked before any row is read. `exact_comparisons` counts what the floats left to exact arithmetic."""

    def __init__(self, scheme: Scheme, rule: str):
        if rule not in RULES:
            raise UsageError(f"--rule {rule!r}: expected one of {', '.join(RULES)}")
        if scheme.K > MAX_CREDAL_CLASSES:
            raise UsageError(f"imprecise probabilities work on at most {MAX_CREDAL_CLASSES:,} classes, not {scheme.K}")
        self.scheme, self.rule, self.shared = scheme, rule, SchemeRows(scheme)
        self.rows: list[CredalRow] = []
        self.exact_comparisons = 0

    def add(self, sets: IntervalRows | list[list[tuple[Fraction, Fraction]]]) -> None:
        """A block of interval credal sets (per row, each class's lower and upper probability), decided by the
        rule and appended to `rows`."""
        block = sets if isinstance(sets, IntervalRows) else interval_rows(sets, self.scheme.K)
        if self.rule != Rule.E_ADMISSIBILITY:
            rows, exact = decide_rows(block, self.rule, self.shared.det, list(self.scheme.all_sets), self.shared.row)
            self.rows += rows
            self.exact_comparisons += exact
            return
        maximal, exact = undominated(block, self.shared.det, "maximality")
        self.exact_comparisons += exact
        predictions, undecided = [], []
        for i, classes in enumerate(maximal):
            if len(classes) == 1:  # some class is optimal somewhere in the (non-empty) set, and only a
                predictions.append(classes)  # maximal one can be: the single maximal class is e-admissible
                undecided.append([])
                continue
            credal, admissible, unknown = CredalSet(self.scheme.K, bounds=block.bounds(i)), [], []
            for y in sorted(classes):  # a dominated class is never optimal: z3 only for the maximal ones
                p = _admissible_at(credal, self.shared.det, y, self.shared.context)
                (unknown if p == "unknown" else admissible if p is not None else []).append(y)
            predictions.append(frozenset(admissible))
            undecided.append(unknown)
        costs = prediction_costs(block, predictions, self.shared.row)
        self.rows += [CredalRow(p, u, [], c) for p, u, c in zip(predictions, undecided, costs)]

    def summary(self) -> BatchSummary:
        """The rows decided so far summed up (`summarise`): rows with several tied sets, rows with undecided
        classes."""
        return summarise([r.prediction for r in self.rows], sum(1 for r in self.rows if len(r.ties) > 1),
                         sum(1 for r in self.rows if r.undecided))


def cell_radius(costs: ExpectedCosts) -> np.ndarray:
    """A proven bound on |float cell − exact cell| for every cell (inf where none is known)."""
    F = costs.floats
    if getattr(costs, "bounded", False) and hasattr(costs, "rads"):
        return costs.rads + np.abs(costs.mids - F)
    cells = getattr(costs.scheme, "cells", None)
    if cells is not None and costs.rational:
        return (cells.rows.hi - cells.rows.lo) / 2 + 2 * _U * np.abs(F) + 1e-300
    if costs.rational:
        return 2 * _U * np.abs(F) + 1e-300  # each rational cell rounded once to the nearest float
    return np.full_like(F, np.inf)
