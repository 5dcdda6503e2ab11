"""Reproduce Yang, Destercke & Masson (2017) exactly: Tables III-VII, IX, X, Fig. 2, Examples 5-6,
Proposition 1, the claims of Sections V-VI, and Friedel et al.'s Lemma 1. All value checks are exact sympy."""

from functools import lru_cache
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sympy import Rational as R

from verifier.analysis.pipeline import analyse_file
from verifier.verdict import Truth

SPECS = Path(__file__).resolve().parents[2] / "specs"
TABLE_I = "cost_matrix:\n  h: [0, 1, 2]\n  b: [1, 0, 2]\n  n: [4, 4, 0]\n"


@lru_cache(maxsize=None)
def bundled(name):
    return analyse_file(str(SPECS / f"{name}.yaml"))


def run(tmp_path, text, name="variant.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return analyse_file(str(path))


def rows_by_label(scheme):
    """{'h,b': (costs...)} in the paper's notation, so tables can be written as printed."""
    return {",".join(scheme.classes[i] for i in sorted(m)): v for m, v in scheme.rows.items()}


def assert_rows(scheme, expected):
    got = rows_by_label(scheme)
    assert set(got) == set(expected)
    for label, row in expected.items():
        assert all(sp.sympify(v).is_Rational for v in got[label]), label
        assert got[label] == tuple(sp.sympify(v) for v in row), label


def holding(a, ids):
    return {p: a.by_id[p].verdict.value for p in ids}


def expected_cost(scheme, label, p):
    return sum(pi * c for pi, c in zip(p, rows_by_label(scheme)[label]))


def certificate_is_valid(scheme, poss):
    lam = poss.certificate
    assert lam is not None and set(lam) <= poss.members
    assert all(v >= 0 for v in lam.values()) and sum(lam.values()) == 1
    return all(sp.simplify(scheme.cost(poss.members, y) - sum(k * scheme.det(h, y) for h, k in lam.items())) >= 0
               for y in range(scheme.K))


def zero_one_table(pair, triple):
    return {"h": (0, 1, 1), "b": (1, 0, 1), "n": (1, 1, 0), "h,b": (pair, pair, 1), "b,n": (1, pair, pair),
            "h,n": (pair, 1, pair), "h,b,n": (triple,) * 3}


# -- Section III: accuracy -------------------------------------------------------------------------------

def test_table_iii_u65_entries_exact():
    assert_rows(bundled("accuracy-u65").scheme, zero_one_table(R(7, 20), R(8, 15)))


def test_table_iii_paper_rounds_8_15_wrongly_as_0_54():
    def g(x):  # Eq. 8
        return R(-6, 10) * x**2 + R(16, 10) * x

    assert g(R(1, 2)) == R(65, 100)
    assert 1 - g(R(1, 3)) == R(8, 15)
    assert round(8 / 15, 2) == 0.53 != 0.54  # the paper prints 0.54: a rounding error


def test_u80_gives_one_fifth_on_pairs_two_fifths_on_triple():
    assert_rows(bundled("accuracy-u80").scheme, zero_one_table(R(1, 5), R(2, 5)))


def test_table_iv_one_minus_f1_entries_exact():
    assert_rows(bundled("accuracy-f1").scheme, zero_one_table(R(1, 3), R(1, 2)))


def test_one_minus_f2_entries_exact():
    assert_rows(bundled("accuracy-f2").scheme, zero_one_table(R(1, 6), R(2, 7)))


# -- Section IV: discounted costs, Examples 5 and 6 ---------------------------------------------------------

def test_table_v_discounted_costs_all_21_entries():
    assert_rows(bundled("obstacle-discounted").scheme, {
        "h": (0, 1, 2), "b": (1, 0, 2), "n": (4, 4, 0),
        "h,b": (R(1, 2), R(1, 2), 2), "b,n": (R(5, 2), 2, 1), "h,n": (2, R(5, 2), 1),
        "h,b,n": (R(5, 3), R(5, 3), R(4, 3))})


def test_proposition_1_discounted_costs_make_every_set_impossible():
    a = bundled("obstacle-discounted")
    assert a.by_id["P1"].verdict.value == "fails" and a.by_id["P1"].evidence.kind == "certificates"
    assert len(a.possibility) == 4
    for poss in a.possibility:
        assert poss.status is Truth.FALSE
        assert certificate_is_valid(a.scheme, poss)
        # the proof's own certificate: the uniform mixture reproduces c_Y exactly
        uniform = [sum(a.scheme.det(h, y) for h in poss.members) / len(poss.members) for y in range(3)]
        assert list(a.scheme.rows[poss.members]) == uniform


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=9, max_size=9))
def test_proposition_1_holds_for_random_cost_matrices(tmp_path_factory, cells):
    # Proposition 1 is general: any determinate costs completed with Eq. 10 rule out every indeterminate set
    m = [cells[0:3], cells[3:6], cells[6:9]]
    text = (f"name: d\nclasses: [a, b, c]\ncost_matrix:\n  a: {m[0]}\n  b: {m[1]}\n  c: {m[2]}\n"
            'set_cost: "mean([c(yh, y) for yh in Y])"\n')
    a = run(tmp_path_factory.mktemp("prop1"), text)
    assert a.by_id["P1"].verdict.value == "fails"
    assert all(p.status is Truth.FALSE and certificate_is_valid(a.scheme, p) for p in a.possibility)


