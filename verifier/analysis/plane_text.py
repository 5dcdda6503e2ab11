"""A sign condition on two parameters as a person reads it: "f ≤ 0 and f ≥ 0" written f = 0, and each relation
solved for a parameter it is linear in when the coefficient's sign is the same over the whole box the
assumptions bound (decided exactly: the coefficient's real roots in that range), so "nu < mu/(mu + 1)" rather
than "mu − mu·nu − nu > 0". No solver, no time limit: the same text on every machine.

Owns: `condition_text`. May import: `analysis.conditions`, `analysis.regions` (`equalities`),
`analysis.real_algebraic`, `analysis.polynomial_matrix`.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.analysis.conditions import formula_text
from verifier.analysis.real_algebraic import real_roots, sign_at, simplest_between
from verifier.analysis.regions import equalities
from verifier.lazy_sympy import sympy as sp

_FLIPPED = {sp.StrictLessThan: sp.StrictGreaterThan, sp.LessThan: sp.GreaterThan,
            sp.StrictGreaterThan: sp.StrictLessThan, sp.GreaterThan: sp.LessThan, sp.Equality: sp.Equality,
            sp.Unequality: sp.Unequality}


def condition_text(scheme, formula: sp.Basic, box) -> str:
    """The condition in the paper's notation (`formula_text`), relations solved for a parameter where exact."""
    symbols = list(scheme.symbols)
    ranges = dict(zip(symbols, box))
    return formula_text(_solved(_with_equalities(formula), symbols, ranges))


def _with_equalities(formula: sp.Basic) -> sp.Basic:
    if isinstance(formula, sp.Or):
        return sp.Or(*[_with_equalities(a) for a in formula.args])
    if isinstance(formula, sp.And):
        return equalities(formula)
    return formula


def _solved(formula: sp.Basic, symbols: list, ranges: dict) -> sp.Basic:
    if isinstance(formula, (sp.And, sp.Or)):
        return formula.func(*[_solved(a, symbols, ranges) for a in formula.args])
    if not isinstance(formula, sp.core.relational.Relational):
        return formula
    expr = sp.expand(formula.lhs - formula.rhs)
    for symbol in symbols:
        if not expr.has(symbol) or sp.Poly(expr, symbol).degree() != 1:
            continue
        coefficient = expr.coeff(symbol)
        sign = _constant_sign(coefficient, [s for s in symbols if s != symbol], ranges)
        if sign is None:
            continue
        bound = sp.factor(sp.cancel(-(expr - coefficient * symbol) / coefficient))
        kind = type(formula) if sign > 0 else _FLIPPED[type(formula)]
        lo, hi = ranges[symbol]
        if bound.is_Rational and ((kind is sp.LessThan and lo is not None and bound == _rational(lo))
                                  or (kind is sp.GreaterThan and hi is not None and bound == _rational(hi))):
            kind = sp.Equality  # at most the box's lower end (at least its upper end): that end itself
        return kind(symbol, bound, evaluate=False)
    return formula


def _constant_sign(coefficient: sp.Expr, others: list, ranges: dict) -> int | None:
    """The coefficient's sign where it is the same over the box (a number, or a polynomial in the other
    parameter with no real root in its range), else None."""
    if coefficient.is_Rational:
        return None if coefficient == 0 else (1 if coefficient > 0 else -1)
    free = coefficient.free_symbols
    if len(free) != 1 or not free <= set(others):
        return None
    (other,) = free
    poly = sp.Poly(coefficient, other)
    if not all(c.is_Rational for c in poly.all_coeffs()):
        return None
    univariate = flint.fmpq_poly([flint.fmpq(int(c.p), int(c.q)) for c in reversed(poly.all_coeffs())])
    lo, hi = ranges[other]
    if any((lo is None or lo <= _low(r)) and (hi is None or _high(r) <= hi) or _straddles(r, lo, hi)
           for r in real_roots(univariate)):
        return None
    return sign_at(univariate, simplest_between(lo, hi) if lo is None or hi is None or lo < hi else lo)


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _low(r) -> Fraction:
    return r if isinstance(r, Fraction) else r.lo


def _high(r) -> Fraction:
    return r if isinstance(r, Fraction) else r.hi


def _straddles(r, lo, hi) -> bool:
    """A root whose interval crosses an end of the range: treated as inside (the sign is then not proved)."""
    return any(end is not None and _low(r) <= end <= _high(r) for end in (lo, hi))
