"""The extended matrix of a numeric scheme as arrays, evaluated for all sets at once.

`SchemeCells` holds the membership matrix of every allowed set (in the paper's table order: singletons,
then by size, then in class order; with `predictions:` the family's sets only) and c_Y(y) as `Cells` (exact rationals where rational, certified
enclosures otherwise). It is built by the vectorised interpreter, in chunks of sets so that a comprehension
over Y never holds more than a few million elements. `NotVectorised` means: use the exact interpreter.

Owns: the array form of the matrix. May import: `formula`, `spec`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from verifier.formula.cells import Cells, CellsError, compare, TRUE
from verifier.formula.vector import NotVectorised, VectorEvaluator
from verifier.spec.family import ALL, Family
from verifier.spec.model import Spec

CHUNK_ELEMENTS = 1 << 21  # sets x classes x classes per chunk of a comprehension


@dataclass
class SchemeCells:
    classes: tuple[str, ...]
    members: np.ndarray  # (S, K) bool, row s is the s-th set of the table order
    rows: Cells  # (S, K): c_Y(y)
    determinate: Cells | None  # (K, K): c_yhat(y) from `cost`/`cost_matrix` (None with set_cost only)
    origin: np.ndarray  # (S,) index into ORIGINS

    @property
    def K(self) -> int:
        return len(self.classes)

    @property
    def sizes(self) -> np.ndarray:
        return self.members.sum(axis=1)

    @property
    def singletons(self) -> Cells:
        """The singleton rows of the extended matrix (what the properties call the determinate costs)."""
        return self.rows.take(slice(0, self.K))


ORIGINS = ("set_cost", "set_costs", "cost", "cost_matrix")


def table_order(K: int, family: Family = ALL) -> list[tuple[int, ...]]:
    """Singletons, then the family's indeterminate sets (by size, then in class order)."""
    if not family.restricted:
        return [c for n in range(1, K + 1) for c in combinations(range(K), n)]
    return [(h,) for h in range(K)] + family.indeterminate(K)


def membership(K: int, family: Family = ALL) -> np.ndarray:
    sets = table_order(K, family)
    out = np.zeros((len(sets), K), dtype=bool)
    sizes = np.fromiter((len(c) for c in sets), dtype=np.int64, count=len(sets))
    flat = np.fromiter((i for c in sets for i in c), dtype=np.int64, count=int(sizes.sum()))
    out[np.repeat(np.arange(len(sets)), sizes), flat] = True
    return out


def build_cells(spec: Spec, classes: tuple[str, ...] | None = None) -> SchemeCells:
    """The whole matrix as arrays; `NotVectorised` when some formula needs the exact interpreter."""
    try:
        return _build(spec, classes)
    except (ArithmeticError, ValueError, CellsError) as exc:  # numbers the arrays cannot hold: the exact path
        raise NotVectorised(f"the arrays cannot represent these numbers ({type(exc).__name__})") from None


