"""Certainty and doubt of each decision (Berenbeim et al.): how far the top class is above every other.

For a distribution p with top class j (the lowest index among equal maxima, as `decide` reports the first of
tied optima), the pairwise certainty of j over class i ≠ j is χ_i = p_j − p_i and the pairwise doubt is
δ_i = 1/χ_i, infinite when p_i = p_j (a tie: zero certainty). The minimum certainty is p_j minus the second
largest value, and the maximum doubt its reciprocal. The doubt cost is θ = arcsin((1 − Π)/(1 + Π)) with
Π = Π_{i≠j} χ_i² (π/2 on a tie, 0 for a one-hot row when K = 2), computed as π/2 − 2·arctan(Π_{i≠j} χ_i)
(as 2·arctan((1 − t)/(1 + t)) in double words, `using.certainty.doubt`), the same number (with t = √Π ∈ [0, 1],
(1 − t²)/(1 + t²) = cos(2 arctan t)) without arcsin's loss of every digit near 1.

What decides is exact: which class is on top and whether the top is tied are decided on the exact row (its
integers), the floats only searching (rounding is monotone: a strictly larger float is a strictly larger value,
and equal floats are compared in integers). The values are floats. A decimal row's minimum certainty
(num_j − num_s)/total and maximum doubt total/(num_j − num_s) are integer divisions of the exact row, so
correctly rounded; a binary (.npy) row's (F_j − F_s)/ΣF and its reciprocal are correctly rounded from its
doubles' exact sums (`using.exact.exact_ratio`: error-free transformations for all rows at once, integers where the
rounding is not settled). θ is the exact value correctly rounded on every row (`using.certainty.doubt`: double
words where Ziv's test settles the rounding, python-flint balls from the exact product elsewhere; u = 1 − t
from the row without cancellation, `using.certainty.doubt_inputs`). `pairwise` gives the exact Fractions of one row.

Owns: `BlockCertainty`, `block_certainty`, `pairwise`, `doubt_cost`. May import: `using.exact.exact_rows`,
`using.certainty.doubt`, `using.certainty.doubt_inputs`, `using.exact.exact_ratio`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from verifier.using.certainty.doubt import doubt_costs, exact_doubt_cost
from verifier.using.certainty.doubt_inputs import probability_words, rational_word
from verifier.using.exact import ExactRows, rounded_ratios

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
    exact: list = field(default_factory=list)  # sources of the exact minimum certainties (`exact_minimums`)

    def __len__(self) -> int:
        return len(self.top)

    def exact_minimums(self) -> list[tuple[int, int]]:
        """Each row's minimum certainty exactly, as (a, b) for a/b (0 on a tie), made on demand (paired tests):
        a source is a list of pairs, or a binary block (rows, top, second, tied) read from its integers."""
        out = []
        for source in self.exact:
            if isinstance(source, list):
                out += source
                continue
            rows, top, second, tied = source
            out += [(0, 1) if t else (rows.num[i][j] - rows.num[i][s], rows.total[i]) for i, (j, s, t) in
                    enumerate(zip(top.tolist(), second.tolist(), tied.tolist()))]
        return out

    @staticmethod
    def join(parts: list[BlockCertainty]) -> BlockCertainty:
        """The rows of `parts` in order as one BlockCertainty (an empty one for no parts)."""
        if not parts:
            z = np.zeros(0)
            return BlockCertainty(z.astype(int), z, z, z, z.astype(bool))
        return BlockCertainty(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                                ("top", "min_certainty", "max_doubt", "theta", "tied")),
                              [source for p in parts for source in p.exact])


def pairwise(p: list[Fraction]) -> tuple[int, list[Fraction], list[Fraction | None]]:
    """(top class j, certainties χ, doubts δ) of an exact distribution, as in the paper: χ_j = 1, δ_j = 0, and
    δ_i = None where χ_i = 0 (infinite doubt)."""
    j = max(range(len(p)), key=lambda i: (p[i], -i))
    chi = [Fraction(1) if i == j else p[j] - p[i] for i in range(len(p))]
    delta = [Fraction(0) if i == j else (None if c == 0 else 1 / c) for i, c in enumerate(chi)]
    return j, chi, delta


def doubt_cost(chi: list[Fraction], j: int) -> float:
    """θ = arcsin((1 − Π)/(1 + Π)), Π = Π_{i≠j} χ_i², from exact certainties, as
    π/2 − 2·arctan(Π_{i≠j} χ_i) with the product exact: correctly rounded."""
    prod = Fraction(1)
    for i, c in enumerate(chi):
        if i != j:
            prod *= c
    return exact_doubt_cost(prod)


def nothing_to_doubt(n: int) -> BlockCertainty:
    """n rows of one class: certainty 1, no doubt."""
    z = np.zeros(n)
    return BlockCertainty(np.zeros(n, dtype=int), np.ones(n), z, z, np.zeros(n, dtype=bool), [[(1, 1)] * n])


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
    # equal floats: the exact values may differ (a rounded decimal row) or tie; integers decide
    tied = high == low
    for i in np.flatnonzero(tied).tolist():
        num = rows.num[i]
        j = max(range(K), key=lambda y: (num[y], -y))
        s = max((y for y in range(K) if y != j), key=lambda y: (num[y], -y))
        top[i], second[i], tied[i] = j, s, num[j] == num[s]
        high[i], low[i] = F[i, j], F[i, s]
    if rows.rel:  # rounded decimals: the integers give both, correctly rounded
        least, doubt, gaps = _exact_least(rows, top, second, tied)
        exact = [list(zip(gaps, rows.total))]
    else:  # a binary row: its doubles' exact sums, correctly rounded (`exact_ratio`); integers where unsettled
        least, doubt = rounded_ratios(F, high, np.where(tied, 0.0, low))
        least, doubt = np.where(tied, 0.0, least), np.where(tied, INF, doubt)
        for i in np.flatnonzero(np.isnan(least) | np.isnan(doubt)).tolist():
            gap = rows.num[i][top[i]] - rows.num[i][second[i]]
            least[i], doubt[i] = gap / rows.total[i], _ratio(rows.total[i], gap)
        least = np.where(tied, 0.0, np.maximum(least, np.finfo(float).tiny))  # a strict gap stays > 0
        exact = [(rows, top, second, tied)]

    def exact_t(i: int) -> Fraction:
        return _exact_product(rows, i, int(top[i]))

    if rows.rel:  # rounded decimals: u = 1 − t from the row's integers, rounded to a double word
        u, err = _rational_words(rows, top, tied)
    else:  # a binary row: u from its doubles without cancellation
        u, err = probability_words(F, top, tied)
    theta = doubt_costs(u, err, exact_t)
    return BlockCertainty(top, least, doubt, theta, tied, exact)


def _exact_least(rows: ExactRows, top, second, tied) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Each row's minimum certainty (num_j − num_s)/total and maximum doubt total/(num_j − num_s), each an
    integer division, so correctly rounded (0 and inf on a tie), and the gaps num_j − num_s."""
    num, total = rows.num, rows.total
    if rows.rel:  # rounded floats may merge the second largest with a smaller value: integers pick it
        second = np.array([max((y for y in range(len(r)) if y != j), key=lambda y: (r[y], -y))
                           for r, j in zip(num, top.tolist())], dtype=np.int64)
    gaps = [0 if t else num[i][j] - num[i][s] for i, (j, s, t) in
            enumerate(zip(top.tolist(), second.tolist(), tied.tolist()))]
    least = np.array([g / total[i] for i, g in enumerate(gaps)], dtype=np.float64)
    least = np.where(tied, 0.0, np.maximum(least, np.finfo(float).tiny))  # a strict gap stays > 0
    doubt = np.array([_ratio(total[i], g) for i, g in enumerate(gaps)], dtype=np.float64)
    return least, doubt, gaps


