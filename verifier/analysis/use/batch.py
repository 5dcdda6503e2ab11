"""Decisions for many distributions at once (one row per instance), exact in every result.

Two routes. When every class is treated alike (c_Y(y) depends only on |Y| and on whether y ∈ Y: a_k inside,
b_k outside, rational), the best set of each size k is the k likeliest classes (when a_k ≤ b_k) or the k least
likely, so each row needs a sort and K exact comparisons in rationals, never 2^K. Otherwise every set's
expected cost is computed as floats in one product, widened by a proven bound on the rounding (Higham's bound
for a K-term dot product, plus each cell's own error); a row whose best set is certainly below every other is
decided there, and any other row (a tie, a near tie) is decided exactly by `decide`.

Credal sets (one interval credal set per row) are decided one by one by `decide_credal`, the path of a single
set, with what the scheme contributes built once (`SchemeRows`). Every batch ends with a `BatchSummary`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from verifier.analysis.use.credal import MAX_CREDAL_CLASSES, RULES, CredalSet, SchemeRows, decide_credal
from verifier.analysis.use.decide import decide
from verifier.engines.expected import ExpectedCosts
from verifier.errors import UsageError
from verifier.scheme import ClassSet, Scheme

_U = 2.0 ** -52
CHUNK = 1 << 22  # rows x sets of floats per block


@dataclass
class BatchDecision:
    predictions: list[ClassSet]
    tied_optima: list[int]  # how many sets tie for the optimum in each row (1: a unique optimum)
    undecided: list[int]  # rows where some difference was not decided (irrational costs only)
    route: str  # "symmetric" or "vectorised"
    exact_rows: int  # rows the vectorised route had to decide exactly

    def summary(self) -> BatchSummary:
        return summarise(self.predictions, sum(1 for n in self.tied_optima if n > 1), len(self.undecided))


@dataclass
class BatchSummary:
    rows: int
    predicted: list[tuple[ClassSet, int]]  # each set predicted, with its count: most frequent first, then by set
    determinacy: Fraction  # the share of rows predicting a single class
    mean_size: Fraction
    rows_with_ties: int  # several sets tied for the optimum (gamma-maximin: for the least upper expected cost)
    rows_with_undecided: int  # some comparison was not decided (irrational costs; z3 without an answer)


def summarise(predictions: list[ClassSet], rows_with_ties: int, rows_with_undecided: int) -> BatchSummary:
    n = len(predictions)
    counts = Counter(predictions)
    predicted = sorted(counts.items(), key=lambda t: (-t[1], len(t[0]), sorted(t[0])))
    singletons = sum(c for m, c in counts.items() if len(m) == 1)
    sizes = sum(len(m) * c for m, c in counts.items())
    return BatchSummary(n, predicted, Fraction(singletons, n or 1), Fraction(sizes, n or 1), rows_with_ties,
                        rows_with_undecided)


def symmetric_costs(scheme: Scheme) -> tuple[list[Fraction], list[Fraction]] | None:
    """(a, b) with c_Y(y) = a[|Y|] for y ∈ Y and b[|Y|] otherwise, when that holds exactly for every cell."""
    K = scheme.K
    cells = getattr(scheme, "cells", None)
    if cells is not None:
        return _symmetric_arrays(cells)
    a: list[Fraction | None] = [None] * (K + 1)
    b: list[Fraction | None] = [None] * (K + 1)
    for members in scheme.all_sets:
        for y in range(K):
            v = scheme.cost(members, y)
            if not getattr(v, "is_Rational", False):
                return None
            value = Fraction(int(v.p), int(v.q))
            table = a if y in members else b
            if table[len(members)] is None:
                table[len(members)] = value
            elif table[len(members)] != value:
                return None
    return [x or Fraction(0) for x in a], [x or Fraction(0) for x in b]


def _symmetric_arrays(cells) -> tuple[list[Fraction], list[Fraction]] | None:
    """The same test on the fast path's exact integer arrays, without a cell-by-cell pass."""
    rows = cells.rows
    if not rows.exact.all():
        return None
    num, member, size = np.asarray(rows.num), cells.members, cells.sizes[:, None]
    a, b = [Fraction(0)] * (cells.K + 1), [Fraction(0)] * (cells.K + 1)
    for k in range(1, cells.K + 1):
        for table, where in ((a, member & (size == k)), (b, ~member & (size == k))):
            values = num[where]
            if values.size and np.any(values != values.flat[0]):
                return None
            if values.size:
                table[k] = Fraction(int(values.flat[0]), int(rows.den))
    return a, b


SYMMETRIC_FROM = 8  # below, the vectorised product over 2^K sets is cheaper than sorting in rationals


