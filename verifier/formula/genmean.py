"""Generalized means (the paper's Eq. 12; p = 0 is the geometric mean, Eq. 13), exactly and in enclosures.

With numbers, `genmean` returns the exact value. With a symbolic exponent it returns a `GenMean` kept whole,
which becomes exact on substitution; intervals enclose it by the power-mean inequality (min <= M_p <= max,
M_p <= mean for p <= 1, M_p >= mean for p >= 1), and comparisons against a number are decided from those
exact bounds where they suffice. Both rules register themselves with `enclose`.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache

import flint

from verifier.formula import certified
from verifier.formula.arith import BuiltinError, list_arg, numbers, positive_power, power, require, sign_of, symbolic
from verifier.formula.enclose import COMPARISON_RULES, Unsupported, translates
from verifier.lazy_sympy import sympy as sp

# Facts proved (by z3, for every admissible value) about generalized-mean exponents: "le1" (p <= 1), "ge1"
# (p >= 1), "ge0" (p >= 0). Balls cannot certify p <= 1 on a box touching p = 1 exactly; a proof can.
EXPONENT_FACTS: ContextVar[dict] = ContextVar("exponent_facts", default={})


def genmean(p, xs) -> sp.Expr:
    """The generalized mean of Eq. 12; p = 0 is the geometric mean (Eq. 13)."""
    p = numbers([p], "genmean's exponent")[0]
    values = list_arg((xs,) if isinstance(xs, tuple) else (xs,), "genmean")
    if symbolic(p, *values):
        return _genmean_symbolic(p, values)
    return _genmean(p, tuple(sorted(values, key=hash)))  # any consistent order makes a multiset key


def _genmean_symbolic(p: sp.Expr, values: list[sp.Expr]) -> sp.Expr:
    """Eq. 12-13 with parameters: piecewise in p (p = 0 is the geometric mean), with its side conditions."""
    n = len(values)
    for x in values:
        if symbolic(x):
            require(sp.Ge(x, 0), f"genmean's value {x} is >= 0")
        elif sign_of(x) < 0:
            raise BuiltinError(f"genmean of a negative value {x}", expected="values >= 0")
    zero = [x for x in values if not symbolic(x) and sign_of(x) == 0]
    rest = [x for x in values if symbolic(x) or sign_of(x) != 0]
    if zero:  # Eq. 12 divides by zero for p < 0
        require(sp.Ge(p, 0), f"genmean's exponent {p} is >= 0 (a value is 0)")
    for x in rest:
        if symbolic(x):
            require(sp.Or(sp.Ge(p, 0), sp.Gt(x, 0)), f"genmean's value {x} is > 0 where the exponent is < 0")
    if not rest:  # every value is 0: every mean is 0
        return sp.Integer(0)
    if not symbolic(p):
        geometric = sp.Integer(0) if zero else sp.Mul(*values) ** sp.Rational(1, n)
        return geometric if sign_of(p) == 0 else (sp.Add(*[x**p for x in rest]) / n) ** (1 / p)
    return genmean_class()(p, *sorted(values, key=sp.default_sort_key))


@lru_cache(maxsize=None)
def genmean_class() -> type:
    """`GenMean`: Eq. 12-13 with a symbolic exponent, kept whole. It becomes the exact value as soon as p and the
    values are numbers (substitution), and its enclosure uses the power-mean inequality. A sympy class, made on
    first use so that importing this module imports no sympy (`from verifier.formula.genmean import GenMean`
    makes it then)."""

    class GenMean(sp.Function):
        @classmethod
        def eval(cls, p, *values):
            if all(v == values[0] for v in values):  # the mean of equal values, for every exponent
                return values[0]
            if p.is_number and all(v.is_number for v in values):
                return genmean(p, tuple(values))
            return None

    GenMean.__qualname__ = "GenMean"  # pickled by name: `verifier.formula.genmean.GenMean` gives this class back
    GenMean.__module__ = __name__
    return GenMean


def __getattr__(name: str):
    if name == "GenMean":
        return genmean_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=100_000)
def _genmean(p: sp.Expr, values: tuple[sp.Expr, ...]) -> sp.Expr:
    """Cached on the multiset: schemes built from a few distinct costs repeat the same means many times."""
    n = len(values)
    for x in values:
        if sign_of(x) < 0:
            raise BuiltinError(f"genmean of a negative value {x}", expected="values >= 0")
    sp_sign = sign_of(p)
    zero = any(sign_of(x) == 0 for x in values)
    if sp_sign == 0:
        return sp.Mul(*values) ** sp.Rational(1, n) if not zero else sp.Integer(0)
    if sp_sign < 0 and zero:
        raise BuiltinError(
            f"genmean with exponent {p} < 0 is undefined when a value is 0 (Eq. 12 divides by zero)",
            expected="exponent >= 0, or costs without zeros (add a constant, as the paper suggests)",
        )
    mean = sp.Add(*[_term(x, p, n) for x in values if sign_of(x) != 0])
    if mean.is_Rational or not (1 / p).is_Rational or not any(sign_of(x) > 0 for x in values):
        return power(mean, 1 / p)
    # a sum of positive numbers x^p / n: positive without a certified sign of the sum (a third of the time)
    return positive_power(mean, 1 / p)


@lru_cache(maxsize=100_000)
def _term(x: sp.Expr, p: sp.Expr, n: int) -> sp.Expr:
    """x^p / n: a 9-class power-mean matrix has 753 distinct means but a few dozen distinct terms."""
    return power(x, p) / n


def _genmean_enclosure(expr, rec):
    """Power-mean enclosure, valid for every admissible exponent p (M_0 is the geometric mean):
    min <= M_p <= max; M_p <= mean when p <= 1 and M_p >= mean when p >= 1; intersected with the direct
    formula (Σ x^p / n)^(1/p) where that is finite (it is not near p = 0)."""
    p, *values = expr.args
    p_ball, balls = rec(p), [rec(v) for v in values]
    facts = EXPONENT_FACTS.get().get(p, ())
    if "ge0" not in facts and not p_ball >= 0 and any(b.contains(0) for b in balls):
        raise Unsupported(f"{expr} may be undefined here (exponent possibly < 0 with a value possibly 0)")
    low, high = balls[0], balls[0]
    for b in balls[1:]:
        low, high = low.min(b), high.max(b)
    mean = sum(balls, flint.arb(0)) / len(balls)
    lower, upper = low.lower(), high.upper()
    if p_ball <= 1:
        upper = min(upper, mean.upper())
    if p_ball >= 1:
        lower = max(lower, mean.lower())
    hull = flint.arb(lower).union(flint.arb(upper))
    nonzero = [b for b, v in zip(balls, values) if not (v.is_number and v == 0)]
    if nonzero and all(b > 0 for b in nonzero) and not p_ball.contains(0):
        direct = ((sum(((p_ball * b.log()).exp() for b in nonzero), flint.arb(0)) / len(balls)).log() / p_ball).exp()
        if direct.is_finite() and direct.overlaps(hull):
            return direct.intersection(hull)
    return hull


def _genmean_bounds(expr, rec):
    """Exact bounds (lo, hi) of a generalized mean of numbers: the power-mean inequality, with the
    exponent's sign relative to 1 certified on the current box. Balls cannot hold these endpoints exactly."""

    p, *values = expr.args
    if any(v.free_symbols for v in values):
        return None
    ordered = sorted(values, key=lambda v: rec(v).mid())
    for a, b in zip(ordered, ordered[1:]):
        if certified.compare(a, b).value not in (-1, 0):
            return None
    lo, hi = ordered[0], ordered[-1]
    mean = sp.Add(*values) / len(values)
    p_ball, facts = rec(p), EXPONENT_FACTS.get().get(p, ())
    if "le1" in facts or p_ball <= 1:
        hi = mean
    elif "ge1" in facts or p_ball >= 1:
        lo = mean
    return lo, hi


