"""The exact engine against a plain, independent brute force on random small schemes (DESIGN.md §2).

Nothing from verifier is reused for the expected answers: P2..P10 are evaluated straight from the §2 table in
`fractions.Fraction`, and P1 by one exact rational LP per set with sympy's simplex. The tool only supplies its
verdicts, possibility statuses, witnesses p and certificates λ, which are re-checked here in Fractions.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy as sp
import yaml
from hypothesis import given

from verifier.analysis.pipeline import analyse_file
from verifier.verdict import Truth

from brute_force import SETTINGS, analyse_data, brute_verdicts, frac, lp_possible, schemes


# -- the tests ------------------------------------------------------------------------------------------------
@SETTINGS
@given(schemes())
def test_p2_to_p10_match_brute_force(data):
    K, det, rows = data
    a = analyse_data(K, det, rows)
    # the spec's integers, decimals and "n/d" formulas are all read exactly
    assert {Y: [frac(v) for v in a.scheme.rows[Y]] for Y in rows} == rows
    assert [[frac(a.scheme.det(h, y)) for y in range(K)] for h in range(K)] == det
    got = {pid: a.by_id[pid].verdict.value for pid in brute_verdicts(K, det, rows)}
    assert got == brute_verdicts(K, det, rows)


@SETTINGS
@given(schemes())
def test_possibility_matches_exact_lp_and_certificates_check(data):
    K, det, rows = data
    a = analyse_data(K, det, rows)
    assert {e.members for e in a.possibility} == set(rows)
    for entry in a.possibility:
        Y, row = entry.members, rows[entry.members]
        assert entry.status is not Truth.UNKNOWN  # rational data: always decidable
        assert (entry.status is Truth.TRUE) == lp_possible(K, det, row, Y)
        if entry.status is Truth.TRUE:  # witness: E_p[c_ŷ] > E_p[c_Y] for every ŷ in Y
            p = [frac(v) for v in entry.witness]
            assert len(p) == K and min(p) >= 0 and sum(p) == 1
            for h in Y:
                assert sum(p[y] * det[h][y] for y in range(K)) > sum(p[y] * row[y] for y in range(K))
        else:  # Ville certificate: c_Y >= Σ λ_ŷ c_ŷ element-wise, λ in the simplex over Y
            lam = {h: frac(v) for h, v in entry.certificate.items()}
            assert set(lam) <= Y and min(lam.values()) >= 0 and sum(lam.values()) == 1
            for y in range(K):
                assert row[y] >= sum(l * det[h][y] for h, l in lam.items())
    any_possible = any(e.status is Truth.TRUE for e in a.possibility)
    assert a.by_id["P1"].verdict.value == ("holds" if any_possible else "fails")


def test_lp_helper_on_known_cases():
    # Table VI: {h,n} costs (1/2, 1/2) below the mean (2, 1): possible; at the mean exactly: impossible (Prop. 1)
    det = [[F(0), F(2)], [F(4), F(0)]]
    assert lp_possible(2, det, [F(1, 2), F(1, 2)], frozenset({0, 1}))
    assert not lp_possible(2, det, [F(2), F(1)], frozenset({0, 1}))


# -- irrational entries with exact ties ----------------------------------------------------------------------
TIES = [  # (c_b(a), c_{a,b}(a) written differently but exactly c_b(a) / 2 = the mean, since c_a(a) = 0)
    ("log(3)", "log(27)/6"),
    ("log(3)", "(2/3) * log(3) * (3/2) / 2"),
    ("log(12) - log(4)", "log(27)/6"),
    ("sqrt(2)", "1/sqrt(2)"),
    ("sqrt(8)", "sqrt(2)"),
    ("log(3) + sqrt(2)", "log(sqrt(3)) + sqrt(8)/4"),
    ("exp(1)", "exp(1 - log(2))"),
    ("log(2) * log(3)", "log(3) * log(8) / 6"),
]


@pytest.mark.parametrize("member, tie", TIES, ids=[t for _, t in TIES])
def test_irrational_tie_decides_p3_by_equality(tmp_path, member, tie):
    path = tmp_path / "tie.yaml"
    path.write_text(yaml.safe_dump({
        "name": "irrational tie", "classes": ["a", "b"],
        "cost_matrix": {"a": [0, "sqrt(2)"], "b": [member, 0]},
        "set_costs": {"a,b": [tie, "sqrt(2)/3"]},  # at y = b strictly below the mean sqrt(2)/2
    }))
    a = analyse_file(str(path))
    p3 = a.by_id["P3"]
    assert p3.verdict.value == "fails"  # not "unknown": c_Y(a) = mean is a tie, and the tie breaks "<"
    assert p3.evidence.binding.y == 0
    lhs, rhs = p3.evidence.comparisons[-1].values
    assert abs(sp.N(lhs - rhs, 60)) < sp.Float("1e-50")
    # the rest, by hand: P2 holds at y = b; P4/P10 hold; P8 fails (a differs from b); P6/P7 vacuous with K = 2
    assert {pid: a.by_id[pid].verdict.value for pid in ("P2", "P4", "P6", "P7", "P8", "P10")} == {
        "P2": "holds", "P4": "holds", "P6": "holds", "P7": "holds", "P8": "fails", "P10": "holds"}
    # {a,b} is possible (no λ works: λ_a >= 1/2 at y = a, λ_a <= 1/3 at y = b); its rational witness must hold
    (entry,) = a.possibility
    assert a.by_id["P1"].verdict.value == "holds" and entry.status is Truth.TRUE
    p, row = entry.witness, a.scheme.rows[frozenset({0, 1})]
    for h in (0, 1):
        margin = sum(p[y] * (a.scheme.det(h, y) - row[y]) for y in (0, 1))
        assert sp.N(margin, 50) > 0


def test_irrational_ties_outside_y_make_p6_and_p7_both_hold_tightly(tmp_path):
    # y outside Y costs exactly the members' mean, written differently: (log 3 + log 9) / 2 = log(27) / 2
    path = tmp_path / "tight.yaml"
    path.write_text(yaml.safe_dump({
        "name": "tight", "classes": ["a", "b", "c"],
        "cost_matrix": {"a": [0, 1, "log(3)"], "b": [1, 0, "log(9)"], "c": [1, 1, 0]},
        "set_costs": {"a,b": ["1/4", "1/4", "log(27)/2"], "a,c": ["1/4", "sqrt(4)/2", "1/4"],
                      "b,c": ["exp(log(1))", "1/4", "1/4"], "a,b,c": ["1/4", "1/4", "1/4"]},
    }))
    a = analyse_file(str(path))
    assert a.by_id["P6"].verdict.value == a.by_id["P7"].verdict.value == "holds"
    assert a.by_id["P6"].tight and a.by_id["P7"].tight
