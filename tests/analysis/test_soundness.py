"""Regression tests from the soundness review: each spec once made the tool print a wrong holds, crash, or
reject a valid spec. The verdicts pinned here are the right ones (or an honest unknown)."""

from pathlib import Path

import sympy as sp

from verifier.analysis.pipeline import analyse_file
from verifier.engines.enumerate import EnumerationEngine
from verifier.scheme import build_scheme
from verifier.verdict import Verdict

HERE = Path(__file__).resolve().parent / "soundness"


def run(name):
    return analyse_file(str(HERE / name))


def test_a_guarded_square_root_in_an_assumption_keeps_negative_values_admissible():
    # sqrt's defining equation once removed t < 0 from every question, so P4 "held"; t = -1/2 breaks it
    for name in ("sqrtassume.yaml", "sqrtassume2.yaml"):
        a = run(name)
        p4 = a.by_id["P4"]
        assert p4.verdict is Verdict.FAILS, name
        assert p4.evidence.parameters["t"] < 0
    concrete = build_scheme(run("sqrtassume2.yaml").spec, values={"t": sp.Rational(-1, 2)})
    assert EnumerationEngine(concrete).decide(run("sqrtassume2.yaml").by_id["P4"].property).verdict is Verdict.FAILS


def test_sets_whose_labels_differ_only_by_spaces_get_their_own_variables():
    # {a b, c} and {ab, c} once shared P1's lambda variables, so "P1 fails" looked unsatisfiable
    assert run("labels2.yaml").by_id["P1"].verdict is Verdict.FAILS


def test_a_formula_undefined_inside_the_admissible_box_gives_no_verdict():
    # genmean with exponent exp((r-0.3)(r-0.4)) - 1 < 0 on a zero cost is undefined for r in (0.3, 0.4)
    a = run("undef3.yaml")
    assert all(r.verdict is Verdict.UNKNOWN for r in a.results)
    assert "defined" in a.results[0].reason


def test_a_set_possible_for_no_value_does_not_crash_the_region():
    a = run("fmcrash.yaml")
    assert a.by_id["P1"].verdict is Verdict.FAILS


def test_open_bounds_never_produce_a_wrong_verdict():
    # r in (0, 1): P1-P3 and P9 truly hold; intervals cannot reach the open ends, so they stay unknown
    a = run("pd_open.yaml")
    for pid in ("P1", "P2", "P3", "P9"):
        assert a.by_id[pid].verdict is not Verdict.FAILS
    assert a.by_id["P6"].verdict is Verdict.FAILS and a.by_id["P4"].verdict is Verdict.HOLDS


def test_assumptions_beyond_smt_give_unknown_not_an_internal_error():
    a = run("expassume.yaml")
    assert all(r.verdict is Verdict.UNKNOWN for r in a.results)
    assert "beyond the SMT encoding" in a.results[0].reason
