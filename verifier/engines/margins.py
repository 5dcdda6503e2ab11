"""Linear conditions with an explicit margin for strict inequalities, and exact answers read back from z3.

A design must meet strict inequalities ("c_Y(y) < mean") for real, not up to rounding. Each strict relation
a < b is posed as a + m ≤ b with one margin variable m shared by all of them, and a ≠ b as a + m ≤ b or
b + m ≤ a. With m > 0 free this is exactly the strict system (finitely many strict relations: some positive
margin serves all of them); with m fixed to a positive rational every relation is closed, so an optimum is
attained and can be written down exactly. Negations are pushed to the relations first, so "P7 fails" becomes
"some c_Y(y) > mean" with the margin too.

`bound` reads z3's optimum, which may be an infimum that is not attained (z3 writes "1/2 - epsilon") or
infinite; `projection` eliminates every other variable (z3's quantifier elimination for linear real
arithmetic) and returns the exact set of values one variable can take, as disjoint intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import z3

from verifier.engines.smt.translate import Translator
from verifier.lazy_sympy import sympy as sp

_FLIP = {sp.StrictLessThan: sp.GreaterThan, sp.LessThan: sp.StrictGreaterThan, sp.StrictGreaterThan: sp.LessThan,
         sp.GreaterThan: sp.StrictLessThan, sp.Equality: sp.Unequality, sp.Unequality: sp.Equality}


def with_margin(formula: sp.Basic, t: Translator, margin: z3.ArithRef, positive: bool = True) -> z3.BoolRef:
    """The z3 condition for `formula` (And/Or/Not of linear relations) with strict relations given `margin`."""
    if formula is sp.true or formula is True:
        return z3.BoolVal(positive, t.ctx)
    if formula is sp.false or formula is False:
        return z3.BoolVal(not positive, t.ctx)
    if isinstance(formula, sp.Not):
        return with_margin(formula.args[0], t, margin, not positive)
    if isinstance(formula, (sp.And, sp.Or)):
        parts = [with_margin(a, t, margin, positive) for a in formula.args]
        conjunctive = isinstance(formula, sp.And) == positive
        return z3.And(parts) if conjunctive else z3.Or(parts)
    if isinstance(formula, sp.Implies):
        return with_margin(sp.Or(sp.Not(formula.args[0]), formula.args[1]), t, margin, positive)
    kind = type(formula) if positive else _FLIP.get(type(formula))
    if kind is None or type(formula) not in _FLIP:
        raise TypeError(f"not a linear condition: {formula}")
    a, b = t.expr(formula.lhs), t.expr(formula.rhs)
    return {sp.StrictLessThan: lambda: a + margin <= b, sp.LessThan: lambda: a <= b,
            sp.StrictGreaterThan: lambda: a >= b + margin, sp.GreaterThan: lambda: a >= b,
            sp.Equality: lambda: a == b,
            sp.Unequality: lambda: z3.Or(a + margin <= b, b + margin <= a)}[kind]()


@dataclass(frozen=True)
class Bound:
    """An exact optimum: `value` (None when infinite), and whether it is attained."""
    value: Fraction | None
    attained: bool

    def text(self) -> str:
        """The optimum as text: the exact value, or 'unbounded'."""
        return "unbounded" if self.value is None else str(self.value)


def bound(expression: z3.ArithRef) -> Bound:
    """Read z3's optimum: a rational, `r + k·epsilon` (not attained) or ±oo."""
    text = z3.simplify(expression)
    if z3.is_int_value(text):
        return Bound(Fraction(text.as_long()), True)
    if z3.is_rational_value(text):
        return Bound(Fraction(text.numerator_as_long(), text.denominator_as_long()), True)
    rational, infinite, infinitesimal = Fraction(0), False, False
    for term in _summands(text):
        name = str(term)
        if "oo" in name:
            infinite = True
        elif "epsilon" in name:
            infinitesimal = True
        elif z3.is_int_value(term):
            rational += term.as_long()
        elif z3.is_rational_value(term):
            rational += Fraction(term.numerator_as_long(), term.denominator_as_long())
        else:
            raise ValueError(f"cannot read the optimum {text}")
    return Bound(None, False) if infinite else Bound(rational, not infinitesimal)


def _summands(expr):
    return expr.children() if z3.is_add(expr) else [expr]


