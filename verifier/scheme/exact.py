"""The extended cost matrix of a spec, built exactly cell by cell: one row per non-empty set, every class.

The determinate costs c_ŷ(y) are the singleton rows. When `set_cost` redefines them differently from
`cost`, the scheme records a note (the paper counts "modifies the initial costs" as a drawback).

Owns: the `Scheme` (exact symbolic entries, parameters, assumptions, side conditions). May import: `spec`,
`formula`, `errors`; the engines read it, it knows nothing of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from itertools import combinations

from verifier.errors import SpecError
from verifier.formula import certified
from verifier.formula.arith import collecting
from verifier.formula.evaluate import Evaluator
from verifier.formula.parse import Formula
from verifier.formula.values import ClassRef, Vocabulary
from verifier.lazy_sympy import sympy as sp
from verifier.spec.model import Entry, Spec

ClassSet = frozenset[int]


@dataclass
class Scheme:
    """The extended cost matrix of a spec: one exact row (c_Y(y) for every class y) per set, where each row came from,
    the parameters, assumptions and side conditions, and the companions of the fast path and of the reductions."""

    spec: Spec
    classes: tuple[str, ...]
    rows: dict[ClassSet, tuple[sp.Expr, ...]]
    origin: dict[ClassSet, str]
    parameters: dict[str, sp.Expr | tuple[sp.Expr, ...]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    assumptions: list[tuple[sp.Basic, str]] = field(default_factory=list)  # (condition, as written)
    side_conditions: list[tuple[sp.Basic, str]] = field(default_factory=list)  # definedness of formulas
    cells: object = None  # numeric schemes on the fast path: the same matrix as arrays (`SchemeCells`)
    orbits: object = None  # only singletons and one set per size are built (`scheme.orbits.Orbits`)
    partial: bool = False  # rows exist for some indeterminate sets only (`build_scheme(sets=...)`)
    lemma: object = None  # the power-mean route decides what the built sets cannot (`analysis.power_mean_route`)
    structured: object = None  # the boolean-set encoding proves what the built sets cannot (structured_route)
    given: dict[tuple[int, int], sp.Expr] | None = field(default=None, repr=False)  # what c(ŷ, y) reads
    _labels: dict[ClassSet, str] = field(default_factory=dict, repr=False)
    _columns: dict[tuple[ClassSet, int], tuple[sp.Expr, ...]] = field(default_factory=dict, repr=False)

    @property
    def K(self) -> int:
        """The number of classes."""
        return len(self.classes)

    @cached_property
    def symbols(self) -> list[sp.Symbol]:
        """The symbolic parameters, in declaration order (per-class ones class by class)."""
        out: list[sp.Symbol] = []
        for value in self.parameters.values():
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, sp.Symbol):
                    out.append(v)
        return out

    @property
    def symbolic(self) -> bool:
        """Whether the scheme has symbolic parameters."""
        return bool(self.symbols)

    def label(self, members: ClassSet) -> str:
        """The set as people read it, e.g. '{a, b}' (members in class order)."""
        text = self._labels.get(members)
        if text is None:
            text = self._labels[members] = "{" + ", ".join(self.classes[i] for i in sorted(members)) + "}"
        return text

    @property
    def hierarchy(self):
        """The spec's hierarchy family (also when the rows are only representatives of it), else None."""
        family = getattr(self, "over_hierarchy", None) or self.spec.predictions
        return family if family.kind == "hierarchy" else None

    def node(self, members: ClassSet) -> str | None:
        """The name a hierarchy spec gives the node whose leaves are `members` (None: no name, or no hierarchy)."""
        family = self.hierarchy
        return family.node_name(members) if family is not None and len(members) > 1 else None

    def named(self, members: ClassSet) -> str:
        """The set as reports show it to people: a named node of a hierarchy as 'birds {sparrow, eagle}'."""
        name = self.node(members)
        return f"{name} {self.label(members)}" if name else self.label(members)

    @property
    def family_restricted(self) -> bool:
        """Whether `predictions:` allows some sets only (the rows are the family's)."""
        return self.spec.predictions.restricted

    @cached_property
    def all_sets(self) -> list[ClassSet]:
        """Singletons first, then by size, then in class order (the paper's table layout); with `predictions:`
        the family's sets only. A reduced scheme (`orbits`) has the singletons and one representative set per
        size."""
        if self.partial or self.family_restricted:
            return list(self.rows)  # singletons, then the requested (or allowed) sets in order
        return [frozenset(c) for n in range(1, self.K + 1) for c in combinations(range(self.K), n)]

    @cached_property
    def indeterminate_sets(self) -> list[ClassSet]:
        """The indeterminate sets (two classes or more), in table order."""
        return [s for s in self.all_sets if len(s) >= 2]

    def classes_for(self, domain: str, members: ClassSet, y: int | None = None, reduce: bool = False) -> list[int]:
        """The classes a quantifier over `domain` ("classes", "in Y", "not in Y") ranges over at `members`,
        without `y` (for y′). `reduce`: one class per symmetry orbit, when the scheme is proved symmetric."""
        if self.orbits is not None:
            return self.orbits.classes(domain, members, y, reduce)
        everything = range(self.K)
        values = {"in Y": sorted(members), "not in Y": [c for c in everything if c not in members],
                  "classes": list(everything)}[domain]
        return values if y is None else [c for c in values if c != y]

    def det(self, yhat: int, y: int) -> sp.Expr:
        """The determinate cost c_ŷ(y): the singleton row of {ŷ}, as the properties use it (the set-cost formula may
        have modified it)."""
        return self.rows[frozenset((yhat,))][y]

    def cost(self, members: ClassSet, y: int) -> sp.Expr:
        """The cost c_Y(y) of predicting the set `members` when the truth is y."""
        return self.rows[members][y]

    def members_costs(self, members: ClassSet, y: int) -> tuple[sp.Expr, ...]:
        """The multiset (c_ŷ(y))_{ŷ in Y}, in class order (C_Y(y) up to sorting)."""
        key = (members, y)
        costs = self._columns.get(key)
        if costs is None:
            costs = self._columns[key] = tuple(self.det(i, y) for i in sorted(members))
        return costs

    def mean(self, members: ClassSet, y: int) -> sp.Expr:
        """The mean of the members' determinate costs, (1/|Y|) Σ_{ŷ in Y} c_ŷ(y)."""
        return sp.Add(*self.members_costs(members, y)) / len(members)


