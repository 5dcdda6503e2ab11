"""A formula that cannot tell classes apart: renaming the classes renames its result and nothing else.

The formula language reaches a class's identity only through class-name literals ('a'), `rank(x)` and
indexing a per-class parameter by a literal (eta['a']). Everything else a formula may do with classes treats
them alike: `==` and `!=` between classes, `x in Y`, `c(x, z)`, `p[x]` with a class variable x, `len(Y)`,
`K`, comprehensions over Y consumed by order-blind reducers (sum, prod, mean, min, max, genmean, len).

Lemma (by induction on the formula): if a formula uses none of the three, then for every permutation σ of the
classes, its value at (σY, σy, σŷ) with the determinate costs c∘σ⁻¹ and per-class parameters p∘σ⁻¹ equals
its value at (Y, y, ŷ) with c and p. So when the determinate costs and the per-class parameters (or their
admissible values) are themselves unchanged by σ, so is every cost the formula defines.

Owns: `class_blind`. May import: `formula.parse`, `formula.values`.
"""

from __future__ import annotations

import ast

from verifier.formula.parse import Formula
from verifier.formula.values import UserFunction


def class_blind(formula: Formula, functions: dict[str, UserFunction], uniform: set[str]) -> str:
    """'' when the lemma above applies to `formula` (and the functions it calls); otherwise what singles a
    class out, in words. `uniform` names the per-class parameters that may be indexed by a class variable
    (symbolic ones, which permute with the classes, or numeric ones with one value for every class)."""
    return _first_reason(formula, functions, uniform, set())


def _first_reason(formula: Formula, functions, uniform: set[str], seen: set[str]) -> str:
    for node in ast.walk(formula.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return f"{formula.key} names the class '{node.value}'"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "rank":
                return f"{formula.key} uses rank(), the order of the classes"
            if name in functions and name not in seen:
                seen.add(name)
                inner = _first_reason(functions[name].body, functions, uniform, seen)
                if inner:
                    return inner
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id not in uniform:
                return (f"{formula.key} reads the per-class parameter '{node.value.id}', whose values differ "
                        "between classes")
    return ""
