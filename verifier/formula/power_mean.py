"""Recognise a set-cost formula that is a power mean of the members' determinate costs:

    genmean(E, [c(yh, y) for yh in Y])      (the paper's Eq. 12-14: p-discounted costs with E = 1 - r)
    mean([c(yh, y) for yh in Y])            (the same with E = 1)

where the exponent E reads neither the set, nor the true class, nor a class name: numbers, parameters that are
not per-class, K, arithmetic and the numeric builtins. Such a cost is a function of the multiset of the
members' costs alone, which is what the power-mean lemmas (`engines.power_mean.lemmas`) need. Nothing is evaluated
here; the exponent comes back as a formula of its own.

Owns: `PowerMeanForm`, `power_mean_form`. May import: `formula.parse`, `formula.values`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from verifier.formula.parse import Formula
from verifier.formula.values import UserFunction

_CLASS_WORDS = {"y", "Y", "yhat"}
_NUMERIC_BUILTINS = {"abs", "sqrt", "log", "exp", "min", "max"}  # of numbers only: no set, no class


@dataclass(frozen=True)
class PowerMeanForm:
    """A set-cost formula recognised as a power mean of the members' determinate costs, with its exponent E."""

    exponent: Formula  # E, evaluated with no set and no class bound
    written: str  # the formula's text, for the evidence


def power_mean_form(formula: Formula, functions: dict[str, UserFunction],
                    per_class: set[str]) -> tuple[PowerMeanForm | None, str]:
    """(the form, "") when `formula` is a power mean of the members' costs; else (None, why not)."""
    body = formula.tree
    if not (isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and not body.keywords):
        return None, "the set cost is not a call of genmean(...) or mean(...)"
    name, args = body.func.id, body.args
    if name == "mean" and len(args) == 1:
        exponent_formula = Formula("1", ast.Constant(1), formula.file, formula.key, formula.mark)
    elif name == "genmean" and len(args) == 2:
        why = _reads_a_class(args[0], functions, per_class)
        if why:
            return None, f"genmean's exponent {why}"
        exponent_formula = Formula(formula.source, args[0], formula.file, formula.key, formula.mark, formula.origin)
    else:
        return None, f"the set cost calls {name}(...), not genmean(E, [...]) or mean([...])"
    if not _members_costs(args[-1]):
        return None, f"{name}'s list is not [c(yh, y) for yh in Y], the members' own costs"
    return PowerMeanForm(exponent_formula, formula.source), ""


def _members_costs(node: ast.AST) -> bool:
    """[c(v, y) for v in Y] (or the generator form), with no condition."""
    if not isinstance(node, (ast.ListComp, ast.GeneratorExp)) or len(node.generators) != 1:
        return False
    gen = node.generators[0]
    if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name):
        return False
    if not (isinstance(gen.iter, ast.Name) and gen.iter.id == "Y"):
        return False
    elt = node.elt
    return (isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "c"
            and not elt.keywords and len(elt.args) == 2
            and isinstance(elt.args[0], ast.Name) and elt.args[0].id == gen.target.id != "y"
            and isinstance(elt.args[1], ast.Name) and elt.args[1].id == "y")


def _reads_a_class(node: ast.AST, functions: dict[str, UserFunction], per_class: set[str]) -> str:
    """'' when the exponent is a number given the parameters; else what it reads that could vary."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in _CLASS_WORDS:
            return f"reads '{sub.id}'"
        if isinstance(sub, ast.Name) and sub.id in per_class:
            return f"reads the per-class parameter '{sub.id}'"
        if isinstance(sub, (ast.ListComp, ast.GeneratorExp, ast.Subscript)):
            return "depends on classes (a comprehension or an index)"
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            return f"names the class '{sub.value}'"
        if isinstance(sub, ast.Call):
            called = sub.func.id if isinstance(sub.func, ast.Name) else ""
            if called not in _NUMERIC_BUILTINS or called in functions:
                return f"calls {called or 'a function'}(), which may read classes"
    return ""
