"""Guarded exact arithmetic for the formula language: division, powers, min/max, and side conditions.

Each operation raises `BuiltinError` with a plain explanation when its arguments make no sense (division by
zero, a negative number to a fractional power, huge powers, ...). With symbolic parameters, definedness
becomes a side condition (divisor != 0, base >= 0) collected for the symbolic engine to prove.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.limits import MAX_EXACT_BITS

MAX_EXPONENT = 1000
MAX_RESULT_BITS = MAX_EXACT_BITS
TOO_MANY_BITS = f"the exact numbers grow beyond {MAX_EXACT_BITS:,} bits"
SMALLER_NUMBERS = (f"exact numbers of at most {MAX_EXACT_BITS:,} bits (numerator and denominator), e.g. fewer "
                   "nested powers or products")


class BuiltinError(Exception):
    """A builtin or an operator refused its arguments; the message says why and `expected` what it would accept."""

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
    """Demand `condition` (described by `text`): nothing when it holds, a BuiltinError when it fails, else (it depends
    on parameters) a side condition for the symbolic engine, under the enclosing `guarded` branches; a BuiltinError when
    nothing is `collecting`."""
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


def symbolic(*values) -> bool:
    """Whether any of the values is a sympy expression with free symbols (it depends on a parameter)."""
    return any(isinstance(v, sp.Basic) and not v.is_Number and v.free_symbols for v in values)


def numbers(values, what: str) -> list[sp.Expr]:
    """The values, each checked to be a number (possibly symbolic), not a condition, class, set or list; `what` names
    the caller in the error."""
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, sp.Expr):
            raise BuiltinError(f"{what} needs numbers, got {_described(v)}", expected="numbers")
        out.append(v)
    return out


def _described(value) -> str:
    """What a non-number is, in the spec's words (never a Python type name such as ClassRef)."""
    if isinstance(value, bool) or value is sp.true or value is sp.false:
        return "a condition"
    if isinstance(value, frozenset):
        return "a set of classes"
    if isinstance(value, tuple):
        return "a list"
    return "a class" if type(value).__name__ == "ClassRef" else "a value that is not a number"


def list_arg(args, name: str) -> list[sp.Expr]:
    """Accept f([a, b, c]) and f(a, b, c)."""
    if len(args) == 1 and isinstance(args[0], tuple):
        values = list(args[0])
    else:
        values = list(args)
    if not values:
        raise BuiltinError(f"{name} of an empty list", expected="at least one value")
    return numbers(values, name)


def sign_of(x: sp.Expr) -> int:
    """The certified sign (-1, 0 or 1) of a number (`formula.certified`); a BuiltinError when it cannot be decided
    exactly."""
    s = certified.sign(x)
    if s.value is None:
        raise BuiltinError(f"cannot decide the sign of {x} exactly ({s.reason})")
    return s.value


def divide(a, b):
    """a / b, refusing division by zero; with a symbolic divisor, b != 0 becomes a side condition."""
    if symbolic(b):
        require(sp.Ne(b, 0), f"the divisor {b} is not 0")
        return a / b
    if sign_of(b) == 0:
        raise BuiltinError("division by zero", expected="a non-zero divisor")
    return a / b


def power(base, exponent):
    """base ** exponent, refused where it is undefined or not real (0 to a negative power, a negative base to a
    fractional power) or too large to compute exactly; with parameters, definedness becomes side conditions."""
    if symbolic(base, exponent):
        if exponent.is_Integer:
            if exponent < 0:
                require(sp.Ne(base, 0), f"the base {base} of a negative power is not 0")
        else:
            require(sp.Ge(base, 0), f"the base {base} of a fractional power is >= 0")
            if not (exponent.is_Rational and exponent > 0):
                require(sp.Or(sp.Gt(base, 0), sp.Gt(exponent, 0)), f"{base} ** {exponent} is defined")
        return bounded_degree(base**exponent)
    if exponent.is_Rational and abs(exponent) > MAX_EXPONENT:
        raise BuiltinError(f"exponent {exponent} is too large", expected=f"|exponent| <= {MAX_EXPONENT}")
    if base.is_Rational and exponent.is_Integer:
        bits = max(abs(base.p).bit_length(), base.q.bit_length())
        if bits * abs(int(exponent)) > MAX_RESULT_BITS:
            raise BuiltinError(f"{TOO_MANY_BITS}: the power is too large to compute exactly",
                               expected=SMALLER_NUMBERS)
    if not exponent.is_Integer:
        s = sign_of(base)
        if s < 0:
            raise BuiltinError("a negative number to a fractional power is not real", expected="a base >= 0")
        if s == 0 and sign_of(exponent) < 0:
            raise BuiltinError("0 to a negative power", expected="a positive base")
    elif sign_of(base) == 0 and exponent < 0:
        raise BuiltinError("0 to a negative power (division by zero)", expected="a positive base")
    return base**exponent


def sized(value):
    """`value`, unless it is a rational whose numerator or denominator exceeds MAX_EXACT_BITS (checked after
    every arithmetic step, so that growth stops at the first step past the bound, in milliseconds)."""
    if isinstance(value, sp.Rational) and max(value.p.bit_length(), value.q.bit_length()) > MAX_EXACT_BITS:
        raise BuiltinError(TOO_MANY_BITS, expected=SMALLER_NUMBERS)
    return value


def positive_power(base: sp.Expr, exponent: sp.Rational) -> sp.Expr:
    """base ** exponent for a number `base` the caller knows to be > 0 (no certified sign needed) and a
    rational exponent, with `power`'s size guard."""
    if abs(exponent) > MAX_EXPONENT:
        raise BuiltinError(f"exponent {exponent} is too large", expected=f"|exponent| <= {MAX_EXPONENT}")
    return base**exponent


def bounded_degree(value):
    """A symbolic result whose powers stay within MAX_EXPONENT: sympy merges (r + 1)**2 squared twenty times
    into (r + 1)**1048576 at no cost, and every later step on it (simplification, the solver) would not end."""
    if isinstance(value, sp.Expr) and value.free_symbols:
        for term in (value, *(value.args if isinstance(value, (sp.Mul, sp.Add)) else ())):
            if isinstance(term, sp.Pow) and term.exp.is_Rational and abs(term.exp) > MAX_EXPONENT:
                raise BuiltinError(f"the formula raises an expression in the parameters to the power {term.exp}",
                                   expected=f"powers of parameters up to {MAX_EXPONENT}")
    return value


def pick(values: list[sp.Expr], want: int) -> sp.Expr:
    """min (want=-1) or max (want=1), chosen by certified comparison; ties are harmless (equal values)."""
    best = values[0]
    for v in values[1:]:
        s = certified.compare(v, best)
        if s.value is None:
            return sp.Min(*values) if want < 0 else sp.Max(*values)
        if s.value == want:
            best = v
    return best