def obstacle_with_hb(tmp_path, hb):
    # Table I, the {h,b} row given, other rows discounted (they do not affect {h,b}'s possibility)
    return run(tmp_path, f"name: ex\nclasses: [h, b, n]\n{TABLE_I}"
                         f'set_cost: "mean([c(yh, y) for yh in Y])"\nset_costs:\n  "h,b": {hb}\n')


def hb_possibility(a):  # the {h,b} entry of Definition 4
    return next(p for p in a.possibility if p.members == frozenset({0, 1}))


def test_example_5_low_hb_costs_beat_singletons_under_uniform_p(tmp_path):
    a = obstacle_with_hb(tmp_path, "[0.25, 0.25, 2]")
    uniform = [R(1, 3)] * 3
    assert expected_cost(a.scheme, "h,b", uniform) == R(5, 6)
    assert expected_cost(a.scheme, "h", uniform) == expected_cost(a.scheme, "b", uniform) == 1
    assert hb_possibility(a).status is Truth.TRUE


def test_example_5_high_hb_costs_make_hb_impossible(tmp_path):
    a = obstacle_with_hb(tmp_path, "[1, 1, 2]")
    poss = hb_possibility(a)
    assert poss.status is Truth.FALSE and certificate_is_valid(a.scheme, poss)
    assert a.by_id["P1"].verdict.value == "fails"  # every other row is discounted, hence impossible too


def test_example_6_hb_possible_although_uniform_p_prefers_singletons(tmp_path):
    a = obstacle_with_hb(tmp_path, "[0.25, 0.25, 3]")
    uniform, half = [R(1, 3)] * 3, [R(1, 2), R(1, 2), 0]
    assert expected_cost(a.scheme, "h,b", uniform) == R(7, 6)
    assert expected_cost(a.scheme, "h", uniform) == expected_cost(a.scheme, "b", uniform) == 1
    assert expected_cost(a.scheme, "h,b", half) == R(1, 4) < R(1, 2) == expected_cost(a.scheme, "h", half)
    assert expected_cost(a.scheme, "b", half) == R(1, 2)
    assert hb_possibility(a).status is Truth.TRUE


# -- Example 7, Fig. 2 ----------------------------------------------------------------------------------------

H, N, HN = frozenset({0}), frozenset({1}), frozenset({0, 1})


@pytest.mark.parametrize("name, first, second", [("table-vi", R(1, 4), R(7, 8)), ("table-vii", R(1, 6), R(5, 6))])
def test_fig_2_decision_regions_exact(name, first, second):
    d = bundled(name).decision
    assert d.variable == "p(n)"
    assert [(r.low, r.high, r.optimal) for r in d.regions] == [(0, first, [H]), (first, second, [HN]),
                                                              (second, 1, [N])]
    assert all(isinstance(x, sp.Rational) for r in d.regions for x in (r.low, r.high))


