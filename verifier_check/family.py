"""The sets a classifier may predict (`predictions:` of the spec), derived here from the spec's own lists.

`all` (the default) is every non-empty set; `intervals` the runs of consecutive classes in the declared order;
`{max_size: k}` every set of at most k classes; `{hierarchy: TREE}` the leaf sets below each node of the tree
(with `unions: c`, every union of at most c nodes, the leaves included); `{sets: [...]}` the listed sets.
Singletons are always allowed. Every property ranges over the family's indeterminate sets (two classes or more).
"""

import math
from itertools import combinations

from verifier_check.limits import MAX_SETS, Malformed, bad, tick


def text_of(value):
    """A class name as the tool reads a scalar: a string, or a whole number written without a point; else None."""
    if isinstance(value, str) or whole(value):
        return str(value).strip()
    return None


def whole(value):
    """Whether a value of the spec's content is a whole number written as one (not a bool, not 2.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


MAX_TREE_NODES, MAX_CHOICES = 10_000, 5_000_000
WHERE = "certificate.spec.content.predictions"


class Family:
    """The family of a spec with K classes: its kind, and its indeterminate sets (made on demand)."""

    def __init__(self, value, classes):
        self.K, self.classes, self.listed, self.max_size = len(classes), classes, None, None
        self.index = {c: i for i, c in enumerate(classes)}
        if value is None or value == "all":
            self.kind = "all"
        elif value == "intervals":
            self.kind = "intervals"
        elif isinstance(value, dict) and set(value) == {"max_size"}:
            self.kind, k = "max_size", value["max_size"]
            if not whole(k) or not 2 <= k <= self.K:
                bad(f"{WHERE}.max_size", f"a whole number from 2 to {self.K}", str(k))
            self.max_size = k
        elif isinstance(value, dict) and set(value) in ({"hierarchy"}, {"hierarchy", "unions"}):
            self.kind = "hierarchy"
            self.nodes = self.tree(value["hierarchy"])
            self.listed = self.unions(value.get("unions", 1))
        elif isinstance(value, dict) and set(value) == {"sets"}:
            self.kind = "sets"
            self.listed = self.explicit(value["sets"])
        else:
            bad(WHERE, "all, intervals, {max_size: k}, {hierarchy: TREE} or {sets: [...]}", value)

    def describe(self):
        """The family in words, with its size."""
        n = self.count()
        words = {"all": "every set", "intervals": "intervals of consecutive classes",
                 "max_size": f"sets of at most {self.max_size} classes", "hierarchy": "the nodes of the hierarchy",
                 "sets": "the listed sets"}[self.kind]
        return f"{self.kind}: {words}, {n + self.K:,} sets ({n:,} indeterminate), derived from the spec"

    def count(self):
        """How many indeterminate sets (without making them)."""
        if self.kind == "all":
            return 2 ** self.K - self.K - 1
        if self.kind == "intervals":
            return self.K * (self.K - 1) // 2
        if self.kind == "max_size":
            return sum(math.comb(self.K, n) for n in range(2, self.max_size + 1))
        return len(self.listed)

    def sets(self):
        """The indeterminate sets as frozensets of class indices: by size, then in class order."""
        if self.count() > MAX_SETS:
            raise Malformed(f"{WHERE}: {self.count():,} indeterminate sets to list, beyond the checker's bound of "
                            f"{MAX_SETS:,}")
        K = self.K
        if self.kind == "all":
            return [frozenset(c) for n in range(2, K + 1) for c in combinations(range(K), n)]
        if self.kind == "intervals":
            return [frozenset(range(s, s + n)) for n in range(2, K + 1) for s in range(K - n + 1)]
        if self.kind == "max_size":
            return [frozenset(c) for n in range(2, self.max_size + 1) for c in combinations(range(K), n)]
        return [frozenset(m) for m in self.listed]

    def allows(self, members):
        """Whether a set of class indices is a set of the family."""
        if len(members) == 1:
            return True
        if len(members) < 1:
            return False
        if self.kind == "all":
            return True
        if self.kind == "intervals":
            return max(members) - min(members) == len(members) - 1
        if self.kind == "max_size":
            return len(members) <= self.max_size
        return tuple(sorted(members)) in self._members()

    def _members(self):
        if not hasattr(self, "_set"):
            self._set = frozenset(self.listed)
        return self._set

    def names(self, item, where):
        """One listed set: a list of class names, or 'a,b'."""
        if isinstance(item, list):
            names = [text_of(i) for i in item]
        elif isinstance(item, str):
            names = [part.strip() for part in item.strip().strip("{}").split(",")]
        else:
            bad(where, "a list of class names or 'a,b'", item)
        members = tuple(sorted(self.index[n] for n in names if n in self.index))
        if not names or len(members) != len(names) or len(set(members)) != len(members):
            bad(where, "a set of distinct classes of the spec", item)
        return members

    def explicit(self, items):
        """The indeterminate sets of `{sets: [...]}`, each once."""
        if not isinstance(items, list) or not items or len(items) > MAX_SETS:
            bad(f"{WHERE}.sets", f"a list of 1 to {MAX_SETS:,} sets", "(not such a list)")
        seen = set()
        for i, item in enumerate(items):
            tick()
            members = self.names(item, f"{WHERE}.sets[{i}]")
            if members in seen:
                bad(f"{WHERE}.sets[{i}]", "each set once", item)
            seen.add(members)
        out = sorted((m for m in seen if len(m) > 1), key=lambda m: (len(m), m))
        if not out:
            bad(f"{WHERE}.sets", "at least one set of two or more classes", items)
        return out

    def tree(self, node):
        """The internal nodes' leaf sets of a class tree whose leaves are exactly the classes, each once."""
        leaves, nodes, budget = set(), set(), [MAX_TREE_NODES]

        def leaf(name, where):
            name = text_of(name)
            if name not in self.index or self.index[name] in leaves:
                bad(where, "each class of the spec once as a leaf", name)
            leaves.add(self.index[name])
            return (self.index[name],)

        def walk(value, where, depth):
            budget[0] -= 1
            if budget[0] < 0 or depth > 100:
                raise Malformed(f"{WHERE}.hierarchy: more than {MAX_TREE_NODES:,} nodes or 100 levels")
            if isinstance(value, dict):
                parts = [walk(v, f"{where}.{k}", depth + 1) if v is not None else leaf(k, f"{where}.{k}")
                         for k, v in value.items()]
            elif isinstance(value, list):
                parts = [walk(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
            elif text_of(value) is not None:
                return leaf(value, where)
            else:
                bad(where, "a mapping, a list or a class name", value)
            members = tuple(sorted(i for part in parts for i in part))
            if len(members) > 1:
                nodes.add(members)
            return members

        walk(node, f"{WHERE}.hierarchy", 0)
        if len(leaves) != self.K:
            bad(f"{WHERE}.hierarchy", "every class of the spec as a leaf", sorted(leaves))
        return sorted(nodes, key=lambda m: (len(m), m))

    def unions(self, c):
        """The unions of at most c nodes of the tree (its internal nodes and its leaves), c = 1 the tree."""
        if not whole(c) or not 1 <= c <= self.K:
            bad(f"{WHERE}.unions", f"a whole number from 1 to {self.K}", str(c))
        if c == 1:
            return self.nodes
        every = [frozenset(m) for m in self.nodes] + [frozenset((y,)) for y in range(self.K)]
        if sum(math.comb(len(every), i) for i in range(2, c + 1)) > MAX_CHOICES:
            raise Malformed(f"{WHERE}.unions: more than {MAX_CHOICES:,} choices of nodes, beyond the checker's bound")
        found = {frozenset(m) for m in self.nodes}
        for i in range(2, c + 1):
            for chosen in combinations(every, i):
                tick()
                union = frozenset().union(*chosen)
                if len(union) > 1:
                    found.add(union)
            if len(found) > MAX_SETS:
                raise Malformed(f"{WHERE}.unions: more than {MAX_SETS:,} sets, beyond the checker's bound")
        return sorted((tuple(sorted(m)) for m in found), key=lambda m: (len(m), m))
