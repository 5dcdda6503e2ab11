"""The `predictions:` key: which sets a classifier may predict (the prediction family).

`all` (the default) is every non-empty set, as in the paper; `intervals` the runs of consecutive classes in the
declared order; `{max_size: k}` every set of at most k classes; `{hierarchy: TREE}` the leaf sets below each
node of a class tree; `{sets: [...]}` an explicit list. Singletons are always allowed. Every property, every
set-level fact, `decide` and `evaluate` range over the family's sets only; the matrix has their rows only.

Owns: `Family` (the allowed indeterminate sets, in the paper's table order: by size, then in class order) and
`read_family`. May import: `spec.source`, `errors`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from verifier.errors import SpecError, did_you_mean, few_of, listed, raise_all
from verifier.spec.source import Located, shown

KINDS = ("all", "intervals", "max_size", "hierarchy", "sets")
MAX_FAMILY_CLASSES = 1000  # a restricted family enumerates its own sets, not the 2^K - 1 of the power set
MAX_FAMILY_SETS = 100_000  # allowed sets (singletons included); rows x classes is bounded too
# what the default --time-limit (600 s) and a 4 GiB machine finish, measured in docs/specs.md (20,000,000 did not)
MAX_FAMILY_CELLS = 5_000_000
MAX_TREE_NODES = 10_000


@dataclass(frozen=True)
class Family:
    """The sets a classifier may predict (`predictions:`): every set, intervals of consecutive classes, sets of at most
    `max_size` classes, the nodes (or unions of nodes) of a class hierarchy, or listed sets."""

    kind: str = "all"
    max_size: int | None = None
    listed_sets: tuple[tuple[int, ...], ...] = ()  # hierarchy / sets: the indeterminate sets, table order
    node_names: tuple[tuple[tuple[int, ...], str], ...] = ()  # hierarchy: (leaf set, node name)
    unions: int = 1  # hierarchy: unions of at most this many nodes (leaves included) are allowed
    tree: tuple[tuple[int, ...], ...] = ()  # hierarchy with unions: the tree's own nodes (to write it back)

    @property
    def restricted(self) -> bool:
        """Whether the family allows some sets only (anything but every set)."""
        return self.kind != "all"

    def indeterminate(self, K: int) -> list[tuple[int, ...]]:
        """The allowed sets of two classes or more, by size, then in class order."""
        if self.kind == "all":
            return [c for n in range(2, K + 1) for c in combinations(range(K), n)]
        if self.kind == "intervals":
            return [tuple(range(start, start + n)) for n in range(2, K + 1) for start in range(K - n + 1)]
        if self.kind == "max_size":
            return [c for n in range(2, min(self.max_size, K) + 1) for c in combinations(range(K), n)]
        return list(self.listed_sets)

    def count(self, K: int) -> int:
        """How many indeterminate sets the family allows (without making them)."""
        if self.kind == "all":
            return 2 ** K - K - 1
        if self.kind == "intervals":
            return K * (K - 1) // 2
        if self.kind == "max_size":
            return sum(math.comb(K, n) for n in range(2, min(self.max_size, K) + 1))
        return len(self.listed_sets)

    def allows(self, members) -> bool:
        """Whether the family allows the set `members`: every single class, and the family's indeterminate sets (the
        empty set never)."""
        members = sorted(members)
        if len(members) <= 1:
            return len(members) == 1
        if self.kind == "all":
            return True
        if self.kind == "intervals":
            return members[-1] - members[0] == len(members) - 1
        if self.kind == "max_size":
            return len(members) <= self.max_size
        return tuple(members) in self._listed

    @cached_property  # a frozen dataclass keeps a cached value in its __dict__: made once, not per call
    def _listed(self) -> frozenset:
        return frozenset(self.listed_sets)

    def describe(self, K: int) -> str:
        """What a report says about the family ('' for all sets: nothing new)."""
        if self.kind == "all":
            return ""
        n = self.count(K)
        what = {"intervals": "intervals of consecutive classes",
                "max_size": f"sets of at most {self.max_size} classes",
                "hierarchy": ("the nodes of the class hierarchy" if self.unions == 1 else
                              f"unions of at most {self.unions} nodes of the class hierarchy"),
                "sets": "the listed sets"}[self.kind]
        return f"{what}: {n:,} indeterminate set{'s' if n != 1 else ''} of the {_power(K)} (and every single class)"

    def record(self, K: int) -> dict | None:
        """The JSON entry (None for all sets)."""
        if self.kind == "all":
            return None
        out = {"family": self.kind, "indeterminate_sets": self.count(K)}
        if self.max_size is not None:
            out["max_size"] = self.max_size
        if self.unions > 1:
            out["unions"] = self.unions
        return out

    def spec_lines(self, classes: tuple[str, ...]) -> list[str]:
        """The `predictions:` key as spec text (names JSON-quoted); a hierarchy as its tree, with its names."""
        if self.kind == "all":
            return []
        if self.kind == "intervals":
            return ["predictions: intervals"]
        if self.kind == "max_size":
            return [f"predictions: {{max_size: {self.max_size}}}"]
        if self.kind == "hierarchy":  # the tree, with its nodes' names
            from verifier.spec.family_tree import tree_text

            text = tree_text(self.tree or self.listed_sets, self._names, classes)
            return [f"predictions: {{hierarchy: {text}" + (f", unions: {self.unions}}}" if self.unions > 1 else "}")]
        listed = ", ".join("[" + ", ".join(json.dumps(classes[i]) for i in members) + "]"
                           for members in self.listed_sets)
        return [f"predictions: {{sets: [{listed}]}}"]

    def node_name(self, members) -> str | None:
        """A hierarchy node's name, by its leaf set (None when unnamed or not a node)."""
        return self._names.get(tuple(sorted(members)))

    @cached_property
    def _names(self) -> dict:
        return dict(self.node_names)


