"""The power-mean route (lemmas over the K x K costs, a few sets built) against full enumeration, and at 40
classes where enumeration cannot go."""

from __future__ import annotations

import io
import json
import os
import re

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.analysis.pipeline import analyse
from verifier.analysis.power_mean_route import NotPowerMean, build_power_mean_scheme
from verifier.cli import check
from verifier.engines.power_mean.lemmas import PowerMeanLemmas
from verifier.errors import UsageError
from verifier.spec.reader import spec_from_data

from conftest import SPECS

EXPONENTS = ["0", "1/3", "1/2", "1", "2", "3"]
SEARCH_ONLY = {"P1", "P8", "P9"}  # the lemmas may leave these to the sets built


def _spec(matrix, exponent, set_cost=None):
    K = len(matrix)
    return spec_from_data({"name": "power mean", "classes": [f"k{i}" for i in range(K)],
                           "cost_matrix": {f"k{i}": row for i, row in enumerate(matrix)},
                           "set_cost": set_cost or f"genmean({exponent}, [c(yh, y) for yh in Y])"})


def _verdicts(analysis):
    return {r.property.id: r.verdict.value for r in analysis.results}


matrices = st.integers(3, 6).flatmap(lambda K: st.lists(
    st.lists(st.integers(0, 4), min_size=K, max_size=K), min_size=K, max_size=K))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrix=matrices, exponent=st.sampled_from(EXPONENTS), zero_diagonal=st.booleans())
def test_the_lemma_route_agrees_with_enumeration(matrix, exponent, zero_diagonal):
    if zero_diagonal:
        matrix = [[0 if h == y else v for y, v in enumerate(row)] for h, row in enumerate(matrix)]
    spec = _spec(matrix, exponent)
    enumerated = analyse(spec, optimality=False)
    by_lemmas = analyse(spec, optimality=False, lemmas=True)
    assert by_lemmas.scheme.lemma is not None and len(by_lemmas.scheme.indeterminate_sets) < 2 ** len(matrix)
    for pid, verdict in _verdicts(by_lemmas).items():
        want = _verdicts(enumerated)[pid]
        if verdict == "unknown":
            assert pid in SEARCH_ONLY, (pid, matrix, exponent)
        else:
            assert verdict == want, (pid, matrix, exponent, by_lemmas.by_id[pid].reason)
    assert all(r.checked for r in by_lemmas.results if r.verdict.value != "unknown")


@pytest.mark.parametrize("exponent", EXPONENTS)
def test_the_ordinal_scheme_is_decided_in_full_by_lemmas_and_built_sets(exponent):
    matrix = [[abs(h - y) for y in range(7)] for h in range(7)]
    spec = _spec(matrix, exponent)
    by_lemmas = _verdicts(analyse(spec, optimality=False, lemmas=True))
    assert by_lemmas == _verdicts(analyse(spec, optimality=False))
    assert "unknown" not in by_lemmas.values()


def test_the_arithmetic_mean_is_a_power_mean_with_p_equal_to_1():
    matrix = [[abs(h - y) for y in range(5)] for h in range(5)]
    spec = _spec(matrix, None, set_cost="mean([c(yh, y) for yh in Y])")
    analysis = analyse(spec, optimality=False, lemmas=True)
    assert analysis.scheme.lemma.exponent == 1
    assert _verdicts(analysis) == _verdicts(analyse(spec, optimality=False))
    assert analysis.by_id["P6"].tight and analysis.by_id["P7"].tight


def test_forty_ordinal_classes_get_full_verdicts_with_the_lemmas_named():
    out, err = io.StringIO(), io.StringIO()
    spec = os.path.join(SPECS, "ordinal-l1-40.yaml")
    code = check([spec, "--no-cache", "--format", "json"], out, err)
    assert code == 0, err.getvalue()
    record = json.loads(out.getvalue())
    verdicts = {pid: p["verdict"] for pid, p in record["properties"].items()}
    assert verdicts == {"P1": "holds", "P2": "holds", "P3": "holds", "P4": "holds", "P5": "holds", "P6": "fails",
                        "P7": "holds", "P8": "fails", "P9": "holds", "P10": "holds"}
    assert record["power_mean"]["sets"] == 2 ** 40 - 41 and record["power_mean"]["exponent"] == "1/2"
    p3 = record["properties"]["P3"]
    assert p3["lemma"]["name"] == "power mean" and "p<1" in p3["lemma"]["premises"] and p3["checked"]
    assert "1,099,511,627,735 indeterminate sets" in p3["explanation"]
    assert record["properties"]["P6"]["counterexample"]["Y"] == ["1", "2"]


