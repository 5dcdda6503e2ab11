"""Certified enclosures of exact sympy numbers with python-flint `arb` balls.

A translator registry: each sympy node type we understand maps to an arb operation; anything else raises
`Unsupported`, which callers turn into an explicit `unknown` (never a guess).
"""

from __future__ import annotations

from collections.abc import Callable

import flint
import sympy as sp


class Unsupported(Exception):
    """The expression contains something we cannot enclose (a free symbol, an unknown function, ...)."""


_Translator = Callable[[sp.Expr, Callable[[sp.Expr], flint.arb]], flint.arb]
_TRANSLATORS: dict[type, _Translator] = {}


def translates(*kinds: type):
    def register(fn: _Translator) -> _Translator:
        for kind in kinds:
            _TRANSLATORS[kind] = fn
        return fn

    return register


def _rational(value: sp.Rational) -> flint.arb:
    return flint.arb(flint.fmpq(int(value.p), int(value.q)))


@translates(sp.Integer, sp.Rational)
def _number(expr, _):
    return _rational(expr)


@translates(sp.Add)
def _add(expr, rec):
    total = flint.arb(0)
    for term in expr.args:
        total += rec(term)
    return total


@translates(sp.Mul)
def _mul(expr, rec):
    total = flint.arb(1)
    for factor in expr.args:
        total *= rec(factor)
    return total


@translates(sp.Pow)
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


@translates(sp.log)
def _log(expr, rec):
    (arg,) = expr.args
    x = rec(arg)
    if not x > 0:
        raise Unsupported(f"log of a value not certified positive: {arg}")
    return x.log()


@translates(sp.exp)
def _exp(expr, rec):
    return rec(expr.args[0]).exp()


@translates(sp.Abs)
def _abs(expr, rec):
    return abs(rec(expr.args[0]))


@translates(sp.Min, sp.Max)
def _minmax(expr, rec):
    values = [rec(a) for a in expr.args]
    out = values[0]
    for v in values[1:]:
        out = out.min(v) if isinstance(expr, sp.Min) else out.max(v)
    return out


@translates(type(sp.pi))
def _pi(expr, rec):
    return flint.arb.pi()


@translates(type(sp.E))
def _e(expr, rec):
    return flint.arb(1).exp()


def enclose(expr: sp.Expr, prec: int) -> flint.arb:
    """An arb ball certainly containing the exact value of `expr`, computed at `prec` bits."""
    cache: dict[sp.Expr, flint.arb] = {}

    def rec(node: sp.Expr) -> flint.arb:
        hit = cache.get(node)
        if hit is not None:
            return hit
        translator = _TRANSLATORS.get(type(node))
        if translator is None:
            for kind, fn in _TRANSLATORS.items():
                if isinstance(node, kind):
                    translator = fn
                    break
        if translator is None:
            if node.free_symbols:
                raise Unsupported(f"free symbol(s) {sorted(map(str, node.free_symbols))}")
            raise Unsupported(f"no interval translation for {type(node).__name__}")
        value = translator(node, rec)
        cache[node] = value
        return value

    with flint.ctx.workprec(prec):
        return rec(expr)
