"""The sign cells and named witnesses of issue 55 (two parameters): every label, witness and condition is checked
against the brute force of tests/brute_force.py (one exact LP per set) at exact rational points.

- `WitnessCover.status_at` (the polytope's vertices in rationals) is the brute force's status at every point;
- a witness named at a point covers that point, and wherever its condition holds the set has the status it
  claims (the construction is sound on its own, before z3 uses it);
- a condition the sign cells prove agrees with the brute force inside, outside and on its boundary.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.analysis.sign_cells import CellConditions
from verifier.analysis.sign_factors import decisive_factors
from verifier.analysis.witness_cover import WitnessCover, _holds
from verifier.engines.parametric_optimality import piece_questions
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import build_scheme
from verifier.spec import spec_from_data

from brute_force import optimum, parametric_schemes

POINTS = [Fraction(k, 4) for k in range(5)]
COARSE = [Fraction(k, 2) for k in range(3)]  # where each witness's claim is checked
# a random scheme of benchmarks/bench_optimality_conditions.py (seed 55): {a} is alone exactly where s + t > 0
CORNER = {"name": "corner", "classes": ["a", "b", "c"], "parameters": {"t": {}, "s": {}},
          "assume": ["t >= 0", "s >= 0", "t <= 1", "s <= 1"],
          "cost_matrix": {"a": ["0", "t + s", "-2*s"], "b": ["2*t - 2*s", "0", "2 - 2*t - s"],
                          "c": ["1 - 2*t + s", "3 - 2*s", "0"]},
          "set_costs": {"a,b": ["t - 2*s", "1 + t + s", "s"], "a,c": ["-2*t - 2*s", "2*t + 2*s", "t"],
                        "b,c": ["2 - t + 2*s", "3 - 2*t - s", "1 + s"],
                        "a,b,c": ["2 + t - 2*s", "1 + s", "2 - 2*t - 2*s"]}}


def _truth(scheme, members, point) -> str:
    values = {s: point[s] for s in scheme.symbols}
    rows = {m: [Fraction(str(sp.Rational(scheme.rows[m][y].subs(values)))) for y in range(scheme.K)]
            for m in scheme.all_sets}
    t = optimum(rows, members)
    return "alone" if t > 0 else "tied" if t == 0 else "never"


def _grid(scheme, points=POINTS):
    t, s = scheme.symbols
    return [{t: sp.Rational(a), s: sp.Rational(b)} for a in points for b in points]


@settings(max_examples=4, deadline=None)
@given(parametric_schemes(counts=(2,)), st.integers(0, 6))
def test_status_at_and_witnesses_agree_with_the_brute_force(data, which):
    scheme = build_scheme(spec_from_data(data))
    members = scheme.all_sets[which]
    cover = WitnessCover(scheme, members)
    for point in _grid(scheme):
        truth = _truth(scheme, members, point)
        assert cover.status_at(point) == truth, (point, truth)
        for strict in (True, False):
            witness = cover._witness(point, strict, moving=True)
            if truth == "never" or (strict and truth != "alone"):
                assert witness is None
                continue
            values = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
            assert _holds(witness, values)  # it covers the point it was named at
            for other in _grid(scheme, COARSE):  # and wherever it holds, the status it claims does
                inner = {k: Fraction(int(v.p), int(v.q)) for k, v in other.items()}
                if _holds(witness, inner):
                    assert _truth(scheme, members, other) in (("alone",) if strict else ("alone", "tied"))


def test_a_corner_tie_is_stated_as_a_condition():
    """{a} ties only at t = s = 0: alone exactly where s + t > 0, proved by three constant witnesses."""
    scheme = build_scheme(spec_from_data(CORNER))
    members = frozenset({0})
    cells = CellConditions(scheme, piece_questions(scheme), 1_000)
    alone = cells.condition(members, strict=True)
    t, s = scheme.symbols
    assert alone == sp.Gt(s + t, 0)
    for point in _grid(scheme):
        assert bool(alone.subs(point)) == (_truth(scheme, members, point) == "alone")


def test_decisive_factors_are_primitive_irreducible_and_ordered():
    scheme = build_scheme(spec_from_data(CORNER))
    factors = decisive_factors(scheme, frozenset({0}))
    again = decisive_factors(scheme, frozenset({0}))
    assert [f.expr for f in factors] == [f.expr for f in again]
    for f in factors:
        poly = sp.Poly(f.expr, *scheme.symbols)
        assert poly.LC() > 0 and poly.primitive()[0] == 1 and len(sp.factor_list(f.expr)[1]) == 1
    degrees = [sp.Poly(f.expr, *scheme.symbols).total_degree() for f in factors]
    assert degrees == sorted(degrees)