ALL = Family()


def _power(K: int) -> str:
    return f"{2 ** K - K - 1:,}" if K <= 40 else f"2^{K} - {K + 1}"


def wants_family(node: Located | None) -> bool:
    """Whether `predictions:` asks for a restricted family (the class limit depends on it)."""
    return node is not None and not (isinstance(node.value, str) and node.value.strip() == "all")


def read_family(node: Located | None, classes: tuple[str, ...], fail) -> Family:
    """The family a `predictions:` value names, validated against the classes; `fail(message, key, at, text,
    expected)` makes the located error."""
    if node is None:
        return ALL
    K = len(classes)
    value = node.value
    if isinstance(value, str):
        word = value.strip()
        if word in ("all", "intervals"):
            return Family(word)
        raise fail(f"unknown prediction family '{word}'" + did_you_mean(word, KINDS), "predictions", node, word,
                   "all, intervals, {max_size: k}, {hierarchy: TREE} or {sets: [...]}")
    if isinstance(value, dict) and set(value) == {"hierarchy", "unions"}:
        from verifier.spec.family_unions import read_unions

        tree = _hierarchy(value["hierarchy"], classes, "predictions.hierarchy", fail)
        sets = read_unions(tree.listed_sets, value["unions"], K, fail, MAX_FAMILY_SETS)
        return tree if sets is None else Family("hierarchy", listed_sets=sets, node_names=tree.node_names,
                                                unions=value["unions"].value, tree=tree.listed_sets)
    if not isinstance(value, dict) or len(value) != 1:
        raise fail("'predictions' must be all, intervals, or a mapping with one key", "predictions", node,
                   shown(node), "all, intervals, {max_size: k}, {hierarchy: TREE} or {sets: [...]}")
    (kind, inner), = value.items()
    key = f"predictions.{kind}"
    if kind == "max_size":
        k = inner.value
        if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= K:
            raise fail("max_size must be a whole number of classes from 2 to the number of classes", key, inner,
                       shown(inner), f"an integer from 2 to {K}")
        family = Family("max_size", max_size=k)
    elif kind == "hierarchy":
        family = _hierarchy(inner, classes, key, fail)
    elif kind == "sets":
        family = _explicit(inner, classes, key, fail)
    else:
        raise fail(f"unknown prediction family '{kind}'" + did_you_mean(kind, KINDS), key, node, kind,
                   "max_size, hierarchy or sets as the key")
    return family


def matrix_bound(family: Family, K: int) -> tuple[str, str] | None:
    """(what is too large, what is allowed) when the family's matrix is beyond the bounds, else None. Only the
    routes that build the matrix (checking a spec, the generic decision product, `evaluate`) are bounded; a
    decision route that never builds it (`using.decide.family_decide`) reads any family of up to 1,000 classes."""
    sets = family.count(K) + K
    if sets <= MAX_FAMILY_SETS and sets * K <= MAX_FAMILY_CELLS:
        return None
    return (f"the family has {sets:,} sets of {K} classes ({sets * K:,} cells)",
            f"at most {MAX_FAMILY_SETS:,} sets and {MAX_FAMILY_CELLS:,} cells, what 600 s and 4 GiB verify "
            "(a smaller max_size, or fewer classes)")


