"""Symbolic parameters: proofs for every admissible value, exact counterexamples, regions, class sweeps."""

from __future__ import annotations

import io
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import sympy as sp
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.analysis.class_sweep import sweep
from verifier.analysis.pipeline import analyse_file
from verifier.cli import check
from verifier.engines.enumerate import EnumerationEngine
from verifier.engines.smt.translate import Translator
from verifier.scheme import build_scheme
from verifier.spec import load_spec
from verifier.verdict import Verdict

SPECS = Path(__file__).resolve().parents[2] / "specs"
SYMBOLIC = ["ha.yaml", "p-discounted-symbolic.yaml", "friedel-abstention-symbolic.yaml"]
PINNED = {  # P1..P10, H holds / F fails, for every admissible value
    # delta < eta/2 gives P1, P4-P6, P8; P2/P3 need delta < eta/3 on Omega; eta + delta exceeds the members
    "ha.yaml": "HFFHHHFHFF",
    # r = 0 is the discounted scheme (P1-P3 fail); r = 1 rewards every correct set with 0 (P9 fails)
    "p-discounted-symbolic.yaml": "FFFHHFHFFH",
    # abstaining is possible only for nu < mu/(1+mu); one constant abstention cost (P8 holds, P9 fails)
    "friedel-abstention-symbolic.yaml": "FFFHHHHHFF",
}


@lru_cache(maxsize=None)
def bundled(name: str):
    return analyse_file(str(SPECS / name))


def verdicts(analysis) -> str:
    return "".join(r.verdict.value[0].upper() for r in analysis.results)


@pytest.mark.parametrize("name", SYMBOLIC)
def test_symbolic_verdict_table(name):
    assert verdicts(bundled(name)) == PINNED[name]
    assert bundled(name).expectations_met


@pytest.mark.parametrize("name", SYMBOLIC)
def test_every_counterexample_is_rechecked_by_substitution(name):
    analysis = bundled(name)
    for result in analysis.results:
        if result.verdict is not Verdict.FAILS:
            continue
        values = result.evidence.parameters
        assert values and all(v.is_number for v in values.values())
        concrete = build_scheme(analysis.spec, values=values)  # assumptions are checked again here
        assert not concrete.symbolic
        again = EnumerationEngine(concrete).decide(result.property)
        assert again.verdict is Verdict.FAILS, (result.property.id, values)


@pytest.mark.parametrize("name", SYMBOLIC)
def test_proofs_are_spot_checked_by_the_exact_engine(name):
    for result in bundled(name).results:
        if result.verdict is Verdict.HOLDS and result.evidence.kind == "proof":
            assert result.checked and "exact engine agrees" in result.check_note


def test_ha_condition_of_the_paper_does_not_ensure_p2_p3_with_three_classes():
    r = bundled("ha.yaml").by_id["P3"]
    values = r.evidence.parameters
    assert values["delta"] < min(values[f"eta[{c}]"] for c in "abc") / 2  # admissible: the paper's condition
    assert r.region == "delta < eta[a]/3 and delta < eta[b]/3 and delta < eta[c]/3"


def test_ha_class_sweep_first_failure_at_three_classes():
    result = sweep(load_spec(str(SPECS / "ha.yaml")), [2, 3, 4], 20_000)
    assert result.first_failure("P2") == 3 and result.first_failure("P3") == 3
    assert result.analyses[2].by_id["P3"].verdict is Verdict.HOLDS  # two classes: delta < eta/2 suffices
    assert result.first_failure("P1") is None and result.first_failure("P4") is None


def test_friedel_region_is_lemma_1():
    """The derived P1 region must be equivalent, under mu, nu > 0, to nu < mu/(1+mu) (proved by z3)."""
    analysis = bundled("friedel-abstention-symbolic.yaml")
    region = analysis.by_id["P1"].region_formula
    assert region is not None
    t = Translator()
    mu, nu = sp.Symbol("mu", real=True), sp.Symbol("nu", real=True)
    lemma = t.boolean(sp.Lt(nu * (1 + mu), mu))  # Lemma 1 of Friedel et al., typed here, not in the tool
    solver = z3.Solver()
    solver.add(t.var("mu") > 0, t.var("nu") > 0, t.boolean(region) != lemma)
    assert solver.check() == z3.unsat


