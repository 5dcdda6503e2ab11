"""`predictions: {hierarchy: TREE, unions: c}`: every union of at most c nodes of the tree (setvaluedprediction's
family for c > 1). The nodes are the tree's internal nodes and its leaves (the classes), so the family holds
every node, and every set of at most c classes; a union that is itself a node, or that another choice of nodes
gives too, is one set. c = 1 is the hierarchy itself.

Owns: `read_unions`, `union_sets`, `MAX_CHOICES`. May import: `spec.source`.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from verifier.spec.source import Located, shown

MAX_CHOICES = 5_000_000  # choices of c nodes looked at before the family is refused (the sets are fewer)


def choices(nodes: int, c: int) -> int:
    """How many choices of at most c of `nodes` nodes the enumeration looks at."""
    return sum(comb(nodes, i) for i in range(2, c + 1))


def union_sets(K: int, nodes: tuple[tuple[int, ...], ...], c: int, limit: int) -> list[tuple[int, ...]] | None:
    """The indeterminate unions of at most c of the tree's nodes (its internal `nodes` and the K leaves), by
    size then in class order; None when there are more than `limit`."""
    every = [frozenset(m) for m in nodes] + [frozenset((y,)) for y in range(K)]
    found = {frozenset(m) for m in nodes}
    for i in range(2, c + 1):
        for chosen in combinations(every, i):
            union = frozenset().union(*chosen)
            if len(union) > 1 and union not in found:
                found.add(union)
                if len(found) > limit:
                    return None
    return sorted((tuple(sorted(m)) for m in found), key=lambda m: (len(m), m))


def read_unions(nodes: tuple[tuple[int, ...], ...], node: Located, K: int, fail, max_sets: int):
    """The indeterminate sets of `{hierarchy: TREE, unions: c}` (None for c = 1: the tree itself), counted
    before they are made; a located error when c is not a count of nodes or the family is too large."""
    c = node.value
    if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= K:
        raise fail("unions must be a whole number of nodes from 1 to the number of classes", "predictions.unions",
                   node, shown(node), f"an integer from 1 to {K} (1: the nodes themselves)")
    if c == 1:
        return None
    looked = choices(len(nodes) + K, c)
    sets = union_sets(K, nodes, c, max_sets - K) if looked <= MAX_CHOICES else None
    if sets is None:
        raise fail(f"unions of at most {c} of the tree's {len(nodes) + K:,} nodes (leaves included) are more than "
                   f"{max_sets:,} sets" if looked <= MAX_CHOICES else
                   f"unions of at most {c} of the tree's {len(nodes) + K:,} nodes are {looked:,} choices to look at",
                   "predictions.unions", node, shown(node),
                   f"at most {max_sets:,} sets and {MAX_CHOICES:,} choices: a smaller c, or a smaller tree")
    return tuple(sets)
