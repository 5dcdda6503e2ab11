"""Safe YAML reading that keeps positions and exact decimals.

We compose the node graph with PyYAML's SafeLoader (nothing is constructed from tags) and convert it
ourselves, so that 0.35 becomes Fraction(7, 20), every value remembers its line and column, duplicate keys
are errors, and alias expansion is bounded (alias bombs end in a SpecError, not in memory exhaustion).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import yaml

from verifier.errors import Mark, SpecError
from verifier.numbers import MAX_BITS

MAX_NODES = 200_000  # after alias expansion; a real spec has a few thousand at most
MAX_DEPTH = 64

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass
class Located:
    """A converted YAML value with the position of its node."""

    value: Any  # str | Fraction | int | bool | None | dict[str, Located] | list[Located]
    mark: Mark
    tag: str
    source: str = ""  # the node's text as written in the file (for error messages)
    start: int = -1  # where the node starts in the file's text (an index; -1 for data given to the API)

    def plain(self) -> Any:
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value


def yaml_problem(exc: yaml.MarkedYAMLError) -> tuple[str, str | None]:
    """PyYAML's problem in the tool's words: (what is wrong, what was expected)."""
    problem, context = exc.problem or "", exc.context or ""
    opened = exc.context_mark
    where = f" opened at line {opened.line + 1}, column {opened.column + 1}" if opened else ""
    if "flow sequence" in context:
        return f"the list [...]{where} is not closed", "a ']' after the last item (items separated by commas)"
    if "flow mapping" in context:
        return f"the mapping {{...}}{where} is not closed", "a '}' after the last 'key: value' pair"
    if "quoted scalar" in context:
        return f"the quoted text{where} is not closed", "the same quote character at its end"
    if "mapping values are not allowed" in problem:
        return ("a ':' inside a value; a value that contains ': ' must be quoted",
                "\"text: with a colon\" in quotes, or a nested mapping on its own indented lines")
    if "'\\t'" in problem or "\\t" in problem or "\t" in problem:
        return "a tab character; YAML indents with spaces only", "spaces instead of the tab"
    if "undefined alias" in problem:
        return problem.replace("found undefined alias", "the alias *name refers to no anchor &name:"), \
            "an anchor &name defined before the alias"
    if "<block end>" in problem or "block mapping" in context or "block collection" in context:
        return (f"the indentation or a stray character breaks the structure ({problem.replace('<block end>', 'the end of the block')})",
                "keys of one mapping at the same indentation, and no text after a closed list or mapping")
    if "end of stream" in problem:
        return "the file ends in the middle of a value", "the value to be completed"
    return (problem or context or "unreadable YAML").replace("<stream end>", "the end of the file"), None


def _line_at(text: str, mark) -> str | None:
    if not mark:
        return None
    lines = text.splitlines()
    return lines[mark.line].strip() if 0 <= mark.line < len(lines) and lines[mark.line].strip() else None


def load_yaml(text: str, path: str) -> Located:
    """Parse YAML text into Located values. Raises SpecError with a position on any problem."""
    if not text.strip():
        raise SpecError("the file is empty", file=path, expected="a YAML mapping with at least 'name' and 'classes'")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:  # PyYAML's composer recurses once per level: say where the nesting runs away
        line, column = _deepest(text)
        raise SpecError(f"not valid YAML for this tool: nesting deeper than {MAX_DEPTH} levels", file=path,
                        line=line, column=column, text=text.splitlines()[line - 1][:60] if line else None,
                        expected="a spec nested a few levels deep") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message, expected = yaml_problem(exc)
        raise SpecError(
            f"not valid YAML: {message}",
            file=path,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
            text=_line_at(text, mark),
            expected=expected,
        ) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"not valid YAML: {exc}", file=path) from None
    if node is None:
        raise SpecError("the file holds no YAML document", file=path, expected="a YAML mapping")
    budget = [MAX_NODES]
    located = _convert(node, path, budget, depth=0, key="")
    _attach_source(located, node, text, set())
    return located


def _deepest(text: str) -> tuple[int, int]:
    """Where brackets first open beyond MAX_DEPTH levels (1-based line and column), quotes aside; (0, 0) if
    nowhere (the nesting is then in indentation, which PyYAML follows far deeper than we allow anyway)."""
    depth, quote = 0, None
    for number, line in enumerate(text.splitlines(), 1):
        for column, ch in enumerate(line, 1):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    return number, column
            elif ch in "]}":
                depth -= 1
    return 0, 0


def _attach_source(located: Located, node: yaml.Node, text: str, seen: set[int]) -> None:
    """Record each node's text as written (aliases share nodes: visit each node once)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    located.source = text[node.start_mark.index:node.end_mark.index][:200]
    located.start = node.start_mark.index
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = located.value.get(str(key_node.value))
            if child is not None:
                _attach_source(child, value_node, text, seen)
    elif isinstance(node, yaml.SequenceNode):
        for child, child_node in zip(located.value, node.value):
            _attach_source(child, child_node, text, seen)


