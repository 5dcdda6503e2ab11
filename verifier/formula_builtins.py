"""The functions and operators of the formula language, over exact sympy numbers.

Each raises `BuiltinError` with a plain explanation when its arguments make no sense (division by zero,
genmean with a negative exponent on a zero cost, log of a non-positive number, huge powers, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import sympy as sp

from . import certified

MAX_EXPONENT = 1000
MAX_RESULT_BITS = 200_000


class BuiltinError(Exception):
    def __init__(self, message: str, expected: str | None = None):
        super().__init__(message)
        self.expected = expected


def _numbers(values, what: str) -> list[sp.Expr]:
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, sp.Expr):
            raise BuiltinError(f"{what} needs numbers, got {type(v).__name__}", expected="numbers")
        out.append(v)
    return out


def _list_arg(args, name: str) -> list[sp.Expr]:
    """Accept f([a, b, c]) and f(a, b, c)."""
    if len(args) == 1 and isinstance(args[0], tuple):
        values = list(args[0])
    else:
        values = list(args)
    if not values:
        raise BuiltinError(f"{name} of an empty list", expected="at least one value")
    return _numbers(values, name)


def _sign(x: sp.Expr) -> int:
    s = certified.sign(x)
    if s.value is None:
        raise BuiltinError(f"cannot decide the sign of {x} exactly ({s.reason})")
    return s.value


def _div(a, b):
    if _sign(b) == 0:
        raise BuiltinError("division by zero", expected="a non-zero divisor")
    return a / b


def _pow(base, exponent):
    if exponent.is_Rational and abs(exponent) > MAX_EXPONENT:
        raise BuiltinError(f"exponent {exponent} is too large", expected=f"|exponent| <= {MAX_EXPONENT}")
    if base.is_Rational and exponent.is_Integer:
        bits = max(abs(base.p).bit_length(), base.q.bit_length())
        if bits * abs(int(exponent)) > MAX_RESULT_BITS:
            raise BuiltinError("the power is too large to compute exactly", expected="a smaller power")
    if not exponent.is_Integer:
        s = _sign(base)
        if s < 0:
            raise BuiltinError("a negative number to a fractional power is not real", expected="a base >= 0")
        if s == 0 and _sign(exponent) < 0:
            raise BuiltinError("0 to a negative power", expected="a positive base")
    elif _sign(base) == 0 and exponent < 0:
        raise BuiltinError("0 to a negative power (division by zero)", expected="a positive base")
    return base**exponent


def _pick(values: list[sp.Expr], want: int) -> sp.Expr:
    """min (want=-1) or max (want=1), chosen by certified comparison; ties are harmless (equal values)."""
    best = values[0]
    for v in values[1:]:
        s = certified.compare(v, best)
        if s.value is None:
            return sp.Min(*values) if want < 0 else sp.Max(*values)
        if s.value == want:
            best = v
    return best


def genmean(p, xs) -> sp.Expr:
    """The generalized mean of Eq. 12; p = 0 is the geometric mean (Eq. 13)."""
    p = _numbers([p], "genmean's exponent")[0]
    values = _list_arg((xs,) if isinstance(xs, tuple) else (xs,), "genmean")
    return _genmean(p, tuple(sorted(values, key=sp.default_sort_key)))


@lru_cache(maxsize=100_000)
def _genmean(p: sp.Expr, values: tuple[sp.Expr, ...]) -> sp.Expr:
    """Cached on the multiset: schemes built from a few distinct costs repeat the same means many times."""
    n = len(values)
    for x in values:
        if _sign(x) < 0:
            raise BuiltinError(f"genmean of a negative value {x}", expected="values >= 0")
    sp_sign = _sign(p)
    zero = any(_sign(x) == 0 for x in values)
    if sp_sign == 0:
        return sp.Mul(*values) ** sp.Rational(1, n) if not zero else sp.Integer(0)
    if sp_sign < 0 and zero:
        raise BuiltinError(
            f"genmean with exponent {p} < 0 is undefined when a value is 0 (Eq. 12 divides by zero)",
            expected="exponent >= 0, or costs without zeros (add a constant, as the paper suggests)",
        )
    total = sp.Add(*[_pow(x, p) if _sign(x) != 0 else sp.Integer(0) for x in values])
    return _pow(total / n, 1 / p)


def _len(*args):
    if len(args) != 1 or not isinstance(args[0], (frozenset, tuple)):
        raise BuiltinError("len() takes the set Y or a list", expected="len(Y)")
    return sp.Integer(len(args[0]))


def _one(name: str, fn: Callable[[sp.Expr], sp.Expr]):
    def call(*args):
        if len(args) != 1:
            raise BuiltinError(f"takes one argument, got {len(args)}")
        return fn(_numbers(args, name)[0])

    return call


def _sqrt(x):
    if _sign(x) < 0:
        raise BuiltinError("square root of a negative number", expected="a value >= 0")
    return sp.sqrt(x)


def _log(x):
    if _sign(x) <= 0:
        raise BuiltinError("log of a number <= 0", expected="a positive value")
    return sp.log(x)


def _exp(x):
    if x.is_Rational and abs(x) > 10_000:
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
    "__mult": lambda a, b: a * b,
    "__div": _div,
    "__pow": _pow,
    "sum": lambda *a: sp.Add(*_list_arg(a, "sum")),
    "prod": lambda *a: sp.Mul(*_list_arg(a, "prod")),
    "mean": lambda *a: sp.Add(*(v := _list_arg(a, "mean"))) / len(v),
    "min": lambda *a: _pick(_list_arg(a, "min"), -1),
    "max": lambda *a: _pick(_list_arg(a, "max"), 1),
    "genmean": _genmean_call,
    "len": _len,
    "abs": _one("abs", sp.Abs),
    "sqrt": _one("sqrt", _sqrt),
    "log": _one("log", _log),
    "exp": _one("exp", _exp),
}
