"""Safe YAML reading that keeps positions and exact decimals.

We compose the node graph safely (`yaml_nodes`: nothing is constructed from tags) and convert it ourselves, so
that 0.35 becomes Fraction(7, 20), every value remembers its line and column, duplicate keys are errors, and
both the values as written and the values copied by aliases are bounded (an alias bomb ends in a SpecError
that says so, not in memory exhaustion; a long file without aliases is never called one).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import yaml

from verifier.errors import Mark, SpecError
from verifier.numbers import MAX_BITS
from verifier.spec.yaml_nodes import MAX_DEPTH, compose, paused_collector

# Values as written: the documented family bound (100,000 listed sets, `family.MAX_FAMILY_SETS`) of up to 8
# classes each as [a, b, ...], and the rest of the spec; a file of MAX_BYTES (4 MB) holds about this many.
MAX_NODES = 1_000_000
MAX_ALIAS_NODES = 100_000  # values copied by *aliases (a real spec reuses a few small anchors, if any)
MAX_SETS_LISTED = 100_000  # family.MAX_FAMILY_SETS, named in the message (the family module imports this one)

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass(slots=True)
class Located:
    """A converted YAML value with the position of its node."""

    value: Any  # str | Fraction | int | bool | None | dict[str, Located] | list[Located]
    mark: Mark
    tag: str
    source: str = ""  # the node's text as written in the file (for error messages)
    start: int = -1  # where the node starts in the file's text (an index; -1 for data given to the API)

    def plain(self) -> Any:
        """The value without positions: plain dicts, lists and scalars."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value


def load_yaml(text: str, path: str, known: Collection[str] | None = None,
              longest: Mapping[str, int] | None = None) -> Located:
    """Parse YAML text into Located values. Raises SpecError with a position on any problem. `known`: the keys
    a top-level mapping may have; the value of any other is left unread (None), since the key alone is the
    error (a list of a million numbers under a misspelt key is not converted before that is said). `longest`:
    the most items a top-level key's list may hold; a longer one keeps its length, its items unread (the
    reader refuses it by its length, naming the bound)."""
    if not text.strip():
        raise SpecError("the file is empty", file=path, expected="a YAML mapping with at least 'name' and 'classes'")
    node = compose(text, path)
    if node is None:
        raise SpecError("the file holds no YAML document", file=path, expected="a YAML mapping")
    with paused_collector():  # hundreds of thousands of fresh objects and no cycle among them
        return _Converter(path, text, known, longest).convert(node, 0, (), None)


class _Converter:
    """Nodes to Located values, each with its text as written. Two budgets: the nodes as written (bounded by
    what a spec of the documented size needs), and the nodes reached again through aliases (`*name` copies
    its anchor's whole subtree: only there can a small file expand without bound)."""

    def __init__(self, path: str, text: str, known: Collection[str] | None = None,
                 longest: Mapping[str, int] | None = None):
        self.path, self.text, self.known, self.longest = path, text, known, longest or {}
        self.written, self.expanded = MAX_NODES, MAX_ALIAS_NODES
        self.seen: set[int] = set()

    def convert(self, node: yaml.Node, depth: int, key: _Key, alias: tuple[_Key, Mark] | None) -> Located:
        mark = _mark(node)
        if alias is None and id(node) in self.seen:  # a second visit: this is an alias's copy of its anchor
            alias = (key, mark)
        if alias is None:
            self.seen.add(id(node))
            self.written -= 1
            if self.written < 0:
                raise SpecError(f"the document has more than {MAX_NODES:,} values (lists, mappings and scalars)",
                                expected=f"at most {MAX_NODES:,} values: e.g. {MAX_SETS_LISTED:,} listed sets of "
                                         "a few classes each, written as [a, b] or 'a,b'", **self.where(key, mark))
        else:
            self.expanded -= 1
            if self.expanded < 0:
                alias_key, anchor = alias
                raise SpecError(
                    f"aliases expand the document to more than {MAX_ALIAS_NODES:,} copied values (an alias bomb): "
                    f"the alias at '{_key_text(alias_key)}' copies the value anchored here, itself full of copies",
                    expected=f"at most {MAX_ALIAS_NODES:,} values copied by *aliases",
                    **self.where(alias_key, anchor))
        if depth > MAX_DEPTH:
            raise SpecError(f"nesting deeper than {MAX_DEPTH} levels", **self.where(key, mark))
        tag = node.tag
        if tag not in _STANDARD_TAGS:
            raise SpecError("YAML tags are not allowed", text=tag, expected="plain YAML scalars, lists and mappings",
                            **self.where(key, mark))
        start, end = node.start_mark.index, node.end_mark.index
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) != (tag in ("tag:yaml.org,2002:map",
                                                                            "tag:yaml.org,2002:seq")):
            # `!!str` on a mapping (or `!!map` on a scalar): the tag contradicts the value it marks
            raise SpecError("a YAML tag that does not fit its value", text=tag,
                            expected="plain YAML scalars, lists and mappings, without tags", **self.where(key, mark))
        if tag == "tag:yaml.org,2002:str":
            value: Any = node.value
        elif isinstance(node, yaml.MappingNode):
            value = self._mapping(node, depth, key, alias, mark)
        elif isinstance(node, yaml.SequenceNode):
            value = [self.convert(child, depth + 1, (key, f"[{i}]"), alias) for i, child in enumerate(node.value)]
        else:
            value = _scalar(node, self.where(key, mark))
        return Located(value, mark, tag, self.text[start:min(end, start + 200)], start)

    def where(self, key: _Key, mark: Mark) -> dict:
        """The location arguments of a SpecError (the key's text is made only when a message needs it)."""
        return dict(file=self.path, key=_key_text(key) or None, line=mark.line, column=mark.column)

    def _mapping(self, node: yaml.MappingNode, depth: int, key: _Key, alias, mark: Mark) -> dict[str, Located]:
        out: dict[str, Located] = {}
        for key_node, value_node in node.value:
            km = _mark(key_node)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:null":
                raise SpecError("a mapping key must be a plain scalar", **self.where(key, km))
            if key_node.tag not in _STANDARD_TAGS:  # a tag on a key is as foreign as a tag on a value
                raise SpecError("YAML tags are not allowed", text=key_node.tag, expected="plain YAML keys",
                                **self.where(key, km))
            name = str(key_node.value)
            child_key = (key, f".{name}")
            if name in out:
                raise SpecError("duplicate key", text=name, **self.where(child_key, km))
            if depth == 0 and self.known is not None and name not in self.known:
                out[name] = Located(None, _mark(value_node), "unread", "", value_node.start_mark.index)
                continue
            if depth == 0 and isinstance(value_node, yaml.SequenceNode) and \
                    len(value_node.value) > self.longest.get(name, len(value_node.value)):
                unread = Located(None, _mark(value_node), "unread", "", value_node.start_mark.index)
                out[name] = Located([unread] * len(value_node.value), _mark(value_node), value_node.tag,
                                    self.text[value_node.start_mark.index:value_node.start_mark.index + 200],
                                    value_node.start_mark.index)
                continue
            out[name] = self.convert(value_node, depth + 1, child_key, alias)
        return out


_Key = tuple  # (parent key, ".name" or "[i]"), () at the top: a value's key path, joined only for messages


def _key_text(key: _Key) -> str:
    parts = []
    while key:
        key, part = key
        parts.append(part)
    text = "".join(reversed(parts))
    return text[1:] if text.startswith(".") else text


def _mark(node: yaml.Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


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
        raise SpecError(f"the spec has more than {MAX_NODES:,} values", **where)
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
