"""Interval credal sets decided many at a time: the rules of `credal` vectorised over the rows and the pairs of
classes (or the sets), with floats that separate under a proven bound and integers that decide the rest.

The lower expectation of f over an interval set is the greedy solution: every class at its lower bound, then
the remaining mass r = 1 − Σ lo to the classes in increasing f (ties by class), each up to its width; in closed
form p_y = lo_y + clip(r − B_y, 0, w_y), with B_y the widths of the classes before y. The order depends on f
alone, so it is computed once, exactly, per cost vector; the rest is array arithmetic, the same code in floats
(to separate) and in Python integers over the row's denominator (to decide).

The float error is bounded as follows (u = 2^-53, every intermediate below K + 1 in magnitude, so each
operation errs by at most ε = (K + 1)·u + 2^-1074): a bound read from decimal text is within ε; a width within
3ε; r within (2K + 1)ε; B_y within 4Kε; clip is 1-Lipschitz, so p_y is within (6K + 4)ε; the dot product
with the rounded f adds γ_K·Σ|p||f| + u·max|f| ≤ (2.02K + 1.01)·u·max|f| (Σ p = 1). `Vectors.bound` is
(6K + 8)ε·Σ|f| + 4(K + 2)·u·max|f| + 1e-300·(1 + Σ|f|). A comparison is decided by floats only when its
value is farther than its bound from the threshold; otherwise it is recomputed exactly (`exact_pairs` counts
them). The exact lower and upper expected costs of every prediction are computed in integers.

Owns: `CredalRow`, `decide_rows`, `undominated`, `prediction_costs`, `Vectors` and the greedy. May import:
`using.exact.exact_rows`, `scheme`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from verifier.scheme import ClassSet
from verifier.using.decide.credal import Rule
from verifier.using.exact import TINY, IntervalRows, U

CHUNK = 1 << 18  # rows x vectors x classes per block of floats


@dataclass
class CredalRow:
    """One credal set's decision in a batch: the prediction, the classes left undecided, the tied sets, and the
    prediction's exact lower and upper expected cost."""

    prediction: ClassSet
    undecided: list[int]  # e-admissibility: classes z3 gave no answer for
    ties: list[ClassSet]  # gamma-maximin: every set of the least upper expected cost (the prediction first)
    cost: tuple[Fraction, Fraction] | None  # lower and upper expected cost of the prediction (None: empty)


