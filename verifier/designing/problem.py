"""A design problem: the extended matrix with its open cells as unknowns, and each demand as a z3 condition.

The determinate costs (and any fixed set rows) must be exact rationals; every indeterminate cell becomes a
real variable. Fixed cells are variables too, pinned by a tracked equation, so that "why not" can name them and
the repair can move them. Each demand is the property's own definition unrolled by `obligations` (Property 1
through the finitely many candidate witnesses of `engines.witnesses`, so that it stays linear), translated with
one shared margin for the strict relations (`engines.margins`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import z3

from verifier.designing.request import Demand
from verifier.engines import obligations
from verifier.engines.margins import with_margin
from verifier.engines.smt.translate import Translator
from verifier.engines.witnesses import TooManyCandidates, possible_at_candidates
from verifier.errors import SpecError
from verifier.lazy_sympy import sympy as sp
from verifier.limits import MAX_COMPLETION_CLASSES as MAX_DESIGN_CLASSES
from verifier.properties import BY_ID
from verifier.scheme import Scheme
from verifier.scheme.exact import build_scheme
from verifier.spec.model import Spec

MAX_DESIGN_CELLS = (2 ** MAX_DESIGN_CLASSES - MAX_DESIGN_CLASSES - 1) * MAX_DESIGN_CLASSES  # 840 unknowns


@dataclass(frozen=True)
class Cell:
    """One indeterminate cell c_A(y) of the extended matrix, fixed by the spec or open."""
    members: frozenset[int]
    y: int
    label: str  # "c_{h,b}(n)"
    given: Fraction | None  # the value the spec fixes, or None for an open cell

    @property
    def key(self) -> str:
        """The cell's key in the problem's tables: the sorted members and the class, as "[0, 1]:2"."""
        return f"{sorted(self.members)}:{self.y}"


class DesignProblem:
    """The spec's extended matrix with every indeterminate cell a variable, and each demand as a z3 condition with one
    shared margin for the strict relations. Raises SpecError when the spec is too large to design."""
    def __init__(self, spec: Spec):
        self.spec = spec
        K = len(spec.classes)
        family = spec.predictions
        cells = family.count(K) * K
        if family.restricted and cells > MAX_DESIGN_CELLS:
            raise _spec_error(spec, "predictions", f"design works on at most {MAX_DESIGN_CELLS:,} set cells; the "
                              f"family has {family.count(K):,} set rows of {K} cells",
                              "a smaller family or fewer classes")
        if K > MAX_DESIGN_CLASSES and not family.restricted:
            raise _spec_error(spec, "classes", f"design works on at most {MAX_DESIGN_CLASSES:,} classes "
                              f"({2 ** K - K - 1:,} set rows here)", f"at most {MAX_DESIGN_CLASSES:,} classes, or a "
                              "restricted 'predictions' family (intervals, a hierarchy, max_size)")
        self.determinate = _determinate(spec)
        self.cells: list[Cell] = []
        rows: dict[frozenset[int], tuple] = {frozenset((h,)): tuple(sp.Rational(v.numerator, v.denominator)
                                                                     for v in self.determinate[h]) for h in range(K)}
        base = _fixed_rows(spec)
        self.symbols: dict[str, sp.Symbol] = {}
        for members in (frozenset(c) for c in family.indeterminate(K)):  # every set, or the family's
            row = []
            for y in range(K):
                given = base.get(members, {}).get(y)
                label = "c_{" + ",".join(spec.classes[i] for i in sorted(members)) + "}(" + spec.classes[y] + ")"
                cell = Cell(members, y, label, given)
                self.cells.append(cell)
                symbol = sp.Symbol(label, real=True)
                self.symbols[cell.key] = symbol
                row.append(symbol)
            rows[members] = tuple(row)
        origin = {m: "design" for m in rows}
        self.scheme = Scheme(spec, spec.classes, rows, origin)
        self.ctx = z3.Context()
        self.t = Translator(self.ctx)
        self.margin = z3.Real("margin", self.ctx)
        self._demands: dict[tuple[str, bool], z3.BoolRef] = {}

    @property
    def open_cells(self) -> list[Cell]:
        """The cells the spec leaves open (null)."""
        return [c for c in self.cells if c.given is None]

    @property
    def fixed_cells(self) -> list[Cell]:
        """The cells the spec fixes."""
        return [c for c in self.cells if c.given is not None]

    def var(self, cell: Cell) -> z3.ArithRef:
        """The z3 variable of the cell."""
        return self.t.var(self.symbols[cell.key].name)

    def value(self, x: Fraction) -> z3.ArithRef:
        """The exact rational as a z3 value in the problem's context."""
        return z3.RealVal(f"{x.numerator}/{x.denominator}", self.ctx)

    def pinned(self, cell: Cell) -> z3.BoolRef:
        """The equation that pins a fixed cell at its given value."""
        return self.var(cell) == self.value(cell.given)

    def condition(self, demand: Demand) -> z3.BoolRef:
        """The demand as a z3 condition: the property's satisfaction (or violation) unrolled, with the margin for strict
        relations; built once per demand."""
        key = (demand.pid, demand.holds)
        if key not in self._demands:
            prop = BY_ID[demand.pid]
            try:
                obligation = (obligations.satisfaction(self.scheme, prop, possible_as=possible_at_candidates)
                              if demand.holds else obligations.violation(self.scheme, prop))
            except TooManyCandidates as exc:
                raise _spec_error(self.spec, "classes", f"Property 1 has too many candidate witnesses ({exc})",
                                  "fewer classes") from None
            self._demands[key] = with_margin(obligation.formula, self.t, self.margin)
        return self._demands[key]

    def cell_values(self, model: z3.ModelRef) -> dict[str, Fraction]:
        """Every cell's exact value in the z3 model, by cell key."""
        out = {}
        for cell in self.cells:
            v = model.eval(self.var(cell), model_completion=True)
            out[cell.key] = Fraction(v.numerator_as_long(), v.denominator_as_long())
        return out


