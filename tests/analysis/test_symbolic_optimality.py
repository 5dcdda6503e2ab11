"""Per-set optimality with one symbolic parameter: every status a piece of the parameter's range claims is
the numeric optimality at sampled exact values inside it (alone and never are carried across a piece by their
evidence; ties only at checked points), a set said `alone` is alone at the value it names, and `never` covers
every admissible value."""

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier
from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.check.optimality import check_optimality
from verifier.engines.optimality import analyse_optimality
from verifier.scheme import build_scheme
from verifier.spec.reader import spec_from_data, spec_from_text

from conftest import SPECS


def _numeric(spec, theta: str, value) -> dict:
    concrete = build_scheme(spec, values={theta: value})
    found = analyse_optimality(concrete)
    check_optimality(concrete, found)
    return {m: e.status for m, e in found.items()}


def _inside(lo, hi) -> list:
    if lo == hi:
        return [lo]
    return [lo + (hi - lo) * sp.Rational(k, 7) for k in (1, 3, 6)]


def _agrees(spec, theta: str) -> dict:
    scheme = build_scheme(spec)
    found = symbolic_optimality(scheme)
    assert set(found) == set(scheme.all_sets)
    for members, entry in found.items():
        if entry.status == "alone":
            assert _numeric(spec, theta, entry.at[theta])[members] == "alone"
        for lo, hi, status in entry.where:
            if status == "unknown" or lo is None or hi is None:
                continue
            for x in _inside(lo, hi):
                assert _numeric(spec, theta, x)[members] in (status, "unknown"), (members, x, status)
        if entry.status == "never":
            assert all(status == "never" for _, _, status in entry.where)
    return found


def test_p_discounted_obstacle_every_set_is_alone_somewhere():
    spec = spec_from_text(open(f"{SPECS}/p-discounted-symbolic.yaml").read(), "p.yaml")
    found = _agrees(spec, "r")
    assert {e.status for e in found.values()} == {"alone"}
    everything = found[frozenset({0, 1, 2})]
    assert everything.at == {"r": sp.Rational(1, 2)} and ("1", "1", "alone") in [tuple(map(str, w)) for w in
                                                                                everything.where]


def test_ha_delta_never_and_alone_regions():
    text = ("name: Ha\nclasses: [a, b, c]\nparameters:\n  delta: {}\nassume: [\"delta >= 0\", \"delta <= 2\"]\n"
            "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + delta * (len(Y) - 1)\"\n")
    found = _agrees(spec_from_text(text, "<ha>"), "delta")
    full = found[frozenset({0, 1, 2})]
    assert full.status == "alone" and full.at["delta"] < sp.Rational(1, 3)  # 2 delta < 2/3: cheaper than any pair
    report = verifier.verify(text, cache=False).to_json()
    assert {e["Y"][0] if len(e["Y"]) == 1 else None for e in report["optimality"]} >= {"a", "b", "c"}
    assert all("where" in e for e in report["optimality"])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 4), min_size=9, max_size=9), st.sampled_from(["1 - r", "r"]))
def test_random_three_class_power_means_agree_with_numeric_optimality(costs, exponent):
    rows = {h: [0 if h == y else costs[3 * h + y] for y in range(3)] for h in range(3)}
    spec = spec_from_data({"name": "random", "classes": 3, "parameters": {"r": {}},
                           "assume": ["r >= 0", "r <= 1"], "cost_matrix": {str(h + 1): rows[h] for h in range(3)},
                           "set_cost": f"genmean({exponent}, [c(yh, y) for yh in Y])"})
    _agrees(spec, "r")


def test_two_parameters_are_decided_across_both():
    """Issue 55: with two parameters the set is decided for every admissible value (it used to say that only
    one parameter was handled), with the point of both where its witness holds."""
    text = ("name: two\nclasses: [a, b]\nparameters:\n  d: {}\n  e: {}\nassume: [\"d >= 0\", \"e >= 0\"]\n"
            "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + d * e\"\n")
    optimal = verifier.verify(text, cache=False).to_json()["possibility"][0]["optimal"]
    assert optimal["status"] == "alone" and set(optimal["at"]) == {"d", "e"}
    assert "checked exactly there" in optimal["reason"]


@pytest.mark.parametrize("value", [Fraction(1, 2)])
def test_numeric_schemes_are_unchanged(value):
    text = open(f"{SPECS}/p-discounted-symbolic.yaml").read().replace("r: {}", f"r: {{value: {value}}}")
    report = verifier.verify(text, cache=False).to_json()
    assert all("where" not in e for e in report["optimality"])
