"""Relabellings of the classes that leave a cost matrix unchanged, found in floats: a search aid.

A permutation σ of the classes with c_{σZ}(σy) = c_Z(y) for every set Z and class y maps E_p[c_Z] to
E_{p∘σ⁻¹}[c_{σZ}], so a witness or certificate found for one set gives one for its image (ordinal costs are
unchanged by reversing the classes; Ha's rule with equal weights by any relabelling). The per-set optimality
search solves one set per orbit and moves its answer along σ. Nothing here decides anything: σ is only
checked in floats, and every moved witness or certificate is confirmed exactly like a found one (a failed
confirmation sends the set back to the search).
"""

from __future__ import annotations

import numpy as np

LIMIT = 16  # automorphisms kept: enough to cut the search by the orbits that matter
BUDGET = 5_000  # backtracking steps on the singleton rows (a few milliseconds)


def class_automorphisms(sets: list[frozenset[int]], floats: np.ndarray, K: int) -> list[np.ndarray]:
    """Up to LIMIT permutations σ (σ[y] is the image of class y), the identity excluded, under which the
    float matrix (rows in `sets` order) is unchanged to 12 significant digits."""
    index = {m: i for i, m in enumerate(sets)}
    singles = [index.get(frozenset((h,))) for h in range(K)]
    if K < 2 or any(i is None for i in singles) or not np.all(np.isfinite(floats)):
        return []
    M = floats[singles]
    tolerance = 1e-12 * max(1.0, float(np.max(np.abs(floats))))
    found: list[np.ndarray] = []
    reversal = np.arange(K)[::-1].copy()  # ordinal classes: tried first, the backtracking budget may not reach it
    candidates = ([reversal] if np.allclose(M[np.ix_(reversal, reversal)], M, rtol=0.0, atol=tolerance) else [])
    for sigma in candidates + [s for s in _singleton_automorphisms(M, tolerance) if not np.array_equal(s, reversal)]:
        moved = [index.get(frozenset(int(sigma[y]) for y in m)) for m in sets]
        if any(j is None for j in moved):  # a restricted family not closed under σ
            continue
        if np.allclose(floats[moved][:, sigma], floats, rtol=0.0, atol=tolerance):
            found.append(sigma)
    return found


def _singleton_automorphisms(M: np.ndarray, tolerance: float):
    """Permutations σ ≠ identity with M[σa, σb] = M[a, b] (within tolerance), by backtracking; at most LIMIT
    of them and BUDGET steps."""
    K = M.shape[0]
    sigma = np.full(K, -1)
    used = np.zeros(K, dtype=bool)
    steps = 0
    found = 0

    def extend(a: int):
        nonlocal steps, found
        if found >= LIMIT or steps >= BUDGET:
            return
        if a == K:
            if np.any(sigma != np.arange(K)):
                found += 1
                yield sigma.copy()
            return
        for image in range(K):
            steps += 1
            if used[image] or abs(M[image, image] - M[a, a]) > tolerance:
                continue
            images = sigma[:a]
            if np.any(np.abs(M[image, images] - M[a, :a]) > tolerance) or \
                    np.any(np.abs(M[images, image] - M[:a, a]) > tolerance):
                continue
            sigma[a], used[image] = image, True
            yield from extend(a + 1)
            sigma[a], used[image] = -1, False

    yield from extend(0)


def orbits(pending: list[frozenset[int]], moves: list[np.ndarray]) -> dict[frozenset[int], tuple]:
    """{set: (its orbit's representative, σ with σ(representative) = set)} for the pending sets; a
    representative maps to itself with σ = None. Images outside `pending` are ignored."""
    wanted = set(pending)
    out: dict[frozenset[int], tuple] = {}
    for start in pending:
        if start in out:
            continue
        out[start] = (start, None)
        frontier = [(start, None)]
        while frontier:
            m, sigma = frontier.pop()
            for move in moves:
                image = frozenset(int(move[y]) for y in m)
                if image in wanted and image not in out:
                    composed = move if sigma is None else move[sigma]  # first sigma, then move
                    out[image] = (start, composed)
                    frontier.append((image, composed))
    return out
