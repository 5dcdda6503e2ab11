"""A numeric scheme on the fast path: the matrix as arrays, with exact rows made only when read.

Rational cells become sympy rationals straight from the arrays; irrational ones are evaluated by the exact
interpreter, cell by cell, when a report or an exact check asks for them (a counterexample, a tie the
enclosures cannot break). Everything that reads `Scheme.rows` keeps working, at the price of what it reads.

Owns: `build_fast_scheme`, `cell_interpreter`. May import: `scheme.exact`, `scheme.cells`, `formula`, `spec`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from fractions import Fraction

import numpy as np

from verifier.formula.arith import collecting
from verifier.formula.cells import TRUE, UNDECIDED, Cells, compare
from verifier.formula.evaluate import Evaluator
from verifier.formula.genmean import genmean
from verifier.formula.irrational_mean import irrational_mean
from verifier.formula.power_mean import power_mean_form
from verifier.formula.rationals import SAFE, enclose_ratio, scale
from verifier.formula.values import ClassRef, Vocabulary
from verifier.lazy_sympy import sympy as sp
from verifier.scheme.cells import ORIGINS, SchemeCells, build_cells, certainly_negative, table_order
from verifier.scheme.exact import ClassSet, Scheme, _check_assumptions, _differ, _entry, _parameter_values
from verifier.spec.model import Spec


class ExactCells:
    """The exact interpreter, one cell at a time, for a spec at given classes."""

    def __init__(self, spec: Spec, params):
        self.spec = spec
        vocab = Vocabulary(spec.classes, params, spec.functions)
        self.evaluator = Evaluator(vocab)
        self._det: dict[tuple[int, int], sp.Expr] = {}
        if spec.cost is not None or spec.cost_matrix is not None:
            vocab.determinate = self.determinate

    def determinate(self, h: int, y: int) -> sp.Expr:
        """The determinate cost c_h(y) from `cost` or `cost_matrix`, evaluated once and kept."""
        key = (h, y)
        if key not in self._det:
            local = {"y": ClassRef(y), "yhat": ClassRef(h)}
            spec = self.spec
            self._det[key] = (self.evaluator.number(spec.cost, local) if spec.cost is not None
                              else _entry(self.evaluator, spec.cost_matrix[h][y], local))
        return self._det[key]

    def cell(self, members: ClassSet, y: int) -> sp.Expr:
        """The exact cell c_Y(y), as the spec defines it (a `set_costs` entry, the set-cost formula, or a determinate
        cost for a singleton), with a fresh step budget for the cell."""
        # the formulas' total work was bounded when the arrays were built; here the budget guards one cell
        self.evaluator.steps = 0
        spec = self.spec
        if members in spec.set_costs:
            return _entry(self.evaluator, spec.set_costs[members][y], {"Y": members, "y": ClassRef(y)})
        if spec.set_cost is not None:
            return self.evaluator.number(spec.set_cost, {"Y": members, "y": ClassRef(y)})
        (h,) = members
        return self.determinate(h, y)


class LazyRows(Mapping):
    """`Scheme.rows` for the fast path: {set: exact row}, each row made on first access.

    When the set cost is a power mean of the members' costs (`formula.power_mean`), an irrational cell is the
    builtin `genmean` of the exponent (evaluated once) and the members' exact determinate costs: the very call
    the interpreter makes for that formula, without interpreting it 49,140 times at 12 classes; `genmean`
    memoises each distinct multiset."""

    def __init__(self, cells: SchemeCells, exact: ExactCells, exponent: sp.Expr | None = None):
        self.cells, self.exact = cells, exact
        self.index = {frozenset(c): s for s, c in enumerate(table_order(cells.K, exact.spec.predictions))}
        self._rows: dict[ClassSet, tuple[sp.Expr, ...]] = {}
        self.exponent = exponent
        self._by_multiset: dict[tuple, sp.Expr] = {}  # equal multisets of member costs, equal cells
        self._det: dict[tuple[int, int], sp.Expr] = {}  # the determinate costs the means read

    def __getitem__(self, members: ClassSet) -> tuple[sp.Expr, ...]:
        row = self._rows.get(members)
        if row is None:
            s = self.index[members]
            row = self._rows[members] = tuple(self.value(s, y, members) for y in range(self.cells.K))
        return row

    def for_enclosure(self, members: ClassSet, y: int):
        """The cell c_Y(y) where only its enclosures are read: the exact value, except a power mean proved
        irrational and not made yet, kept whole (`formula.irrational_mean`: enclosed in a few arb operations;
        the exact mean of 90 irrational costs took 50 ms to build and as long to enclose)."""
        row = self._rows.get(members)
        s = self.index[members]
        if row is not None or self.cells.rows.fraction((s, y)) is not None or self.exponent is None \
                or len(members) < 2:
            return row[y] if row is not None else self.value(s, y, members)
        costs = tuple(sorted((self._determinate(h, y) for h in members), key=hash))
        known = self._by_multiset.get(costs)
        whole = irrational_mean(self.exponent, costs) if known is None else None
        return whole if whole is not None else self.value(s, y, members)

    def value(self, s: int, y: int, members: ClassSet | None = None) -> sp.Expr:
        """The exact cell c_Y(y) of the s-th set: from the arrays where it is rational, else the power mean of the
        members' exact costs or the exact interpreter."""
        exact = self.cells.rows.fraction((s, y))
        if exact is not None:
            return sp.Rational(exact.numerator, exact.denominator)
        members = members if members is not None else self.members(s)
        if self.exponent is None or len(members) < 2:
            return self.exact.cell(members, y)
        costs = tuple(sorted((self._determinate(h, y) for h in members), key=hash))  # the multiset
        value = self._by_multiset.get(costs)
        if value is None:
            value = self._by_multiset[costs] = genmean(self.exponent, costs)
        return value

    def _determinate(self, h: int, y: int) -> sp.Expr:
        """c_h(y) from `cost`/`cost_matrix`: the arrays' exact rational where they hold one (the interpreter
        evaluated 8,600 of them for a 100-class margin), else the exact interpreter's value."""
        known = self._det.get((h, y))
        if known is None:
            det = self.cells.determinate
            exact = det.fraction((h, y)) if det is not None else None
            known = self._det[(h, y)] = (sp.Rational(exact.numerator, exact.denominator) if exact is not None
                                         else self.exact.determinate(h, y))
        return known

    def members(self, s: int) -> ClassSet:
        """The members of the s-th set of the table order."""
        return frozenset(np.flatnonzero(self.cells.members[s]).tolist())

    def __iter__(self) -> Iterator[ClassSet]:
        return iter(self.index)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, members) -> bool:
        return members in self.index