def test_a_lemma_whose_premise_is_false_is_not_confirmed():
    from verifier.check.checker import check_results
    from verifier.properties import BY_ID
    from verifier.verdict import Evidence, LemmaProof, PropertyResult, Verdict

    spec = _spec([[0, 1, 2], [1, 0, 1], [2, 1, 0]], "1/2")
    scheme = build_power_mean_scheme(spec)
    wrong = PropertyResult(BY_ID["P6"], Verdict.HOLDS,
                           Evidence("lemma", lemma=LemmaProof("power mean", "", ("p>=1",), sp.Rational(1, 2))))
    check_results(scheme, [wrong])
    assert wrong.verdict.value == "unknown" and "p>=1" in wrong.reason


@pytest.mark.parametrize("set_cost, why", [
    ("genmean(1/2, [c(yh, y) for yh in Y if yh != y])", "members' own costs"),
    ("genmean(len(Y), [c(yh, y) for yh in Y])", "calls len()"),
    ("genmean(y, [c(yh, y) for yh in Y])", "reads 'y'"),
    ("genmean(1/2, [c(y, yh) for yh in Y])", "members' own costs"),
    ("min([c(yh, y) for yh in Y])", "not genmean(E, [...]) or mean"),
    ("1 + genmean(1/2, [c(yh, y) for yh in Y])", "not a call"),
])
def test_other_shapes_are_refused_with_the_reason(set_cost, why):
    spec = _spec([[0, 1, 2], [1, 0, 1], [2, 1, 0]], None, set_cost=set_cost)
    with pytest.raises(NotPowerMean, match=re.escape(why)):
        build_power_mean_scheme(spec)
    with pytest.raises(UsageError, match="power-mean route"):
        analyse(spec, lemmas=True)


def test_the_lemmas_name_the_sets_that_break_a_property():
    lemmas = PowerMeanLemmas(sp.Rational(1, 2), [[sp.Integer(v) for v in row]
                                                  for row in [[0, 1, 1], [1, 0, 1], [1, 1, 0]]])
    assert lemmas.proof("P6") is not None  # every other class costs 1 at each truth: P6 holds tight
    lemmas = PowerMeanLemmas(sp.Integer(2), [[sp.Integer(v) for v in row]
                                              for row in [[0, 1, 2], [1, 0, 1], [2, 1, 0]]])
    assert lemmas.proof("P7") is None and lemmas.failing_sets("P7") == [frozenset({1, 2})]
    assert lemmas.proof("P1") is not None  # p >= 1: no set is ever possible


def test_how_to_fit_states_what_the_lemma_needs_and_why_it_is_not_met():
    names = ("k0", "k1", "k2")
    lemmas = PowerMeanLemmas(sp.Integer(2), [[sp.Integer(v) for v in row]
                                              for row in [[0, 1, 2], [1, 0, 1], [2, 1, 0]]])
    assert lemmas.condition("P7", names) == (
        "By the power-mean inequality it holds exactly when the exponent p of genmean is <= 1, or when at each true "
        "class y every other class costs the same; here p = 2, and at y = k0 the classes k1 and k2 cost differently")
    assert lemmas.condition("P1", names).endswith("here p = 2")
    assert lemmas.condition("P3", names).endswith("here p = 2 >= 1")
    lemmas = PowerMeanLemmas(sp.Rational(1, 2), [[sp.Integer(v) for v in row]
                                                  for row in [[0, 1, 1], [0, 1, 1], [1, 1, 0]]])
    assert lemmas.condition("P2", names).endswith("here k0 and k1 have the same row")
    assert lemmas.condition("P3", names).endswith("here at y = k0 the class k1 costs c_y(y)")
    out = io.StringIO()
    assert check([os.path.join(SPECS, "ordinal-l1-40.yaml"), "--no-cache", "--format", "json"], out, io.StringIO()) == 0
    step = json.loads(out.getvalue())["settings"]["filtering"]["how_to_fit"]["steps"][0]
    assert step.startswith("P6 (mistake aversion) fails in at least")
    assert step.endswith("exactly when the exponent p of genmean is >= 1, or when at each true class y every other "
                         "class costs the same; here p = 1/2, and at y = 1 the classes 2 and 3 cost differently")


