"""The one point of least Σ w·x on a polytope of the simplex, exact and proved the only optimum.

    min Σ_v w_v x_v   s.t.  Σ_v x_v D[v][c] <= b  (every constraint c),  Σ x = 1,  x >= 0,

D an integer matrix (variables × constraints), b exact, w distinct exact weights. Both canonical choices are
this problem (`engines.canonical`): the certificate λ (variables: the other sets' rows, constraints: the
classes) and the witness p on a face of optima (variables: the classes, constraints: the other sets). HiGHS
proposes a vertex; the exact system on its support and |support| − 1 of its tight constraints gives x
(python-flint), and exact duals prove it the only optimum: π_c <= 0 on the tight constraints and π_0 with
w_v = Σ_c D[v][c] π_c + π_0 on the support and w_v > ... off it (every other variable's reduced cost positive),
and the support determined by the constraints with π_c < 0 (full rank).
Then any other feasible point costs more. Which π proves it does not matter (a float LP proposes it, rounded),
so nothing of the float search reaches the point; at a degenerate vertex several tight constraints prove it
together. None where no proof is found (a face of optima orthogonal to w): the caller falls back.

Owns: `least_point`, `MIX_WEIGHTS`. May import: `engines.highs`, `engines.screened_rows` (numbers in,
numbers out).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, islice

import flint
import numpy as np

from verifier.engines.highs import dense_lp
from verifier.engines.screened_rows import ScreenedRows

_ROUNDS, _CUTS = 20, 16  # cutting-plane rounds of the float LP, constraints added per round
_BASES = 64  # choices of tight constraints tried for the primal system at a degenerate vertex
# distinct, increasing weights: for a certificate, rows earlier in the set order (the singletons first) cost less
MIX_WEIGHTS = tuple(1 - Fraction(1, 2 + k) - Fraction(1, 1000 * (3 + k) ** 2) for k in range(4096))


def least_point(D: list[list[int]], b: Fraction, weights: Sequence[Fraction],
                start: Sequence[int] = ()) -> list[Fraction] | None:
    """The only point of least Σ w·x (see the module), exact; None when infeasible or not proved unique.
    `start`: constraints the float LP begins with (the others are added as its point breaks them): a hint,
    the point does not depend on it."""
    if not D:
        return None
    proposed = _propose(D, b, weights, start)
    if proposed is None:
        return None
    support, binding = proposed
    x = None
    for tight in islice(combinations(binding, len(support) - 1), _BASES):
        x = _solve([[D[v][c] for v in support] for c in tight], [b] * len(tight))
        if x is not None:
            break
    if x is None or any(v < 0 for v in x):
        return None
    point = dict(zip(support, x))
    tight = _tight(D, point, Fraction(b))
    if tight is None:
        return None
    if not _proves_unique(D, point, tight, weights):
        return None
    return [point.get(v, Fraction(0)) for v in range(len(D))]


def _tight(D, point: dict[int, Fraction], b: Fraction) -> list[int] | None:
    """The constraints the point meets with equality, None when it breaks one: Σ_v x_v D[v][c] against b,
    exactly (`ScreenedRows`: floats with a proven error bound decide the constraints far from b)."""
    support = sorted(point)
    signs = ScreenedRows([list(c) for c in zip(*(D[v] for v in support))]).signs([point[v] for v in support], b)
    if np.any(signs > 0):
        return None
    return np.flatnonzero(signs == 0).tolist()


def _propose(D, b: Fraction, weights, start: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """The float LP's support and its nearly tight constraints, most binding first: a guess."""
    A, scale = _scaled(D)
    bound = float(Fraction(b) / scale)
    costs = np.array([float(w) for w in weights])
    x = _constrained(A, bound, costs, start) if start else None
    if x is None:
        with np.errstate(all="ignore"):
            x = dense_lp(costs, A_ub=A.T, b_ub=np.full(A.shape[1], bound), A_eq=np.ones((1, len(D))), b_eq=[1.0])
    if x is None:
        return None
    support = [int(v) for v in np.flatnonzero(x > 1e-8)]
    slack = bound - A.T @ x
    binding = sorted((int(c) for c in np.flatnonzero(slack < 1e-7)), key=lambda c: slack[c])
    if not support or len(binding) < len(support) - 1:
        return None
    return support, binding


def _constrained(A: np.ndarray, bound: float, costs: np.ndarray, start: Sequence[int]) -> np.ndarray | None:
    """The float LP over the `start` constraints, then the ones its point breaks, until it breaks none (a
    cutting plane: a dozen constraints of a thousand bind); None when that does not settle."""
    active = sorted(set(start))
    with np.errstate(all="ignore"):
        for _ in range(_ROUNDS):
            x = dense_lp(costs, A_ub=A.T[active], b_ub=np.full(len(active), bound), A_eq=np.ones((1, A.shape[0])),
                         b_eq=[1.0])
            if x is None:
                return None
            slack = bound - A.T @ x
            broken = np.flatnonzero(slack < -1e-9)
            if not broken.size:
                return x
            active = sorted(set(active) | set(broken[np.argsort(slack[broken])][:_CUTS].tolist()))
    return None


