"""Float search for the small sets worth building when power-mean lemmas leave a property open: a set whose
cost depends on which member is the truth (P8, P9), or a pair some distribution makes possible (P1).

Floats only choose which rows to build; the verdict comes from the ordinary engines on those exact rows, so a
poor choice can only leave a property undecided, never decide it wrongly.

Owns: `sets_worth_building`. May import: numpy.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

MAX_TRIPLES = 50_000  # C(68, 3): beyond this only pairs are searched
TOP = 3


def power_mean(p: float, values: np.ndarray) -> np.ndarray:
    """M_p along the last axis (values >= 0; p = 0 is the geometric mean, 0 when a value is 0)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 0:
            return np.where((values > 0).all(-1), np.exp(np.log(np.where(values > 0, values, 1)).mean(-1)), 0.0)
        return np.power(np.power(values, p).mean(-1), 1.0 / p)


def sets_worth_building(p: float, det: np.ndarray) -> dict[str, list[frozenset[int]]]:
    """By search kind (`PowerMeanLemmas.search`): "moves", the pairs and triples where the set's cost moves most
    with the truth among its members; "moves-lists-differ", the same between members whose own cost lists
    differ; "possible", the pairs with the largest possibility margin on a grid of two-point distributions."""
    K = det.shape[0]
    groups = [np.array(list(combinations(range(K), 2)))]
    if K * (K - 1) * (K - 2) // 6 <= MAX_TRIPLES and K >= 3:
        groups.append(np.array(list(combinations(range(K), 3))))
    p8, p9 = [], []
    for members in groups:
        # costs[s, j]: the cost of set s when its j-th member is the truth
        columns = det[members[:, :, None], members[:, None, :]]  # [s, i, j] = c_{member i}(member j)
        costs = power_mean(p, np.swapaxes(columns, 1, 2))
        spread = costs.max(1) - costs.min(1)
        lists = np.sort(np.swapaxes(columns, 1, 2), axis=2)  # each truth's sorted member costs
        differs = np.zeros(len(members), dtype=bool)
        for a, b in combinations(range(members.shape[1]), 2):
            moved = np.abs(costs[:, a] - costs[:, b]) > 1e-9 * (1 + np.abs(costs[:, a]))
            differs |= moved & (np.abs(lists[:, a] - lists[:, b]) > 1e-12).any(1)
        p8 += [(float(v), frozenset(m.tolist())) for v, m in zip(spread, members) if v > 1e-9]
        p9 += [(float(v), frozenset(m.tolist())) for v, m, d in zip(spread, members, differs) if d]
    return {"moves": _top(p8), "moves-lists-differ": _top(p9), "possible": _possible_pairs(p, det)}


def _possible_pairs(p: float, det: np.ndarray) -> list[frozenset[int]]:
    K = det.shape[0]
    pairs = np.array(list(combinations(range(K), 2)))
    a, b = pairs[:, 0], pairs[:, 1]
    # the pair's cost when a, then b, is the truth; the members' own costs there
    set_a = power_mean(p, np.stack([det[a, a], det[b, a]], -1))
    set_b = power_mean(p, np.stack([det[a, b], det[b, b]], -1))
    t = np.linspace(0.05, 0.95, 19)[:, None]  # mass on a; the rest on b
    expected_set = t * set_a + (1 - t) * set_b
    margin = np.minimum(t * det[a, a] + (1 - t) * det[a, b], t * det[b, a] + (1 - t) * det[b, b]) - expected_set
    best = margin.max(0)
    return _top([(float(v), frozenset(m.tolist())) for v, m in zip(best, pairs) if np.isfinite(v)])


def _top(scored: list[tuple[float, frozenset[int]]]) -> list[frozenset[int]]:
    scored.sort(key=lambda item: (-item[0], sorted(item[1])))
    out: list[frozenset[int]] = []
    for _, members in scored:
        if members not in out:
            out.append(members)
        if len(out) == TOP:
            break
    return out