def _ratio(a: int, b: int) -> float:
    """a/b correctly rounded for positive integers (inf for b = 0 or beyond the floats)."""
    try:
        return a / b if b else INF
    except OverflowError:
        return INF


def _rational_words(rows: ExactRows, top, tied) -> tuple[tuple, np.ndarray]:
    """u = 1 − t = (total^(K−1) − Π_{k≠j}(num_j − num_k))/total^(K−1) of every row, as a double word with its
    relative error (`doubt_inputs.rational_word`); 1 exactly on a tie."""
    hi, lo, err = np.ones(len(top)), np.zeros(len(top)), np.zeros(len(top))
    for i, (j, t) in enumerate(zip(top.tolist(), tied.tolist())):
        if t:
            continue
        num, p = rows.num[i], 1
        for k, x in enumerate(num):
            if k != j:
                p *= num[j] - x
        q = rows.total[i] ** (len(num) - 1)
        hi[i], lo[i], err[i] = rational_word(q - p, q)
    return (hi, lo), err


def _exact_product(rows: ExactRows, i: int, j: int) -> Fraction:
    """t = Π_{k≠j} χ_k of row i, exactly (0 on a tie)."""
    num, p = rows.num[i], 1
    for k, x in enumerate(num):
        if k != j:
            p *= num[j] - x
    return Fraction(p, rows.total[i] ** (len(num) - 1))