def build_scheme(spec: Spec, values: dict[str, sp.Expr] | None = None,
                 classes: tuple[str, ...] | None = None, sets: list[ClassSet] | None = None) -> Scheme:
    """The exact extended matrix. `values` fixes symbolic parameters by name ('delta', 'eta[a]');
    `classes` replaces the spec's classes (for formula specs checked at several class counts); `sets` builds
    only those indeterminate rows (with every singleton)."""
    if classes is not None:
        spec = replace(spec, classes=classes)
    params = _parameter_values(spec, values or {})
    vocab = Vocabulary(spec.classes, params, spec.functions)
    evaluator = Evaluator(vocab)
    K = len(spec.classes)
    with collecting() as side_conditions:
        assumptions = _check_assumptions(spec, evaluator)
        scheme = _build_rows(spec, evaluator, vocab, params, K, sets)
    scheme.assumptions = assumptions
    scheme.side_conditions = _unique(side_conditions)
    scheme.notes += _negative_costs(scheme, bool(spec.assume))
    return scheme


def _negative_costs(scheme: Scheme, assumed: bool) -> list[str]:
    """A warning for costs that are certainly negative (numbers), or that may be (parameters, no `assume`)."""
    negative = [(m, y) for m in scheme.all_sets for y in range(scheme.K)
                if not scheme.rows[m][y].free_symbols and certified.sign(scheme.rows[m][y]).value == -1]
    if negative:
        m, y = negative[0]
        return [f"warning: {len(negative)} cost(s) are negative (e.g. c_{scheme.label(m)}({scheme.classes[y]}) = "
                f"{scheme.rows[m][y]}); costs are normally >= 0 (a negative cost is a reward). The properties are "
                "checked as written; if this is a mistake, fix the formula or bound it with 'assume'."]
    if scheme.symbolic and not assumed:
        return ["warning: the costs depend on parameters and there is no 'assume'; every real value is admissible, "
                "including values that make costs negative. State the intended range, e.g. assume: \"0 < delta < 1\"."]
    return []


def _unique(conditions):
    seen, out = set(), []
    for condition, text in conditions:
        if condition not in seen:
            seen.add(condition)
            out.append((condition, text))
    return out


