"""Two-point candidate witnesses of Definition 4, screened in floats for a chunk of sets: the uniform
distribution on two classes, gathered from their columns (never a sets x K array of probabilities). What this
finds is only a candidate; `engines.vector.possibility` confirms it with certified arithmetic.

Owns: `screened_pairs`. May import: `engines.vector.terms`.
"""

from __future__ import annotations

import numpy as np

from verifier.engines.vector.terms import TermArrays


def screened_pairs(terms: TermArrays, rows: np.ndarray, det_by_class: np.ndarray, own: bool) -> list:
    """For each set, the first pair of classes (a, b) whose uniform distribution makes the set cheaper than
    every member by more than 1e-9 in floats (None: none): its own first and last member (`own`), else every
    pair in order."""
    K, n = terms.K, len(rows)
    members = terms.members[rows]
    cost = terms.cost

    def mid(r: np.ndarray, y) -> np.ndarray:  # the midpoint of c_Y(y) for the rows r
        return (cost.lo[r, y] + cost.hi[r, y]) / 2

    chosen: list[tuple | None] = [None] * n
    open_ = np.arange(n)
    candidates = iter([(np.argmax(members, axis=1), K - 1 - np.argmax(members[:, ::-1], axis=1))]) if own else \
        ((a, b) for a in range(K) for b in range(a + 1, K))
    for a, b in candidates:
        if not len(open_):
            break
        if own:
            a, b = a[open_], b[open_]
        # the arithmetic of a product with p = 1/2 on a and b: two halves summed
        spread = det_by_class[a] * 0.5 + det_by_class[b] * 0.5  # (open, K) or (K,): E_p[c_h] for every h
        r = rows[open_]
        gap = spread - (mid(r, a) * 0.5 + mid(r, b) * 0.5)[:, None]
        good = ((gap > 1e-9) | ~members[open_]).all(axis=1)
        for i, x, y in zip(open_[good].tolist(), np.broadcast_to(a, len(open_))[good].tolist(),
                           np.broadcast_to(b, len(open_))[good].tolist()):
            chosen[i] = (x, y)
        open_ = open_[~good]
    return chosen