def _scaled(rows: list[list[int]]) -> tuple[np.ndarray, int]:
    """The integer matrix divided by its largest magnitude, as floats (each quotient correctly rounded, so
    integers beyond the floats' range still give a proposal), and that magnitude."""
    width = len(rows[0]) if rows else 0
    try:
        ints = np.array(rows, dtype=np.int64).reshape(len(rows), width)
    except OverflowError:  # some integer beyond 64 bits
        ints = None
    if ints is not None:
        scale = int(np.max(np.abs(ints))) if ints.size else 0
        scale = scale or 1
    else:
        scale = max((abs(v) for row in rows for v in row), default=0) or 1
    if ints is not None and 0 < scale < 2**53:  # every integer is a float exactly: each quotient correctly rounded
        return ints.astype(float) / scale, scale
    return np.array([[v / scale for v in row] for row in rows], dtype=float).reshape(len(rows), width), scale


def _solve(rows: list[list[int]], right: list[Fraction]) -> list[Fraction] | None:
    """The square system `rows`·x = right plus Σ x = 1, exactly; None when singular."""
    size = len(rows) + 1
    A = flint.fmpq_mat(size, size, [v for row in rows + [[1] * size] for v in row])
    column = [flint.fmpq(r.numerator, r.denominator) for r in right] + [flint.fmpq(1)]
    try:
        x = A.solve(flint.fmpq_mat(size, 1, column))
    except ZeroDivisionError:
        return None
    return [Fraction(int(x[k, 0].p), int(x[k, 0].q)) for k in range(size)]


def _proves_unique(D, point: dict[int, Fraction], tight: list[int], weights) -> bool:
    """Exact duals (see the module) for the point's support and tight constraints."""
    support = sorted(point)
    off = [v for v in range(len(D)) if v not in point]
    d, scale = _scaled([[D[v][c] for c in tight] for v in support + off])
    w = np.array([float(weights[v]) for v in support + off])
    A = np.hstack([d, np.ones((len(D), 1))])  # unknowns π·scale (tight constraints), π_0, then ε
    with np.errstate(all="ignore"):
        x = dense_lp(np.r_[np.zeros(len(tight) + 1), -1.0],
                     A_ub=np.hstack([A[len(support):], np.ones((len(off), 1))]) if off else None,
                     b_ub=w[len(support):] if off else None,
                     A_eq=np.hstack([A[:len(support)], np.zeros((len(support), 1))]), b_eq=w[:len(support)],
                     bounds=[(None, 0)] * len(tight) + [(None, None), (None, 1)])
    if x is None or (off and x[-1] <= 1e-12):
        return False
    pi = _exact_duals(D, support, tight, x[:len(tight) + 1], scale, weights)
    if pi is None:
        return False
    *pi_c, pi0 = pi
    for v in off:
        reduced = flint.fmpq(weights[v].numerator, weights[v].denominator) - pi0
        reduced -= sum((p * D[v][c] for p, c in zip(pi_c, tight) if p), flint.fmpq(0))
        if reduced <= 0:
            return False
    forcing = [c for p, c in zip(pi_c, tight) if p < 0]
    rows = [[D[v][c] for v in support] for c in forcing] + [[1] * len(support)]
    return flint.fmpq_mat(len(rows), len(support), [x for row in rows for x in row]).rank() == len(support)


def _exact_duals(D, support: list[int], tight: list[int], proposed, scale: int, weights) -> list | None:
    """Exact (π_c on `tight`, π_0) from the float proposal: the coordinates beyond a basis of the support's
    equations rounded, the basis solved exactly from them; None when some π_c comes out positive."""
    columns = [[D[v][c] for v in support] for c in tight] + [[1] * len(support)]
    order = [len(tight)] + sorted(range(len(tight)), key=lambda k: proposed[k])  # π_0, then the largest |π_c|
    basis: list[int] = []
    for k in order:  # greedily: the coordinates whose columns are independent
        trial = basis + [k]
        if flint.fmpq_mat(len(trial), len(support), [x for c in trial for x in columns[c]]).rank() == len(trial):
            basis = trial
        if len(basis) == len(support):
            break
    if len(basis) < len(support):
        return None
    fixed = {k: min(Fraction(float(proposed[k])).limit_denominator(10**12), Fraction(0)) / scale
             for k in range(len(tight)) if k not in basis}
    right = []
    for row, v in enumerate(support):
        value = weights[v] - sum((x * columns[k][row] for k, x in fixed.items()), Fraction(0))
        right.append(flint.fmpq(value.numerator, value.denominator))
    A = flint.fmpq_mat(len(support), len(basis), [columns[k][r] for r in range(len(support)) for k in basis])
    try:
        x = A.solve(flint.fmpq_mat(len(support), 1, right))
    except ZeroDivisionError:
        return None
    pi = [flint.fmpq(f.numerator, f.denominator) for f in (fixed.get(k, Fraction(0)) for k in range(len(tight) + 1))]
    for position, k in enumerate(basis):
        pi[k] = x[position, 0]
    return None if any(v > 0 for v in pi[:-1]) else pi