def _mark(node: yaml.Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


def _convert(node: yaml.Node, path: str, budget: list[int], depth: int, key: str) -> Located:
    budget[0] -= 1
    mark = _mark(node)
    where = dict(file=path, key=key or None, line=mark.line, column=mark.column)
    if budget[0] < 0:
        raise SpecError(f"the document expands to more than {MAX_NODES} nodes (alias bomb?)", **where)
    if depth > MAX_DEPTH:
        raise SpecError(f"nesting deeper than {MAX_DEPTH} levels", **where)
    if node.tag not in _STANDARD_TAGS:
        raise SpecError(
            "YAML tags are not allowed", text=node.tag, expected="plain YAML scalars, lists and mappings", **where
        )
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Located] = {}
        for key_node, value_node in node.value:
            km = _mark(key_node)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:null":
                raise SpecError("a mapping key must be a plain scalar", **{**where, "line": km.line, "column": km.column})
            if key_node.tag not in _STANDARD_TAGS:  # a tag on a key is as foreign as a tag on a value
                raise SpecError("YAML tags are not allowed", text=key_node.tag, expected="plain YAML keys",
                                **{**where, "line": km.line, "column": km.column})
            name = str(key_node.value)
            child_key = f"{key}.{name}" if key else name
            if name in out:
                raise SpecError(
                    "duplicate key", file=path, key=child_key, line=km.line, column=km.column, text=name
                )
            out[name] = _convert(value_node, path, budget, depth + 1, child_key)
        return Located(out, mark, node.tag)
    if isinstance(node, yaml.SequenceNode):
        items = [
            _convert(child, path, budget, depth + 1, f"{key}[{i}]") for i, child in enumerate(node.value)
        ]
        return Located(items, mark, node.tag)
    return Located(_scalar(node, where), mark, node.tag)


def _scalar(node: yaml.ScalarNode, where: dict) -> Any:
    text = node.value
    tag = node.tag
    if tag == "tag:yaml.org,2002:str":
        return text
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() in ("yes", "true", "on", "y")
    if tag == "tag:yaml.org,2002:int":
        cleaned = text.replace("_", "")
        if len(cleaned) > 400:
            raise SpecError("integer literal too long", text=text[:40], expected="at most 400 digits", **where)
        for base in (0, 10):  # 0x1f, 0o17 and 1_000 first; YAML 1.1's "012" is decimal to us
            try:
                return int(cleaned, base)
            except ValueError:
                pass
        raise SpecError("not an integer", text=text, **where)
    # float: exact decimal, never a binary float
    cleaned = text.replace("_", "")
    if cleaned.lower().lstrip("+-") in (".inf", ".nan"):
        raise SpecError("infinities and NaN are not costs", text=text, expected="a finite number", **where)
    if len(cleaned) > 400:
        raise SpecError("number literal too long", text=text[:40], expected="at most 400 characters", **where)
    exponent = re.search(r"[eE]([+-]?\d+)$", cleaned)
    if exponent and abs(int(exponent.group(1))) > 1000:
        raise SpecError("exponent too large", text=text, expected="an exponent between -1000 and 1000", **where)
    try:
        value = Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise SpecError("not a number", text=text, expected="a decimal number such as 0.35", **where) from None
    if abs(value.numerator).bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise SpecError(f"the number has more than {MAX_BITS} bits", text=text[:40],
                        expected="costs of a size exact arithmetic can handle", **where)
    return value


