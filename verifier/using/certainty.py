"""Certainty and doubt of each decision (Berenbeim et al.): how far the top class is above every other.

For a distribution p with top class j (the lowest index among equal maxima, as `decide` reports the first of
tied optima), the pairwise certainty of j over class i ≠ j is χ_i = p_j − p_i and the pairwise doubt is
δ_i = 1/χ_i, infinite when p_i = p_j (a tie: zero certainty). The minimum certainty is p_j minus the second
largest value, and the maximum doubt its reciprocal. The doubt cost is θ = arcsin((1 − Π)/(1 + Π)) with
Π = Π_{i≠j} χ_i² (π/2 on a tie, 0 for a one-hot row when K = 2), computed as π/2 − 2·arctan(Π_{i≠j} χ_i),
the same number (with t = √Π ∈ [0, 1], (1 − t²)/(1 + t²) = cos(2 arctan t)) without arcsin's loss of every
digit near 1.

What decides is exact: which class is on top and whether the top is tied are decided on the exact row (its
integers), the floats only searching (rounding is monotone: a strictly larger float is a strictly larger value,
and equal floats are compared in integers). The values are floats: for a row held exactly by its floats (a
.npy row) the minimum certainty is (F_j − F_s)/ΣF, within (K + 2)·2^-53 relative of the exact value; a
decimal row's floats add 2^-53 each. `pairwise` gives the exact Fractions of one row.

Owns: `BlockCertainty`, `block_certainty`, `pairwise`, `doubt_cost`. May import: `using.exact_rows`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.using.exact_rows import ExactRows

INF = math.inf


@dataclass
class BlockCertainty:
    """Per row of a block: the top class, the minimum certainty, the maximum doubt (inf on a tie, exactly
    decided), the doubt cost θ, and whether the top is tied."""
    top: np.ndarray  # (n,) int
    min_certainty: np.ndarray  # (n,) float
    max_doubt: np.ndarray  # (n,) float, inf exactly where `tied`
    theta: np.ndarray  # (n,) float, radians in [0, π/2]
    tied: np.ndarray  # (n,) bool

    def __len__(self) -> int:
        return len(self.top)

    @staticmethod
    def join(parts: list[BlockCertainty]) -> BlockCertainty:
        if not parts:
            z = np.zeros(0)
            return BlockCertainty(z.astype(int), z, z, z, z.astype(bool))
        return BlockCertainty(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                                ("top", "min_certainty", "max_doubt", "theta", "tied")))


def pairwise(p: list[Fraction]) -> tuple[int, list[Fraction], list[Fraction | None]]:
    """(top class j, certainties χ, doubts δ) of an exact distribution, as in the paper: χ_j = 1, δ_j = 0, and
    δ_i = None where χ_i = 0 (infinite doubt)."""
    j = max(range(len(p)), key=lambda i: (p[i], -i))
    chi = [Fraction(1) if i == j else p[j] - p[i] for i in range(len(p))]
    delta = [Fraction(0) if i == j else (None if c == 0 else 1 / c) for i, c in enumerate(chi)]
    return j, chi, delta


def doubt_cost(chi: list[Fraction], j: int) -> float:
    """θ = arcsin((1 − Π)/(1 + Π)), Π = Π_{i≠j} χ_i², from exact certainties, as
    π/2 − 2·arctan(Π_{i≠j} χ_i) with the product exact, then rounded once."""
    prod = Fraction(1)
    for i, c in enumerate(chi):
        if i != j:
            prod *= c
    return math.pi / 2 - 2 * math.atan(float(prod))


def nothing_to_doubt(n: int) -> BlockCertainty:
    """n rows of one class: certainty 1, no doubt."""
    z = np.zeros(n)
    return BlockCertainty(np.zeros(n, dtype=int), np.ones(n), z, z, np.zeros(n, dtype=bool))


def top_two(F: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's first largest column, its value, the next largest column (the first of equal maxima left
    once the top is taken) and its value: in floats, for rows of at least two columns."""
    index = np.arange(len(F))
    top = np.argmax(F, axis=1)  # the first of equal maxima
    rest = F.copy()
    rest[index, top] = -np.inf
    second = np.argmax(rest, axis=1)
    return top, F[index, top], second, rest[index, second]


def block_certainty(rows: ExactRows) -> BlockCertainty:
    """Certainty and doubt of every row of a block (see the module's docstring for what is exact)."""
    F = rows.floats
    n, K = F.shape
    if n == 0:
        return BlockCertainty.join([])
    if K < 2:  # one class: nothing to doubt
        return nothing_to_doubt(n)
    top, high, second, low = top_two(F)
    total = F.sum(axis=1)
    # equal floats: the exact values may differ (a rounded decimal row) or tie; integers decide
    tied = high == low
    for i in np.flatnonzero(tied).tolist():
        num = rows.num[i]
        j = max(range(K), key=lambda y: (num[y], -y))
        s = max((y for y in range(K) if y != j), key=lambda y: (num[y], -y))
        top[i], second[i], tied[i] = j, s, num[j] == num[s]
        high[i], low[i] = F[i, j], F[i, s]
    with np.errstate(divide="ignore", invalid="ignore"):
        chi = (high[:, None] - F) / total[:, None]  # χ_i for every i; χ_top set to 1 below
        chi[np.arange(n), top] = 1.0
        exact_min = _exact_differences(rows, top, second, tied)
        least = np.where(tied, 0.0, np.where(np.isnan(exact_min), (high - low) / total, exact_min))
        least = np.where(tied, 0.0, np.maximum(least, np.finfo(float).tiny))  # a strict gap stays > 0
        doubt = np.where(tied, INF, 1.0 / least)
        chi[np.broadcast_to(tied[:, None], chi.shape) & (F == high[:, None])] = 0.0
        theta = np.pi / 2 - 2 * np.arctan(np.prod(chi, axis=1))
    return BlockCertainty(top, least, doubt, theta, tied)


def _exact_differences(rows: ExactRows, top, second, tied) -> np.ndarray:
    """The minimum certainty correctly rounded, from the integers, for the rows whose floats are rounded (a
    decimal row: the reader's loop is per row anyway); nan elsewhere (binary rows: the floats are the values)."""
    out = np.full(len(top), np.nan)
    if not rows.rel:
        return out
    num, total = rows.num, rows.total
    out[:] = [0.0 if t else (num[i][j] - num[i][s]) / total[i]  # int / int: correctly rounded
              for i, (j, s, t) in enumerate(zip(top.tolist(), second.tolist(), tied.tolist()))]
    return out
