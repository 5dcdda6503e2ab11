"""The values of the formula language (classes, user functions, the vocabulary a formula may name) and the
checks every formula result passes (a finite real number of moderate size)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from verifier.formula.parse import Formula, UserFunction  # UserFunction lives beside Formula: a spec reads it
from verifier.lazy_sympy import sympy as sp

__all__ = ["ClassRef", "UserFunction", "Vocabulary", "check_real", "kind"]


@dataclass(frozen=True)
class ClassRef:
    """A class as a formula value: its index among the spec's classes."""

    index: int


@dataclass
class Vocabulary:
    """Everything a formula may name, besides its local variables (y, yhat, Y, comprehension names)."""

    classes: tuple[str, ...]
    params: dict[str, sp.Expr | tuple[sp.Expr, ...]] = field(default_factory=dict)
    functions: dict[str, UserFunction] = field(default_factory=dict)
    determinate: Callable[[int, int], sp.Expr] | None = None


MAX_NUMBER_BITS = 3000  # beyond this, exact arithmetic on every cell would crawl; no real scheme needs it


def check_real(f: Formula, node: ast.AST, value: sp.Expr) -> sp.Expr:
    """The formula's value once checked to be a finite real number of moderate size: rationals of at most
    MAX_NUMBER_BITS bits, no infinity, no undefined or complex value; else a located error."""
    if value.is_Rational:
        if max(abs(int(value.p)).bit_length(), int(value.q).bit_length()) > MAX_NUMBER_BITS:
            raise f.error(f"the value has more than {MAX_NUMBER_BITS} bits", node,
                          expected="costs of a size exact arithmetic can handle")
        return value
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise f.error("the formula is undefined here (division by zero or an infinite value)", node)
    if value.has(sp.I):  # the builtins refuse roots and logs of negatives, so this is a last guard
        raise f.error("the formula gives a non-real number here", node, expected="a real number")
    return value


def kind(value) -> str:
    """A value's kind in plain words ("a number", "a class", ...), for error messages."""
    if isinstance(value, bool):
        return "a condition"
    if isinstance(value, ClassRef):
        return "a class"
    if isinstance(value, frozenset):
        return "a set of classes"
    if isinstance(value, tuple):
        return "a list"
    if isinstance(value, sp.Expr):
        return "a number"
    return type(value).__name__