def test_the_lemmas_read_each_property_through_its_definition():
    """Shapes come from the catalogue's quantifiers and atoms; a definition no rule covers is an explicit skip."""
    from dataclasses import replace as changed

    from verifier.engines.power_mean.shapes import shape_of
    from verifier.properties import BY_ID, Compare

    kinds = {pid: shape_of(prop).kind for pid, prop in BY_ID.items()}
    assert kinds == {"P1": "possible", "P2": "vs-mean", "P3": "vs-mean", "P4": "bounds", "P5": "multiset",
                     "P6": "vs-mean", "P7": "vs-mean", "P8": "equal-in-Y", "P9": "differs-in-Y", "P10": "bounds"}
    strict_p6 = changed(BY_ID["P6"], atom=Compare("<", BY_ID["P6"].atom.lhs, BY_ID["P6"].atom.rhs))
    assert shape_of(strict_p6) is None  # "<" over sets missing the truth: no rule, so no proof is claimed
    below_max = changed(BY_ID["P10"], atom=Compare("<", BY_ID["P10"].atom.lhs, BY_ID["P10"].atom.rhs))
    assert shape_of(below_max) is None  # bounds give <= max, never < max


def test_lemmas_on_a_scheme_it_cannot_serve_is_a_usage_error_naming_why():
    out, err = io.StringIO(), io.StringIO()
    assert check(["--lemmas", os.path.join(SPECS, "accuracy-u65.yaml"), "--no-cache"], out, err) == 2
    assert "power-mean route (--lemmas) does not apply" in err.getvalue() and "Traceback" not in err.getvalue()
    err = io.StringIO()
    assert check(["--lemmas", "--classes", "2..4", os.path.join(SPECS, "ordinal-l1-9.yaml")], out, err) == 2
    assert "does not combine with --classes" in err.getvalue()


PDS = os.path.join(SPECS, "p-discounted-symbolic.yaml")


def _symbolic_spec(K):
    import yaml

    data = yaml.safe_load(open(PDS))
    data.pop("cost_matrix")
    data.update(classes=K, cost="abs(rank(yhat) - rank(y))")
    return spec_from_data(data)


def test_a_symbolic_exponent_is_decided_by_cases_like_the_smt_pipeline():
    from verifier.spec import load_spec

    spec = load_spec(PDS)
    by_cases = analyse(spec, lemmas=True)
    assert _verdicts(by_cases) == {pid: v for pid, v in spec.expect.items()}  # the SMT pipeline's pinned verdicts
    p3 = by_cases.by_id["P3"]
    assert p3.evidence.parameters == {"r": 0} and p3.region == "p = 0 or 0 < p < 1, where p = 1 - r"
    p4 = by_cases.by_id["P4"].evidence.lemma
    assert [c[0] for c in p4.cases] == ["p = 0", "0 < p < 1", "p = 1"] and p4.excluded == ("p < 0", "p > 1")
    assert all(r.checked for r in by_cases.results)


def test_forty_ordinal_classes_with_symbolic_r_and_the_cases_re_checked():
    analysis = analyse(_symbolic_spec(40))
    assert analysis.scheme.lemma is not None and analysis.scheme.symbolic
    assert "".join(v[0].upper() for v in _verdicts(analysis).values()) == "FFFHHFHFFH"
    assert "by cases of p = 1 - r" in __import__("verifier.report.check.words", fromlist=["explain"]).explain(
        analysis.by_id["P7"], analysis.scheme)


def test_a_case_wrongly_called_empty_is_not_confirmed():
    from verifier.check.checker import check_results

    analysis = analyse(_symbolic_spec(5), lemmas=True)
    result = analysis.by_id["P4"]
    proof = result.evidence.lemma
    forged = __import__("dataclasses").replace(proof, cases=proof.cases[:-1], excluded=proof.excluded + ("p = 1",))
    result.evidence.lemma, result.checked = forged, False
    check_results(analysis.scheme, [result])
    assert result.verdict.value == "unknown" and "p = 1" in result.reason
