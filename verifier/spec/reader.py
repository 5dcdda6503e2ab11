"""Read a spec file (the spec format's contract) into a validated `Spec` of parsed formulas and exact numbers.

Every problem is a `SpecError` naming the file, the key, the position, the offending text and what was expected.
"""

from __future__ import annotations

import re
from fractions import Fraction

from verifier import properties
from verifier.errors import FEW, SpecError, did_you_mean, few_of, listed, raise_all
from verifier.formula.parse import Formula, UserFunction, parse_syntax
from verifier.spec.class_names import read_classes
from verifier.spec.family import ALL, MAX_FAMILY_CLASSES, read_family, wants_family
from verifier.spec.formulas import bare_parameter, formula_problems
from verifier.spec.formulas import spec_identifier as _identifier
from verifier.spec.model import MAX_CLASSES, PARAM_KEYS, TOP_KEYS, Entry, Parameter, Spec
from verifier.spec.positions import FileLines, ScalarOrigin
from verifier.spec.source import Located, load_yaml, located_from_data
from verifier.spec.source import kind_of as _kind
from verifier.spec.source import shown as _show
from verifier.spec.text import read_text
from verifier.spec.yaml_nodes import paused_collector
from verifier.verdict import Verdict


def load_spec(path: str, open_cells: bool = False) -> Spec:
    """A spec file, read once."""
    return spec_from_text(read_text(path), path, open_cells)


def spec_from_text(text: str, path: str = "<text>", open_cells: bool = False) -> Spec:
    """A spec as YAML text (`path` names it; `open_cells`: nulls in set_costs are open, for `verify design`)."""
    with paused_collector():  # a long spec is hundreds of thousands of fresh objects, none of them garbage yet
        root = load_yaml(text, path, TOP_KEYS, {"classes": MAX_FAMILY_CLASSES})  # longer: refused unread
        spec = _Reader(path, root, open_cells, text).spec()
        spec.text, spec.content = text, root.plain()
    return spec


def spec_from_data(data: object, path: str = "<dict>", open_cells: bool = False) -> Spec:
    """A spec given as already parsed data (a dict as `yaml.safe_load` returns it). Positions are unknown."""
    root = located_from_data(data, path)
    spec = _Reader(path, root, open_cells).spec()
    spec.content = root.plain()
    return spec


