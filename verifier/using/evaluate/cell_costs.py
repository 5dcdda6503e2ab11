"""The exact cost c_Y(y) of each (predicted set, true class) cell a classifier's predictions meet, from whichever
form of the scheme there is, so that set predictions are scored wherever the scheme is defined:

- `RowCosts`: the scheme's own rows (its matrix built: every set, or the family's sets); on the fast path a
  cell is read alone (`LazyRows.value`), never its set's whole row of K exact numbers;
- `AlikeCosts`: costs that treat every class alike, c_Y(y) = a_|Y| for y ∈ Y and b_|Y| otherwise, which is what
  a class-symmetric scheme is (every (Y, y) with y ∈ Y is one orbit of the relabellings, every one with y ∉ Y
  another): a and b from the route that decides without the matrix (`family_decide.alike_route`) or from the
  representatives {1..n} of a reduced scheme (`scheme.orbits`); any set of any size up to 1,000 classes;
- `ListedCosts`: a scheme built in part (beyond enumeration, its costs not alike) or a family beyond the bounds
  of its matrix: each cell met evaluated alone by the spec's exact interpreter (`scheme.lazy.cell_interpreter`).

Every route gives the value the full matrix would hold at that cell: the same formulas and the same exact
interpreter the builders check their arrays against, or an equality the route has proved (class symmetry, alike
costs compared exactly).

Owns: `CellCosts`, `RowCosts`, `AlikeCosts`, `ListedCosts`, `costs_of`, `exact_sum`. May import: `scheme`, `spec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.scheme.lazy import cell_interpreter

Cell = tuple[ClassSet, int]


class CellCosts:
    """The exact costs of cells, for `K` classes."""

    K: int

    def costs(self, cells: list[Cell]) -> list[sp.Expr]:
        """The exact cost c_Y(y) of each cell (Y, y), in order: what each route implements."""
        raise NotImplementedError


@dataclass
class RowCosts(CellCosts):
    """Cells read from a built scheme's rows (every set the predictions may hold has one)."""

    scheme: Scheme

    @property
    def K(self) -> int:
        """The scheme's number of classes."""
        return self.scheme.K

    def costs(self, cells: list[Cell]) -> list[sp.Expr]:
        """Each cell's cost from the scheme's rows: a lazy row's one cell where it can, else the scheme's cost."""
        rows = self.scheme.rows
        index = getattr(rows, "index", None)
        if index is None or not hasattr(rows, "value"):
            return [self.scheme.cost(members, y) for members, y in cells]
        return [rows.value(index[members], y, members) for members, y in cells]  # one cell, not its row


@dataclass
class AlikeCosts(CellCosts):
    """c_Y(y) = a[|Y|] for y ∈ Y, b[|Y|] otherwise (exact; entries past the largest allowed size unused)."""

    K: int
    a: list
    b: list

    def __post_init__(self):
        self._values = {}  # a Fraction becomes one sympy number, shared by every cell of its value

    def costs(self, cells: list[Cell]) -> list[sp.Expr]:
        """Each cell's a_|Y| or b_|Y|, a Fraction made one sympy number per distinct value."""
        out = []
        for members, y in cells:
            value = (self.a if y in members else self.b)[len(members)]
            key = (type(value), value)
            number = self._values.get(key)
            if number is None:
                number = self._values[key] = sp.Rational(value.numerator, value.denominator) \
                    if isinstance(value, Fraction) else value
            out.append(number)
        return out

    @classmethod
    def of_orbits(cls, scheme: Scheme) -> AlikeCosts:
        """From a class-symmetric reduced scheme: its singleton {1} and representatives {1..n} give a_n
        (at class 1) and b_n (at class n + 1)."""
        K, top = scheme.K, scheme.orbits.largest
        a, b = [sp.Integer(0)] * (K + 1), [sp.Integer(0)] * (K + 1)
        for n in range(1, top + 1):
            row = scheme.rows[frozenset(range(n))]
            a[n] = row[0]
            b[n] = row[n] if n < K else sp.Integer(0)
        return cls(K, a, b)


class ListedCosts(CellCosts):
    """Cells a classifier's sets meet, each evaluated alone by the spec's exact interpreter (what the builders
    evaluate a cell with; the fast path's arrays are exact only where they agree with it): no matrix and no
    singleton rows built, so the work follows the cells met (under a millisecond each), not K x K x |Y|."""

    def __init__(self, spec):
        self.spec, self.K = spec, len(spec.classes)
        self._cells = None
        self._known: dict[Cell, sp.Expr] = {}

    def costs(self, cells: list[Cell]) -> list[sp.Expr]:
        """Each cell's cost by the spec's exact interpreter (made on first use), a distinct cell evaluated once."""
        if self._cells is None:
            self._cells = cell_interpreter(self.spec)
        for cell in cells:
            if cell not in self._known:
                self._known[cell] = self._cells.cell(*cell)
        return [self._known[c] for c in cells]


def costs_of(scheme: Scheme) -> CellCosts:
    """The cells of a built scheme: its rows; a class-symmetric reduced scheme's representatives (its values
    fixed, or symbolic parameters shared by every class); or, for a scheme built in part, each cell alone."""
    orbits = scheme.orbits
    if orbits is None and not scheme.partial:
        return RowCosts(scheme)
    if orbits is not None and orbits.symmetric and not orbits.moves_parameters:
        return AlikeCosts.of_orbits(scheme)
    return ListedCosts(scheme.spec)


def exact_sum(values: list[sp.Expr], counts: list[int]) -> sp.Expr:
    """Σ count · value, exactly: rationals added as Fractions (10,000 cells in milliseconds), the rest by sympy."""
    rational, other = Fraction(0), []
    for value, count in zip(values, counts):
        if getattr(value, "is_Rational", False):
            rational += count * Fraction(int(value.p), int(value.q))
        else:
            other.append(count * value)
    total = sp.Rational(rational.numerator, rational.denominator)
    return sp.Add(total, *other) if other else total
