"""The extended matrix of a numeric scheme as arrays, evaluated for all sets at once.

`SchemeCells` holds the membership matrix of every allowed set (in the paper's table order: singletons,
then by size, then in class order; with `predictions:` the family's sets only) and c_Y(y) as `Cells` (exact
rationals where rational, certified enclosures otherwise). It is built by the vectorised interpreter, in chunks
of sets so that a comprehension over Y never holds more than a few million elements. `NotVectorised` means:
use the exact interpreter.

Owns: the array form of the matrix. May import: `formula`, `spec`.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import numpy as np

from verifier.formula.cells import TRUE, Cells, CellsError, compare
from verifier.formula.rationals import SAFE, enclose_ratio, magnitude, scale
from verifier.formula.vector import NotVectorised, VectorEvaluator
from verifier.spec.family import ALL, Family
from verifier.spec.model import Spec

CHUNK_ELEMENTS = 1 << 21  # sets x classes (x classes, under a comprehension over Y) per chunk
ASSEMBLE_CELLS = 1 << 21  # cells per chunk when the matrix is put over one denominator


@dataclass
class SchemeCells:
    """The extended matrix of a numeric scheme as arrays: the members of every allowed set, c_Y(y) for every set and
    class, the determinate costs when `cost` or `cost_matrix` gives them, and which key made each row."""

    classes: tuple[str, ...]
    members: np.ndarray  # (S, K) bool, row s is the s-th set of the table order
    rows: Cells  # (S, K): c_Y(y)
    determinate: Cells | None  # (K, K): c_yhat(y) from `cost`/`cost_matrix` (None with set_cost only)
    origin: np.ndarray  # (S,) index into ORIGINS
    # arrays derived from the matrix that its readers share (`engines.vector.terms.shared_terms`)
    derived: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def K(self) -> int:
        """The number of classes."""
        return len(self.classes)

    @property
    def sizes(self) -> np.ndarray:
        """The size of every set, in table order."""
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
    """The (sets, K) membership matrix of the family's sets in table order: row s is True at the members of the s-th
    set."""
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
    matrix = _Writes((S, K))
    origin = np.zeros(S, dtype=np.int8)
    if spec.set_cost is not None:
        step = max(1, CHUNK_ELEMENTS // (K * K if _comprehends(spec) else K))
        for start in range(0, S, step):
            part = slice(start, min(S, start + step))
            matrix.store(evaluator.set_grid(spec.set_cost, members[part]), part)
    elif determinate is None:
        raise NotVectorised("no determinate costs")
    else:
        missing = [s for s in range(K, S) if frozenset(np.flatnonzero(members[s]).tolist()) not in spec.set_costs]
        if missing:
            raise NotVectorised("rows are missing (the exact builder reports which)")
        matrix.store(determinate, slice(0, K))
        origin[:K] = 2 if spec.cost is not None else 3
    index = {frozenset(c): s for s, c in enumerate(table_order(K, spec.predictions))}
    for key, entries in spec.set_costs.items():
        s = index[key]
        row = [_entry(evaluator, e, members[s:s + 1], y) for y, e in enumerate(entries)]
        for y, cell in enumerate(row):
            matrix.store(cell, (slice(s, s + 1), slice(y, y + 1)))
        origin[s] = 1
    return SchemeCells(classes, members, matrix.assemble(), determinate, origin)


def _comprehends(spec: Spec) -> bool:
    """Whether the set costs may hold a comprehension over Y (in `set_cost` or any helper function it may call),
    which adds an axis over the classes; without one a chunk of sets is only sets x classes, so the chunks can be
    K times longer (at K = 1,000 a chunk of 2 sets cost 2 ms of overhead each)."""
    trees = [spec.set_cost.tree, *(f.body.tree for f in spec.functions.values())]
    return any(isinstance(node, (ast.ListComp, ast.GeneratorExp)) for tree in trees for node in ast.walk(tree))


class _Writes:
    """The matrix as it is written, chunk by chunk: float enclosures and exactness in place, each chunk's exact
    numerators kept over the chunk's own denominator until `assemble` puts them over one. No (S, K) array of
    Python integers is made unless the numerators need it: int64 holds them below 2^62 (8 bytes a cell)."""

    def __init__(self, shape):
        self.lo, self.hi = np.empty(shape), np.empty(shape)
        self.exact = np.zeros(shape, dtype=bool)
        self.writes: list = []  # (where, numerators or None, denominator), in order: a later write wins

    def store(self, cells: Cells, where) -> None:
        self.lo[where], self.hi[where] = cells.lo, cells.hi
        self.exact[where] = cells.exact
        num = None
        if cells.num is not None and np.any(cells.exact):
            num = np.where(cells.exact, cells.num, 0)
        self.writes.append((where, num, int(cells.den)))

    def assemble(self) -> Cells:
        """One common denominator for the whole matrix (exact cells only); the tighter enclosure per cell."""
        lo, hi, exact = self.lo, self.hi, self.exact
        if not exact.any():
            return Cells(lo, hi)
        den = math.lcm(*{d for _, num, d in self.writes if num is not None})
        small = all(magnitude(num) * (den // d) < SAFE for _, num, d in self.writes if num is not None)
        num = np.zeros(lo.shape, dtype=np.int64 if small else object)
        while self.writes:  # each chunk's numerators are freed once copied
            where, part, d = self.writes.pop(0)
            num[where] = 0 if part is None else scale(part, den // d)
        self.writes = []
        step = max(1, ASSEMBLE_CELLS // max(1, lo.shape[1]))
        for start in range(0, lo.shape[0], step):  # the exact value's own enclosure, a chunk of rows at a time
            rows = slice(start, start + step)
            q_lo, q_hi = enclose_ratio(num[rows], den)
            np.maximum(lo[rows], q_lo, out=lo[rows], where=exact[rows])
            np.minimum(hi[rows], q_hi, out=hi[rows], where=exact[rows])
        return Cells(lo, hi, num, den, exact)


def _entry(evaluator: VectorEvaluator, entry, members_row: np.ndarray, y: int) -> Cells:
    if isinstance(entry, Fraction):
        return Cells.rational(entry, (1, 1))
    return evaluator.set_grid(entry, members_row, y=np.array([y]))


def _determinate(spec: Spec, evaluator: VectorEvaluator, K: int) -> Cells | None:
    if spec.cost is not None:
        return evaluator.determinate_grid(spec.cost)
    if spec.cost_matrix is None:
        return None
    matrix = _Writes((K, K))
    for h in range(K):
        for y in range(K):
            entry = spec.cost_matrix[h][y]
            if isinstance(entry, Fraction):
                cell = Cells.rational(entry, (1, 1))
            else:
                cell = evaluator.determinate_cell(entry, h, y)
            matrix.store(cell, (slice(h, h + 1), slice(y, y + 1)))
    return matrix.assemble()


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
    """Where a cell is certainly below 0, a chunk of rows at a time (a comparison's temporaries are 8 bytes a
    cell, several at once, beside the whole matrix)."""
    zero, S = Cells.rational(0), cells.shape[0]
    step = max(1, ASSEMBLE_CELLS // max(1, cells.shape[1]))
    if S <= step:
        return compare(cells, "<", zero) == TRUE
    return np.concatenate([compare(cells.take(slice(i, i + step)), "<", zero) == TRUE for i in range(0, S, step)])
