"""Certified enclosures of exact sympy numbers with python-flint `arb` balls.

A translator registry: each sympy node type we understand maps to an arb operation; anything else raises
`Unsupported`, which callers turn into an explicit `unknown` (never a guess).
"""

from __future__ import annotations

from collections.abc import Callable

import flint

from verifier.errors import DoesNotApply
from verifier.lazy_sympy import sympy as sp


class Unsupported(DoesNotApply):
    """The expression contains something we cannot enclose (a free symbol, an unknown function, ...)."""


_Translator = Callable[..., flint.arb]  # (expression, recurse) -> ball
_NAMED: dict[str, _Translator] = {}  # sympy's class names, resolved on first use: importing this costs no sympy
_KINDS: list[tuple[object, _Translator]] = []  # (a class, or a function giving it when first needed; translator)
_TRANSLATORS: dict[type, _Translator] = {}
_RESOLVED = [0]  # how many registrations `_TRANSLATORS` holds


def translates(*kinds):
    """Register a translator for sympy classes named by their attribute names in sympy (`"Add"`, or
    `"type(pi)"` for the class of a constant), or for a class or a function returning one (made on first use)."""
    def register(fn: _Translator) -> _Translator:
        for kind in kinds:
            if isinstance(kind, str):
                _NAMED[kind] = fn
            else:
                _KINDS.append((kind, fn))
        return fn

    return register


def _translators() -> dict[type, _Translator]:
    """The registry by class, resolved once sympy is needed (and again when a class is registered later)."""
    if _RESOLVED[0] < len(_NAMED) + len(_KINDS):
        _RESOLVED[0] = len(_NAMED) + len(_KINDS)
        _TRANSLATORS.clear()
        for name, fn in _NAMED.items():
            _TRANSLATORS[type(getattr(sp, name[5:-1])) if name.startswith("type(") else getattr(sp, name)] = fn
        for kind, fn in _KINDS:
            _TRANSLATORS[kind if isinstance(kind, type) else kind()] = fn
    return _TRANSLATORS


def _rational(value: sp.Rational) -> flint.arb:
    return flint.arb(flint.fmpq(int(value.p), int(value.q)))


@translates("Integer", "Rational")
def _number(expr, _):
    return _rational(expr)


@translates("Add")
def _add(expr, rec):
    total = flint.arb(0)
    for term in expr.args:
        total += rec(term)
    return total


@translates("Mul")
def _mul(expr, rec):
    total = flint.arb(1)
    for factor in expr.args:
        total *= rec(factor)
    return total


@translates("Pow")
def _pow(expr, rec):
    base, exponent = expr.args
    if exponent.is_Integer:
        return rec(base) ** int(exponent)
    b = rec(base)
    if exponent == sp.S.Half:
        return b.sqrt()
    if exponent.is_Rational and exponent.p == 1 and exponent.q > 0:
        return b.root(int(exponent.q))
    if exponent.is_Rational and exponent.q > 0 and exponent.p > 0:
        return b.root(int(exponent.q)) ** int(exponent.p)
    if b > 0:
        return (rec(exponent) * b.log()).exp()
    raise Unsupported(f"power {expr} with a base not certified positive")


@translates("log")
def _log(expr, rec):
    (arg,) = expr.args
    x = rec(arg)
    if not x > 0:
        raise Unsupported(f"log of a value not certified positive: {arg}")
    return x.log()


@translates("exp")
def _exp(expr, rec):
    return rec(expr.args[0]).exp()


@translates("Abs")
def _abs(expr, rec):
    return abs(rec(expr.args[0]))


@translates("Min", "Max")
def _minmax(expr, rec):
    values = [rec(a) for a in expr.args]
    out = values[0]
    for v in values[1:]:
        out = out.min(v) if isinstance(expr, sp.Min) else out.max(v)
    return out


@translates("CRootOf")
def _algebraic(expr, rec):
    """A real algebraic number (e.g. from a solver model): sympy isolates it exactly; widen by the error."""
    if not expr.is_real:
        raise Unsupported(f"{expr} is not real")
    prec = flint.ctx.prec
    width = sp.Rational(1, 2 ** (prec + 2))
    q = expr.eval_rational(dx=width, dy=width)
    return flint.arb(flint.fmpq(int(q.p), int(q.q)), flint.fmpq(int(width.p), int(width.q)))


@translates("type(pi)")
def _pi(expr, rec):
    return flint.arb.pi()


@translates("type(E)")
def _e(expr, rec):
    return flint.arb(1).exp()


@translates("Piecewise")
def _piecewise(expr, rec):
    """The branch whose condition certainly holds; the union of the branches that may apply otherwise."""
    out = None
    for value, condition in expr.args:
        truth = condition_truth(condition, rec)
        if truth is False:
            continue
        branch = rec(value)
        out = branch if out is None else out.union(branch)
        if truth is True:
            return out
    if out is None:
        raise Unsupported(f"no branch of {expr} applies")
    return out


# Rules that decide a comparison exactly before intervals are tried (e.g. generalized means by the power-mean
# inequality, registered by `genmean`). Each returns True, False, or None when it does not apply.
COMPARISON_RULES: list[Callable] = []


def condition_truth(condition, rec) -> bool | None:
    """Kleene truth of a condition over intervals: True, False, or None (undecided on this box)."""
    if condition is sp.true or condition is True:
        return True
    if condition is sp.false or condition is False:
        return False
    if isinstance(condition, (sp.And, sp.Or)):
        parts = [condition_truth(a, rec) for a in condition.args]
        decisive = isinstance(condition, sp.Or)
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if isinstance(condition, sp.Not):
        inner = condition_truth(condition.args[0], rec)
        return None if inner is None else not inner
    if isinstance(condition, sp.core.relational.Relational):
        for rule in COMPARISON_RULES:
            exact = rule(condition, rec)
            if exact is not None:
                return exact
        d = rec(condition.lhs) - rec(condition.rhs)
        positive, negative, zero = d > 0, d < 0, d == 0
        table = {sp.StrictLessThan: (negative, d >= 0), sp.LessThan: (d <= 0, positive),
                 sp.StrictGreaterThan: (positive, d <= 0), sp.GreaterThan: (d >= 0, negative),
                 sp.Equality: (zero, positive or negative), sp.Unequality: (positive or negative, zero)}
        surely, surely_not = table[type(condition)]
        return True if surely else False if surely_not else None
    raise Unsupported(f"no interval rule for the condition {condition}")


def enclose(expr: sp.Expr, prec: int, env: dict[sp.Symbol, flint.arb] | None = None) -> flint.arb:
    """An arb ball certainly containing the exact value of `expr` (for every value of the symbols in `env`,
    each bound to a ball), computed at `prec` bits."""
    cache: dict[sp.Expr, flint.arb] = dict(env or {})
    translators = _translators()

    def rec(node: sp.Expr) -> flint.arb:
        hit = cache.get(node)
        if hit is not None:
            return hit
        translator = translators.get(type(node))
        if translator is None:
            for kind, fn in translators.items():
                if isinstance(node, kind):
                    translator = fn
                    break
        if translator is None:
            if node.free_symbols:
                raise Unsupported(f"free symbol(s) {sorted(map(str, node.free_symbols))}")
            raise Unsupported(f"no interval translation for {type(node).__name__}")
        try:
            value = translator(node, rec)
        except OverflowError:  # an exponent or root beyond what the ball library takes: no enclosure, not a crash
            raise Unsupported(f"{node} is beyond the interval library's integer range") from None
        cache[node] = value
        return value

    with flint.ctx.workprec(prec):
        return rec(expr)
