"""The cost scheme a certificate's spec describes, derived here from the spec's content alone.

`Spec` reads the content: the classes (names, or K for "1".."K"), the family, the parameters (fixed values;
symbolic ones, per class as "eta[a]"), the functions, the assumptions and the costs (`cost` or `cost_matrix`
for c_yhat(y); `set_cost`, and `set_costs` rows that override it). `Spec.costs` gives the matrix at a point of
the parameters (after `admissible` checked the point meets every assumption), or with the parameters symbolic.
The singleton rows come from `set_costs`, else from `set_cost`, else from the determinate costs; c(yh, y) always
reads the determinate costs, as in the tool.
"""

import ast
import re
from fractions import Fraction

from verifier_check.algebra import Value, const, parameter
from verifier_check.family import Family, text_of, whole
from verifier_check.formula import ClassRef, Formula, Interpreter, mentions
from verifier_check.limits import MAX_CLASSES, Malformed, Refuted, bad, tick

KEYS = ("name", "description", "source", "classes", "parameters", "functions", "assume", "cost", "cost_matrix",
        "set_cost", "set_costs", "predictions", "setting", "expect")
AT = "certificate.spec.content"
NAME = re.compile(r"[^,\s'\"]+( [^,\s'\"]+)*")


class Spec:
    """A spec's content, read: classes, family, parameters, functions, assumptions and cost formulas."""

    def __init__(self, content):
        if not isinstance(content, dict):
            bad(AT, "the spec's mapping", content)
        alien = next((k for k in content if k not in KEYS), None)
        if alien is not None:
            raise Malformed(f"{AT}.{alien}: not a key of a spec")
        self.content, self.name = content, content.get("name")
        if not isinstance(self.name, str):
            bad(f"{AT}.name", "the scheme's name", self.name)
        self.classes = classes(content.get("classes"))
        self.K, self.index = len(self.classes), {c: i for i, c in enumerate(self.classes)}
        self.family = Family(content.get("predictions"), self.classes)
        self.fixed, self.symbols, self.per_class = {}, [], {}
        for name, decl in mapping(content.get("parameters"), "parameters").items():
            self.parameter(name, decl)
        self.functions = {}
        for header, body in mapping(content.get("functions"), "functions").items():
            match = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*\(\s*([A-Za-z0-9_,\s]*)\)\s*", header)
            if not match:
                bad(f"{AT}.functions", "a header such as g(x)", header)
            names = tuple(p.strip() for p in match.group(2).split(",") if p.strip())
            self.functions[match.group(1)] = (names, Formula(body, f"{AT}.functions.{header}"))
        assume = content.get("assume", [])
        self.assume = [Formula(a, f"{AT}.assume[{i}]") for i, a in enumerate(
            assume if isinstance(assume, list) else [assume])]
        self.cost = Formula(content["cost"], f"{AT}.cost") if "cost" in content else None
        self.cost_matrix = self.rows_by_class(content["cost_matrix"]) if "cost_matrix" in content else None
        self.set_cost = Formula(content["set_cost"], f"{AT}.set_cost") if "set_cost" in content else None
        self.set_costs = self.set_rows(content.get("set_costs"))
        if self.cost is not None and self.cost_matrix is not None:
            raise Malformed(f"{AT}: both cost and cost_matrix")

    def parameter(self, name, decl):
        """One declared parameter: fixed (a value, one per class when per_class) or symbolic."""
        where = f"{AT}.parameters.{name}"
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or name in ("y", "yhat", "Y", "K"):
            bad(where, "a parameter name", name)
        decl = {} if decl is None else decl
        if not isinstance(decl, dict) or set(decl) - {"value", "per_class", "description"}:
            bad(where, "{} or {value: ..., per_class: ..., description: ...}", decl)
        per_class = bool(decl.get("per_class", False))
        if "value" not in decl:
            names = [f"{name}[{c}]" for c in self.classes] if per_class else [name]
            self.symbols += names
            self.per_class[name] = per_class
            return
        value = decl["value"]
        constants = Interpreter(self.classes, {}, {})
        if not per_class:
            self.fixed[name] = self.entry(constants, value, f"{where}.value", {})
        elif isinstance(value, list) and len(value) == self.K:
            self.fixed[name] = tuple(self.entry(constants, v, f"{where}.value[{i}]", {}) for i, v in enumerate(value))
        elif isinstance(value, dict) and sorted(value) == sorted(self.classes):
            self.fixed[name] = tuple(self.entry(constants, value[c], f"{where}.value.{c}", {}) for c in self.classes)
        else:
            bad(f"{where}.value", f"one value per class of {list(self.classes)}"[:120], value)

    def entry(self, interpreter, value, where, local):
        """A cell as written: an exact number, or a formula."""
        if whole(value) or isinstance(value, Fraction):
            return const(value)
        if not isinstance(value, str):
            bad(where, "a number or a formula", value)
        return interpreter.number(Formula(value, where), local)

    def rows_by_class(self, value):
        """cost_matrix: predicted class -> one entry per true class (numbers or formulas)."""
        rows = mapping(value, "cost_matrix")
        if sorted(rows) != sorted(self.classes) or any(not isinstance(r, list) or len(r) != self.K
                                                        for r in rows.values()):
            bad(f"{AT}.cost_matrix", f"one row of {self.K} entries per class", "(another shape)")
        return {self.index[c]: row for c, row in rows.items()}

    def set_rows(self, value):
        """set_costs: 'a,b' -> one entry per class, for sets of the family."""
        out = {}
        for label, row in mapping(value, "set_costs").items():
            names = [part.strip() for part in label.strip().strip("{}").split(",")]
            members = frozenset(self.index[n] for n in names if n in self.index)
            if len(members) != len(names) or not self.family.allows(members) or members in out or \
                    not isinstance(row, list) or len(row) != self.K:
                bad(f"{AT}.set_costs.{label}", f"a new set of the family with {self.K} entries", row)
            out[members] = row
        return out

    def values(self, given, where):
        """The exact values of a point: one rational per symbolic parameter."""
        from verifier_check.limits import rat

        if not isinstance(given, dict) or sorted(given) != sorted(self.symbols):
            bad(where, f"a value of each parameter {self.symbols}"[:200], given)
        return {name: rat(v, f"{where}.{name}") for name, v in given.items()}

    def costs(self, values=None):
        """The matrix at a point (`values`: name -> Fraction), or symbolic in the parameters (None)."""
        params = dict(self.fixed)
        for name, per_class in self.per_class.items():
            atoms = [parameter(f"{name}[{c}]") if values is None else const(values[f"{name}[{c}]"])
                     for c in self.classes] if per_class else [parameter(name) if values is None
                                                               else const(values[name])]
            params[name] = tuple(atoms) if per_class else atoms[0]
        return Costs(self, params)

    def admissible(self, costs, where):
        """Refuted unless every assumption holds at the point (for every class y where it mentions y)."""
        for formula in self.assume:
            for y in range(self.K) if mentions(formula, "y") else [None]:
                tick()
                local = {} if y is None else {"y": costs.ref(y)}
                if not costs.interpreter.truth(formula, local):
                    at = f" for y = {self.classes[y]}" if y is not None else ""
                    raise Refuted(f"{where}: the point is not admissible: the assumption {formula.source!r} is "
                                  f"false there{at}")


