"""Design over two parameters (issue 55, item 2): where in the plane a scheme fits a setting, exactly.

The conditions are checked against what the paper says of Ha's rule (Property 3 needs delta < eta/|Y| on the
whole set: delta < eta/3 on three classes) and every status of the map against the ordinary check of the spec
with both parameters fixed at that exact point.
"""

from __future__ import annotations

import os
from fractions import Fraction

import pytest
import yaml

import verifier

from conftest import SPECS

PLANE = os.path.join(SPECS, "design", "ha-delta-eta.yaml")


@pytest.fixture(scope="module")
def maps():
    return {s: verifier.design(PLANE, setting=s) for s in ("filtering", "choice")}


def test_the_fit_conditions_are_the_papers(maps):
    filtering, choice = maps["filtering"].to_json()["map"], maps["choice"].to_json()["map"]
    assert filtering["fits_where"] == "delta < eta/3"  # P3 on {a, b, c}; P1 (delta < eta/2) is implied
    assert filtering["fits_without_warnings_where"] == "delta < eta/3 and delta > 0"  # P7 holds at delta = 0
    assert choice["fits_where"] == "delta = 0"  # P10 holds only there
    assert choice["fits_without_warnings_where"] == "no admissible value"  # P9 fails everywhere
    assert {b["property"]: b["holds_where"] for b in filtering["boundaries"]} == {
        "P1": "delta < eta/2", "P2": "delta < eta/3", "P3": "delta < eta/3", "P7": "delta = 0", "P10": "delta = 0"}
    assert maps["filtering"].status == maps["choice"].status == "mapped"
    assert maps["filtering"].ok and maps["choice"].ok  # each fits somewhere (choice only on the line delta = 0)


def test_every_drawn_status_is_the_checks_at_that_point(maps, tmp_path):
    """At grid points of each status, the spec with delta and eta fixed there fits (or not) as the map says."""
    plane = maps["filtering"].plane
    (x0, x1), (y0, y1) = plane.window
    n = len(plane.grid)
    chosen = {}
    for j, row in enumerate(plane.grid):
        for i, status in enumerate(row):
            chosen.setdefault(status, []).append((i, j))
    with open(PLANE, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    for status, cells in chosen.items():
        for i, j in cells[:: max(1, len(cells) // 3)][:3]:
            delta = x0 + (x1 - x0) * Fraction(2 * i + 1, 2 * n)
            eta = y0 + (y1 - y0) * Fraction(2 * j + 1, 2 * n)
            data["parameters"] = {"delta": {"value": f"{delta.numerator}/{delta.denominator}"},
                                  "eta": {"value": f"{eta.numerator}/{eta.denominator}"}}
            fixed = verifier.verify(data).to_json()["settings"]["filtering"]
            said = ("does not fit" if not fixed["fits"] else "fits with warnings" if fixed["warnings"] else "fits")
            assert said == status, (delta, eta)


def test_the_command_prints_the_conditions_and_exits_by_fit(cli, tmp_path):
    code, out, _ = cli("design", PLANE, "--setting", "filtering", "--plot", tmp_path / "map.svg")
    assert code == 0 and "\nIt fits (every necessary property holds) where: delta < eta/3.\n" in out
    assert "2,304" not in out and "960 fits" in out  # 48 × 48 points, counted with separators
    svg = (tmp_path / "map.svg").read_text(encoding="utf-8")
    assert ">delta<" in svg and ">eta<" in svg and "P2, P3: delta = eta/3" in svg and "does not fit" in svg


def test_one_parameter_still_calibrates():
    assert verifier.design(os.path.join(SPECS, "design", "ha-delta.yaml"), setting="filtering").status == "calibrated"


def test_a_relation_between_conditions_is_decided_at_a_point_not_an_internal_error():
    """Issue 64, item 5: a two-parameter map read a condition sympy writes as Eq(True, c) (a relation between
    truth values) as a comparison of numbers: `internal error (TypeError: BooleanAtom not allowed in this
    context.)` from `designing/plane.py:_truth`. Each side's truth is decided, then compared."""
    from verifier.designing.plane import _truth
    from verifier.lazy_sympy import sympy as sp

    s, t = sp.symbols("s t", real=True)
    inner = sp.Or(sp.Eq(s, 0), sp.Eq(s ** 2 - t / 3, 0), sp.Eq(sp.true, s ** 2 - t / 3 >= 0), evaluate=False)
    condition = sp.Eq(sp.true, inner, evaluate=False)
    point = {s: sp.Rational(1, 96), t: sp.Rational(33, 64)}
    assert _truth(condition, point) is False  # s^2 - t/3 < 0 there, and s != 0
    assert _truth(sp.Ne(sp.true, inner, evaluate=False), point) is True
    assert _truth(condition, {s: sp.Integer(1), t: sp.Rational(1, 2)}) is True