class _Reader:
    def __init__(self, path: str, root: Located, open_cells: bool = False, text: str = ""):
        self.path, self.root, self.open_cells, self.text, self.lines = path, root, open_cells, text, FileLines(text)
        self.opened: set[tuple[frozenset[int], int]] = set()
        self.family = ALL  # `predictions:`, read before the set rows it restricts
        self.parsed: list[Formula] = []  # every formula read, checked against the whitelist and its scope at the end

    def fail(self, message: str, key: str, at: Located | None, text=None, expected=None) -> SpecError:
        return SpecError.at(message, at.mark if at else None, file=self.path, key=key,
                            text=None if text is None else str(text), expected=expected)

    def mapping(self, node: Located, key: str) -> dict[str, Located]:
        if not isinstance(node.value, dict):
            raise self.fail(f"'{key or 'the file'}' must be a mapping", key, node, _show(node),
                            "a mapping (key: value)")
        return node.value

    def string(self, node: Located, key: str) -> str:
        if not isinstance(node.value, str) or not node.value.strip():
            raise self.fail("must be a non-empty string", key, node, _show(node), "text")
        return node.value

    def spec(self) -> Spec:
        """Every independent problem is collected; they are raised together (the first, with the others in
        `also`), so that one run shows them all."""
        top = self.mapping(self.root, "")
        errors: list[SpecError] = []

        def attempt(read, *args):
            try:
                return read(*args)
            except SpecError as exc:
                problems = exc.problems
                for problem in problems:
                    problem.also = []
                errors.extend(problems)
                return None

        for key, node in top.items():
            if key not in TOP_KEYS:
                errors.append(self.fail(f"unknown key '{key}'" + did_you_mean(key, TOP_KEYS), key, node, key,
                                        "one of " + ", ".join(TOP_KEYS)))
        if "name" not in top:
            errors.append(self.fail("the key 'name' is missing", "name", self.root, None, "name: <the scheme's name>"))
        if "classes" not in top:
            errors.append(self.fail("the key 'classes' is missing", "classes", self.root, None,
                                    "classes: [a, b, c] or an integer"))
        name = attempt(self.string, top["name"], "name") if "name" in top else None
        limit = MAX_FAMILY_CLASSES if wants_family(top.get("predictions")) else MAX_CLASSES
        classes = attempt(read_classes, top["classes"], self.fail, limit) if "classes" in top else None
        spec = Spec(self.path, name or "", classes or ("?", "?"))
        spec.marks = {key: node.mark for key, node in top.items()} | {"": self.root.mark}
        for optional in ("description", "source"):
            if optional in top:
                setattr(spec, optional, attempt(self.string, top[optional], optional))
        before, params_known = len(errors), classes is not None  # names are checked once all are known
        if classes is not None:  # these need the class names
            spec.parameters = attempt(self.parameters, top.get("parameters"), classes) or {}
            params_known = len(errors) == before
            spec.predictions = self.family = attempt(read_family, top.get("predictions"), classes, self.fail) or ALL
            if "cost_matrix" in top:
                spec.cost_matrix = attempt(self.cost_matrix, top["cost_matrix"], classes)
            if "set_costs" in top:
                spec.set_costs = attempt(self.set_costs, top["set_costs"], classes)
        before = len(errors)
        spec.functions = attempt(self.functions, top.get("functions")) or {}
        functions_known = len(errors) == before
        spec.assume = attempt(self.assume, top.get("assume")) or []
        if "cost" in top and "cost_matrix" in top:
            errors.append(self.fail("give 'cost' or 'cost_matrix', not both", "cost_matrix", top["cost_matrix"]))
        if "cost" in top:
            spec.cost = attempt(self.formula, top["cost"], "cost")
        if "set_cost" in top:
            spec.set_cost = attempt(self.formula, top["set_cost"], "set_cost")
        if not {"set_cost", "cost", "cost_matrix"} & set(top):
            errors.append(self.fail("no costs given", "cost", self.root, None,
                                    "'cost' or 'cost_matrix', and/or 'set_cost'"))
        if "setting" in top:
            spec.setting = (attempt(self.string, top["setting"], "setting") or "").strip().lower() or None
            if spec.setting and spec.setting not in tuple(properties.Setting):
                errors.append(self.fail("unknown setting" + did_you_mean(spec.setting, ("filtering", "choice")),
                                        "setting", top["setting"], spec.setting, "filtering or choice"))
        spec.expect = attempt(self.expect, top.get("expect")) or {}
        spec.open_cells = frozenset(self.opened)
        errors += formula_problems(spec, self.parsed, params_known, functions_known)
        raise_all(sorted(errors, key=lambda e: (e.line or 0, e.column or 0)))
        return spec

    def entry(self, node: Located, key: str) -> Entry:
        if isinstance(node.value, bool) or node.value is None:
            opened = node.value is None and key.startswith("set_costs.")  # an open cell, outside `verify design`
            raise self.fail("an empty cell (null) is an open cell, which only `verify design` fills" if opened else
                            "not a number or formula", key, node, _show(node), "a number or a formula string")
        if isinstance(node.value, (int, Fraction)):
            return Fraction(node.value)
        if isinstance(node.value, str):
            return self.formula(node, key)
        raise self.fail(f"a {_kind(node)} where a number belongs", key, node, _show(node), "a number or a formula")

    def formula(self, node: Located, key: str) -> Formula:
        """The formula's tree; its whitelist and names are checked once the whole spec is read."""
        if isinstance(node.value, (int, Fraction)) and not isinstance(node.value, bool):
            formula = parse_syntax(str(node.value), self.path, key, node.mark)
        elif not isinstance(node.value, str):
            raise self.fail(f"a {_kind(node)} where a formula belongs", key, node, _show(node), "a formula string")
        else:
            origin = ScalarOrigin(self.lines, node.start, node.mark.line, node.value) if self.text and \
                node.start >= 0 else None
            formula = parse_syntax(node.value, self.path, key, node.mark, origin)
        self.parsed.append(formula)
        return formula

    def row(self, node: Located, key: str, classes: tuple[str, ...]) -> tuple[Entry, ...]:
        if not isinstance(node.value, list):
            raise self.fail("a row must be a list of costs in class order", key, node, _show(node),
                            f"a list of {len(classes)} costs")
        if len(node.value) != len(classes):
            raise self.fail(f"the row has {len(node.value):,} entries", key, node, _show(node),
                            f"{len(classes):,} entries, one per class"
                            + (f" {listed(classes, '[', ']')}" if len(classes) <= FEW else ""))
        return tuple(self.entry(item, f"{key}[{i}]") for i, item in enumerate(node.value))

    def cost_matrix(self, node: Located, classes) -> dict[int, tuple[Entry, ...]]:
        rows = self.mapping(node, "cost_matrix")
        index = {name: i for i, name in enumerate(classes)}
        out = {}
        for name, row in rows.items():
            if name not in index:
                raise self.fail(f"unknown class '{name}'", f"cost_matrix.{name}", row, name,
                                f"one of {few_of(classes, name)}")
            out[index[name]] = self.row(row, f"cost_matrix.{name}", classes)
        missing = [c for c in classes if index[c] not in out]
        if missing:
            raise self.fail(f"rows missing for {listed(missing)}", "cost_matrix", node, None, "one row per class")
        return out

    def set_costs(self, node: Located, classes) -> dict[frozenset[int], tuple[Entry, ...]]:
        rows = self.mapping(node, "set_costs")
        index = {name: i for i, name in enumerate(classes)}
        out, errors = {}, []
        for label, row in rows.items():
            try:
                members, values = self.set_row(label, row, index, classes)
                if members in out:
                    raise self.fail("this set is given twice", f"set_costs.{label}", row, label)
                out[members] = values
            except SpecError as exc:  # each row is independent: report them all
                errors.append(exc)
        raise_all(errors)
        return out

    def set_row(self, label: str, row: Located, index: dict[str, int], classes):
        key = f"set_costs.{label}"
        names = [part.strip() for part in label.strip().strip("{}").split(",")]
        unknown = [n for n in names if n not in index]
        if unknown or not names:
            raise self.fail(f"unknown class(es) {listed(unknown)} in the set key", key, row, label,
                            f"comma-separated classes from {few_of(classes, (unknown or [label])[0])}")
        members = frozenset(index[n] for n in names)
        if len(members) != len(names):
            raise self.fail("a class is repeated in the set key", key, row, label)
        if not self.family.allows(members):
            raise self.fail("this set is not in the prediction family", key, row, label,
                            f"a set of the family ({self.family.describe(len(classes)).split(':')[0]})")
        if self.open_cells and isinstance(row.value, list) and len(row.value) == len(classes):  # nulls: open
            self.opened |= {(members, y) for y, item in enumerate(row.value) if item.value is None}
            return members, tuple(None if item.value is None else self.entry(item, f"{key}[{y}]")
                                  for y, item in enumerate(row.value))
        return members, self.row(row, key, classes)

    def parameters(self, node: Located | None, classes) -> dict[str, Parameter]:
        if node is None:
            return {}
        out = {}
        for name, decl in self.mapping(node, "parameters").items():
            key = f"parameters.{name}"
            if not _identifier(name):
                raise self.fail(f"'{name}' cannot be a parameter name", key, decl, name,
                                "an identifier that is not a formula keyword or builtin")
            if decl.value is not None and not isinstance(decl.value, dict):
                raise self.fail("a parameter is declared by a mapping, not a bare value: " + bare_parameter(
                    name, decl.value, _show(decl)), key, decl, _show(decl), "{} (symbolic) or {value: ...} (fixed)")
            fields = {} if decl.value is None else self.mapping(decl, key)
            for k, v in fields.items():
                if k not in PARAM_KEYS:
                    raise self.fail(f"unknown key '{k}'" + did_you_mean(k, PARAM_KEYS), f"{key}.{k}", v, k,
                                    "value, per_class or description")
            per_class = bool(fields["per_class"].value) if "per_class" in fields else False
            value = None
            if "value" in fields:
                value = self.param_value(fields["value"], f"{key}.value", per_class, classes)
            out[name] = Parameter(name, per_class, value, key, decl)
        return out

    def param_value(self, node: Located, key: str, per_class: bool, classes):
        if not per_class:
            return self.entry(node, key)
        if isinstance(node.value, list):
            return self.row(node, key, classes)
        if isinstance(node.value, dict):
            index = {c: i for i, c in enumerate(classes)}
            unknown = [k for k in node.value if k not in index]
            if unknown or len(node.value) != len(classes):
                raise self.fail("a per-class value needs exactly one entry per class", key, node,
                                listed(node.value, "{", "}"), f"keys {few_of(classes, (unknown or [None])[0])}")
            return tuple(self.entry(node.value[c], f"{key}.{c}") for c in classes)
        raise self.fail("a per-class value must be a list or a mapping", key, node, _show(node),
                        "[1, 2, 3] or {a: 1, b: 2, c: 3}")

    def functions(self, node: Located | None) -> dict[str, UserFunction]:
        out = {}
        for header, body in ({} if node is None else self.mapping(node, "functions")).items():
            key = f"functions.{header}"
            match = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*\(\s*([A-Za-z0-9_,\s]*)\)\s*", header)
            if not match:
                raise self.fail("a function header must look like g(x) or f(x, y)", key, body, header)
            name = match.group(1)
            params = tuple(p.strip() for p in match.group(2).split(",") if p.strip())
            if not _identifier(name) or name in out:
                raise self.fail(f"'{name}' cannot be defined here (reserved or defined twice)", key, body, header)
            if any(not _identifier(p, local=True) for p in params) or len(set(params)) != len(params):
                raise self.fail("function parameters must be distinct identifiers", key, body, header)
            out[name] = UserFunction(name, params, self.formula(body, key))
        return out

    def assume(self, node: Located | None) -> list[Formula]:
        if node is None:
            return []
        items = node.value if isinstance(node.value, list) else [node]
        return [self.formula(item, f"assume[{i}]") for i, item in enumerate(items)]

    def expect(self, node: Located | None) -> dict[str, str]:
        """Every bad entry is reported, not only the first."""
        out, errors = {}, []
        for name, verdict in ({} if node is None else self.mapping(node, "expect")).items():
            pid = properties.resolve(name)
            text = verdict.value.strip().lower() if isinstance(verdict.value, str) else None
            if str(name).strip().lower() == "certificate":  # its certificate re-checks (docs/certificates.md)
                out.update(certificate=text) if text == "checks" else errors.append(self.fail(
                    "unknown expectation of the certificate", "expect.certificate", verdict, _show(verdict), "checks"))
                continue
            if pid is None:
                errors.append(self.fail(f"unknown property '{name}'" + did_you_mean(name, _PROPERTY_NAMES),
                                        f"expect.{name}", verdict, name,
                                        "P1..P10 or a property name such as 'reward rightful cautiousness'"))
                continue
            if text not in (Verdict.HOLDS, Verdict.FAILS, Verdict.UNKNOWN):
                errors.append(self.fail("unknown verdict" + did_you_mean(text or "", ("holds", "fails", "unknown")),
                                        f"expect.{name}", verdict, _show(verdict), "holds, fails or unknown"))
                continue
            out[pid] = text
        raise_all(errors)
        return out


_PROPERTY_NAMES = tuple(p.id for p in properties.PROPERTIES) + tuple(p.name for p in properties.PROPERTIES)
