"""The printed certificate λ, chosen by an exact rule, never by the path of the float search.

A certificate that set i is never (or never alone) the best prediction is a mixture λ of the other rows with
Σ_Z λ_Z c_Z(y) − c_i(y) <= t in every column y: t < 0 proves `never`, t = 0 that i is never the unique
minimiser (`tied`, and Definition 4's impossibility with the rows of i's members). Many mixtures may do; the
printed one is the only optimum of

    min Σ_Z u_Z λ_Z   s.t.  Σ_Z λ_Z (c_Z(y) − c_i(y)) <= t  (every y),  Σ λ = 1,  λ >= 0,

with u increasing in row order (the earliest rows, the singletons first, are preferred), at t = the LP's exact
optimum (the mixture that beats i by the most in its worst column) or t = 0. HiGHS proposes a vertex; the
exact system on its support and binding columns gives λ (python-flint), and the simplex duals prove it the only
optimum: every nonbasic variable's reduced cost is positive, so any other feasible mixture costs more. Where
that proof fails (a face of optima orthogonal to u, a degenerate basis chosen badly), there is no canonical
mixture: the caller keeps the float LP's rationalised duals, confirmed exactly.

Owns: `canonical_mixture`, `MIX_WEIGHTS`. May import: `engines.canonical`.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, islice
from math import lcm

import flint
import numpy as np

from verifier.engines.canonical import RationalGrid

# distinct, increasing weights (rows earlier in the set order cost less)
_BASES = 64  # choices of tight columns tried at a degenerate vertex
MIX_WEIGHTS = tuple(1 - Fraction(1, 2 + k) - Fraction(1, 1000 * (3 + k) ** 2) for k in range(4096))


def canonical_mixture(grid: RationalGrid, i: int, t: Fraction) -> dict[int, Fraction] | None:
    """The mixture (row -> weight, rows other than i) of least Σ u·λ with Σ_Z λ_Z (c_Z − c_i) <= t in every
    column, exact and proved the only optimum; None when there is none or uniqueness is not proved."""
    if grid.n - 1 > len(MIX_WEIGHTS) or grid.n < 2:
        return None
    proposed = _propose(grid, i, t)
    if proposed is None:
        return None
    support, binding = proposed
    return _exact_vertex(grid, i, t, support, binding)


def _differences(grid: RationalGrid, i: int) -> tuple[list[int], np.ndarray]:
    others = [j for j in range(grid.n) if j != i]
    floats = np.array(grid.num, dtype=float)
    return others, floats[others] - floats[i]


def _propose(grid: RationalGrid, i: int, t: Fraction) -> tuple[list[int], list[int]] | None:
    """The float LP's support (rows) and its nearly tight columns, most binding first: a guess."""
    from scipy.optimize import linprog

    others, diff = _differences(grid, i)
    scale = float(np.max(np.abs(diff))) or 1.0
    weights = np.array([float(u) for u in MIX_WEIGHTS[:len(others)]])
    bound = float(t) * grid.den / scale
    with np.errstate(all="ignore"):
        found = linprog(weights, A_ub=diff.T / scale, b_ub=np.full(grid.K, bound),
                        A_eq=np.ones((1, len(others))), b_eq=[1.0], bounds=[(0, None)] * len(others),
                        method="highs")
    if found.status != 0:
        return None
    lam = found.x
    support = [others[k] for k in np.flatnonzero(lam > 1e-8)]
    slack = bound - (diff.T / scale) @ lam
    binding = sorted((int(y) for y in np.flatnonzero(slack < 1e-7)), key=lambda y: slack[y])
    if not support or len(binding) < len(support) - 1:
        return None
    return support, binding


def _exact_vertex(grid: RationalGrid, i: int, t: Fraction, support: list[int],
                  binding: list[int]) -> dict[int, Fraction] | None:
    """λ on `support` with |support| − 1 of the `binding` columns tight, exactly, when it is feasible and the
    only optimum (a degenerate vertex: the first choice of tight columns whose duals prove it)."""
    mine, den, size = grid.num[i], grid.den, len(support)
    bound = flint.fmpq(t.numerator * den, t.denominator)
    weight = {j: MIX_WEIGHTS[k] for k, j in enumerate(j for j in range(grid.n) if j != i)}
    lam = None
    for columns in islice(combinations(binding, size - 1), _BASES):
        lam = _solve(grid, i, support, columns, [bound] * (size - 1) + [1])
        if lam is not None:
            break
    if lam is None or any(v < 0 for v in lam):
        return None
    mixture = {z: Fraction(int(v.p), int(v.q)) for z, v in zip(support, lam)}
    if not _feasible(grid, i, t, mixture):
        return None
    tight = [y for y in range(grid.K)
             if sum(v * (grid.num[z][y] - mine[y]) for z, v in mixture.items()) == t * den]
    return {z: v for z, v in mixture.items() if v} if _proves_unique(grid, i, t, mixture, tight, weight) else None


def _solve(grid: RationalGrid, i: int, support: list[int], columns, right: list, transpose: bool = False):
    """The square system of the support's rows on `columns` (tight) and Σ λ = 1, or its transpose."""
    mine, size = grid.num[i], len(support)
    rows = [[grid.num[z][y] - mine[y] for z in support] for y in columns] + [[1] * size]
    A = flint.fmpq_mat(size, size, [v for row in rows for v in row])
    try:
        x = (A.transpose() if transpose else A).solve(flint.fmpq_mat(size, 1, right))
    except ZeroDivisionError:
        return None
    return [x[k, 0] for k in range(size)]