def _build_rows(spec: Spec, evaluator: Evaluator, vocab: Vocabulary, params, K: int,
                only: list[ClassSet] | None = None) -> Scheme:
    determinate: dict[tuple[int, int], sp.Expr] | None = None
    if spec.cost is not None:
        determinate = {(h, y): evaluator.number(spec.cost, {"y": ClassRef(y), "yhat": ClassRef(h)})
                       for h in range(K) for y in range(K)}
    elif spec.cost_matrix is not None:
        determinate = {(h, y): _entry(evaluator, spec.cost_matrix[h][y], {"y": ClassRef(y), "yhat": ClassRef(h)})
                       for h in range(K) for y in range(K)}
    if determinate is not None:
        vocab.determinate = lambda h, y: determinate[(h, y)]

    rows: dict[ClassSet, tuple[sp.Expr, ...]] = {}
    origin: dict[ClassSet, str] = {}
    if only is None and spec.predictions.restricted:  # the family's rows only: a complete scheme of its own
        sets = [frozenset((h,)) for h in range(K)] + [frozenset(c) for c in spec.predictions.indeterminate(K)]
    else:
        sets = ([frozenset(c) for n in range(1, K + 1) for c in combinations(range(K), n)] if only is None
                else [frozenset((h,)) for h in range(K)] + list(only))
    for members in sets:
        if members in spec.set_costs:
            local = {"Y": members}
            rows[members] = tuple(_entry(evaluator, e, {**local, "y": ClassRef(y)})
                                  for y, e in enumerate(spec.set_costs[members]))
            origin[members] = "set_costs"
        elif spec.set_cost is not None:
            rows[members] = tuple(evaluator.number(spec.set_cost, {"Y": members, "y": ClassRef(y)})
                                  for y in range(K))
            origin[members] = "set_cost"
        elif len(members) == 1 and determinate is not None:
            (h,) = members
            rows[members] = tuple(determinate[(h, y)] for y in range(K))
            origin[members] = "cost" if spec.cost is not None else "cost_matrix"
    missing = [s for s in sets if s not in rows]
    if missing:
        shown = ", ".join('"' + ",".join(spec.classes[i] for i in sorted(s)) + '"' for s in missing[:12])
        more = f" and {len(missing) - 12:,} more" if len(missing) > 12 else ""
        mark = spec.marks.get("set_costs") or spec.marks.get("")
        raise SpecError.at(f"no costs for the set(s) {shown}{more}", mark, file=spec.path, key="set_costs",
                           expected="a row in 'set_costs' for every indeterminate set, or a 'set_cost' formula")
    scheme = Scheme(spec, spec.classes, rows, origin, params, partial=only is not None, given=determinate)
    if determinate is not None:
        scheme.notes.extend(_modified_costs(scheme, determinate))
    return scheme


def _entry(evaluator: Evaluator, entry: Entry, local: dict) -> sp.Expr:
    if isinstance(entry, Fraction):
        return sp.Rational(entry.numerator, entry.denominator)
    return evaluator.number(entry, local)


def _parameter_values(spec: Spec, values: dict[str, sp.Expr]) -> dict[str, sp.Expr | tuple[sp.Expr, ...]]:
    """Fixed values exactly; parameters without a value become real symbols (one per class when per_class)."""
    constants = Evaluator(Vocabulary(spec.classes))
    values = {k: sp.Rational(v) if isinstance(v, (int, Fraction)) else v for k, v in values.items()}
    out: dict[str, sp.Expr | tuple[sp.Expr, ...]] = {}
    for name, param in spec.parameters.items():
        if param.value is None:
            if param.per_class:
                out[name] = tuple(values.get(f"{name}[{c}]", sp.Symbol(f"{name}[{c}]", real=True))
                                  for c in spec.classes)
            else:
                out[name] = values.get(name, sp.Symbol(name, real=True))
            continue
        if isinstance(param.value, tuple) and len(param.value) != len(spec.classes):
            raise SpecError(f"'{name}' has {len(param.value):,} per-class values for {len(spec.classes):,} classes",
                            file=spec.path, key=param.key, line=param.located.mark.line,
                            expected="one value per class, or no value (symbolic)")
        if isinstance(param.value, tuple):
            out[name] = tuple(_entry(constants, v, {}) for v in param.value)
        else:
            out[name] = _entry(constants, param.value, {})
    return out


def _check_assumptions(spec: Spec, evaluator: Evaluator) -> list[tuple[sp.Basic, str]]:
    """Each assumption, for every class when it uses y: a fact to check where it involves fixed values only,
    a condition on the symbolic parameters otherwise."""
    out = []
    for formula in spec.assume:
        mentions_y = _mentions(formula, "y")
        for y in range(len(spec.classes)) if mentions_y else [None]:
            local = {} if y is None else {"y": ClassRef(y)}
            value = evaluator.truth(formula, local)
            at = f" for y = {spec.classes[y]}" if y is not None else ""
            if value is False or value is sp.false:
                raise formula.error(f"the assumption is false for the given parameter values{at}",
                                    expected="parameter values that satisfy every assumption")
            if value is not True and value is not sp.true:
                out.append((value, formula.source + at))
    return out


def _mentions(formula: Formula, name: str) -> bool:
    import ast

    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(formula.tree))


def _differ(a: sp.Expr, b: sp.Expr) -> bool:
    if a.free_symbols or b.free_symbols:
        difference = a - b  # a rational function is 0 exactly when cancel says so (no simplify, no sympy.physics)
        return (sp.cancel(difference) if difference.is_rational_function() else sp.simplify(difference)) != 0
    return certified.compare(a, b).value != 0


def _modified_costs(scheme: Scheme, determinate: dict[tuple[int, int], sp.Expr]) -> list[str]:
    changed = []
    for h in range(scheme.K):
        members = frozenset((h,))
        if scheme.origin[members] in ("cost", "cost_matrix"):
            continue
        for y in range(scheme.K):
            if _differ(scheme.rows[members][y], determinate[(h, y)]):
                changed.append(f"c_{scheme.classes[h]}({scheme.classes[y]}): "
                               f"{determinate[(h, y)]} → {scheme.rows[members][y]}")
    if not changed:
        return []
    return [f"The set-cost formula modifies the initial (determinate) costs in {len(changed):,} entries "
            f"(e.g. {changed[0]}); the properties use the modified singleton rows."]