def test_p_discounted_boundaries_are_examined():
    a = bundled("p-discounted-symbolic.yaml")
    assert a.by_id["P3"].evidence.parameters == {"r": 0}  # no reward for cautiousness at r = 0
    assert a.by_id["P9"].evidence.parameters == {"r": 1}  # every correct set costs 0 at r = 1
    assert "interval" in a.by_id["P7"].reason


def test_unsatisfiable_assumptions_are_reported_not_held(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text('name: t\nclasses: [a, b]\nparameters: {d: {}}\nassume: ["d > 1", "d < 0"]\n'
                    'cost: "0 if yhat == y else 1"\nset_cost: "d if y in Y else 1"\n')
    analysis = analyse_file(str(path))
    assert all(r.verdict is Verdict.UNKNOWN for r in analysis.results)
    assert "no parameter value satisfies the assumptions" in analysis.results[0].reason


def test_json_counterexample_names_parameters_exactly():
    out, err = io.StringIO(), io.StringIO()
    assert check(["--format", "json", str(SPECS / "ha.yaml")], out, err) == 0, err.getvalue()
    import json

    p3 = json.loads(out.getvalue())["properties"]["P3"]
    params = p3["counterexample"]["parameters"]
    assert set(params) == {"delta", "eta[a]", "eta[b]", "eta[c]"}
    assert all(Fraction(v) == Fraction(v) for v in params.values())  # exact strings such as "15/2"


def test_class_sweep_rejects_matrix_specs():
    out, err = io.StringIO(), io.StringIO()
    assert check(["--classes", "2..4", str(SPECS / "table-vi.yaml")], out, err) == 2
    assert "formulas" in err.getvalue()


# -- the numeric engine agrees with every symbolic verdict at sampled admissible values ---------------------
fractions = st.fractions(min_value=Fraction(1, 16), max_value=Fraction(8), max_denominator=16)


@settings(max_examples=25, deadline=None)
@given(eta=st.tuples(fractions, fractions, fractions),
       share=st.fractions(Fraction(1, 32), Fraction(31, 32), max_denominator=32))
def test_ha_numeric_agrees_with_symbolic(eta, share):
    delta = share * min(eta) / 2  # 0 < delta < eta(y)/2 for every y
    values = {"delta": sp.Rational(delta), **{f"eta[{c}]": sp.Rational(e) for c, e in zip("abc", eta)}}
    _agree(bundled("ha.yaml"), values)


@settings(max_examples=15, deadline=None)
@given(r=st.fractions(Fraction(0), Fraction(1), max_denominator=12))
def test_p_discounted_numeric_agrees_with_symbolic(r):
    _agree(bundled("p-discounted-symbolic.yaml"), {"r": sp.Rational(r)})


@settings(max_examples=25, deadline=None)
@given(mu=fractions, nu=fractions)
def test_friedel_numeric_agrees_with_symbolic_and_region(mu, nu):
    analysis = bundled("friedel-abstention-symbolic.yaml")
    values = {"mu": sp.Rational(mu), "nu": sp.Rational(nu)}
    numeric = _agree(analysis, values)
    inside = bool(analysis.by_id["P1"].region_formula.subs({sp.Symbol(k, real=True): v for k, v in values.items()}))
    assert (numeric.by_id["P1"].verdict is Verdict.HOLDS) == inside


def _agree(analysis, values):
    """A property proved for every admissible value holds at this one; the exact engine decides it here."""
    concrete = build_scheme(analysis.spec, values=values)
    engine = EnumerationEngine(concrete)
    results = {r.property.id: r for r in engine.decide_all()}
    for r in analysis.results:
        if r.verdict is Verdict.HOLDS:
            assert results[r.property.id].verdict is Verdict.HOLDS, (r.property.id, values)
    return type("Numeric", (), {"by_id": results})()


def test_algebraic_counterexamples_are_exact_and_rechecked(tmp_path):
    """A model value that is not rational (the real root of t^3 - t - 1) is kept exact and re-checked."""
    path = tmp_path / "algebraic.yaml"
    path.write_text('name: t\nclasses: [a, b]\nparameters: {t: {}}\nassume: ["t * t * t - t - 1 == 0"]\n'
                    'cost: "0 if yhat == y else 1"\n'
                    'set_cost: "(0 if y in Y else 1) if len(Y) == 1 else t - 1"\n')
    p9 = analyse_file(str(path)).by_id["P9"]
    assert p9.verdict is Verdict.FAILS and p9.checked is not False
    t = p9.evidence.parameters["t"]
    assert not t.is_Rational and sp.simplify(t**3 - t - 1) == 0
