"""All pairwise comparisons after the Friedman test (García and Herrera 2008, "An extension on 'Statistical
comparisons of classifiers over multiple data sets' for all pairwise comparisons", JMLR 9): for each pair of the
k classifiers, z = (R_a − R_b) / √(k(k+1)/(6N)) from the exact average ranks over the N data sets, its two-sided
p-value from the normal distribution (scipy.stats.norm; the raw p-values of scikit-posthocs'
posthoc_siegel_friedman), adjusted for the m = k(k−1)/2 pairs by

- Shaffer's static procedure: with the p-values ordered p_1 ≤ … ≤ p_m, t_i is the largest number of the
  hypotheses that can be true together once any i − 1 are false, the largest element of S(k) not above
  m − i + 1; adjusted p_i = min(1, max_{j ≤ i} t_j p_j). S(k), the possible numbers of true hypotheses among the
  pairwise equalities of k classifiers, follows Shaffer's (1986) recursion
  S(k) = ∪_{j=1..k} {C(j, 2) + x : x ∈ S(k − j)}, S(0) = {0}: the first j classifiers equal to each other and
  unequal to the rest, which is what partitioning the classifiers into groups of equal ones gives.
- Bergmann and Hommel's procedure: an exhaustive set is a set of hypotheses that can be exactly the true ones,
  the pairs within the groups of a partition of the classifiers into groups (some group of two or more); the
  adjusted p of pair i is min(1, max over exhaustive sets I containing i of |I| · min_{j ∈ I} p_j), the
  smallest level at which the procedure rejects it (García and Herrera's Section 3). Every partition is
  enumerated, B(k) − 1 of them (21,146 for k = 9, 115,974 for k = 10): computed for k ≤ MAX_BERGMANN_K only.
  Shaffer's for k ≤ MAX_SHAFFER_K (S(k) itself is cheap; beyond, the pairs are not all compared over the data
  sets either).

No installed library implements either procedure (statsmodels' multipletests, scikit-posthocs and autorank have
neither): the adjustments are these few lines, the distribution is scipy's. A pair is significant when its
adjusted p-value is at most alpha, the procedures' own rejection rule. Statistical estimates in floats."""

from __future__ import annotations

import math
from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

MAX_BERGMANN_K = 9
MAX_SHAFFER_K = 45  # 990 pairs, the most compared over the data sets (over_datasets.MAX_PAIRS)
SHAFFER = ("Shaffer's static procedure (García and Herrera 2008) on z = (R_a − R_b)/√(k(k+1)/(6N)) from the "
           "average ranks, two-sided normal p-values")
BERGMANN = ("Bergmann and Hommel's procedure over every exhaustive set of hypotheses (García and Herrera 2008), "
            "same z and p-values")


@lru_cache(maxsize=None)
def possible_true_counts(k: int) -> tuple[int, ...]:
    """S(k): every possible number of true hypotheses among the k(k−1)/2 pairwise equalities of k classifiers,
    sorted (Shaffer 1986's recursion)."""
    if k <= 1:
        return (0,)
    out = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in possible_true_counts(k - j))
    return tuple(sorted(out))


def shaffer_t(k: int) -> list[int]:
    """t_1 … t_m of Shaffer's static procedure: t_i the largest element of S(k) not above m − i + 1."""
    m, counts = k * (k - 1) // 2, possible_true_counts(k)
    return [counts[bisect_right(counts, m - i + 1) - 1] for i in range(1, m + 1)]


def shaffer(p_values: list[float], k: int) -> list[float]:
    """Shaffer's adjusted p-values of the m = k(k−1)/2 pairwise p-values, in their input order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out, running = [0.0] * len(p_values), 0.0
    for t, i in zip(shaffer_t(k), order):
        running = max(running, min(1.0, t * p_values[i]))
        out[i] = running
    return out


def partitions(k: int):
    """Every partition of range(k) into groups, as a tuple of group labels (restricted growth strings)."""
    labels = [0] * k

    def grow(i: int, top: int):
        if i == k:
            yield tuple(labels)
            return
        for g in range(top + 2):
            labels[i] = g
            yield from grow(i + 1, max(top, g))

    if k:
        yield from grow(1, 0)


def bergmann_hommel(p_values: list[float], k: int) -> list[float]:
    """Bergmann and Hommel's adjusted p-values of the pairwise p-values of k ≤ MAX_BERGMANN_K classifiers, given
    in the order of itertools.combinations(range(k), 2)."""
    if k > MAX_BERGMANN_K:
        raise ValueError(f"Bergmann-Hommel is computed for at most {MAX_BERGMANN_K:,} classifiers, not {k}")
    pairs = list(combinations(range(k), 2))
    out = [0.0] * len(pairs)
    for labels in partitions(k):
        inside = [i for i, (a, b) in enumerate(pairs) if labels[a] == labels[b]]
        if not inside:  # every classifier alone: no hypothesis true, not an exhaustive set
            continue
        value = min(1.0, len(inside) * min(p_values[i] for i in inside))
        for i in inside:
            out[i] = max(out[i], value)
    return out


def pairwise_p_values(ranks: list[Fraction], n: int) -> list[tuple[float, float]]:
    """(z, two-sided p) of each pair of the average ranks over n data sets, in combinations order."""
    from scipy import stats

    k = len(ranks)
    scale = math.sqrt(k * (k + 1) / (6 * n))
    out = []
    for a, b in combinations(range(k), 2):
        z = float(ranks[a] - ranks[b]) / scale
        out.append((z, float(2 * stats.norm.sf(abs(z)))))
    return out


def all_pairs(names: list[str], ranks: dict[str, Fraction], n: int, alpha: float) -> dict:
    """The record of every pair of `names` (their average ranks over n data sets): z, p, Shaffer's and (k ≤
    MAX_BERGMANN_K) Bergmann-Hommel's adjusted p-values and decisions at alpha."""
    k = len(names)
    if k > MAX_SHAFFER_K:
        return {"shaffer": None, "bergmann_hommel": None, "pairs": [], "note": (
            f"{k} classifiers have {k * (k - 1) // 2:,} pairs: all pairwise comparisons are adjusted for at most "
            f"{MAX_SHAFFER_K:,} classifiers")}
    tested = pairwise_p_values([ranks[c] for c in names], n)
    p = [pv for _, pv in tested]
    sh = shaffer(p, k)
    bh = bergmann_hommel(p, k) if k <= MAX_BERGMANN_K else None
    rows = []
    for i, (a, b) in enumerate(combinations(names, 2)):
        row = {"a": a, "b": b, "z": tested[i][0], "p_value": p[i], "p_shaffer": sh[i],
               "significant_shaffer": sh[i] <= alpha}
        if bh is not None:
            row |= {"p_bergmann_hommel": bh[i], "significant_bergmann_hommel": bh[i] <= alpha}
        rows.append(row)
    note = None if bh is not None else (
        f"Bergmann-Hommel not computed: {k} classifiers have {_bell(k) - 1:,} exhaustive sets, it is computed for "
        f"at most {MAX_BERGMANN_K}")
    return {"shaffer": SHAFFER, "bergmann_hommel": BERGMANN if bh is not None else None, "note": note,
            "possible_true_counts": list(possible_true_counts(k)), "alpha": alpha, "pairs": rows}


def _bell(k: int) -> int:
    row = [1]
    for _ in range(k):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[0]
