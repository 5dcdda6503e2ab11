"""A lemma read off a formula's shape: the set cost depends on the true class only through the members' costs.

If every occurrence of `y` in a `set_cost` formula is `c(v, y)` with `v` a variable of a comprehension over
`Y`, and every such variable occurs only there, then c_Y(y) is a function of Y and the multiset
{c(v, y) : v in Y}. Proof: when {c(v, y)} = {c(v, y')} as multisets there is a bijection π of Y with
c(π(v), y') = c(v, y); enumerating Y through π turns every list built at y' into a permutation of the same
list at y, and every list is consumed by a symmetric function (sum, prod, mean, min, max, genmean, len).
So two true classes with the same multiset of member costs get the same set cost, exactly: the conclusion
of Property 5 (and the equalities of Properties 8 and 9 between such classes) follow without computing.

Owns: `member_cost_symmetric`. May import: `formula.parse`, `formula.values`.
"""

from __future__ import annotations

import ast

from verifier.formula.parse import Formula
from verifier.formula.values import UserFunction


def member_cost_symmetric(formula: Formula, functions: dict[str, UserFunction]) -> bool:
    """True when the lemma above applies to this `set_cost` formula (a syntactic, conservative test)."""
    return _ok(formula.tree, frozenset(), functions, set())


def _ok(node: ast.AST, bound: frozenset[str], functions, seen: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id != "y" and node.id not in bound
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "c" and len(node.args) == 2 and _member_cost(node, bound):
            return True
        name = node.func.id
        if name in functions and name not in seen:  # a function sees only its arguments; its body is checked once
            fn = functions[name]
            if not _ok(fn.body.tree, frozenset(), functions, seen | {name}):
                return False
        return all(_ok(arg, bound, functions, seen) for arg in node.args)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        inner = bound
        for gen in node.generators:
            if not (isinstance(gen.iter, ast.Name) and gen.iter.id == "Y" and isinstance(gen.target, ast.Name)):
                return False
            inner = inner | {gen.target.id}
            # a filter that names v (or y) picks members by class, not by cost: refused with v bound
            if not all(_ok(cond, inner, functions, seen) for cond in gen.ifs):
                return False
        return _ok(node.elt, inner, functions, seen)
    if isinstance(node, ast.Subscript):  # eta[y] or eta[v] would tie the cost to a class itself
        return _ok(node.slice, bound, functions, seen) and _ok(node.value, bound, functions, seen)
    return all(_ok(child, bound, functions, seen) for child in ast.iter_child_nodes(node))


def _member_cost(call: ast.Call, bound: frozenset[str]) -> bool:
    first, second = call.args
    return (isinstance(first, ast.Name) and first.id in bound and isinstance(second, ast.Name)
            and second.id == "y")
