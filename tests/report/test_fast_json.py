"""The fast JSON keeps the exactness claims: on every bundled numeric spec and on random power-mean schemes,
its matrix (exact values and decimals) and its possibility margins equal those of the cell-by-cell exact
path, and so do its repairs (`how_to_fit`: the failing cells written from the certified arrays are the exact
path's sentences); the power-mean cells it makes by one `genmean` call per cell are the interpreter's cells."""

import os

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier

from conftest import SPECS

NUMERIC = ["abellan-masegosa", "accuracy-f1", "accuracy-u65", "ha-numeric", "obstacle-discounted",
           "obstacle-p-discounted-averse", "obstacle-p-discounted-cautious", "table-vi", "table-vii"]


def _same_value(a: str, b: str) -> bool:
    return a == b or sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0  # the test may read our own output


def _compare(spec) -> None:
    fast = verifier.verify(spec, cache=False, detail="text").to_json()
    exact = verifier.verify(spec, cache=False, exact=True, detail="text").to_json()
    assert [r["Y"] for r in fast["matrix"]] == [r["Y"] for r in exact["matrix"]]
    for f, e in zip(fast["matrix"], exact["matrix"]):
        assert all(_same_value(a, b) for a, b in zip(f["costs"], e["costs"])), (f["Y"], f["costs"], e["costs"])
        assert f["decimal"] == e["decimal"], f["Y"]
    for f, e in zip(fast["possibility"], exact["possibility"]):
        assert f["status"] == e["status"]
        if "witness" in f and "witness" in e and f["witness"]["p"] == e["witness"]["p"]:
            assert _same_value(f["witness"]["margin"], e["witness"]["margin"])
    assert {k: v["verdict"] for k, v in fast["properties"].items()} == \
        {k: v["verdict"] for k, v in exact["properties"].items()}
    assert {k: v["how_to_fit"] for k, v in fast["settings"].items()} == \
        {k: v["how_to_fit"] for k, v in exact["settings"].items()}


@pytest.mark.parametrize("stem", NUMERIC)
def test_fast_json_equals_the_exact_json(stem):
    _compare(os.path.join(SPECS, f"{stem}.yaml"))


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 5), st.sampled_from(["1/2", "1/3", "0", "3/4"]),
       st.lists(st.integers(0, 4), min_size=25, max_size=25))
def test_fast_json_equals_the_exact_json_on_random_power_means(K, r, table):
    rows = [[0 if h == y else 1 + table[(h * K + y) % 25] for y in range(K)] for h in range(K)]
    spec = {"name": "random power mean", "classes": K, "parameters": {"r": {"value": r}},
            "cost_matrix": {str(h + 1): rows[h] for h in range(K)},
            "set_cost": "genmean(1 - r, [c(yh, y) for yh in Y])"}
    _compare(spec)


def test_repairs_written_from_the_arrays_are_the_exact_sentences(monkeypatch):
    """Ordinal p-discounted costs at 6 classes: P6 fails at irrational cells (sums of square roots); the
    fast path writes those sentences from the certified enclosures, and they are the exact path's."""
    from verifier.analysis import remedy

    spec = {"name": "ordinal p-discounted", "classes": 6, "parameters": {"r": {"value": "1/2"}},
            "cost": "abs(rank(yhat) - rank(y))", "set_cost": "genmean(1 - r, [c(yh, y) for yh in Y])"}
    exact_calls = []
    original = remedy._exact_cell_fix
    monkeypatch.setattr(remedy, "_exact_cell_fix", lambda *a: exact_calls.append(a) or original(*a))
    fast = verifier.verify(spec, cache=False, detail="text").to_json()["settings"]["filtering"]["how_to_fit"]
    from_arrays = fast["cells_total"]["P6"] - len(exact_calls)
    assert from_arrays > 100 and any("≈" in cell for cell in fast["cells"]["P6"])
    exact = verifier.verify(spec, cache=False, exact=True, detail="text").to_json()
    exact = exact["settings"]["filtering"]["how_to_fit"]
    assert fast == exact
