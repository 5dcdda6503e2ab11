"""The design conditions as plain linear data, read exactly from their z3 form, for the fast path (`fast.py`).

A condition is an And/Or tree of linear atoms `Σ a_v·v + c (<= | ==) 0` with exact Fraction coefficients
(variables by name; the margin is the variable "margin"). `split` separates the conjunction of atoms (the
*core*, a linear program) from the disjunctions, which are only ever *evaluated* exactly at a point
(`holds`). Each atom keeps its z3 form, so that a small part of the problem can be handed back to z3.
Anything that is not linear (a product of two unknowns) raises `NotLinear`: the caller then uses the exact
path.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import z3

from verifier.errors import DoesNotApply

MARGIN = "margin"


class NotLinear(DoesNotApply):
    """A condition is not linear in the cells and the margin, so the fast path cannot take it."""


@dataclass(frozen=True)
class Atom:
    """One linear relation: Σ coefficient·variable + const == 0 (equality) or <= 0."""
    coeffs: tuple[tuple[str, Fraction], ...]  # (variable, coefficient), no zero coefficient
    const: Fraction
    equality: bool  # Σ + const == 0, else Σ + const <= 0
    z3form: z3.BoolRef | None = None

    def value(self, point: dict[str, Fraction]) -> Fraction:
        """The left-hand side Σ coefficient·variable + const at the point (a missing variable counts as 0)."""
        return sum((a * point.get(v, Fraction(0)) for v, a in self.coeffs), self.const)

    def holds(self, point: dict[str, Fraction]) -> bool:
        """Whether the relation holds at the point."""
        v = self.value(point)
        return v == 0 if self.equality else v <= 0

    @property
    def variables(self) -> list[str]:
        """The relation's variables, in order."""
        return [v for v, _ in self.coeffs]


def linear(expr: z3.ArithRef) -> tuple[dict[str, Fraction], Fraction]:
    """(coefficients, constant) of a linear z3 arithmetic term, exactly."""
    if z3.is_rational_value(expr) or z3.is_int_value(expr):
        if z3.is_int_value(expr):
            return {}, Fraction(expr.as_long())
        return {}, Fraction(expr.numerator_as_long(), expr.denominator_as_long())
    if z3.is_const(expr) and expr.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return {str(expr): Fraction(1)}, Fraction(0)
    kids = [linear(k) for k in expr.children()]
    if z3.is_add(expr):
        return _combine(kids, [1] * len(kids))
    if z3.is_sub(expr):
        return _combine(kids, [1] + [-1] * (len(kids) - 1))
    if expr.decl().kind() == z3.Z3_OP_UMINUS:
        return _combine(kids, [-1])
    if z3.is_to_real(expr):
        return kids[0]
    if z3.is_mul(expr):
        scale, term = Fraction(1), None
        for c, k in kids:
            if c:
                if term is not None:
                    raise NotLinear(str(expr)[:80])
                term = (c, k)
            else:
                scale *= k
        if term is None:
            return {}, scale
        return {v: a * scale for v, a in term[0].items() if a * scale}, term[1] * scale
    if z3.is_div(expr) and not kids[1][0] and kids[1][1] != 0:
        return _combine([kids[0]], [1 / kids[1][1]])
    raise NotLinear(str(expr)[:80])


def _combine(kids, signs):
    coeffs: dict[str, Fraction] = {}
    const = Fraction(0)
    for (c, k), s in zip(kids, signs):
        for v, a in c.items():
            coeffs[v] = coeffs.get(v, Fraction(0)) + s * a
        const += s * k
    return {v: a for v, a in coeffs.items() if a}, const


def tree(expr: z3.BoolRef):
    """An Atom, ("and", [...]), ("or", [...]), True or False."""
    if z3.is_true(expr):
        return True
    if z3.is_false(expr):
        return False
    if z3.is_and(expr) or z3.is_or(expr):
        return ("and" if z3.is_and(expr) else "or", [tree(k) for k in expr.children()])
    if z3.is_implies(expr):
        a, b = expr.children()
        return tree(z3.Or(z3.Not(a), b))
    if z3.is_not(expr):
        (inner,) = expr.children()
        if z3.is_and(inner) or z3.is_or(inner):
            flipped = [z3.Not(k) for k in inner.children()]
            return tree(z3.Or(flipped) if z3.is_and(inner) else z3.And(flipped))
        if z3.is_not(inner):
            return tree(inner.children()[0])
        raise NotLinear(f"a negated relation: {str(expr)[:80]}")  # strict: only the margin makes it linear
    if z3.is_le(expr) or z3.is_ge(expr) or z3.is_eq(expr):
        a, b = expr.children()
        (ca, ka), (cb, kb) = linear(a), linear(b)
        lhs, rhs = ((ca, ka), (cb, kb)) if not z3.is_ge(expr) else ((cb, kb), (ca, ka))
        coeffs, const = _combine([lhs, rhs], [1, -1])
        if not coeffs:
            ok = const == 0 if z3.is_eq(expr) else const <= 0
            return ok
        return Atom(tuple(sorted(coeffs.items())), const, z3.is_eq(expr), expr)
    raise NotLinear(f"not a linear relation: {str(expr)[:80]}")


def split(conditions: list[z3.BoolRef]) -> tuple[list[Atom], list, bool]:
    """(core atoms, disjunctions, satisfiable-so-far): the top-level conjunction flattened."""
    atoms, disjunctions, ok = [], [], True
    stack = [tree(c) for c in conditions]
    while stack:
        node = stack.pop()
        if node is True:
            continue
        if node is False:
            ok = False
        elif isinstance(node, Atom):
            atoms.append(node)
        elif node[0] == "and":
            stack.extend(node[1])
        else:
            disjunctions.append(node)
    return atoms, disjunctions, ok


def holds(node, point: dict[str, Fraction]) -> bool:
    """The exact truth of a tree at a point."""
    if node is True or node is False:
        return node
    if isinstance(node, Atom):
        return node.holds(point)
    parts = (holds(k, point) for k in node[1])
    return all(parts) if node[0] == "and" else any(parts)