def _determinate(spec: Spec) -> list[list[Fraction]]:
    if spec.set_cost is not None:
        raise _spec_error(spec, "set_cost", "a 'set_cost' formula already defines every row, so there is nothing "
                          "to design", "no 'set_cost' (give the determinate costs and any fixed 'set_costs' rows), "
                          "or symbolic parameters in 'set_cost' to calibrate")
    singles = {m: row for m, row in spec.set_costs.items() if len(m) == 1}  # they define determinate costs
    for members, row in singles.items():
        if any(e is None for e in row):
            (h,) = members
            raise _spec_error(spec, f"set_costs.{spec.classes[h]}", "a determinate (singleton) row cannot have an "
                              "open cell", "every determinate cost given")
    bare = replace(spec, set_costs=singles, set_cost=None)
    scheme = build_scheme(bare, sets=[])
    out = []
    for h in range(len(spec.classes)):
        row = []
        for y in range(len(spec.classes)):
            value = scheme.det(h, y)
            if not isinstance(value, sp.Rational):
                key = "cost_matrix" if spec.cost_matrix is not None else "cost"
                raise _spec_error(spec, key, f"the determinate cost c_{spec.classes[h]}({spec.classes[y]}) = {value} "
                                  "is not a rational number", "exact rational determinate costs (a design is "
                                  "solved in exact linear arithmetic)")
            row.append(Fraction(int(value.p), int(value.q)))
        out.append(row)
    return out


def _fixed_rows(spec: Spec) -> dict[frozenset[int], dict[int, Fraction]]:
    if not spec.set_costs:
        return {}
    filled = {m: tuple(Fraction(0) if e is None else e for e in row) for m, row in spec.set_costs.items()}
    scheme = build_scheme(replace(spec, set_costs=filled), sets=list(filled))
    out: dict[frozenset[int], dict[int, Fraction]] = {}
    for members, row in spec.set_costs.items():
        if len(members) < 2:
            continue
        for y, entry in enumerate(row):
            if entry is None:
                continue
            value = scheme.cost(members, y)
            if not isinstance(value, sp.Rational):
                label = ",".join(spec.classes[i] for i in sorted(members))
                raise _spec_error(spec, f"set_costs.{label}", f"the fixed cost {value} is not a rational number",
                                  "exact rational fixed costs")
            out.setdefault(members, {})[y] = Fraction(int(value.p), int(value.q))
    return out


def _spec_error(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key.split(".")[0]) or spec.marks.get("")
    return SpecError.at(message, mark, file=spec.path, key=key, expected=expected)
