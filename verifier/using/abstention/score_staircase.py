"""A classifier's scores on a validation set as the staircase Friedel et al. work on: the distinct scores in
ascending order m_1 < ... < m_k, and for each cut t = 0..k (predict N for the t lowest distinct scores, P above)
the cumulative counts of positives P_t, negatives N_t and instances C_t up to the cut.

A window (i, j) with i <= j predicts N up to cut i, abstains between cuts i and j and predicts P above cut j; its
cost times n is P_i + μ (N - N_j) + ν (C_j - C_i) (Eq. 7). Minimising P_t - λ N_t over the cuts is a query on
the lower convex hull of the points (N_t, P_t): `Hull` answers it exactly, with the smallest or the largest of
tied minimisers.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True)
class Staircase:
    """Cumulative counts at every cut (arrays of length k + 1, starting at 0) and the distinct scores."""

    positives: np.ndarray  # P_t
    negatives: np.ndarray  # N_t
    scores: tuple  # the k distinct scores, ascending, as exact Fractions (for the thresholds)

    def __post_init__(self):  # plain integers for the scalar work (numpy scalars are slow to mix with Fractions)
        object.__setattr__(self, "p", self.positives.tolist())
        object.__setattr__(self, "q", self.negatives.tolist())
        object.__setattr__(self, "n", self.p[-1] + self.q[-1])

    @property
    def k(self) -> int:
        """The number of distinct scores (the cuts are 0..k)."""
        return len(self.scores)

    def counted(self, t: int) -> int:
        """C_t: the instances at or below cut t."""
        return self.p[t] + self.q[t]

    def threshold(self, t: int) -> Fraction | None:
        """v(t) of Eq. 2: the midpoint between the t-th and (t+1)-th distinct score; None for -inf (t = 0) and
        +inf (t = k)."""
        if t == 0 or t == self.k:
            return None
        return (self.scores[t - 1] + self.scores[t]) / 2


def staircase(order_keys: np.ndarray, positive: np.ndarray, exact_scores) -> Staircase:
    """The staircase of one classifier. `order_keys`: an integer rank per instance such that equal ranks are
    equal scores and the ranks order the scores exactly; `positive`: True where the true class is the spec's first
    class; `exact_scores(rank)`: the exact score of a rank (called for the distinct ranks only)."""
    ranks, inverse = np.unique(order_keys, return_inverse=True)
    pos = np.bincount(inverse, weights=positive.astype(np.int64), minlength=len(ranks)).astype(np.int64)
    total = np.bincount(inverse, minlength=len(ranks)).astype(np.int64)
    cum_pos = np.concatenate([[0], np.cumsum(pos)])
    cum_neg = np.concatenate([[0], np.cumsum(total - pos)])
    return Staircase(cum_pos, cum_neg, tuple(exact_scores(int(r)) for r in ranks))


class Hull:
    """The lower convex hull of the points (N_t, P_t): for λ >= 0 (or λ = ∞), the cuts minimising P_t - λ N_t.

    Vertices are cuts; consecutive vertices bound an edge of slope ΔP/ΔN, strictly increasing along the hull.
    The minimisers at λ are the vertices whose left edge is at most λ and whose right edge is at least λ (and
    the cuts collinear between two such vertices, which are never the smallest or the largest)."""

    def __init__(self, stairs: Staircase):
        n_t, p_t = stairs.negatives.tolist(), stairs.positives.tolist()
        # among cuts with the same N_t only the lowest P_t (the first) can minimise P_t - λ N_t for λ >= 0
        first = np.flatnonzero(np.concatenate([[True], np.diff(stairs.negatives) > 0]))
        vertices: list[int] = []
        for t in first.tolist():
            while len(vertices) >= 2 and _not_left_turn(n_t, p_t, vertices[-2], vertices[-1], t):
                vertices.pop()
            vertices.append(t)
        self.cuts = vertices
        self.slopes = [Fraction(p_t[b] - p_t[a], n_t[b] - n_t[a]) for a, b in zip(vertices, vertices[1:])]
        self._near = [float(s) for s in self.slopes]  # floats find the place, exact comparisons settle it
        self._index = {cut: r for r, cut in enumerate(vertices)}

    def smallest(self, lam: Fraction | None) -> int:
        """The smallest cut minimising P_t - λ N_t (λ = None: ∞, i.e. the fewest positives among the cuts of
        most negatives)."""
        if lam is None:
            return self.cuts[-1]
        r, slopes = bisect_left(self._near, float(lam)), self.slopes
        while r > 0 and slopes[r - 1] >= lam:
            r -= 1
        while r < len(slopes) and slopes[r] < lam:
            r += 1
        return self.cuts[r]

    def largest(self, lam: Fraction | None) -> int:
        """The largest cut minimising P_t - λ N_t."""
        if lam is None:
            return self.cuts[-1]
        r, slopes = bisect_right(self._near, float(lam)), self.slopes
        while r > 0 and slopes[r - 1] > lam:
            r -= 1
        while r < len(slopes) and slopes[r] <= lam:
            r += 1
        return self.cuts[r]

    def vertex_index(self, cut: int) -> int:
        """The position of `cut` among the hull's vertices (a KeyError when the cut is not a vertex)."""
        return self._index[cut]


def _not_left_turn(x, y, a: int, b: int, c: int) -> bool:
    """Whether b lies on or above the segment from a to c (so b is not a vertex of the lower hull)."""
    cross = (x[b] - x[a]) * (y[c] - y[a]) - (y[b] - y[a]) * (x[c] - x[a])
    return cross <= 0