def _genmean_comparison(condition, rec) -> bool | None:
    """Decide `GenMean(...) op number` from exact bounds where possible (None: not decided here)."""

    lhs, rhs, kind = condition.lhs, condition.rhs, type(condition)
    GenMean = genmean_class()
    if isinstance(rhs, GenMean) and not isinstance(lhs, GenMean):
        lhs, rhs = rhs, lhs
        kind = {sp.StrictLessThan: sp.StrictGreaterThan, sp.LessThan: sp.GreaterThan,
                sp.StrictGreaterThan: sp.StrictLessThan, sp.GreaterThan: sp.LessThan}.get(kind, kind)
    if not isinstance(lhs, GenMean) or rhs.free_symbols or kind in (sp.Equality, sp.Unequality):
        return None
    bounds = _genmean_bounds(lhs, rec)
    if bounds is None:
        return None
    lo, hi = (certified.compare(b, rhs).value for b in bounds)  # signs of lo - v and hi - v
    if lo is None or hi is None:
        return None
    surely, surely_not = {sp.StrictLessThan: (hi < 0, lo >= 0), sp.LessThan: (hi <= 0, lo > 0),
                          sp.StrictGreaterThan: (lo > 0, hi <= 0), sp.GreaterThan: (lo >= 0, hi < 0)}[kind]
    return True if surely else False if surely_not else None


translates(genmean_class)(_genmean_enclosure)
COMPARISON_RULES.append(_genmean_comparison)