def cell_interpreter(spec: Spec) -> ExactCells:
    """The exact interpreter of `spec`'s cells, one (set, class) at a time, with no matrix built: what a few cells
    of a matrix too large to build cost (parameters without a value are the symbols the builders make)."""
    return ExactCells(spec, _parameter_values(spec, {}))


def build_fast_scheme(spec: Spec, classes: tuple[str, ...] | None = None) -> Scheme:
    """The scheme with its arrays; `NotVectorised` when a formula needs the exact builder."""
    if classes is not None:
        spec = replace(spec, classes=classes)
    cells = build_cells(spec)
    params = _parameter_values(spec, {})
    exact = ExactCells(spec, params)
    with collecting():
        _check_assumptions(spec, exact.evaluator)
    _exact_singletons(cells, exact)
    rows = LazyRows(cells, exact, exponent=_power_mean_exponent(spec, exact))
    origin = {m: ORIGINS[cells.origin[s]] for m, s in rows.index.items()}
    scheme = Scheme(spec, spec.classes, rows, origin, params)
    scheme.cells = cells
    scheme.notes += _notes(scheme, cells, exact, bool(spec.assume))
    return scheme


def _power_mean_exponent(spec: Spec, exact: ExactCells) -> sp.Expr | None:
    """The exponent E when every set row is genmean(E, [c(yh, y) for yh in Y]) (or mean: E = 1) with no
    explicit set rows, evaluated as the interpreter would; None otherwise."""
    if spec.set_cost is None or spec.set_costs or (spec.cost is None and spec.cost_matrix is None):
        return None
    per_class = {name for name, param in spec.parameters.items() if param.per_class}
    form, _ = power_mean_form(spec.set_cost, spec.functions, per_class)
    if form is None:
        return None
    exact.evaluator.steps = 0
    exponent = exact.evaluator.number(form.exponent, {})
    return None if exponent.free_symbols else exponent