class Costs:
    """The extended matrix of a spec at one point (or symbolic): cells derived on demand, each once."""

    def __init__(self, spec, params):
        self.spec, self.K, self.classes = spec, spec.K, spec.classes
        self.interpreter = Interpreter(spec.classes, params, spec.functions, self.det)
        self.refs = [ClassRef(i) for i in range(spec.K)]
        self._det, self._rows = {}, {}

    def ref(self, i):
        """The class with index i, as the interpreter's value."""
        return self.refs[i]

    def det(self, h, y):
        """c_h(y), the determinate cost (what c(yh, y) reads)."""
        key = (h, y)
        if key not in self._det:
            s = self.spec
            local = {"y": self.refs[y], "yhat": self.refs[h]}
            if s.cost is not None:
                self._det[key] = self.interpreter.number(s.cost, local)
            elif s.cost_matrix is not None:
                self._det[key] = s.entry(self.interpreter, s.cost_matrix[h][y], f"{AT}.cost_matrix."
                                         f"{s.classes[h]}[{y}]", local)
            else:
                raise Malformed(f"{AT}: c(yh, y) needs 'cost' or 'cost_matrix'")
        return self._det[key]

    def row(self, members):
        """c_Y(y) for every class y, Y a frozenset of class indices."""
        if members not in self._rows:
            tick()
            s, local = self.spec, {"Y": members}
            if members in s.set_costs:
                label = ",".join(s.classes[i] for i in sorted(members))
                row = [s.entry(self.interpreter, v, f"{AT}.set_costs.{label}[{y}]", {**local, "y": self.refs[y]})
                       for y, v in enumerate(s.set_costs[members])]
            elif s.set_cost is not None:
                row = [self.interpreter.number(s.set_cost, {**local, "y": self.refs[y]}) for y in range(self.K)]
            elif len(members) == 1:
                (h,) = members
                row = [self.det(h, y) for y in range(self.K)]
            else:
                raise Malformed(f"{AT}.set_costs: no costs for the set {sorted(s.classes[i] for i in members)}")
            self._rows[members] = row
        return self._rows[members]

    def cell(self, members, y) -> Value:
        """c_Y(y)."""
        return self.row(members)[y]

    def single(self, h, y) -> Value:
        """c_{h}(y), the singleton row as the properties read it."""
        return self.row(frozenset((h,)))[y]


def classes(value):
    """`classes:` as names: a list of distinct names, or an integer K for "1".."K"."""
    if whole(value):
        k = value
        if not 2 <= k <= MAX_CLASSES:
            bad(f"{AT}.classes", f"2 to {MAX_CLASSES:,} classes", str(k))
        return tuple(str(i) for i in range(1, k + 1))
    if not isinstance(value, list) or not 2 <= len(value) <= MAX_CLASSES:
        bad(f"{AT}.classes", f"a list of 2 to {MAX_CLASSES:,} names, or an integer", value)
    names = tuple(text_of(v) for v in value)
    if None in names or len(set(names)) != len(names) or not all(NAME.fullmatch(n) for n in names):
        bad(f"{AT}.classes", "distinct class names without commas or quotes", value)
    return names


def mapping(value, key):
    """A mapping of the content (absent: empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        bad(f"{AT}.{key}", "a mapping", value)
    return value


def comparisons(formula):
    """The parts of an assumption as constraints: its `and` operands and chained comparisons, in source order,
    each (operator, left node, right node), or None for a part that is not a comparison of numbers."""
    out = []

    def walk(node):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            for v in node.values:
                walk(v)
        elif isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                out.append((type(op).__name__, left, right) if isinstance(
                    op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq)) else None)
                left = right
        else:
            out.append(None)

    walk(formula.tree)
    return out
