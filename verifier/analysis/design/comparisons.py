"""The comparisons a calibration must watch: every difference of two terms that some property compares, read from
the properties' definitions, and, for Property 1, each candidate witness's expected cost against its members'.
A property's verdict can change only where one of its differences vanishes.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verifier.engines.terms import TermValues
from verifier.engines.witnesses import candidate_witnesses
from verifier.errors import SpecError
from verifier.properties import PROPERTIES, Both, Compare, Implies, Possible, Term
from verifier.scheme import Scheme


def _comparisons() -> dict[tuple[Term, Term], set[str]]:
    """Every comparison of two terms the properties make, with the properties that make it, read from their
    definitions (the multiset premises compare determinate costs only: they do not depend on the parameter)."""
    out: dict[tuple[Term, Term], set[str]] = {}
    for prop in PROPERTIES:
        atom = prop.atom
        parts = [atom] if isinstance(atom, Compare) else \
            [atom.premise, atom.conclusion] if isinstance(atom, Implies) else \
            [atom.first, atom.second] if isinstance(atom, Both) else []
        for c in parts:
            if c.lhs.kind != "sorted":
                out.setdefault((c.lhs, c.rhs), set()).add(prop.id)
    return out


def differences(scheme: Scheme, theta) -> list[tuple[sp.Expr, frozenset[str]]]:
    """Every comparison the properties make on this matrix, as a difference, with what it decides: the ids
    of the properties comparing those terms, or "P1 {a, b}" for a candidate witness of that set. Each class variable ranges over
    every class (a superset of each quantifier's domain: an extra breakpoint is only an extra point)."""
    out: dict[sp.Expr, set[str]] = {}
    det = [[scheme.det(h, y) for y in range(scheme.K)] for h in range(scheme.K)]
    if not all(isinstance(v, sp.Rational) for row in det for v in row):
        raise _error(scheme.spec, "cost", "calibration needs rational determinate costs (Property 1's candidate "
                     "witnesses are computed exactly from them)", "rational determinate costs")
    values = TermValues(scheme)
    pairs = _comparisons()
    fractions = [[Fraction(int(v.p), int(v.q)) for v in row] for row in det]
    for members in scheme.indeterminate_sets:
        for (lhs, rhs), pids in pairs.items():
            for y in range(scheme.K):
                for y2 in (range(scheme.K) if "y2" in (lhs.cls, rhs.cls) else (y,)):
                    at = {"y": y, "y2": y2}
                    first, second = values.value(lhs, members, at[lhs.cls]), values.value(rhs, members, at[rhs.cls])
                    if first is None or second is None:
                        raise _error(scheme.spec, "set_cost", "a minimum or maximum of member costs could not be "
                                     "decided", "determinate costs that compare exactly")
                    out.setdefault(first - second, set()).update(pids)
        if any(isinstance(p.atom, Possible) for p in PROPERTIES):
            for p in candidate_witnesses(fractions, members):
                expected = sp.Add(*[sp.Rational(q.numerator, q.denominator) * scheme.cost(members, y)
                                    for y, q in enumerate(p) if q])
                best = min(sum(q * fractions[h][y] for y, q in enumerate(p)) for h in members)
                out.setdefault(expected - sp.Rational(best.numerator, best.denominator), set()).add(
                    "P1 " + scheme.label(members))
    return [(d, frozenset(group)) for d, group in out.items() if d.has(theta)]


def _error(spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key) or spec.marks.get("")
    return SpecError(message, file=spec.path, key=key, line=mark.line if mark else None,
                     column=mark.column if mark else None, expected=expected)
