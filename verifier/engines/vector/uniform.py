"""Definition 4 at the uniform distributions, for every set at once and a chunk of sets at a time: the uniform p
over Y as a witness, the uniform λ over Y as a certificate (Proposition 1).

A chunk's arrays (a few cell-sized ones, 25 bytes a cell each) are made and freed before the next: the whole
family's would hold several copies of the matrix at once. Owns: `uniform_tests`. May import: `formula`.
"""

from __future__ import annotations

import numpy as np

from verifier.engines.vector.terms import CHUNK_CELLS, TermArrays, member_sums
from verifier.formula.cell_sums import masked_sum
from verifier.formula.cells import TRUE, Cells, compare


def uniform_tests(terms: TermArrays) -> tuple[np.ndarray, np.ndarray]:
    """Per set: whether the uniform p over Y certainly makes Y optimal (Σ_{y in Y} c_ŷ(y) > Σ_{y in Y} c_Y(y) for
    every ŷ in Y) and, where it does not, whether the uniform λ certainly shows Y never is (|Y| c_Y(y) >=
    Σ_{ŷ in Y} c_ŷ(y) for every y)."""
    S, K = terms.members.shape
    witness, certificate = np.zeros(S, bool), np.zeros(S, bool)
    sums, det_by_class = terms.member_sums(), terms.det.transpose()
    step = max(1, CHUNK_CELLS // K)
    for start in range(0, S, step):
        rows = slice(start, min(S, start + step))
        members, cost = terms.members[rows], terms.cost.take(rows)
        total = masked_sum(cost, members)
        beats = compare(member_sums(members, det_by_class), ">", total.take((slice(None), np.newaxis)))
        witness[rows] = ((beats == TRUE) | ~members).all(axis=1)
        sized = cost * Cells.from_exact(terms.sizes[rows].reshape(-1, 1), 1)
        certificate[rows] = (compare(sized, ">=", sums.take(rows)) == TRUE).all(axis=1) & ~witness[rows]
    return witness, certificate
