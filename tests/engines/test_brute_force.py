"""The exact engine against a plain, independent brute force on random small schemes (DESIGN.md §2).

Nothing from verifier is reused for the expected answers: P2..P10 are evaluated straight from the §2 table in
`fractions.Fraction`, and P1 by one exact rational LP per set with sympy's simplex. The tool only supplies its
verdicts, possibility statuses, witnesses p and certificates λ, which are re-checked here in Fractions.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from fractions import Fraction as F

import pytest
import sympy as sp
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st
from sympy.solvers.simplex import linprog

from verifier.analysis.pipeline import analyse_file
from verifier.verdict import Truth

NAMES = "abc"
POOL = sorted({F(n, d) for n in range(9) for d in range(1, 5)})  # 0..8 over 1..4
TINY = [F(0), F(1, 2), F(1)]  # few values: many ties, so the equality cases are exercised
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def indeterminate(K: int) -> list[frozenset[int]]:
    return [frozenset(c) for n in range(2, K + 1) for c in itertools.combinations(range(K), n)]


@st.composite
def schemes(draw):
    """(K, det[h][y], rows[Y][y]); a set entry is a free value or exactly the mean, half the mean, min or max."""
    K = draw(st.sampled_from([2, 3]))
    values = draw(st.sampled_from([POOL, TINY]))
    det = [[draw(st.sampled_from(values)) for _ in range(K)] for _ in range(K)]
    rows = {}
    for Y in indeterminate(K):
        row = []
        for y in range(K):
            col = [det[h][y] for h in sorted(Y)]
            how = draw(st.sampled_from(["free", "free", "mean", "half", "min", "max"]))
            row.append(draw(st.sampled_from(values)) if how == "free" else
                       {"mean": sum(col) / len(col), "half": sum(col) / len(col) / 2, "min": min(col),
                        "max": max(col)}[how])
        rows[Y] = row
    return K, det, rows


def encode(v: F):
    """Three spellings the spec allows: an integer, an exact decimal, a formula string."""
    if v.denominator == 1:
        return v.numerator
    if v.denominator in (2, 4):
        return float(v)  # 0.25, 2.75: exact in binary and in decimal; the tool reads decimals exactly
    return f"{v.numerator}/{v.denominator}"


def analyse_data(K, det, rows):
    names = NAMES[:K]
    spec = {"name": "random", "classes": list(names),
            "cost_matrix": {names[h]: [encode(v) for v in det[h]] for h in range(K)},
            "set_costs": {",".join(names[i] for i in sorted(Y)): [encode(v) for v in row] for Y, row in rows.items()}}
    fd, path = tempfile.mkstemp(suffix=".yaml")
    try:
        with os.fdopen(fd, "w") as handle:
            yaml.safe_dump(spec, handle)
        return analyse_file(path)
    finally:
        os.unlink(path)


def frac(x) -> F:
    x = sp.Rational(x)
    return F(int(x.p), int(x.q))


# -- the brute force, straight from the §2 table ---------------------------------------------------------------
def brute_verdicts(K, det, rows) -> dict[str, str]:
    sets, classes = list(rows), range(K)
    c = lambda Y, y: rows[Y][y]
    col = lambda Y, y: [det[h][y] for h in sorted(Y)]  # C_Y(y) before sorting
    mean = lambda Y, y: sum(col(Y, y)) / len(Y)
    pairs = lambda dom: [(y, z) for y in dom for z in dom if y != z]
    truth = {
        "P2": all(any(c(Y, y) < mean(Y, y) for y in classes) for Y in sets),
        "P3": all(c(Y, y) < mean(Y, y) for Y in sets for y in Y),
        "P4": all(c(Y, y) >= min(col(Y, y)) for Y in sets for y in classes),
        "P5": all(sorted(col(Y, y)) != sorted(col(Y, z)) or c(Y, y) == c(Y, z)
                  for Y in sets for y, z in pairs(classes)),
        "P6": all(c(Y, y) >= mean(Y, y) for Y in sets for y in classes if y not in Y),
        "P7": all(c(Y, y) <= mean(Y, y) for Y in sets for y in classes if y not in Y),
        "P8": all(c(Y, y) == c(Y, z) for Y in sets for y in Y for z in Y),
        "P9": any(sorted(col(Y, y)) != sorted(col(Y, z)) and c(Y, y) != c(Y, z) for Y in sets for y, z in pairs(Y)),
        "P10": all(c(Y, y) <= max(col(Y, y)) for Y in sets for y in classes),
    }
    return {pid: "holds" if ok else "fails" for pid, ok in truth.items()}


def lp_possible(K, det, row, Y) -> bool:
    """max t s.t. Σ_y p_y (c_Y(y) − c_ŷ(y)) + t <= 0 (ŷ in Y), p in the simplex; possible iff t* > 0.

    t is written s − M with s >= 0 and M a bound on |t|: sympy's simplex can cycle ("oscillating system")
    when a free t is split as t+ − t-.
    """
    M = 1 + sum(abs(v) for v in row) + sum(abs(v) for r in det for v in r)
    R = lambda v: sp.Rational(v.numerator, v.denominator)
    A = [[R(row[y] - det[h][y]) for y in range(K)] + [1] for h in sorted(Y)]
    optimum, _ = linprog([0] * K + [-1], A=A, b=[R(M)] * len(A), A_eq=[[1] * K + [0]], b_eq=[1])
    return -optimum - M > 0


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