def test_table_vii_shifts_both_boundaries_left():
    before, after = bundled("table-vi").decision.boundaries(), bundled("table-vii").decision.boundaries()
    assert all(b < a for a, b in zip(before, after))


# -- Section V: review of related works --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["accuracy-u65", "accuracy-u80"])
def test_utility_discounted_accuracy_satisfies_all_but_p9(name):
    a = bundled(name)
    assert {p: r.verdict.value for p, r in a.by_id.items()} == {f"P{i}": "fails" if i == 9 else "holds"
                                                                 for i in range(1, 11)}


def test_ha_satisfies_p4_p5_p6_p8_and_fails_p10():
    a = bundled("ha-numeric")
    assert holding(a, ["P4", "P5", "P6", "P8"]) == dict.fromkeys(["P4", "P5", "P6", "P8"], "holds")
    assert a.by_id["P10"].verdict.value == "fails"


def test_ha_numeric_instance_matches_table_ix():
    d, (ea, eb, ec) = R(2, 5), (1, 2, 4)
    assert_rows(bundled("ha-numeric").scheme, {"a": (0, eb, ec), "b": (ea, 0, ec), "c": (ea, eb, 0),
                                       "a,b": (d, d, ec + d), "a,c": (d, eb + d, d), "b,c": (ea + d, d, d),
                                       "a,b,c": (2 * d, 2 * d, 2 * d)})


def test_ha_claim_delta_below_half_eta_ensures_p3_is_false_with_three_classes():
    # the paper: delta < eta(y)/2 ensures P2 and P3. With K = 3, P3 needs delta < eta(y)/|Y| on Y = Omega.
    r = bundled("ha-numeric").by_id["P3"]
    assert r.verdict.value == "fails" and r.evidence.kind == "counterexample" and r.checked
    assert (r.evidence.binding.members, r.evidence.binding.y) == (frozenset({0, 1, 2}), 0)
    assert r.evidence.comparisons[0].values == (R(4, 5), R(2, 3))


HA = """name: ha variant
classes: {classes}
parameters:
  delta: {{value: "{delta}"}}
  eta: {{per_class: true, value: {eta}}}
assume: ["delta > 0", "delta < eta[y] / 2"]
cost: "0 if yhat == y else eta[y]"
set_cost: "(0 if y in Y else eta[y]) + delta * (len(Y) - 1)"
"""


def test_ha_equal_etas_fail_both_p2_and_p3(tmp_path):
    a = run(tmp_path, HA.format(classes="[a, b, c]", delta="0.4", eta="[1, 1, 1]"))
    assert holding(a, ["P2", "P3"]) == {"P2": "fails", "P3": "fails"}
    assert a.by_id["P2"].evidence.binding.members == frozenset({0, 1, 2})  # 4/5 >= 2/3 for every y


@settings(max_examples=20, deadline=None)
@given(st.fractions(min_value=R(1, 100), max_value=10), st.fractions(min_value=R(1, 100), max_value=10),
       st.fractions(min_value=0, max_value=1, max_denominator=1000))
def test_ha_two_classes_delta_below_half_eta_ensures_p2_and_p3(tmp_path_factory, eta_a, eta_b, share):
    delta = share * min(eta_a, eta_b) / 2
    assume(0 < delta < min(eta_a, eta_b) / 2)
    a = run(tmp_path_factory.mktemp("ha2"), HA.format(classes="[a, b]", delta=delta, eta=f'["{eta_a}", "{eta_b}"]'))
    assert holding(a, ["P2", "P3"]) == {"P2": "holds", "P3": "holds"}


def test_abellan_masegosa_basic_and_filtering_properties_hold():
    a = bundled("abellan-masegosa")
    assert holding(a, ["P4", "P10", "P5", "P6", "P8"]) == dict.fromkeys(["P4", "P10", "P5", "P6", "P8"], "holds")


def test_abellan_masegosa_modifies_the_initial_costs():
    s = bundled("abellan-masegosa").scheme
    assert s.notes
    assert s.det(0, 1) == R(3, 2) * sp.log(3)  # c_a(b) was 1


