"""Repair sentences for the failing cells of a one-class property, written from the fast path's arrays.

A property over (Y, y) (P3, P4, P6, P7, P10) fails wherever its comparison is false. The certified arrays
already decide every instance; where a false one has two sides that are exact rationals in the arrays, or
irrational values whose certified enclosures fix every printed digit, its sentence is written from them.
Everything else (an undecided instance, a possible tie, a digit the enclosure leaves open) goes back to the
exact comparison, one instance at a time. The sentences are the exact path's, character for character
(`cell_sentence` is the one place both write them; a test compares the two paths).

Owns: `ArrayRepairs`, `cell_sentence`. May import: `engines`, `formula`, `properties`, `scheme`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from verifier.engines.terms import term_label
from verifier.engines.vector import VectorEngine
from verifier.formula.cells import FALSE, TRUE
from verifier.properties import Compare, Property, QuantifierKind

# A side of a comparison: its exact value when rational, else a certified enclosure (lo, hi) of an irrational
Side = tuple[Fraction | None, float, float]


def cell_sentence(label: str, cls: str, op: str, lhs: str, rhs: str, bound: str, tie: bool, change: str) -> str:
    """The repair of c_Y(y) `op` bound: `lhs`/`rhs` are the sides' texts ("= 3/2", "≈ 1.457"), `change` the
    amount to move c_Y(y) by, `tie` whether the sides are equal (a strict bound then needs any decrease)."""
    cell = f"c_{label}({cls}) {lhs}"
    if op == "<" and tie:
        return f"{cell} equals {bound}, and must be below it: lower it by any positive amount"
    if op in ("<", "<="):
        how = "by more than" if op == "<" else "by at least"
        return f"{cell} must be {op} {bound} {rhs}: lower it {how} {change}"
    return f"{cell} must be {op} {bound} {rhs}: raise it by at least {change}"


class ArrayRepairs:
    """The arrays of one fast-path scheme, shared by every failing property's repair."""

    def __init__(self, scheme):
        self.scheme = scheme
        self.engine = VectorEngine(scheme)
        self.index = {m: i for i, m in enumerate(self.engine.sets)}
        self._truth: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def candidates(self, prop: Property):
        """The sets at which the property does not hold, from the arrays (`VectorEngine.sets_not_holding`)."""
        return self.engine.sets_not_holding(prop)

    def plan(self, prop: Property, members) -> list[tuple[int, str | None]] | None:
        """For a "for every set, for every class" comparison: the classes of `members` where it may fail, in
        the exact path's order, each with its sentence when the arrays settle it (None: decide it exactly).
        None for a property of another shape."""
        atom = prop.atom
        if len(prop.quantifiers) != 2 or prop.quantifiers[1].kind != QuantifierKind.FORALL \
                or not isinstance(atom, Compare) or atom.lhs.kind == "sorted" or atom.op not in ("<", "<=", ">="):
            return None
        if prop.id not in self._truth:
            self._truth[prop.id] = self.engine.instance_truth(prop)
        truth, domain = self._truth[prop.id]
        i = self.index[members]
        return [(int(y), self._sentence(atom, members, i, int(y)) if truth[i, y] == FALSE else None)
                for y in np.flatnonzero(domain[i] & (truth[i] != TRUE))]

    def _sentence(self, atom: Compare, members, i: int, y: int) -> str | None:
        lhs, rhs = self._side(atom.lhs.kind, members, i, y), self._side(atom.rhs.kind, members, i, y)
        if lhs is None or rhs is None:
            return None
        if lhs[0] is not None and rhs[0] is not None:
            gap = lhs[0] - rhs[0]
            tie, change = gap == 0, str(gap if atom.op in ("<", "<=") else -gap)
        else:
            low, high = math.nextafter(lhs[1] - rhs[2], -math.inf), math.nextafter(lhs[2] - rhs[1], math.inf)
            if low <= 0 <= high:  # maybe equal: the exact comparison says
                return None
            tie = False
            change = _digits(low, high) if atom.op in ("<", "<=") else _digits(-high, -low)
        lhs_text, rhs_text = _text(lhs), _text(rhs)
        if change is None or lhs_text is None or rhs_text is None:
            return None
        s = self.scheme
        bound = term_label(atom.rhs.kind, s.label(members), s.classes[y])
        return cell_sentence(s.label(members), s.classes[y], atom.op, lhs_text, rhs_text, bound, tie, change)

    def _side(self, kind: str, members, i: int, y: int) -> Side | None:
        cells = self.engine.terms.value(kind)
        exact = cells.fraction((i, y))
        if exact is not None:
            return exact, float(cells.lo[i, y]), float(cells.hi[i, y])
        if kind != "cost":  # a mean, min or max the arrays hold only as an enclosure: it may be rational
            return None
        value = self.scheme.rows[members][y]  # exact (the report prints it): is it rational after all?
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q)), float(cells.lo[i, y]), float(cells.hi[i, y])
        return None, float(cells.lo[i, y]), float(cells.hi[i, y])


def _text(side: Side) -> str | None:
    exact, low, high = side
    if exact is not None:
        return f"= {exact}"
    digits = _digits(low, high)
    return None if digits is None else digits


def _digits(low: float, high: float) -> str | None:
    """An irrational value's 4-digit decimal, when every point of its enclosure prints the same (rounding
    to 4 digits is monotone, so both ends agreeing settles it)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    a, b = f"{low:.4g}", f"{high:.4g}"
    return f"≈ {a}" if a == b else None
