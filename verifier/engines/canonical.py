"""What a machine prints is chosen by exact rules, never by the path of the float search.

The float search (BLAS products, HiGHS) finds that a set is the unique best prediction somewhere; the
point and the margin printed with it must not depend on the CPU's BLAS kernel, the thread count or the
solver's path. So:
- `canonical_witness`: the point is derived from the exact LP max t s.t. E_p[c_Y − c_Z] + t <= 0 (Z ≠ Y),
  p in the simplex, on the exact matrix (a rational scheme) or on every cell rounded down to a multiple of
  2^-GRID_BITS (irrational cells; the rounding is a function of the exact cell, decided by certified
  enclosures and an exact test at a grid point). Its optimum is made one point: t largest (the vertex the
  float LP points at, solved exactly with python-flint, its positive duals proving it the only optimum),
  then, on a face of optima, the least Σ w_y p_y for fixed decreasing weights w (`engines.least_point`,
  proved unique by exact duals). Where nothing proves one point the only optimum there is no canonical
  witness (None: the caller keeps the float LP's rationalised point, confirmed exactly). That point is
  then simplified (each coordinate's best rational approximation with denominators up to 10, 100, ..., in
  that order, renormalised) and the first simplification at which the set is confirmed alone, exactly, on
  the true matrix is the witness.
- `canonical_tie`: where a set is a minimiser but never alone, the least Σ w·p among those points.
- `canonical_mixture`: the certificate λ (a mixture of the other rows no worse than Y in every column), the
  least Σ u·λ for increasing weights u (the earliest rows preferred) at the LP's exact optimum or at 0.
- margins are printed as the exact gap, or rounded down to a fixed grid (`engines.exact_floor`).

Owns: `canonical_witness`, `exact_optimum`, `canonical_tie`, `canonical_mixture`, `RationalGrid`,
`GRID_BITS`. May import: `engines.exact_floor`, `engines.least_point`, `engines.screened_rows`,
`lazy_sympy`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations, islice
from math import lcm

import flint
import numpy as np

from verifier.engines.exact_floor import floor_scaled
from verifier.engines.least_point import MIX_WEIGHTS, least_point
from verifier.engines.screened_rows import ScreenedRows
from verifier.lazy_sympy import sympy as sp

GRID_BITS = 40  # irrational cells rounded down to multiples of 2^-40 for the canonical LP (certified floors)
_CHOICES = 32  # choices of binding rows tried at a degenerate vertex
SIMPLER = (10, 100, 1_000, 10_000, 10**6, 10**9, 10**12)  # denominators tried when simplifying a witness
# the second objective among the LP's optima: distinct, decreasing weights (a face of optima orthogonal to
# them is rare; then there is no canonical witness)
WEIGHTS = tuple(Fraction(1, 2 + k) + Fraction(1, 1000 * (3 + k) ** 2) for k in range(4096))


def canonical_witness(grid: "RationalGrid", i: int, proposal: tuple[np.ndarray, float] | None,
                      seed: Sequence[int], confirm: Callable[[list[Fraction]], bool]) -> list[Fraction] | None:
    """The printed witness that set i (a row of `grid`) is the unique minimiser, or None when the exact LP
    says it is nowhere strictly best on the grid matrix or no simplification of its optimum is confirmed.
    `proposal` is the float LP's (p, t) and `seed` its binding rows: search hints, the optimum does not
    depend on them."""
    vertex = _optimal_vertex(grid, i, proposal) if proposal is not None else None
    solved = vertex[:2] if vertex is not None and vertex[2] else None
    if solved is None and vertex is not None:  # a face of optima: its point of least Σ w_y p_y, when unique
        solved = _face_point(grid, i, vertex[1], start=_binding(grid, i, proposal)[0])
    if solved is None:
        return None
    p, t = solved
    if t <= 0:
        return None
    for limit in SIMPLER:
        rounded = [max(x.limit_denominator(limit), Fraction(0)) for x in p]
        total = sum(rounded)
        if total > 0:
            candidate = [x / total for x in rounded]
            if confirm(candidate):
                return candidate
    return p if confirm(p) else None


def exact_optimum(grid: "RationalGrid", i: int, proposal: tuple[np.ndarray, float]) -> Fraction | None:
    """The exact optimum t of the LP above at the vertex the float proposal (p, t) points at, when that vertex
    is proved optimal (feasible, duals nonnegative); None otherwise. A negative t is the margin by which the
    best mixture of the other rows beats row i in its worst column (LP duality)."""
    vertex = _optimal_vertex(grid, i, proposal)
    return vertex[1] if vertex is not None else None


def _optimal_vertex(grid: "RationalGrid", i: int, proposal) -> tuple[list[Fraction], Fraction, bool] | None:
    """(p, t, unique) at an optimal vertex near the float proposal, exactly: the most binding rows with
    nonnegative duals; else, at a degenerate vertex, the first choice of binding rows whose exact point is
    feasible, proved optimal by a mixture of the other rows no better than t in every column (LP duality,
    `canonical_mixture`). None when neither proves an optimum."""
    rows, zeros = _binding(grid, i, proposal)
    size = grid.K - len(zeros)
    if size < 0 or len(rows) < size:
        return None
    vertex = _vertex(grid, i, rows[:size], zeros)
    if vertex is not None:
        return vertex
    for chosen in islice(combinations(rows, size), _CHOICES):
        found = _vertex(grid, i, list(chosen), zeros, need_duals=False)
        if found is not None:
            return (found[0], found[1], False) if canonical_mixture(grid, i, found[1]) is not None else None
    return None


def canonical_mixture(grid: "RationalGrid", i: int, t: Fraction) -> dict[int, Fraction] | None:
    """The mixture (row -> weight, rows other than i) of least Σ u·λ with Σ_Z λ_Z (c_Z − c_i) <= t in every
    column, exact and proved the only optimum; None when there is none or uniqueness is not proved."""
    known = grid.mixtures.get((i, t), False)  # asked twice for a set: to prove its optimum, then to print it
    if known is not False:
        return known
    others = [j for j in range(grid.n) if j != i]
    if not others or len(others) > len(MIX_WEIGHTS):
        return None
    mine = grid.num[i]
    D = [[grid.num[z][y] - mine[y] for y in range(grid.K)] for z in others]
    x = least_point(D, t * grid.den, MIX_WEIGHTS[:len(others)])
    grid.mixtures[(i, t)] = found = None if x is None else {z: v for z, v in zip(others, x) if v}
    return found


def canonical_tie(grid: "RationalGrid", i: int, members: Sequence[int] = ()) -> list[Fraction] | None:
    """Where set i is a minimiser though never alone (the LP's optimum t is 0): the point of least Σ w·p among
    those, when proved unique; None otherwise. The weights are 1 higher off the set's own classes `members`,
    so the point stays on them where it can (it then ties with fewer sets). Exact data only (a rational
    scheme): rounding the cells would break the ties it is about."""
    weights = [w + (0 if y in members else 1) for y, w in enumerate(WEIGHTS[:grid.K])]
    solved = _face_point(grid, i, Fraction(0), weights)
    return solved[0] if solved is not None else None


class RationalGrid:
    """A matrix of exact rationals as one integer matrix over a common denominator: the exact costs of a
    rational scheme, or every cell rounded down to a multiple of 2^-GRID_BITS."""

    def __init__(self, numerators: list[list[int]], denominator: int):
        self.num = numerators
        self.den = denominator
        self.n, self.K = len(numerators), len(numerators[0]) if numerators else 0
        self.mixtures: dict = {}  # (row, t) -> its canonical mixture (`canonical_mixture`), made once
        self._screened: ScreenedRows | None = None

    @property
    def screened(self) -> ScreenedRows:
        """The rows as `ScreenedRows` (their floats too, for the search), made once."""
        if self._screened is None:
            self._screened = ScreenedRows(self.num)
        return self._screened

    @classmethod
    def exact(cls, ints: flint.fmpz_mat, scale: int) -> "RationalGrid":
        """The grid of an exact integer matrix over the common denominator `scale` (a rational scheme's costs)."""
        return cls([[int(ints[r, c]) for c in range(ints.ncols())] for r in range(ints.nrows())], scale)

    @classmethod
    def floored(cls, lo: np.ndarray, hi: np.ndarray, exact_cell: Callable[[int, int], sp.Expr]) -> "RationalGrid":
        """Cells ⌊c·2^GRID_BITS⌋ from certified enclosures [lo, hi] (any machine's: the floor is the exact
        cell's), the exact cell read only where the enclosure holds a grid point."""
        scale = float(2**GRID_BITS)
        with np.errstate(all="ignore"):
            low, high = np.floor(np.asarray(lo) * scale), np.floor(np.asarray(hi) * scale)
        settled = (low == high) & np.isfinite(low) & (np.abs(low) < 2.0**62)
        num = np.where(settled, low, 0).astype(np.int64).tolist()
        for r, c in np.argwhere(~settled).tolist():
            num[r][c] = floor_scaled(exact_cell(r, c), GRID_BITS)
        return cls(num, 2**GRID_BITS)

    @classmethod
    def from_cells(cls, cells: list[list[sp.Expr]]) -> "RationalGrid":
        """Exact cells: their rationals over a common denominator, or, when one is irrational, every cell
        rounded down to a multiple of 2^-GRID_BITS."""
        if all(v.is_Rational for row in cells for v in row):
            den = lcm(*(int(v.q) for row in cells for v in row))
            return cls([[int(v.p) * (den // int(v.q)) for v in row] for row in cells], den)
        return cls([[floor_scaled(v, GRID_BITS) for v in row] for row in cells], 2**GRID_BITS)

    def differences(self, i: int, others: Sequence[int]) -> list[list[int]]:
        """D[y][k] = c_i(y) − c_{others[k]}(y) over the common denominator (one constraint per other row)."""
        mine = self.num[i]
        if self.screened.magnitudes.size and float(np.max(self.screened.magnitudes)) < 2.0**61:
            ints = np.array(self.num, dtype=np.int64)  # exact: every difference stays below 2^62
            return (ints[i][:, None] - ints[list(others)].T).tolist()
        return [[mine[y] - self.num[z][y] for z in others] for y in range(self.K)]


def _binding(grid: RationalGrid, i: int, proposal) -> tuple[list[int], list[int]]:
    """The rows and the classes y (p_y = 0) binding at the float proposal (p, t): a guess, checked exactly."""
    p_float, t_float = proposal
    floats = grid.screened.floats
    mine = floats[i]
    scale = float(np.max(np.abs(floats))) or 1.0
    slack = (mine - floats) @ np.asarray(p_float, dtype=float) + grid.den * t_float  # <= 0; binding near 0
    slack[i] = -np.inf
    rows = [int(j) for j in np.flatnonzero(slack > -1e-7 * scale)]
    rows.sort(key=lambda j: -slack[j])  # the most binding first: a degenerate vertex keeps those
    return rows, [y for y in range(grid.K) if p_float[y] < 1e-9]


def _vertex(grid: RationalGrid, i: int, rows: list[int], zeros: list[int], need_duals: bool = True):
    """(p, t, unique) at the vertex where `rows` and p_y = 0 for `zeros` bind, exactly, when it is optimal:
    feasible for every row and with nonnegative duals. `unique` when every dual is positive: then every
    optimum satisfies the same K equations, so it is this point. None when it is not optimal (without
    `need_duals`: when it is not a feasible point)."""
    K, den = grid.K, grid.den
    system = [[mine_y - grid.num[j][y] for y, mine_y in enumerate(grid.num[i])] + [den] for j in rows]
    system += [[-int(y == z) for y in range(K)] + [0] for z in zeros] + [[1] * K + [0]]
    A = flint.fmpq_mat(K + 1, K + 1, [v for row in system for v in row])
    try:
        x = A.solve(flint.fmpq_mat(K + 1, 1, [0] * K + [1]))
        duals = A.transpose().solve(flint.fmpq_mat(K + 1, 1, [0] * K + [1]))  # the gradient of t
    except ZeroDivisionError:
        return None
    if need_duals and any(duals[k, 0] < 0 for k in range(K)):
        return None
    values = [Fraction(int(v.p), int(v.q)) for v in (x[k, 0] for k in range(K + 1))]
    p, t = values[:K], values[K]
    if not _feasible(grid, i, p, t):
        return None
    return p, t, all(duals[k, 0] > 0 for k in range(K))


def _face_point(grid: RationalGrid, i: int, t: Fraction, weights: Sequence[Fraction] | None = None,
                start: Sequence[int] = ()) -> tuple[list[Fraction], Fraction] | None:
    """The point of least Σ_y w_y p_y (WEIGHTS by default) among the optima (margin t, exact), when it is
    proved the only one (`engines.least_point`: p over the classes, one constraint per other set; the float LP
    starts from the rows `start`, binding at the vertex found)."""
    others = [j for j in range(grid.n) if j != i]
    if not others or grid.K > len(WEIGHTS):
        return None
    D = grid.differences(i, others)
    first = [j - (j > i) for j in start if j != i]  # the constraint of row j is column j of D, less row i
    p = least_point(D, -t * grid.den, weights if weights is not None else WEIGHTS[:grid.K], first)
    return (p, t) if p is not None and _feasible(grid, i, p, t) else None


def _feasible(grid: RationalGrid, i: int, p: list[Fraction], t: Fraction) -> bool:
    """p in the simplex's orthant and E_p[c_Z] >= E_p[c_Y] + t for every other row Z, exactly."""
    if any(v < 0 for v in p):
        return False
    mine = sum((c * x for c, x in zip(grid.num[i], p, strict=True)), Fraction(0))
    signs = grid.screened.signs(p, mine + Fraction(t) * grid.den)  # E_p[c_Z] − E_p[c_Y] − t, in grid units
    signs[i] = 0
    return bool(np.all(signs >= 0))
