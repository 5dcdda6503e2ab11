"""The functions and operators of the formula language (the table the interpreter calls), over exact sympy
numbers. The guarded arithmetic lives in `arith`, generalized means in `genmean`.
"""

from __future__ import annotations

from collections.abc import Callable

from verifier.formula.arith import (
    BuiltinError,
    bounded_degree,
    divide,
    list_arg,
    numbers,
    pick,
    power,
    require,
    sign_of,
    symbolic,
)
from verifier.formula.genmean import genmean
from verifier.lazy_sympy import sympy as sp


def _len(*args):
    if len(args) != 1 or not isinstance(args[0], (frozenset, tuple)):
        raise BuiltinError("len() takes the set Y or a list", expected="len(Y)")
    return sp.Integer(len(args[0]))


def _one(name: str, fn: Callable[[sp.Expr], sp.Expr]):
    def call(*args):
        if len(args) != 1:
            raise BuiltinError(f"takes one argument, got {len(args)}")
        return fn(numbers(args, name)[0])

    return call


def _sqrt(x):
    if symbolic(x):
        require(sp.Ge(x, 0), f"sqrt's argument {x} is >= 0")
        return sp.sqrt(x)
    if sign_of(x) < 0:
        raise BuiltinError("square root of a negative number", expected="a value >= 0")
    return sp.sqrt(x)


def _log(x):
    if symbolic(x):
        require(sp.Gt(x, 0), f"log's argument {x} is > 0")
        return sp.log(x)
    if sign_of(x) <= 0:
        raise BuiltinError("log of a number <= 0", expected="a positive value")
    return sp.log(x)


def _exp(x):
    if symbolic(x):
        return sp.exp(x)
    limit = sp.Integer(10_000)
    too_big = (abs(x) > limit) if x.is_Rational else (sign_of(x - limit) > 0 or sign_of(x + limit) < 0)
    if too_big:  # certified even for irrational arguments such as exp(100): exp(exp(100)) is no cost
        raise BuiltinError("exp of a huge argument", expected="|x| <= 10000")
    return sp.exp(x)


def _genmean_call(*args):
    if len(args) != 2:
        raise BuiltinError(f"takes (p, list), got {len(args)} arguments", expected="genmean(p, [..])")
    if not isinstance(args[1], tuple):
        raise BuiltinError("the second argument must be a list", expected="genmean(p, [c(yh, y) for yh in Y])")
    return genmean(args[0], args[1])


BUILTINS: dict[str, Callable] = {
    "__add": lambda a, b: a + b,
    "__sub": lambda a, b: a - b,
    "__mult": lambda a, b: bounded_degree(a * b),
    "__div": divide,
    "__pow": power,
    "sum": lambda *a: sp.Add(*list_arg(a, "sum")),
    "prod": lambda *a: sp.Mul(*list_arg(a, "prod")),
    "mean": lambda *a: sp.Add(*(v := list_arg(a, "mean"))) / len(v),
    "min": lambda *a: pick(list_arg(a, "min"), -1),
    "max": lambda *a: pick(list_arg(a, "max"), 1),
    "genmean": _genmean_call,
    "len": _len,
    "abs": _one("abs", lambda x: sp.Abs(x)),  # sympy is read when called, not when imported
    "sqrt": _one("sqrt", _sqrt),
    "log": _one("log", _log),
    "exp": _one("exp", _exp),
}