def _exact_singletons(cells: SchemeCells, exact: ExactCells) -> None:
    """The K x K singleton rows are what every property compares with: where the arrays lost exactness
    (sqrt(2)**2), the exact interpreter restores it for rational values."""
    K = cells.K
    found = {}
    for s, y in np.argwhere(~cells.rows.exact[:K]):
        value = exact.cell(frozenset((int(s),)), int(y))
        if value.is_Rational:
            found[(int(s), int(y))] = Fraction(int(value.p), int(value.q))
    if found:
        cells.rows = _with_exact_values(cells.rows, found)


def _with_exact_values(cells: Cells, values: dict[tuple, Fraction]) -> Cells:
    """The matrix with the given elements made the given exact rationals, changed in place (nothing else holds
    it yet; a copy would double the peak of a large family): only the numerators are made again, when the
    common denominator grows or they must become Python integers."""
    den = math.lcm(cells.den, *(f.denominator for f in values.values()))
    num = np.zeros(cells.shape, np.int64) if cells.num is None else np.asarray(cells.num)
    if den != cells.den:
        num = scale(num, den // cells.den)
    if any(abs(f.numerator * (den // f.denominator)) >= SAFE for f in values.values()) and num.dtype != object:
        num = num.astype(object)
    lo, hi, exact = cells.lo, cells.hi, cells.exact
    for index, f in values.items():
        num[index] = f.numerator * (den // f.denominator)
        exact[index] = True
        point_lo, point_hi = enclose_ratio(np.array([num[index]]), den)
        lo[index], hi[index] = max(lo[index], point_lo[0]), min(hi[index], point_hi[0])
    return Cells(lo, hi, num, den, exact)


def _notes(scheme: Scheme, cells: SchemeCells, exact: ExactCells, assumed: bool) -> list[str]:
    notes = []
    negative = np.argwhere(certainly_negative(cells.rows))
    if len(negative):
        s, y = negative[0]
        m = scheme.rows.members(int(s))
        notes.append(f"warning: {len(negative)} cost(s) are negative (e.g. c_{scheme.label(m)}({scheme.classes[y]}) = "
                     f"{scheme.rows[m][y]}); costs are normally >= 0 (a negative cost is a reward). The properties "
                     "are checked as written; if this is a mistake, fix the formula or bound it with 'assume'.")
    if cells.determinate is not None and spec_modifies(scheme):
        changed = _modified(cells, exact, scheme)
        if changed:
            notes.append(f"The set-cost formula modifies the initial (determinate) costs in {len(changed):,} entries "
                         f"(e.g. {changed[0]}); the properties use the modified singleton rows.")
    return notes


def spec_modifies(scheme: Scheme) -> bool:
    """Whether the singleton rows come from the set-cost formula or table (`set_cost`, `set_costs`) rather than from the
    determinate costs, so that they may differ from them."""
    return any(scheme.origin[frozenset((h,))] in ("set_cost", "set_costs") for h in range(scheme.K))


def _modified(cells: SchemeCells, exact: ExactCells, scheme: Scheme) -> list[str]:
    same = compare(cells.singletons, "==", cells.determinate)
    changed = []
    singleton = scheme.rows.value  # singleton h is row h of the table: one cell read, not the row's K cells
    for h in range(cells.K):
        if scheme.origin[frozenset((h,))] not in ("set_cost", "set_costs"):
            continue
        for y in np.flatnonzero(same[h] != TRUE).tolist():  # the cells proved equal need no look
            verdict = same[h, y]
            if verdict == UNDECIDED:  # the exact builder's certified test, as for every other scheme
                verdict = 0 if _differ(singleton(h, y, frozenset((h,))), exact.determinate(h, y)) else TRUE
            if verdict != TRUE:
                changed.append(f"c_{scheme.classes[h]}({scheme.classes[y]}): "
                               f"{exact.determinate(h, y)} → {singleton(h, y, frozenset((h,)))}")
    return changed