class Vectors:
    """Cost vectors prepared for the greedy: exact order (ties by class), integers over each vector's own
    denominator q, floats, and the float bound."""

    def __init__(self, values: list[list[Fraction]], K: int):
        m = len(values)
        self.q = np.empty(m, dtype=object)
        self.q[:] = [lcm(*(x.denominator for x in v)) for v in values]
        self.ints = np.array([[x.numerator * (q // x.denominator) for x in v] for v, q in zip(values, self.q)],
                             dtype=object).reshape(m, K)
        self.floats = np.array([[float(x) for x in v] for v in values], dtype=np.float64).reshape(m, K)
        self.order = np.array([sorted(range(K), key=lambda y: (v[y], y)) for v in values],
                              dtype=np.int64).reshape(m, K)
        eps = (K + 1) * U + TINY
        size = np.abs(self.floats)
        total, top = size.sum(axis=1), size.max(axis=1, initial=0.0)
        self.bound = (6 * K + 8) * eps * total + 4 * (K + 2) * U * top + 1e-300 * (1 + total)

    def take(self, columns) -> Vectors:
        """The vectors selected by `columns` (an index into the vectors), taken without recomputing them."""
        out = object.__new__(Vectors)
        out.q, out.ints, out.floats = self.q[columns], self.ints[columns], self.floats[columns]
        out.order, out.bound = self.order[columns], self.bound[columns]
        return out


def _greedy(lo, width, rest, f, order):
    """Σ_y p_y·f_y at the greedy p, for rows (lo, width: (n, K); rest: (n,)) and vectors (f, order: (m, K)):
    (n, m), in floats or in integers alike."""
    w = width[:, order]
    before = np.zeros_like(w)
    before[:, :, 1:] = np.cumsum(w[:, :, :-1], axis=2)
    give = np.minimum(np.maximum(rest[:, None, None] - before, 0), w)
    p = lo[:, order] + give
    return (p * np.take_along_axis(f, order, axis=1)).sum(axis=2)


def lower_floats(rows: IntervalRows, vectors: Vectors) -> np.ndarray:
    """Float lower expectations (n, m), each within `vectors.bound` of the exact one."""
    n, K = rows.lo.shape
    m = len(vectors.floats)
    width, rest = rows.hi - rows.lo, 1.0 - rows.lo.sum(axis=1)
    out = np.empty((n, m))
    step = max(1, CHUNK // max(1, m * K))
    for start in range(0, n, step):
        s = slice(start, start + step)
        out[s] = _greedy(rows.lo[s], width[s], rest[s], vectors.floats, vectors.order)
    return out


def lower_exact(rows: IntervalRows, which: np.ndarray, vectors: Vectors) -> list[list[Fraction]]:
    """Exact lower expectations of every vector at the rows `which` (row indices), as Fractions."""
    lo, den = rows.lo_num[which], rows.den[which]
    values = _greedy(lo, rows.hi_num[which] - lo, den - lo.sum(axis=1), vectors.ints, vectors.order)
    return [[Fraction(v, d * q) for v, q in zip(row, vectors.q)] for row, d in zip(values.tolist(), den.tolist())]


def _exact_at(rows: IntervalRows, cells: np.ndarray, vectors: Vectors) -> dict[tuple[int, int], Fraction]:
    """Exact lower expectations at the (row, vector) cells given as a boolean (n, m) array, column by column."""
    out = {}
    for j in np.flatnonzero(cells.any(axis=0)):
        which = np.flatnonzero(cells[:, j])
        for i, (value,) in zip(which.tolist(), lower_exact(rows, which, vectors.take([j]))):
            out[(i, int(j))] = value
    return out


def decide_rows(rows: IntervalRows, rule: str, det: list[list[Fraction]], sets: list[ClassSet], row_of) \
        -> tuple[list[CredalRow], int]:
    """(one CredalRow per credal set, comparisons decided exactly) for maximality, interval dominance or
    gamma-maximin. `det`: the determinate rows; `sets` and `row_of(set)`: every set and its exact row."""
    K = rows.lo.shape[1]
    ties: list[list[ClassSet]] = [[] for _ in range(len(rows))]
    if rule == Rule.GAMMA_MAXIMIN:
        predictions, ties, exact = _gamma_maximin(rows, sets, row_of, K)
    else:
        predictions, exact = undominated(rows, det, rule)
    costs = prediction_costs(rows, predictions, row_of)
    return [CredalRow(p, [], t, c) for p, t, c in zip(predictions, ties, costs)], exact


def undominated(rows: IntervalRows, det: list[list[Fraction]], rule: str) -> tuple[list[ClassSet], int]:
    """(the classes no other dominates, per row; comparisons decided exactly) under maximality or interval
    dominance."""
    K = rows.lo.shape[1]
    dominated, exact = (_maximality if rule == Rule.MAXIMALITY else _interval_dominance)(rows, det, K)
    names: dict[int, ClassSet] = {}
    predictions = []
    for m in dominated.tolist():
        if m not in names:
            names[m] = frozenset(y for y in range(K) if not m >> y & 1)
        predictions.append(names[m])
    return predictions, exact


def _maximality(rows: IntervalRows, det, K: int) -> tuple[np.ndarray, int]:
    """A bit mask per row of the classes some other class dominates: i ≻ j iff the lower expectation of
    c_j − c_i is positive."""
    pairs = [(i, j) for i in range(K) for j in range(K) if i != j]
    vectors = Vectors([[b - a for a, b in zip(det[i], det[j])] for i, j in pairs], K)
    value = lower_floats(rows, vectors)
    wins = value > vectors.bound
    unsure = ~wins & (value + vectors.bound > 0)
    for (i, col), exact in _exact_at(rows, unsure, vectors).items():
        wins[i, col] = exact > 0
    return _mask(wins, [j for _, j in pairs], K), int(unsure.sum())


def _interval_dominance(rows: IntervalRows, det, K: int) -> tuple[np.ndarray, int]:
    """i ≻ j iff the lower expectation of c_j exceeds the upper expectation of c_i."""
    plus, minus = Vectors(det, K), Vectors([[-x for x in c] for c in det], K)
    low, up = lower_floats(rows, plus), -lower_floats(rows, minus)
    pairs = [(i, j) for i in range(K) for j in range(K) if i != j]
    I, J = np.array([i for i, _ in pairs]), np.array([j for _, j in pairs])
    value = low[:, J] - up[:, I]
    bound = plus.bound[J] + minus.bound[I] + 2 * U * (np.abs(low[:, J]) + np.abs(up[:, I])) + 1e-300
    wins = value > bound
    unsure = ~wins & (value + bound > 0)
    if unsure.any():
        rows_needed = unsure.any(axis=1)
        need = np.zeros((len(rows), K), dtype=bool)
        need[rows_needed] = True
        lows, ups = _exact_at(rows, need, plus), _exact_at(rows, need, minus)
        for i, col in zip(*np.nonzero(unsure)):
            wins[i, col] = lows[(int(i), int(J[col]))] + ups[(int(i), int(I[col]))] > 0  # low_j − (−low(−c_i))
    return _mask(wins, J.tolist(), K), int(unsure.sum())


def _mask(wins: np.ndarray, worse: list[int], K: int) -> np.ndarray:
    dominated = np.zeros(len(wins), dtype=np.int64)
    for col, j in enumerate(worse):
        dominated |= np.where(wins[:, col], 1 << j, 0)
    return dominated


def _gamma_maximin(rows: IntervalRows, sets: list[ClassSet], row_of, K: int):
    """The set of least upper expected cost; every set whose float is within the bounds of the least is a
    candidate, and a row with several is decided exactly among them (ties: smallest set, then class order)."""
    minus = Vectors([[-x for x in row_of(m)] for m in sets], K)
    up = -lower_floats(rows, minus)
    n = len(rows)
    best = np.argmin(up, axis=1)
    high = up[np.arange(n), best] + minus.bound[best]
    candidates = up - minus.bound <= high[:, None]
    several = candidates.sum(axis=1) > 1
    cells = candidates & several[:, None]
    exact = _exact_at(rows, cells, minus)
    key = {m: (len(m), sorted(m)) for m in sets}
    predictions, ties = [], []
    for i in range(n):
        if not several[i]:
            tied = [sets[int(best[i])]]
        else:
            values = {sets[j]: -exact[(i, int(j))] for j in np.flatnonzero(cells[i])}
            least = min(values.values())
            tied = sorted((m for m, v in values.items() if v == least), key=key.__getitem__)
        predictions.append(tied[0])
        ties.append(tied)
    return predictions, ties, int(cells.sum())


def prediction_costs(rows: IntervalRows, predictions: list[ClassSet], row_of) \
        -> list[tuple[Fraction, Fraction] | None]:
    """The exact lower and upper expected cost of each row's prediction (None for an empty one)."""
    K = rows.lo.shape[1]
    out: list[tuple[Fraction, Fraction] | None] = [None] * len(rows)
    groups: dict[ClassSet, list[int]] = {}
    for i, m in enumerate(predictions):
        if m:
            groups.setdefault(m, []).append(i)
    for m, members in groups.items():
        c = row_of(m)
        if c is None:  # outside a restricted prediction family: no row, no expected cost
            continue
        which = np.array(members)
        vectors = Vectors([c, [-x for x in c]], K)
        for i, (low, minus_up) in zip(members, lower_exact(rows, which, vectors)):
            out[i] = (low, -minus_up)
    return out
