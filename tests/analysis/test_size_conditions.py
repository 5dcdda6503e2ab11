"""Beyond six classes, where classes are alike, each size's status as exact conditions on two parameters (issue
55: "and beyond, where classes are alike, one set per size"). Checked against the brute force of
tests/brute_force.py (one exact LP per set, all 127 sets of 7 classes) inside each condition and on both sides of
its boundary, for the representative {1..n} and for another set of the same size.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import build_scheme
from verifier.spec import spec_from_data

from brute_force import optimum

ALIKE = {"name": "alike", "classes": 7, "parameters": {"delta": {}, "eta": {}}, "assume": ["delta > 0", "eta > 0"],
         "cost": "0 if yhat == y else eta", "set_cost": "(0 if y in Y else eta) + delta * (len(Y) - 1)"}


def _truth(scheme, members, point) -> str:
    values = {s: sp.Rational(point[s.name]) for s in scheme.symbols}
    rows = {m: [Fraction(str(sp.Rational(scheme.rows[m][y].subs(values)))) for y in range(scheme.K)]
            for m in scheme.all_sets}
    found = optimum(rows, members)
    return "alone" if found > 0 else "tied" if found == 0 else "never"


def test_each_size_of_alike_classes_is_alone_exactly_below_eta_over_its_size():
    scheme = build_scheme(spec_from_data(ALIKE))
    found = symbolic_optimality(scheme)
    assert found[frozenset({0})].conditions is None  # a singleton is alone for every admissible value
    for members in (frozenset({0, 1}), frozenset({5, 6}), frozenset(range(3)), frozenset(range(7))):
        n = len(members)
        conditions = found[members].conditions
        assert [(c[0], c[1]) for c in conditions] == [
            ("alone", f"delta < eta/{n}"), ("tied", f"delta = eta/{n}"), ("never", f"delta > eta/{n}")]
        for status, _, at, evidence, formula in conditions:  # its own evidence, decided at a point inside
            assert evidence.status == status and evidence.members == members
            assert _truth(scheme, members, at) == status
        eta = Fraction(1)
        for delta in (eta / n * Fraction(9, 10), eta / n, eta / n * Fraction(11, 10)):
            point = {"delta": delta, "eta": eta}
            values = {s: sp.Rational(point[s.name]) for s in scheme.symbols}
            holding = [c[0] for c in conditions if bool(c[4].subs(values))]
            assert holding == [_truth(scheme, members, point)], (n, delta)


def test_one_parameter_beyond_the_pieces_gets_conditions_too():
    """Seven classes are past the sets whose range of one parameter is cut into pieces: the sizes' conditions
    take their place."""
    spec = {**ALIKE, "parameters": {"delta": {}}, "assume": ["delta > 0", "delta < 1"],
            "cost": "0 if yhat == y else 1", "set_cost": "(0 if y in Y else 1) + delta * (len(Y) - 1)"}
    scheme = build_scheme(spec_from_data(spec))
    found = symbolic_optimality(scheme)
    for n in (2, 7):
        conditions = found[frozenset(range(7 - n, 7))].conditions
        assert [(c[0], c[1]) for c in conditions] == [
            ("alone", f"delta < 1/{n}"), ("tied", f"delta = 1/{n}"), ("never", f"delta > 1/{n}")]
        assert all(_truth(scheme, frozenset(range(7 - n, 7)), c[2]) == c[0] for c in conditions)