def _set_of(item: Located, index: dict[str, int], classes, key: str, fail) -> tuple[int, ...]:
    """One listed set: a list of class names, or 'a,b' as in set_costs."""
    if isinstance(item.value, list):
        names = [str(i.value).strip() if isinstance(i.value, (str, int)) and not isinstance(i.value, bool)
                 else None for i in item.value]
    elif isinstance(item.value, str):
        names = [part.strip() for part in item.value.strip().strip("{}").split(",")]
    else:
        raise fail("a set must be a list of class names or 'a,b'", key, item, shown(item), "[a, b] or 'a,b'")
    if not names or names == [""]:
        raise fail("a listed set is empty", key, item, shown(item), "one class or more, e.g. [a, b]")
    unknown = [n for n in names if n not in index]
    if unknown:
        raise fail(f"unknown class(es) {listed(str(n) for n in unknown)} in a listed set", key, item, shown(item),
                   f"classes from {few_of(classes, unknown[0])}")
    members = tuple(sorted(index[n] for n in names))
    if len(set(members)) != len(members):
        raise fail("a class is repeated in a listed set", key, item, shown(item), "distinct classes")
    return members


def _explicit(node: Located, classes, key: str, fail) -> Family:
    if not isinstance(node.value, list) or not node.value:
        raise fail("'sets' must be a non-empty list of sets", key, node, shown(node), "[[a, b], [b, c]]")
    if len(node.value) > MAX_FAMILY_SETS:
        raise fail(f"{len(node.value):,} listed sets", key, node, None, f"at most {MAX_FAMILY_SETS:,}")
    index = {name: i for i, name in enumerate(classes)}
    seen: dict[tuple[int, ...], Located] = {}
    errors: list[SpecError] = []
    for i, item in enumerate(node.value):
        try:
            members = _set_of(item, index, classes, f"{key}[{i}]", fail)
            if members in seen:
                raise fail("this set is listed twice", f"{key}[{i}]", item, shown(item), "each set once")
            seen[members] = item
        except SpecError as exc:
            errors.append(exc)
    raise_all(errors)
    indeterminate = sorted((m for m in seen if len(m) >= 2), key=lambda m: (len(m), m))
    if not indeterminate:  # only single classes: no set-valued prediction, nothing for the properties to range over
        raise fail("the listed sets are all single classes, so no set of two or more classes may be predicted",
                   key, node, shown(node), "at least one set of two or more classes, e.g. [[a, b]] (single "
                   "classes are always allowed; without a larger set there is no set-valued prediction to judge)")
    return Family("sets", listed_sets=tuple(indeterminate))


def _hierarchy(node: Located, classes, key: str, fail) -> Family:
    """TREE: a mapping (node name -> subtree) or a list of subtrees; a leaf is a class name (a key whose value
    is null is a leaf too). Its leaves must be exactly the classes, each once."""
    index = {name: i for i, name in enumerate(classes)}
    leaves_seen: dict[int, Located] = {}
    nodes: dict[tuple[int, ...], str] = {}
    budget = [MAX_TREE_NODES]
    errors: list[SpecError] = []

    def leaf(name, at: Located, where: str) -> tuple[int, ...]:
        text = str(name).strip()
        if text not in index:
            errors.append(fail(f"unknown class '{text}' as a leaf of the hierarchy" + did_you_mean(text, classes),
                               where, at, text, f"one of {few_of(classes, text)}"))
            return ()
        i = index[text]
        if i in leaves_seen:
            errors.append(fail(f"class '{text}' appears twice in the hierarchy", where, at, text,
                               "each class as exactly one leaf"))
            return ()
        leaves_seen[i] = at
        return (i,)

    def walk(at: Located, name: str, where: str, depth: int) -> tuple[int, ...]:
        budget[0] -= 1
        if budget[0] < 0 or depth > 100:
            raise fail("the hierarchy is too large or too deep", key, node, None,
                       f"at most {MAX_TREE_NODES:,} nodes and 100 levels")
        value = at.value
        if isinstance(value, dict):
            parts = [walk(child, child_name, f"{where}.{child_name}", depth + 1) if child.value is not None
                     else leaf(child_name, child, f"{where}.{child_name}") for child_name, child in value.items()]
        elif isinstance(value, list):
            parts = [walk(child, "", f"{where}[{i}]", depth + 1) for i, child in enumerate(value)]
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            return leaf(value, at, where)
        else:
            errors.append(fail("a node of the hierarchy must be a mapping, a list or a class name", where, at,
                               shown(at), "{group: [a, b], other: [c]}"))
            return ()
        members = tuple(sorted(i for part in parts for i in part))
        if len(members) >= 2:
            nodes.setdefault(members, name)
        return members

    top = walk(node, "", key, 0)
    missing = [classes[i] for i in range(len(classes)) if i not in leaves_seen]
    if missing and not errors:
        errors.append(fail(f"class(es) {listed(missing)} are not leaves of the hierarchy", key, node, None,
                           "every class exactly once as a leaf"))
    raise_all(errors)
    del top
    indeterminate = sorted(nodes, key=lambda m: (len(m), m))
    return Family("hierarchy", listed_sets=tuple(indeterminate),
                  node_names=tuple((m, nodes[m]) for m in indeterminate if nodes[m]))
