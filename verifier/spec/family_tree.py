"""A hierarchy family written back as its tree (`predictions: {hierarchy: TREE}`), with its nodes' names.

The family keeps the leaf set of every node of two classes or more and the names the spec gave them; the
nodes of a tree are nested or disjoint, so each node's children are the largest nodes strictly inside it and
the classes no such node covers. A node with only classes below it is written as their list, one whose
children are all named nodes or classes as a mapping (a class as `name: null`), any other as a list (a named
child inside it as a one-key mapping); read back, the text allows the same sets, with the same names.

Owns: `tree_text`. May import: nothing of the package.
"""

from __future__ import annotations

import json


def tree_text(sets: tuple[tuple[int, ...], ...], names: dict, classes: tuple[str, ...]) -> str:
    """The TREE of `predictions: {hierarchy: TREE}` as one line of YAML flow (JSON)."""
    nodes = sorted(sets, key=len, reverse=True)
    root = tuple(range(len(classes)))

    def subtree(members: tuple[int, ...]):
        inside = set(members)
        children: list[tuple[int, ...]] = []
        for node in nodes:  # largest first: a node not inside a child already taken is a child
            if len(node) < len(members) and set(node) <= inside and not any(set(node) <= set(c) for c in children):
                children.append(node)
        covered = {i for c in children for i in c}
        parts = sorted([(c[0], c) for c in children] + [(i, i) for i in members if i not in covered])
        if all(isinstance(c, int) for _, c in parts):  # only classes below: their list
            return [classes[c] for _, c in parts]
        if all(isinstance(c, int) or names.get(c) for _, c in parts):
            return {(classes[c] if isinstance(c, int) else names[c]): (None if isinstance(c, int) else subtree(c))
                    for _, c in parts}
        return [classes[c] if isinstance(c, int) else ({names[c]: subtree(c)} if names.get(c) else subtree(c))
                for _, c in parts]

    tree = subtree(root)
    if names.get(root):
        tree = {names[root]: tree}
    return json.dumps(tree)
