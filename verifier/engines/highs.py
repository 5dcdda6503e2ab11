"""A HiGHS solver that prints nothing: HiGHS 1.16 writes its banner to file descriptor 1 when the object is
made, before any option can be set, which would corrupt `verify --format json` on standard output. And a dense
LP solved by it directly (`dense_lp`): scipy.optimize's `linprog` wraps the same solver but takes a quarter of a
second to import, more than a small scheme's whole analysis.

Owns: `quiet_highs`, `dense_lp`. May import: nothing of verifier."""

from __future__ import annotations

import os
import sys

import highspy
import numpy as np


def quiet_highs() -> highspy.Highs:
    """A HiGHS solver with its output turned off, its banner kept off standard output while it is made."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no usable standard output (closed): nothing to protect
        solver = highspy.Highs()
        solver.setOptionValue("output_flag", False)
        return solver
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 1)
            solver = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    solver.setOptionValue("output_flag", False)
    return solver


def dense_lp(cost, A_ub=None, b_ub=None, A_eq=None, b_eq=None, bounds=None) -> np.ndarray | None:
    """min cost·x s.t. A_ub x <= b_ub, A_eq x = b_eq, bounds (pairs, None for no bound; default x >= 0), as
    scipy's `linprog(method="highs")` reads them; the optimal x, or None when HiGHS finds no optimum."""
    n = len(cost)
    blocks = [(np.asarray(A, dtype=float).reshape(-1, n), np.asarray(b, dtype=float), equal)
              for A, b, equal in ((A_ub, b_ub, False), (A_eq, b_eq, True)) if A is not None and len(b)]
    matrix = np.vstack([A for A, _, _ in blocks]) if blocks else np.zeros((0, n))
    lower = np.concatenate([b if equal else np.full(len(b), -highspy.kHighsInf) for _, b, equal in blocks]
                           or [np.zeros(0)])
    upper = np.concatenate([b for _, b, _ in blocks] or [np.zeros(0)])
    pairs = bounds if bounds is not None else [(0, None)] * n
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, matrix.shape[0]
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.array([-highspy.kHighsInf if lo is None else float(lo) for lo, _ in pairs])
    lp.col_upper_ = np.array([highspy.kHighsInf if hi is None else float(hi) for _, hi in pairs])
    lp.row_lower_, lp.row_upper_ = lower, upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    rows, columns = np.nonzero(matrix)
    lp.a_matrix_.start_ = np.searchsorted(rows, np.arange(matrix.shape[0] + 1)).astype(np.int32)
    lp.a_matrix_.index_ = columns.astype(np.int32)
    lp.a_matrix_.value_ = matrix[rows, columns]
    solver = quiet_highs()
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return np.array(solver.getSolution().col_value)
