"""The power-mean route with few classes: what the lemmas leave open is decided on every indeterminate set
(all 2^K - K - 1 of them are built), with the ordinary exact engines, and agrees with plain enumeration."""

from __future__ import annotations

import io
import json

import pytest

from verifier.analysis.pipeline import analyse
from verifier.analysis.power_mean_route import EVERY_SET_MAX_CLASSES, build_power_mean_scheme
from verifier.check.checker import check_results
from verifier.cli import check
from verifier.engines.enumerate import EnumerationEngine
from verifier.properties import BY_ID
from verifier.spec.reader import spec_from_data

TABLE_I = [[0, 1, 2], [1, 0, 2], [4, 4, 0]]  # the paper's Table I costs (classes h, b, n)


def _matrix_spec(matrix, set_cost="genmean(1 - r, [c(yh, y) for yh in Y])", r="1/2"):
    K = len(matrix)
    return spec_from_data({"name": "power mean", "classes": [f"k{i}" for i in range(K)],
                           "parameters": {"r": {"value": r}},
                           "cost_matrix": {f"k{i}": row for i, row in enumerate(matrix)}, "set_cost": set_cost})


def _formula_spec(K, cost, set_cost="genmean(1 - r, [c(yh, y) for yh in Y])", r="1/2"):
    return spec_from_data({"name": "power mean", "classes": K, "parameters": {"r": {"value": r}}, "cost": cost,
                           "set_cost": set_cost})


ZERO_ONE = "0 if yhat == y else 1"
ORDINAL = "abs(rank(yhat) - rank(y))"
SPECS = {
    "table-i r=1/2": lambda: _matrix_spec(TABLE_I),
    "table-i r=0 (arithmetic mean)": lambda: _matrix_spec(TABLE_I, r="0"),
    "table-i r=1 (geometric mean)": lambda: _matrix_spec(TABLE_I, r="1"),
    "table-i r=-1 (p = 2)": lambda: _matrix_spec(TABLE_I, r="-1"),
    "0/1 K=3": lambda: _formula_spec(3, ZERO_ONE),
    "0/1 K=4": lambda: _formula_spec(4, ZERO_ONE),
    "0/1 K=4 r=2/3": lambda: _formula_spec(4, ZERO_ONE, r="2/3"),
    "ordinal K=3": lambda: _formula_spec(3, ORDINAL),
    "ordinal K=4": lambda: _formula_spec(4, ORDINAL),
    "ordinal K=4 mean": lambda: _formula_spec(4, ORDINAL, set_cost="mean([c(yh, y) for yh in Y])"),
    "no set possible at p = 1/2": lambda: _matrix_spec([[3, 2, 1, 3], [1, 1, 0, 0], [3, 1, 0, 3], [2, 1, 0, 3]]),
    "a free class at p = 1": lambda: _matrix_spec([[2, 2, 1], [0, 0, 0], [1, 3, 2]], r="0"),
}


def _verdicts(analysis):
    return {r.property.id: r.verdict.value for r in analysis.results}


@pytest.mark.parametrize("name", list(SPECS))
def test_lemmas_agree_with_enumeration_and_leave_nothing_unknown(name):
    spec = SPECS[name]()
    by_lemmas = analyse(spec, optimality=False, lemmas=True)
    enumerated = analyse(spec, optimality=False)
    assert by_lemmas.scheme.lemma is not None
    assert _verdicts(by_lemmas) == _verdicts(enumerated), name
    assert "unknown" not in _verdicts(by_lemmas).values()
    assert all(r.checked for r in by_lemmas.results)
    for result in by_lemmas.results:  # nothing claims to be undecided beyond enumeration any more
        assert "beyond enumeration" not in result.reason


def test_the_zero_one_scheme_says_where_p8_and_p9_were_decided():
    analysis = analyse(_formula_spec(3, ZERO_ONE), optimality=False, lemmas=True)
    assert len(analysis.scheme.indeterminate_sets) == 4 and analysis.scheme.lemma.every_set
    p8, p9 = analysis.by_id["P8"], analysis.by_id["P9"]
    assert (p8.verdict.value, p9.verdict.value) == ("holds", "fails")
    for result in (p8, p9):
        assert result.reason.startswith("decided on every indeterminate set") and "all 4 were built" in result.reason
        assert result.evidence.kind == "exhaustive"
    assert analysis.by_id["P3"].evidence.kind == "lemma"  # what a lemma proves is still proved by the lemma


def test_the_cli_reports_the_exhaustion(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "zero-one.yaml"
    path.write_text("name: 0/1 p-discounted\nclasses: 3\nparameters:\n  r: {value: 0.5}\n"
                    "cost: \"0 if yhat == y else 1\"\nset_cost: \"genmean(1 - r, [c(yh, y) for yh in Y])\"\n")
    assert check([str(path), "--lemmas", "--no-cache", "--format", "json"], out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())
    assert record["power_mean"]["built"] == record["power_mean"]["sets"] == 4
    assert "decided on every indeterminate set" in record["power_mean"]["statement"]
    assert record["properties"]["P8"]["verdict"] == "holds"
    assert "decided on every indeterminate set" in record["properties"]["P8"]["explanation"]


def test_a_missing_set_is_caught_by_the_checker():
    scheme = build_power_mean_scheme(_formula_spec(4, ZERO_ONE))
    assert scheme.lemma.every_set and len(scheme.indeterminate_sets) == 11
    result = EnumerationEngine(scheme).decide(BY_ID["P8"])
    assert result.verdict.value == "holds"
    del scheme.rows[frozenset((1, 2, 3))]  # as if the route had claimed every set without building one
    check_results(scheme, [result])
    assert result.verdict.value == "unknown" and "{2, 3, 4} was not built" in result.reason


def test_beyond_the_cap_only_a_few_sets_are_built():
    K = EVERY_SET_MAX_CLASSES + 1
    scheme = build_power_mean_scheme(_formula_spec(K, ZERO_ONE))
    assert not scheme.lemma.every_set and len(scheme.indeterminate_sets) < 2 ** K - K - 1
    analysis = analyse(_formula_spec(K, ZERO_ONE), optimality=False, lemmas=True)
    assert analysis.by_id["P8"].verdict.value == "unknown"  # still said honestly where nothing decides
    assert "undecided beyond enumeration" in analysis.by_id["P8"].reason
