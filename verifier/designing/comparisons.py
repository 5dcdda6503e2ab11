"""The comparisons a calibration must watch: every difference of two terms that some property compares, read from
the properties' definitions (their quantifiers' domains and atoms), and, for Property 1, each candidate witness's
expected cost against its members'. A property's verdict can change only where one of its differences vanishes.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.parameter_range import spec_error
from verifier.engines.domains import domain
from verifier.engines.terms import TermValues
from verifier.engines.witnesses import candidate_witnesses
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES, Both, Compare, Implies, Possible, Property
from verifier.scheme import Scheme
from verifier.verdict import Binding, Truth


def _watched(atom) -> tuple[Compare | None, list[Compare]]:
    """An atom's parameter-free guard (a multiset comparison of determinate costs), if any, and the comparisons
    whose sign can change its truth. With the guard false, an implication is true and a conjunction false
    whatever the parameter, so its other comparison matters only where the guard holds."""
    if isinstance(atom, Implies) and atom.premise.lhs.kind == "sorted":
        return atom.premise, [atom.conclusion]
    if isinstance(atom, Both) and atom.first.lhs.kind == "sorted":
        return atom.first, [atom.second]
    parts = [atom] if isinstance(atom, Compare) else [atom.premise, atom.conclusion] if isinstance(atom, Implies) \
        else [atom.first, atom.second] if isinstance(atom, Both) else []
    return None, [c for c in parts if c.lhs.kind != "sorted"]


def _bindings(scheme: Scheme, prop: Property):
    """Every binding of the property's quantifiers, over the domains the engines use (`engines.domains`)."""
    def walk(index: int, binding: dict):
        if index == len(prop.quantifiers):
            yield binding
            return
        for value in domain(scheme, prop, index, binding):
            yield from walk(index + 1, {**binding, prop.quantifiers[index].var: value})

    yield from walk(0, {})


def differences(scheme: Scheme, theta, witnesses: bool = True) -> list[tuple[sp.Expr, frozenset[str]]]:
    """Every comparison the properties make on this matrix, as a difference, with what it decides: the ids
    of the properties comparing those terms, or "P1 {a, b}" for a candidate witness of that set. The class
    variables range over each quantifier's own domain, and a comparison guarded by a multiset premise
    (Properties 5 and 9) counts only where the premise holds: elsewhere the atom's truth does not depend on it.
    `witnesses=False` leaves Property 1's candidate witnesses out (their number explodes beyond 5 classes)."""
    out: dict[sp.Expr, set[str]] = {}
    det = [[scheme.det(h, y) for y in range(scheme.K)] for h in range(scheme.K)]
    if not all(isinstance(v, sp.Rational) for row in det for v in row):
        raise spec_error(scheme.spec, "cost", "calibration needs rational determinate costs (Property 1's candidate "
                     "witnesses are computed exactly from them)", "rational determinate costs")
    values = TermValues(scheme)
    seen: dict[tuple, sp.Expr] = {}
    fractions = [[Fraction(int(v.p), int(v.q)) for v in row] for row in det]
    for prop in PROPERTIES:
        if isinstance(prop.atom, Possible):
            continue
        guard, watched = _watched(prop.atom)
        for b in _bindings(scheme, prop):
            at = Binding(b["Y"], b.get("y"), b.get("y2"))
            if guard is not None and values.compare(guard, at).truth is Truth.FALSE:
                continue
            for c in watched:
                key = (c.lhs, c.rhs, at.members, at.y, at.y2)
                if key not in seen:
                    first = values.value(c.lhs, at.members, at.y if c.lhs.cls == "y" else at.y2)
                    second = values.value(c.rhs, at.members, at.y if c.rhs.cls == "y" else at.y2)
                    if first is None or second is None:
                        raise spec_error(scheme.spec, "set_cost", "a minimum or maximum of member costs could not "
                                     "be decided", "determinate costs that compare exactly")
                    seen[key] = first - second
                out.setdefault(seen[key], set()).add(prop.id)
    if witnesses and any(isinstance(p.atom, Possible) for p in PROPERTIES):
        for members in scheme.indeterminate_sets:
            for p in candidate_witnesses(fractions, members):
                expected = sp.Add(*[sp.Rational(q.numerator, q.denominator) * scheme.cost(members, y)
                                    for y, q in enumerate(p) if q])
                best = min(sum(q * fractions[h][y] for y, q in enumerate(p)) for h in members)
                out.setdefault(expected - sp.Rational(best.numerator, best.denominator), set()).add(
                    "P1 " + scheme.label(members))
    return [(d, frozenset(group)) for d, group in out.items() if d.has(theta)]