def test_abellan_masegosa_p3_fails_by_exact_tie_on_omega():
    r = bundled("abellan-masegosa").by_id["P3"]
    assert r.verdict.value == "fails" and r.checked
    assert r.evidence.binding.members == frozenset({0, 1, 2})
    lhs, rhs = r.evidence.comparisons[0].values
    assert sp.simplify(lhs - sp.log(3)) == 0
    assert sp.simplify(lhs - rhs) == 0
    assert sp.simplify(rhs - R(2, 3) * sp.log(3) * R(3, 2)) == 0


# -- Section VI: p-discounted costs ---------------------------------------------------------------------------

def test_table_x_cautious_r_half_entries_exact():
    # the paper prints 0.89 for c_{h,b,n}(n) = (2 sqrt(2) / 3)^2 = 8/9
    assert_rows(bundled("obstacle-p-discounted-cautious").scheme, {
        "h": (0, 1, 2), "b": (1, 0, 2), "n": (4, 4, 0),
        "h,b": (R(1, 4), R(1, 4), 2), "b,n": (R(9, 4), 1, R(1, 2)), "h,n": (1, R(9, 4), R(1, 2)),
        "h,b,n": (1, 1, R(8, 9))})
    assert round(8 / 9, 2) == 0.89


COMMON = ["P2", "P3", "P4", "P5", "P9", "P10"]


@pytest.mark.parametrize("name, holds, fails", [
    ("obstacle-p-discounted-cautious", "P7", "P6"),
    ("ordinal-l1-9", "P7", "P6"),
    ("obstacle-p-discounted-averse", "P6", "P7"),
])
def test_p_discounted_costs_properties(name, holds, fails):
    a = bundled(name)
    assert holding(a, COMMON) == dict.fromkeys(COMMON, "holds")
    assert holding(a, [holds, fails]) == {holds: "holds", fails: "fails"}


@pytest.mark.parametrize("name, props", [("table-vi", ["P2", "P3", "P8"]), ("table-vii", ["P2", "P3", "P9"])])
def test_example_7_tables_follow_the_stated_properties(name, props):
    assert holding(bundled(name), props) == dict.fromkeys(props, "holds")


# -- Friedel, Rueckert & Kramer, Lemma 1 --------------------------------------------------------------------

FRIEDEL = """name: friedel variant
classes: [P, N]
parameters: {{mu: {{value: "{mu}"}}, nu: {{value: "{nu}"}}}}
cost_matrix: {{P: [0, mu], N: [1, 0]}}
set_costs: {{"P,N": [nu, nu]}}
"""


@pytest.mark.parametrize("mu, nu", [
    (R(1, 2), R(1, 4)), (R(1, 2), R(1, 3) - R(1, 10**6)), (R(1, 2), R(1, 3)), (R(1, 2), R(1, 3) + R(1, 10**6)),
    (1, R(1, 2)), (1, R(1, 2) - R(1, 10**12)), (1, 0), (1, 1), (2, R(2, 3)), (2, R(2, 3) - R(1, 1000)),
    (R(1, 7), R(1, 8)), (R(1, 7), R(1, 8) - R(1, 10**15)), (R(3, 10), R(3, 13)), (R(1, 1000), R(1, 1001)),
])
def test_friedel_lemma_1_abstaining_possible_iff_nu_below_mu_over_one_plus_mu(tmp_path, mu, nu):
    a = run(tmp_path, FRIEDEL.format(mu=mu, nu=nu))
    (poss,) = a.possibility
    possible = nu < R(mu) / (1 + R(mu))  # strict: on the boundary the set only ties (Definition 4)
    assert a.by_id["P1"].verdict.value == ("holds" if possible else "fails")
    assert poss.status is (Truth.TRUE if possible else Truth.FALSE)
    if not possible:
        assert certificate_is_valid(a.scheme, poss)


def test_friedel_bundled_instance_abstains_between_one_half_and_three_quarters():
    d = bundled("friedel-abstention").decision
    assert [(r.low, r.high, r.optimal) for r in d.regions] == [(0, R(1, 2), [H]), (R(1, 2), R(3, 4), [HN]),
                                                              (R(3, 4), 1, [N])]