def _build(spec: Spec, classes: tuple[str, ...] | None) -> SchemeCells:
    classes = classes or spec.classes
    K = len(classes)
    params = _parameters(spec, classes)
    evaluator = VectorEvaluator(classes, params, spec.functions)
    determinate = _determinate(spec, evaluator, K)
    evaluator.determinate = determinate
    members = membership(K, spec.predictions)
    S = len(members)
    lo, hi = np.empty((S, K)), np.empty((S, K))
    num = np.zeros((S, K), dtype=object)
    exact = np.zeros((S, K), dtype=bool)
    dens = np.ones((S, K), dtype=object)  # each cell's own denominator until `_assemble`
    origin = np.zeros(S, dtype=np.int8)
    if spec.set_cost is not None:
        step = max(1, CHUNK_ELEMENTS // (K * K))
        for start in range(0, S, step):
            part = slice(start, min(S, start + step))
            _store(evaluator.set_grid(spec.set_cost, members[part]), part, lo, hi, num, exact, dens)
    elif determinate is None:
        raise NotVectorised("no determinate costs")
    else:
        missing = [s for s in range(K, S) if frozenset(np.flatnonzero(members[s]).tolist()) not in spec.set_costs]
        if missing:
            raise NotVectorised("rows are missing (the exact builder reports which)")
        _store(determinate, slice(0, K), lo, hi, num, exact, dens)
        origin[:K] = 2 if spec.cost is not None else 3
    index = {frozenset(c): s for s, c in enumerate(table_order(K, spec.predictions))}
    for key, entries in spec.set_costs.items():
        s = index[key]
        row = [_entry(evaluator, e, members[s:s + 1], y) for y, e in enumerate(entries)]
        for y, cell in enumerate(row):
            _store(cell, (slice(s, s + 1), slice(y, y + 1)), lo, hi, num, exact, dens)
        origin[s] = 1
    rows = _assemble(lo, hi, num, exact, dens)
    return SchemeCells(classes, members, rows, determinate, origin)


def _store(cells: Cells, where, lo, hi, num, exact, dens) -> None:
    """Write cells into the matrix (a later write replaces an earlier one, denominator included)."""
    lo[where], hi[where] = cells.lo, cells.hi
    exact[where] = cells.exact
    num[where] = np.where(cells.exact, cells.num, 0) if cells.num is not None else 0
    dens[where] = cells.den


def _assemble(lo, hi, num, exact, dens) -> Cells:
    """One common denominator for the whole matrix (exact cells only)."""
    den = math.lcm(*{int(d) for d in set(dens.ravel().tolist())})  # a set, not np.unique: no sort of objects
    if den != 1:
        num = num * (den // dens)
    return Cells.from_exact(num, den, exact).with_enclosure(lo, hi) if exact.any() else Cells(lo, hi)


def _entry(evaluator: VectorEvaluator, entry, members_row: np.ndarray, y: int) -> Cells:
    if isinstance(entry, Fraction):
        return Cells.rational(entry, (1, 1))
    return evaluator.set_grid(entry, members_row, y=np.array([y]))


def _determinate(spec: Spec, evaluator: VectorEvaluator, K: int) -> Cells | None:
    if spec.cost is not None:
        return evaluator.determinate_grid(spec.cost)
    if spec.cost_matrix is None:
        return None
    lo, hi = np.empty((K, K)), np.empty((K, K))
    num, exact, dens = np.zeros((K, K), dtype=object), np.zeros((K, K), dtype=bool), np.ones((K, K), dtype=object)
    for h in range(K):
        for y in range(K):
            entry = spec.cost_matrix[h][y]
            if isinstance(entry, Fraction):
                cell = Cells.rational(entry, (1, 1))
            else:
                cell = evaluator.determinate_cell(entry, h, y)
            _store(cell, (slice(h, h + 1), slice(y, y + 1)), lo, hi, num, exact, dens)
    return _assemble(lo, hi, num, exact, dens)


def _parameters(spec: Spec, classes: tuple[str, ...]) -> dict[str, Cells | tuple[Cells, ...]]:
    constants = VectorEvaluator(classes, {}, {})
    out: dict[str, Cells | tuple[Cells, ...]] = {}
    for name, param in spec.parameters.items():
        if param.value is None:
            raise NotVectorised(f"'{name}' is symbolic")
        if isinstance(param.value, tuple):
            if len(param.value) != len(classes):
                raise NotVectorised("per-class values do not match the classes (the exact builder says so)")
            out[name] = tuple(_constant(constants, v) for v in param.value)
        else:
            out[name] = _constant(constants, param.value)
    return out


def _constant(evaluator: VectorEvaluator, entry) -> Cells:
    if isinstance(entry, Fraction):
        return Cells.rational(entry)
    return evaluator.constant(entry)


def certainly_negative(cells: Cells) -> np.ndarray:
    return compare(cells, "<", Cells.rational(0)) == TRUE

