"""Conditions on parameters are simplified exactly, printed in the paper's notation, and agree with `verify design`.

The compact report once said a scheme "fits the filtering setting exactly for the admissible parameter values
where (w < 1/3) and (Eq(w, 1))": an empty set, in sympy's syntax, while `verify design` rightly said it fits
for no admissible value. Each sentence below is checked against the calibration of the same spec.
"""

import os

import pytest
import sympy as sp

import verifier
from verifier.analysis.conditions import condition_text, formula_text, one_parameter_set, set_text
from verifier.analysis.remedy import how_to_fit
from verifier.designing import fit_test

from conftest import SPECS

ORDINAL_W = """
name: ordinal min plus w
classes: {K}
parameters: {{w: {{}}}}
assume: ["w >= 0", "w <= 1"]
cost: "abs(rank(yhat) - rank(y))"
set_cost: "{set_cost}"
"""
SET_COSTS = ["min(c(v, y) for v in Y) + w * (len(Y) - 1)", "mean([c(v, y) for v in Y]) - w * (len(Y) - 1) / K",
             "(0 if y in Y else 1) + w * (len(Y) - 1) / K"]


def _write(tmp_path, K: int, set_cost: str):
    path = tmp_path / f"w{K}-{abs(hash(set_cost)) % 1000}.yaml"
    path.write_text(ORDINAL_W.format(K=K, set_cost=set_cost))
    return str(path)


def _design_set(spec: str, setting: str) -> sp.Set | None:
    """The values where `verify design` says the scheme fits the setting, as an exact set (None: part of the
    range is undecided there, so the two cannot be compared)."""
    cal = verifier.design(spec, setting=setting).calibration
    if any(piece.verdicts is None for piece in cal.pieces):
        return None
    found = sp.S.EmptySet
    for low, high, low_in, high_in in cal.where(fit_test(setting)):
        low = sp.S.NegativeInfinity if low is None else low
        high = sp.S.Infinity if high is None else high
        found = found.union(sp.FiniteSet(low) if low == high else sp.Interval(low, high, not low_in, not high_in))
    return found


def test_the_issue_example_says_no_admissible_value_and_a_point(tmp_path):
    spec = _write(tmp_path, 4, SET_COSTS[0])
    report = verifier.verify(spec, cache=False, detail="summary")
    text = report.to_summary(width=200)
    assert "Eq(" not in text and "(w < 1/3) and" not in text
    assert "no admissible parameter value makes the scheme fit the filtering setting" in text
    assert "P6 holds exactly where w = 1" in text and "P3 holds exactly where w in [0, 1/3)" in text
    assert "fits the choice setting exactly for the admissible parameter values where w = 0 " in text
    assert "holds exactly where w = 0" in text  # P7 and P10, as relations of the paper, not Eq(w, 0)


@pytest.mark.parametrize("K", [3, 4])
@pytest.mark.parametrize("set_cost", SET_COSTS)
def test_the_fit_condition_is_the_calibrations_set(tmp_path, K, set_cost):
    spec = _write(tmp_path, K, set_cost)
    analysis = verifier.verify(spec, cache=False, detail="text").analysis
    for setting, remedy in how_to_fit(analysis).items():
        designed = _design_set(spec, setting)
        if designed is None or remedy.condition is None:
            continue
        assert remedy.condition == set_text("w", designed) if designed is not sp.S.EmptySet \
            else remedy.condition == "no admissible value", (setting, remedy.condition, designed)


@pytest.mark.parametrize("name", ["p-discounted-symbolic.yaml", os.path.join("design", "ha-delta.yaml")])
def test_bundled_one_parameter_specs_agree_with_design(name):
    spec = os.path.join(SPECS, name)
    analysis = verifier.verify(spec, cache=False, detail="text").analysis
    for setting, remedy in how_to_fit(analysis).items():
        designed = _design_set(spec, setting)
        if designed is not None and remedy.condition is not None:
            expected = "no admissible value" if designed is sp.S.EmptySet else set_text(analysis.scheme.symbols[0].name,
                                                                                       designed)
            assert remedy.condition == expected, (name, setting)


def test_no_sympy_syntax_in_any_parametric_report():
    for name in ("friedel-abstention-symbolic.yaml", "ha.yaml", "p-discounted-symbolic.yaml"):
        text = verifier.verify(os.path.join(SPECS, name), cache=False, detail="summary").to_summary(width=300)
        for raw in ("Eq(", "Ne(", "<=", ">=", "And(", "Or("):
            assert raw not in text, (name, raw)


def test_relations_print_as_the_paper_writes_them():
    w, m = sp.symbols("w m", real=True)
    assert formula_text(sp.And(sp.Eq(w, 1), sp.Le(m, sp.Rational(1, 2)))) == "m ≤ 1/2 and w = 1"
    assert formula_text(sp.Or(sp.Ne(w, 0), sp.Ge(m, 2))) == "(m ≥ 2) or (w ≠ 0)"
    assert formula_text(sp.false) == "no admissible value"
    assert set_text("w", sp.Union(sp.Interval.Ropen(0, sp.Rational(1, 3)), sp.FiniteSet(1))) == "w in [0, 1/3) ∪ {1}"
    assert set_text("w", sp.FiniteSet(sp.Rational(1, 2))) == "w = 1/2"
    assert set_text("w", sp.S.EmptySet) == "no admissible value"


class _OneParameter:
    def __init__(self, symbol, assumptions):
        self.symbols = [symbol]
        self.assumptions = [(a, str(a)) for a in assumptions]


def test_one_parameter_sets_are_cut_to_the_admissible_values_exactly():
    w = sp.Symbol("w", real=True)
    scheme = _OneParameter(w, [sp.Ge(w, 0), sp.Le(w, 1)])
    assert one_parameter_set(scheme, sp.And(sp.Lt(w, sp.Rational(1, 3)), sp.Eq(w, 1))) is sp.S.EmptySet
    assert one_parameter_set(scheme, sp.Lt(w, 2)) == sp.Interval(0, 1)
    text, empty = condition_text(scheme, sp.And(sp.Le(w, sp.Rational(1, 3)), sp.Ge(w, sp.Rational(1, 3))))
    assert (text, empty) == ("w = 1/3", False)
    assert condition_text(scheme, sp.Gt(w, 1)) == ("no admissible value", True)
    # an irrational end stays exact: the root of w**2 = 1/2, never a decimal
    assert one_parameter_set(scheme, sp.Lt(w**2, sp.Rational(1, 2))) == sp.Interval.Ropen(0, sp.sqrt(2) / 2)
