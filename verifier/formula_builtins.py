"""The functions and operators of the formula language, over exact sympy numbers.

Each raises `BuiltinError` with a plain explanation when its arguments make no sense (division by zero,
genmean with a negative exponent on a zero cost, log of a non-positive number, huge powers, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

import sympy as sp

from . import certified

MAX_EXPONENT = 1000
MAX_RESULT_BITS = 200_000


class BuiltinError(Exception):
    def __init__(self, message: str, expected: str | None = None):
        super().__init__(message)
        self.expected = expected


# Where a value depends on parameters, definedness becomes a condition (divisor != 0, radicand >= 0, ...)
# that the symbolic engine must prove from the assumptions. Outside `collecting`, there is nowhere to put it.
_SIDE_CONDITIONS: ContextVar[list | None] = ContextVar("side_conditions", default=None)
_GUARDS: ContextVar[tuple] = ContextVar("side_condition_guards", default=())


@contextmanager
def guarded(condition: sp.Basic):
    """Inside one branch of `a if cond else b` on parameters, a side condition only matters where the branch
    is taken: it becomes cond => side."""
    token = _GUARDS.set(_GUARDS.get() + (condition,))
    try:
        yield
    finally:
        _GUARDS.reset(token)


@contextmanager
def collecting():
    """Collect the side conditions of the formulas evaluated inside the block."""
    sink: list[tuple[sp.Basic, str]] = []
    token = _SIDE_CONDITIONS.set(sink)
    try:
        yield sink
    finally:
        _SIDE_CONDITIONS.reset(token)


def require(condition: sp.Basic, text: str) -> None:
    if condition is sp.true or condition is True:
        return
    if condition is sp.false or condition is False:
        raise BuiltinError(f"undefined: {text} fails")
    guards = _GUARDS.get()
    if guards:
        condition = sp.Or(sp.Not(sp.And(*guards)), condition)
        if condition is sp.true:
            return
    sink = _SIDE_CONDITIONS.get()
    if sink is None:
        raise BuiltinError(f"cannot decide whether {text}")
    sink.append((condition, text))


def _symbolic(*values) -> bool:
    return any(isinstance(v, sp.Basic) and not v.is_Number and v.free_symbols for v in values)


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
    if _symbolic(b):
        require(sp.Ne(b, 0), f"the divisor {b} is not 0")
        return a / b
    if _sign(b) == 0:
        raise BuiltinError("division by zero", expected="a non-zero divisor")
    return a / b


def _pow(base, exponent):
    if _symbolic(base, exponent):
        if exponent.is_Integer:
            if exponent < 0:
                require(sp.Ne(base, 0), f"the base {base} of a negative power is not 0")
        else:
            require(sp.Ge(base, 0), f"the base {base} of a fractional power is >= 0")
            if not (exponent.is_Rational and exponent > 0):
                require(sp.Or(sp.Gt(base, 0), sp.Gt(exponent, 0)), f"{base} ** {exponent} is defined")
        return base**exponent
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
    if _symbolic(p, *values):
        return _genmean_symbolic(p, values)
    return _genmean(p, tuple(sorted(values, key=hash)))  # any consistent order makes a multiset key


def _genmean_symbolic(p: sp.Expr, values: list[sp.Expr]) -> sp.Expr:
    """Eq. 12-13 with parameters: piecewise in p (p = 0 is the geometric mean), with its side conditions."""
    n = len(values)
    for x in values:
        if _symbolic(x):
            require(sp.Ge(x, 0), f"genmean's value {x} is >= 0")
        elif _sign(x) < 0:
            raise BuiltinError(f"genmean of a negative value {x}", expected="values >= 0")
    zero = [x for x in values if not _symbolic(x) and _sign(x) == 0]
    rest = [x for x in values if _symbolic(x) or _sign(x) != 0]
    if zero:  # Eq. 12 divides by zero for p < 0
        require(sp.Ge(p, 0), f"genmean's exponent {p} is >= 0 (a value is 0)")
    for x in rest:
        if _symbolic(x):
            require(sp.Or(sp.Ge(p, 0), sp.Gt(x, 0)), f"genmean's value {x} is > 0 where the exponent is < 0")
    if not rest:  # every value is 0: every mean is 0
        return sp.Integer(0)
    if not _symbolic(p):
        geometric = sp.Integer(0) if zero else sp.Mul(*values) ** sp.Rational(1, n)
        return geometric if _sign(p) == 0 else (sp.Add(*[x**p for x in rest]) / n) ** (1 / p)
    return GenMean(p, *sorted(values, key=sp.default_sort_key))


class GenMean(sp.Function):
    """Eq. 12-13 with a symbolic exponent, kept whole: it becomes the exact value as soon as p and the values
    are numbers (substitution), and `arb_eval` encloses it with the power-mean inequality."""

    @classmethod
    def eval(cls, p, *values):
        if all(v == values[0] for v in values):  # the mean of equal values, for every exponent
            return values[0]
        if p.is_number and all(v.is_number for v in values):
            return genmean(p, tuple(values))
        return None


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
    if _symbolic(x):
        require(sp.Ge(x, 0), f"sqrt's argument {x} is >= 0")
        return sp.sqrt(x)
    if _sign(x) < 0:
        raise BuiltinError("square root of a negative number", expected="a value >= 0")
    return sp.sqrt(x)


def _log(x):
    if _symbolic(x):
        require(sp.Gt(x, 0), f"log's argument {x} is > 0")
        return sp.log(x)
    if _sign(x) <= 0:
        raise BuiltinError("log of a number <= 0", expected="a positive value")
    return sp.log(x)


def _exp(x):
    if _symbolic(x):
        return sp.exp(x)
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