@dataclass(frozen=True)
class Interval:
    """The exact set of values of one variable: an interval with rational ends (None: unbounded), each end open or
    closed."""

    low: Fraction | None  # None: unbounded
    high: Fraction | None
    low_closed: bool
    high_closed: bool

    def text(self) -> str:
        """The interval as text: '= v' for a point, else with brackets, e.g. '[0, 1/2)'."""
        if self.low is not None and self.low == self.high:
            return f"= {self.low}"
        left = "(-inf" if self.low is None else ("[" if self.low_closed else "(") + str(self.low)
        right = "+inf)" if self.high is None else str(self.high) + ("]" if self.high_closed else ")")
        return f"{left}, {right}"

    def contains(self, x: Fraction) -> bool:
        """Whether x lies in the interval."""
        above = self.low is None or x > self.low or (self.low_closed and x == self.low)
        below = self.high is None or x < self.high or (self.high_closed and x == self.high)
        return above and below


def projection(conditions: list[z3.BoolRef], variable: z3.ArithRef, others: list[z3.ArithRef],
               timeout_ms: int) -> list[Interval] | None:
    """The exact set {v : ∃ others, conditions}, as disjoint sorted intervals; None if z3 gave up."""
    try:
        return _intervals(eliminate(conditions, others, timeout_ms, variable.ctx), variable)
    except (z3.Z3Exception, ValueError):  # no answer in time, or a result not in this variable alone
        return None


def eliminate(conditions: list[z3.BoolRef], others: list[z3.ArithRef], timeout_ms: int, ctx) -> z3.BoolRef:
    """∃ others: conditions, as a quantifier-free condition on the remaining variables (z3's qe; raises
    Z3Exception when it does not finish in time)."""
    goal = z3.Goal(ctx=ctx)
    body = z3.And(conditions)
    goal.add(z3.Exists(others, body) if others else body)
    return z3.TryFor(z3.Then("qe", "simplify", ctx=ctx), timeout_ms)(goal).as_expr()


def _intervals(condition: z3.BoolRef, x: z3.ArithRef) -> list[Interval] | None:
    """Decide a one-variable linear condition at its breakpoints and between them, exactly."""
    points = sorted(set(_thresholds(condition, x)))
    samples: list[tuple[Fraction | None, Fraction | None, Fraction]] = []  # (low, high, sample) of each piece
    edges = [None] + points + [None]
    for low, high in zip(edges, edges[1:]):
        inside = (low + high) / 2 if low is not None and high is not None else \
            (high - 1 if low is None and high is not None else (low + 1 if low is not None else Fraction(0)))
        samples.append((low, high, inside))

    def truth(v: Fraction) -> bool:
        value = z3.simplify(z3.substitute(condition, (x, z3.RealVal(f"{v.numerator}/{v.denominator}", x.ctx))))
        if not (z3.is_true(value) or z3.is_false(value)):
            raise ValueError(f"not a condition on {x} alone: {value}")
        return z3.is_true(value)

    pieces: list[Interval] = []
    for i, (low, high, inside) in enumerate(samples):
        if truth(inside):
            pieces.append(Interval(low, high, low is not None and truth(low), high is not None and truth(high)))
        if high is not None and truth(high) and not truth(inside) and not (
                i + 1 < len(samples) and truth(samples[i + 1][2])):
            pieces.append(Interval(high, high, True, True))  # an isolated point
    return _merge(pieces)


def _merge(pieces: list[Interval]) -> list[Interval]:
    out: list[Interval] = []
    for piece in pieces:
        if out and out[-1].high is not None and out[-1].high == piece.low and (out[-1].high_closed or piece.low_closed):
            last = out.pop()
            piece = Interval(last.low, piece.high, last.low_closed, piece.high_closed)
        out.append(piece)
    return out


def _thresholds(condition: z3.ExprRef, x: z3.ArithRef) -> list[Fraction]:
    """Where each atom a·x ⋈ b of the condition changes truth value: x = b/a."""
    out: list[Fraction] = []
    stack = [condition]
    while stack:
        node = stack.pop()
        if z3.is_and(node) or z3.is_or(node) or z3.is_not(node) or z3.is_implies(node):
            stack.extend(node.children())
        elif node.num_args() == 2 and z3.is_arith(node.arg(0)):
            difference = z3.simplify(node.arg(0) - node.arg(1))
            slope = z3.simplify(z3.substitute(difference, (x, z3.RealVal(1, x.ctx))) -
                                z3.substitute(difference, (x, z3.RealVal(0, x.ctx))))
            offset = z3.simplify(z3.substitute(difference, (x, z3.RealVal(0, x.ctx))))
            if z3.is_rational_value(slope) and z3.is_rational_value(offset) and slope.numerator_as_long() != 0:
                a = Fraction(slope.numerator_as_long(), slope.denominator_as_long())
                b = Fraction(offset.numerator_as_long(), offset.denominator_as_long())
                out.append(-b / a)
    return out