def located_from_data(data: Any, path: str) -> Located:
    """Already parsed data (from the Python API) as Located values, under the same rules as a file: plain
    scalars, lists and string-keyed mappings only, bounded size and depth, finite numbers. A float is read
    as the shortest decimal that prints it (0.35 is 7/20, as if it had been typed in a file)."""
    if data is None or (isinstance(data, dict) and not data):
        raise SpecError("the spec is empty", file=path, expected="a mapping with at least 'name' and 'classes'")
    return _from_data(data, path, [MAX_NODES], 0, "")


_NOWHERE = Mark(0, 0)


def _from_data(value: Any, path: str, budget: list[int], depth: int, key: str) -> Located:
    budget[0] -= 1
    where = dict(file=path, key=key or None)
    if budget[0] < 0:
        raise SpecError(f"the spec has more than {MAX_NODES} values", **where)
    if depth > MAX_DEPTH:
        raise SpecError(f"nesting deeper than {MAX_DEPTH} levels", **where)
    if isinstance(value, dict):
        out: dict[str, Located] = {}
        for name, child in value.items():
            if isinstance(name, bool) or not isinstance(name, (str, int)):
                raise SpecError("a mapping key must be a string", text=repr(name)[:60], expected="text keys", **where)
            out[str(name)] = _from_data(child, path, budget, depth + 1, f"{key}.{name}" if key else str(name))
        return Located(out, _NOWHERE, "tag:yaml.org,2002:map")
    if isinstance(value, (list, tuple)):
        items = [_from_data(child, path, budget, depth + 1, f"{key}[{i}]") for i, child in enumerate(value)]
        return Located(items, _NOWHERE, "tag:yaml.org,2002:seq")
    if value is None or isinstance(value, (bool, str)):
        return Located(value, _NOWHERE, "tag:yaml.org,2002:str", "" if value is None else str(value))
    if isinstance(value, int):
        if value.bit_length() > MAX_BITS:  # str() of a 10**5000 would itself raise
            raise SpecError(f"an integer of more than {MAX_BITS} bits", text=f"an integer of {value.bit_length()} bits",
                            expected="costs of a size exact arithmetic can handle", **where)
        return Located(value, _NOWHERE, "tag:yaml.org,2002:int", str(value))
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise SpecError("infinities and NaN are not costs", text=repr(value), expected="a finite number", **where)
        return Located(Fraction(repr(value)), _NOWHERE, "tag:yaml.org,2002:float", repr(value))
    if isinstance(value, Fraction):
        if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
            raise SpecError(f"a fraction of more than {MAX_BITS} bits", text="a Fraction",
                            expected="costs of a size exact arithmetic can handle", **where)
        return Located(value, _NOWHERE, "tag:yaml.org,2002:float", str(value))
    raise SpecError(f"a {type(value).__name__} cannot appear in a spec", text=repr(value)[:60],
                    expected="strings, numbers, booleans, lists and mappings", **where)


def kind_of(node: Located) -> str:
    """What a value is, in words, for messages ("mapping", "list", "str", ...)."""
    return {dict: "mapping", list: "list"}.get(type(node.value), type(node.value).__name__)


def shown(node: Located) -> str:
    """A value as the user wrote it: its source text, else exact numbers as 1/2 in YAML style."""
    return node.source.strip() or _written(node.plain())


def _written(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_written(v)}" for k, v in value.items()) + "}"
    return str(value)