class BatchDecider:
    """Decisions block by block, with the route (and the expected-cost arrays) prepared once per scheme."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self.ab = symmetric_costs(scheme) if scheme.K >= SYMMETRIC_FROM else None
        self.costs = None if self.ab is not None else ExpectedCosts(scheme)
        self.result = BatchDecision([], [], [], "symmetric" if self.ab is not None else "vectorised", 0)

    def add(self, rows: list[list[Fraction]]) -> None:
        offset = len(self.result.predictions)
        b = _symmetric(self.scheme.K, rows, *self.ab) if self.ab is not None else \
            _vectorised(self.scheme, rows, self.costs)
        self.result.predictions += b.predictions
        self.result.tied_optima += b.tied_optima
        self.result.undecided += [offset + i for i in b.undecided]
        self.result.exact_rows += b.exact_rows


def decide_batch(scheme: Scheme, rows: list[list[Fraction]]) -> BatchDecision:
    decider = BatchDecider(scheme)
    decider.add(rows)
    return decider.result


def _symmetric(K: int, rows: list[list[Fraction]], a: list[Fraction], b: list[Fraction]) -> BatchDecision:
    predictions, counts = [], []
    for p in rows:
        # likeliest (or least likely) first, and the lower class index among equals, so that a tie resolves
        # to the same set `decide` reports: the smallest optimum, then the first in class order
        order = sorted(range(K), key=lambda y: (-p[y], y))
        rising = sorted(range(K), key=lambda y: (p[y], y))
        best, chosen, count = None, None, 0
        for k in range(1, K + 1):
            top = order[:k] if a[k] <= b[k] else rising[:k]
            mass = sum((p[y] for y in top), Fraction(0))
            value = b[k] + (a[k] - b[k]) * mass
            ways = _ways(p, order, k, a[k] <= b[k]) if a[k] != b[k] else comb(K, k)
            if best is None or value < best:
                best, chosen, count = value, frozenset(top), ways
            elif value == best:
                count += ways
        predictions.append(chosen)
        counts.append(count)
    return BatchDecision(predictions, counts, [], "symmetric", 0)


def _ways(p, order, k: int, likeliest: bool) -> int:
    """How many sets of size k reach the same mass as the chosen k (ties in probability at the cut)."""
    ranked = order if likeliest else order[::-1]
    K = len(order)
    if k == K:
        return 1
    cut = p[ranked[k - 1]]
    inside = sum(1 for y in ranked[:k] if p[y] == cut)
    equal = sum(1 for y in ranked if p[y] == cut)
    return comb(equal, inside)


def _vectorised(scheme: Scheme, rows: list[list[Fraction]], costs: ExpectedCosts | None = None) -> BatchDecision:
    costs = costs or ExpectedCosts(scheme)
    sets, F = costs.sets, costs.floats
    radius = _cell_radius(costs)
    P = np.array([[float(x) for x in p] for p in rows], dtype=float).reshape(len(rows), scheme.K)
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
        for offset in range(len(block)):
            i = start + offset
            if certain[offset]:
                predictions[i] = sets[int(best[offset])]
                continue
            exact_rows += 1
            d = decide(scheme, rows[i], costs)
            predictions[i], counts[i] = d.prediction, len(d.optimal)
            if d.undecided:
                undecided.append(i)
    return BatchDecision(predictions, counts, undecided, "vectorised", exact_rows)


@dataclass
class CredalRow:
    prediction: ClassSet
    undecided: list[int]  # e-admissibility: classes z3 gave no answer for
    ties: list[ClassSet]  # gamma-maximin: every set of the least upper expected cost (the prediction first)
    cost: tuple[Fraction, Fraction] | None  # lower and upper expected cost of the prediction (None: empty)


class CredalBatchDecider:
    """One rule applied to many interval credal sets, each by `decide_credal` exactly as a single set is, with
    the scheme's exact rows (and z3 context) built once; the rule, the number of classes and the costs'
    rationality are checked before any row is read."""

    def __init__(self, scheme: Scheme, rule: str):
        if rule not in RULES:
            raise UsageError(f"--rule {rule!r}: expected one of {', '.join(RULES)}")
        if scheme.K > MAX_CREDAL_CLASSES:
            raise UsageError(f"imprecise probabilities work on at most {MAX_CREDAL_CLASSES} classes, not {scheme.K}")
        self.scheme, self.rule, self.shared = scheme, rule, SchemeRows(scheme)
        self.rows: list[CredalRow] = []

    def add(self, sets: list[list[tuple[Fraction, Fraction]]]) -> None:
        for bounds in sets:
            d = decide_credal(self.scheme, CredalSet(self.scheme.K, bounds=bounds), self.rule, self.shared)
            prediction = d.prediction if isinstance(d.prediction, frozenset) else frozenset(d.prediction)
            self.rows.append(CredalRow(prediction, d.undecided, d.ties, d.bounds.get(prediction)))

    def summary(self) -> BatchSummary:
        return summarise([r.prediction for r in self.rows], sum(1 for r in self.rows if len(r.ties) > 1),
                         sum(1 for r in self.rows if r.undecided))


def _cell_radius(costs: ExpectedCosts) -> np.ndarray:
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
