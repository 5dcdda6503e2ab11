"""Where named witnesses cannot tell, the exact region of a set (p eliminated from "some p makes it alone", every
sign case split) proves a sign-cell condition, and settles a set z3 could not decide over the parameters and p
together (issue 55: random two-parameter schemes). Each scheme below is one of
benchmarks/bench_optimality_conditions.py (seed 55) that was left undecided before; every answer is checked
against the brute force of tests/brute_force.py (one exact LP per set) at exact rational points.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.optimality_conditions import _State
from verifier.analysis.sign_cells import CellConditions
from verifier.analysis.sign_formulas import truth_at
from verifier.engines.parametric_optimality import piece_questions
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import build_scheme
from verifier.spec import spec_from_data
from verifier.verdict import Optimal, SetOptimality

from brute_force import optimum

GRID = [Fraction(k, 8) for k in range(9)]
BOX = {"parameters": {"t": {}, "s": {}}, "assume": ["t >= 0", "s >= 0", "t <= 1", "s <= 1"],
       "name": "random", "classes": ["a", "b", "c"]}
# {c} is alone everywhere but at (t, s) = (0, 1/2), where it ties: found after 8 counterexamples
CORNER_TIE = {**BOX, "cost_matrix": {"a": ["0", "1", "2 - t + 2*s"], "b": ["2 - t - s", "0", "3 + 2*t - 2*s"],
                                     "c": ["1 - s", "3 + s", "0"]},
              "set_costs": {"a,b": ["2 - s", "3 - s", "0"], "a,c": ["2 + t - 2*s", "1 + s", "3 + 2*t - s"],
                            "b,c": ["2*t + s", "1", "1 - 2*s"], "a,b,c": ["1 + 2*t + 2*s", "1 - t - s", "2 - t - 2*s"]}}
# {a}'s region is bounded by a cubic that meets the edge s = 1: the witnesses' questions run out of work there
CURVED = {**BOX, "cost_matrix": {"a": ["0", "1", "2 - s"], "b": ["-2*s", "0", "t + 2*s"], "c": ["1 + t", "1 + s", "0"]},
          "set_costs": {"a,b": ["2 - t + s", "3 + 2*t", "2 + t + s"], "a,c": ["s", "2*t", "2 - 2*t + 2*s"],
                        "b,c": ["2 + 2*t - s", "2 - t", "2 - s"], "a,b,c": ["1", "2*t - 2*s", "1 + t - s"]}}
# z3 could not tell whether {a, c} is ever alone (a question over t, s and p); its region is empty
NEVER_ALONE = {**BOX, "cost_matrix": {"a": ["0", "2 + t", "2 + 2*t"], "b": ["3 - 2*t", "0", "1 - 2*t + 2*s"],
                                      "c": ["-t", "t + s", "0"]},
               "set_costs": {"a,b": ["1 + t - 2*s", "2 - 2*t + 2*s", "1 - 2*t - 2*s"],
                             "a,c": ["2 - 2*t + s", "3 - 2*t", "1 - t - s"], "b,c": ["1 + s", "2 + 2*t - 2*s", "s"],
                             "a,b,c": ["1 - 2*t", "2 - 2*s", "3 - 2*s"]}}


def _truth(scheme, members, t, s) -> str:
    values = dict(zip(scheme.symbols, (sp.Rational(t), sp.Rational(s))))
    rows = {m: [Fraction(str(sp.Rational(scheme.rows[m][y].subs(values)))) for y in range(scheme.K)]
            for m in scheme.all_sets}
    found = optimum(rows, members)
    return "alone" if found > 0 else "tied" if found == 0 else "never"


def _agrees(scheme, members, condition, strict: bool, points) -> None:
    wanted = ("alone",) if strict else ("alone", "tied")
    for t, s in points:
        holds = truth_at(condition, dict(zip(scheme.symbols, (sp.Rational(t), sp.Rational(s)))))
        assert holds == (_truth(scheme, members, t, s) in wanted), (t, s, condition)


def test_a_tie_at_one_corner_is_found_by_counterexamples():
    scheme = build_scheme(spec_from_data(CORNER_TIE))
    members = frozenset({2})
    assert _truth(scheme, members, 0, Fraction(1, 2)) == "tied"
    condition = CellConditions(scheme, piece_questions(scheme), 1000).condition(members, strict=True)
    assert condition is not None
    _agrees(scheme, members, condition, True, [(t, s) for t in GRID for s in GRID])


def test_the_exact_region_is_the_brute_force_and_proves_what_the_witnesses_could_not():
    scheme = build_scheme(spec_from_data(CURVED))
    members = frozenset({0})
    state = _State(scheme, piece_questions(scheme))
    region = state.region(members, strict=True)
    _agrees(scheme, members, region, True, [(t, s) for t in GRID for s in GRID])
    condition = state.cells.condition(members, strict=True)
    assert condition is not None and sp.count_ops(condition) < sp.count_ops(region)
    _agrees(scheme, members, condition, True, [(t, s) for t in GRID for s in GRID])


def test_a_set_z3_could_not_decide_is_settled_by_its_regions():
    scheme = build_scheme(spec_from_data(NEVER_ALONE))
    members = frozenset({0, 2})
    state = _State(scheme, piece_questions(scheme))
    settled = state.settled_by_region(members, SetOptimality(members, Optimal.UNKNOWN, reason="z3: timeout"))
    truths = {_truth(scheme, members, t, s) for t in GRID for s in GRID}
    assert "alone" not in truths
    assert settled.status in (Optimal.TIED, Optimal.NEVER) and settled.status in truths
    assert _truth(scheme, members, *[settled.at[n] for n in ("t", "s")]) == settled.status