def _proves_unique(grid: RationalGrid, i: int, t: Fraction, mixture: dict[int, Fraction], tight: list[int],
                   weight: dict[int, Fraction]) -> bool:
    """Duals that make the mixture the only optimum, exactly: π_y <= 0 on the tight columns and π_0 with
    u_Z = Σ_y d_Z(y) π_y + π_0 on the support and u_Z > Σ_y d_Z(y) π_y + π_0 off it (every other row's reduced
    cost positive, so an optimum uses only the support), and the support's rows determined by the columns with
    π_y < 0 and Σ λ = 1 (full rank). A float LP (max the least reduced cost) proposes π, rounded; which π
    proves it does not matter, only that one does."""
    from scipy.optimize import linprog

    support = sorted(mixture)
    off = [z for z in range(grid.n) if z != i and z not in mixture]
    mine = grid.num[i]
    d = np.array([[grid.num[z][y] - mine[y] for y in tight] for z in support + off], dtype=float)
    d = d.reshape(len(support) + len(off), len(tight))
    scale = int(np.max(np.abs(d))) if d.size and np.max(np.abs(d)) > 0 else 1
    u = np.array([float(weight[z]) for z in support + off])
    ones = np.ones((len(support) + len(off), 1))
    A = np.hstack([d / scale, ones])  # unknowns π·scale (tight columns), π_0, then ε
    with np.errstate(all="ignore"):
        found = linprog(np.r_[np.zeros(len(tight) + 1), -1.0],
                        A_ub=np.hstack([A[len(support):], np.ones((len(off), 1))]) if off else None,
                        b_ub=u[len(support):] if off else None,
                        A_eq=np.hstack([A[:len(support)], np.zeros((len(support), 1))]), b_eq=u[:len(support)],
                        bounds=[(None, 0)] * len(tight) + [(None, None), (None, 1)], method="highs")
    if found.status != 0 or (off and found.x[-1] <= 1e-12):
        return False
    pi = _exact_duals(grid, i, support, tight, found.x[:len(tight) + 1], scale, weight)
    if pi is None:
        return False
    *pi_y, pi0 = pi
    for z in off:
        reduced = flint.fmpq(weight[z].numerator, weight[z].denominator) - pi0
        reduced -= sum((p * (grid.num[z][y] - mine[y]) for p, y in zip(pi_y, tight) if p), flint.fmpq(0))
        if reduced <= 0:
            return False
    forcing = [y for p, y in zip(pi_y, tight) if p < 0]
    rows = [[grid.num[z][y] - mine[y] for z in support] for y in forcing] + [[1] * len(support)]
    return flint.fmpq_mat(len(rows), len(support), [v for row in rows for v in row]).rank() == len(support)


def _exact_duals(grid: RationalGrid, i: int, support: list[int], tight: list[int], proposed, scale: int,
                 weight: dict[int, Fraction]) -> list | None:
    """Exact (π_y on `tight`, π_0) from the float proposal: the coordinates beyond a basis of the support's
    equations rounded, the basis solved exactly from them; None when some π_y comes out positive."""
    mine = grid.num[i]
    columns = [[grid.num[z][y] - mine[y] for z in support] for y in tight] + [[1] * len(support)]
    order = [len(tight)] + sorted(range(len(tight)), key=lambda k: proposed[k])  # π_0, then the largest |π_y|
    basis: list[int] = []
    for k in order:  # greedily: the coordinates whose columns are independent
        trial = basis + [k]
        if flint.fmpq_mat(len(trial), len(support), [v for c in trial for v in columns[c]]).rank() == len(trial):
            basis = trial
        if len(basis) == len(support):
            break
    if len(basis) < len(support):
        return None
    fixed = {k: min(Fraction(float(proposed[k])).limit_denominator(10**12), Fraction(0)) / scale
             for k in range(len(tight)) if k not in basis}
    right = []
    for z_index, z in enumerate(support):
        rest = sum((v * columns[k][z_index] for k, v in fixed.items()), Fraction(0))
        value = weight[z] - rest
        right.append(flint.fmpq(value.numerator, value.denominator))
    A = flint.fmpq_mat(len(support), len(basis), [columns[k][r] for r in range(len(support)) for k in basis])
    try:
        x = A.solve(flint.fmpq_mat(len(support), 1, right))
    except ZeroDivisionError:
        return None
    pi = [flint.fmpq(v.numerator, v.denominator) for v in (fixed.get(k, Fraction(0)) for k in range(len(tight) + 1))]
    for position, k in enumerate(basis):
        pi[k] = x[position, 0]
    return None if any(v > 0 for v in pi[:-1]) else pi


def _feasible(grid: RationalGrid, i: int, t: Fraction, mixture: dict[int, Fraction]) -> bool:
    """Σ_Z λ_Z (c_Z(y) − c_i(y)) <= t in every column, exactly (integers over one denominator)."""
    q = lcm(*(v.denominator for v in mixture.values()))
    weights = {z: v.numerator * (q // v.denominator) for z, v in mixture.items()}
    limit = t * q * grid.den
    mine = grid.num[i]
    return all(sum(w * (grid.num[z][y] - mine[y]) for z, w in weights.items()) <= limit for y in range(grid.K))
