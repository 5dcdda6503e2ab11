"""Calibration at ties of power means (issue 24, item 15; issue 29, item 3): a breakpoint where two power means
(or a power mean and a number) are equal is found in closed form when the exponential sum behind it allows
(log u / log g), every property is decided AT it by the engine and the checker, verdicts that do not change
there merge across it, and when nothing fits, the answer names the demands that fail and where.
"""

from __future__ import annotations

import os

import sympy as sp

import verifier
from verifier.analysis.exp_sums import zeros_of_sum
from verifier.analysis.zeros import zeros
from verifier.check.checker import check_results
from verifier.designing.calibrate import calibrate
from verifier.designing.comparisons import differences
from verifier.designing.pieces import Piece, settle
from verifier.engines.enumerate import EnumerationEngine
from verifier.formula import certified
from verifier.formula.genmean import GenMean
from verifier.properties import PROPERTIES
from verifier.scheme.exact import build_scheme
from verifier.spec.reader import spec_from_text

from conftest import SPECS

P_DISCOUNTED = 'set_cost: "genmean(1 - r, [c(yh, y) for yh in Y])"\n'
HEAD = 'parameters:\n  r: {}\nassume: ["r >= 0", "r <= 1"]\n'
ORDINAL_4 = 'name: p-discounted ordinal 4\nclasses: 4\n' + HEAD + 'cost: "abs(rank(yhat) - rank(y))"\n' + P_DISCOUNTED
TABLE_I = ("name: p-discounted Table I\nclasses: [h, b, n]\n" + HEAD +
           "cost_matrix:\n  h: [0, 1, 2]\n  b: [1, 0, 2]\n  n: [4, 4, 0]\n" + P_DISCOUNTED)
# On the set {a, b, c}, c_Y(a) = M(0, 2, 3) and c_Y(b) = c_Y(c) = M(1, 1, 2), exponent E = 1 - r: equal exactly
# where 3^E = 2. The pairs keep P8 out of the picture (both members of a pair cost 0).
TIE_3 = ("name: a tie P8 depends on\nclasses: [a, b, c]\n" + HEAD +
         "cost_matrix:\n  a: [0, 1, 1]\n  b: [2, 1, 1]\n  c: [3, {c}, {c}]\n"
         'set_cost: "(0 if y in Y else 5) if len(Y) == 2 else genmean(1 - r, [c(yh, y) for yh in Y])"\n')
R0 = 1 - sp.log(2) / sp.log(3)


def _at(text: str, value) -> dict[str, str]:
    """Every property at r = value by the engine and the independent checker, on the exact matrix (the spec
    format takes rational values only, so an irrational value goes in through the engine API)."""
    scheme = build_scheme(spec_from_text(text, "<t>"), values={"r": value})
    results = [EnumerationEngine(scheme).decide(prop) for prop in PROPERTIES]
    check_results(scheme, results)
    assert all(r.checked for r in results)
    return {r.property.id: r.verdict.value for r in results}


def _piece_at(cal, value) -> Piece:
    for piece in cal.pieces:
        low = piece.low is None or certified.compare(piece.low, value).value in ((0,) if piece.point else (-1,))
        high = piece.high is None or certified.compare(value, piece.high).value in ((0,) if piece.point else (-1,))
        if low and high:
            return piece
    raise AssertionError(f"no piece holds {value}")


def test_closed_forms_of_exponential_sums():
    q = sp.Rational
    assert zeros_of_sum({q(3): q(1), q(1): q(-2)}) == [sp.log(2) / sp.log(3)]  # 3^s = 2
    (s,) = zeros_of_sum({q(1): q(2), q(2): q(1), q(1, 2): q(-4)})  # 2 + 2^s = 4 (1/2)^s: u^2 + 2u - 4 = 0
    assert certified.sign(sp.simplify(2 + 2**s - 4 * q(1, 2)**s)).value == 0
    assert certified.compare(s, sp.log(sp.sqrt(5) - 1) / sp.log(2)).value == 0
    assert zeros_of_sum({q(4): q(1), q(9): q(1), q(1): q(-2)}) is None  # 2^(2s) + 3^(2s) = 2: rank two
    assert zeros_of_sum({q(2, 3): q(1), q(9, 4): q(-1)}) == [0]  # g = 3/2: u^-1 = u^2 only at u = 1
    assert zeros_of_sum({q(3): q(1), q(4): q(-1)}) == [0]  # 3^s = 4^s: the ratio 4/3 is the one base


def test_the_tie_of_two_power_means_is_found_exactly():
    r = sp.Symbol("r", real=True)
    found, enclosed = zeros(GenMean(1 - r, 0, 2, 3) - GenMean(1 - r, 1, 1, 2), r, sp.Integer(0), sp.Integer(1))
    assert enclosed == [] and len(found) == 1 and certified.compare(found[0], R0).value == 0
    found, enclosed = zeros(GenMean(1 - r, 0, 1, 1, 2) - sp.Rational(1, 2), r, sp.Integer(0), sp.Integer(1))
    assert enclosed == [] and certified.compare(found[0], 1 - sp.log(sp.sqrt(5) - 1) / sp.log(2)).value == 0


def test_ordinal_four_has_no_undecided_point_and_merged_ranges():
    result = verifier.design(ORDINAL_4, setting="filtering")
    cal = result.record["calibration"]
    assert cal["undecided"] == []
    whole = {"low": "0", "high": "1", "low_closed": True, "high_closed": True}
    assert cal["holds"]["P5"] == [whole]
    assert cal["holds"]["P9"] == [whole | {"high_closed": False}]
    assert cal["holds"]["P8"] == [{"low": "1", "high": "1", "low_closed": True, "high_closed": True}]
    assert "holds for r in [0, 1]\n" in result.text.split("P5")[1].split("P6")[0] + "\n"
    assert "≈" not in result.text.split("filtering:")[0]  # no enclosed end left in the verdicts
    # the pair M(0,2,3) / M(1,1,2) lies in one row with y in Y, y' outside it: no property compares it
    spec = spec_from_text(ORDINAL_4, "<t>")
    scheme = build_scheme(spec)
    pair = GenMean(1 - scheme.symbols[0], 0, 2, 3) - GenMean(1 - scheme.symbols[0], 1, 1, 2)
    assert all(d not in (pair, -pair) for d, _ in differences(scheme, scheme.symbols[0]))


def test_ordinal_four_at_the_tie_agrees_with_the_checker_there():
    at = _at(ORDINAL_4, R0)
    assert (at["P5"], at["P8"], at["P9"]) == ("holds", "fails", "holds")
    assert _piece_at(calibrate(spec_from_text(ORDINAL_4, "<t>")), R0).verdicts == at
    # and beside it, the ordinary checker on the spec with r fixed agrees with the engine at the tie
    for value in ("0.36", "0.38"):
        report = verifier.verify(ORDINAL_4.replace("r: {}", f"r: {{value: {value}}}"), cache=False)
        assert {pid: report.verdicts[pid] for pid in ("P5", "P8", "P9")} == {"P5": "holds", "P8": "fails",
                                                                            "P9": "holds"}


def test_a_tie_that_decides_a_property_is_an_exact_irrational_point():
    text = TIE_3.replace("{c}", "2")
    cal = calibrate(spec_from_text(text, "<t>"))
    point = _piece_at(cal, R0)
    assert point.point and certified.compare(point.low, R0).value == 0
    assert point.verdicts == _at(text, R0) and point.verdicts["P8"] == "holds" and point.verdicts["P9"] == "fails"
    record = verifier.design(text, setting="choice").record["calibration"]
    assert record["holds"]["P8"] == [{"low": "1 - log(2)/log(3)", "high": "1 - log(2)/log(3)", "low_closed": True,
                                      "high_closed": True}]
    assert [(run["high"], run["high_closed"]) for run in record["holds"]["P9"]] == [("1 - log(2)/log(3)", False),
                                                                                   ("1", True)]
    assert record["undecided"] == []


def test_a_tie_without_closed_form_stays_enclosed_and_undecided():
    # M(0, 2, 3) = M(1, 1, 1) = 1 where 2^E + 3^E = 3: two independent bases, no closed form
    record = verifier.design(TIE_3.replace("{c}", "1"), setting="choice").record["calibration"]
    (undecided,) = record["undecided"]
    assert set(undecided["properties"]) == {"P8", "P9"}
    first = record["holds"]["P9"][0]  # the run stops at the enclosure's exact low end, excluded (issue 37.1)
    assert first["high"] == undecided["low"] and first["high_closed"] is False and undecided["low_closed"]


def test_settle_fills_only_what_the_checker_left_unknown_and_no_comparison_touches():
    common = {f"P{i}": "holds" for i in range(1, 11)} | {"P6": "fails"}
    before, after = Piece(None, 0, dict(common), possible={"{a, b}"}), Piece(0, None, dict(common),
                                                                              possible={"{a, b}"})
    point = Piece(0, 0, common | {"P6": None, "P8": None, "P1": None}, "", groups={"P8", "P1 {a, c}"},
                  why={"P6": "x", "P8": "y", "P1": "z"})
    settle([before, point, after])
    assert point.verdicts["P6"] == "fails" and point.verdicts["P1"] == "holds" and point.verdicts["P8"] is None
    assert point.reason == "P8: y"


def test_no_fit_names_the_failing_demands_and_where():
    for text in (ORDINAL_4, TABLE_I):
        result = verifier.design(text, setting="filtering")
        assert result.status == "no fit"
        assert ("No admissible value of r meets the firm demands of the filtering setting: P6 (mistake aversion) "
                "fails for every r in (0, 1]; P1 (possibility) fails at r = 0.") in result.text
        assert [f["property"] for f in result.record["why_no_fit"]["failing"]] == ["P6", "P1"]
    table_i = verifier.design(TABLE_I, setting="choice").record["calibration"]
    assert table_i["fits"]["choice"][0] | {"bounded_below_by": []} == {
        "low": "0", "high": "1", "low_closed": False, "high_closed": True, "bounded_below_by": [],
        "bounded_above_by": []}
    assert table_i["fits"]["filtering"] == [] and table_i["undecided"] == []
    ha = verifier.design(os.path.join(SPECS, "design", "ha-delta.yaml"), setting="choice")
    assert ("choice setting: P10 (upper boundedness) fails for every delta in (0, 2]; P9 (correctness "
            "cost-sensitivity) fails for every delta in [0, 2].") in ha.text  # necessary ones first


def test_algebraic_points_and_poles_are_breakpoints_decided_exactly():
    # Ha's rule with delta^2: P3 holds iff delta^2 < 1/3; the end sqrt(3)/3 is decided there by the checker
    ha2 = ("name: ha squared\nclasses: [a, b, c]\nparameters:\n  delta: {}\nassume: [\"delta >= 0\", \"delta <= 2\"]\n"
           "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + delta**2 * (len(Y) - 1)\"\n")
    record = verifier.design(ha2, setting="filtering").record["calibration"]
    assert record["undecided"] == []
    assert record["holds"]["P3"] == [{"low": "0", "high": "sqrt(3)/3", "low_closed": True, "high_closed": False}]
    # a pole at d = 1 changes signs without a zero: it is a breakpoint (undefined there), not an interior point
    pole = ("name: pole\nclasses: [a, b]\nparameters:\n  d: {}\nassume: [\"d >= 0\", \"d <= 2\"]\n"
            "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + (len(Y) - 1) / (d - 1)\"\n")
    record = verifier.design(pole, setting="filtering").record["calibration"]
    assert [u["low"] for u in record["undecided"]] == ["1"]
    assert record["holds"]["P4"] == [{"low": "1", "high": "2", "low_closed": False, "high_closed": True}]


def test_ties_across_a_negative_exponent_are_found_through_the_ratio_of_bases():
    # M_p(1, 2, 3) = M_p(1, 2, 4) where 3^p = 4^p: only at p = 0 (a breakpoint, where the geometric means differ),
    # whatever the sign of p, since every value is positive
    text = ("name: neg\nclasses: [a, b, c]\nparameters:\n  p: {}\nassume: [\"p >= -1\", \"p <= 1\"]\n"
            "cost_matrix: {a: [1, 2, 3], b: [2, 1, 4], c: [3, 4, 1]}\n"
            'set_cost: "genmean(p, [c(yh, y) for yh in Y])"\n')
    record = verifier.design(text, setting="choice").record["calibration"]
    assert record["undecided"] == []
    assert record["holds"]["P9"] == [{"low": "-1", "high": "1", "low_closed": True, "high_closed": True}]


def test_ties_at_closed_form_points_are_exact_zeros_and_near_ties_are_not():
    r = sp.Symbol("r", real=True)
    at_sqrt5 = GenMean(1 - r, 0, 1, 1, 2).subs(r, 1 - sp.log(sp.sqrt(5) - 1) / sp.log(2))  # ((1 + √5)/4)^(1/s)
    assert certified.compare(at_sqrt5, sp.Rational(1, 2)).value == 0
    u = sp.CRootOf(sp.Symbol("x")**3 + sp.Symbol("x") - 3, 0)  # Table I: M_s(0, 1, 4) = 1/2 where u^3 + u = 3
    at_cubic = GenMean(1 - r, 0, 1, 4).subs(r, 1 - sp.log(u) / sp.log(2))
    assert certified.compare(at_cubic, sp.Rational(1, 2)).value == 0
    assert certified.compare(at_cubic, sp.Rational(1, 2) + sp.Rational(1, 10**30)).value == -1
    assert certified.compare(at_cubic, sp.Rational(1, 2) + sp.Rational(1, 10**1300)).value is None  # too close
    # so at that breakpoint of Table I the checker itself decides every property
    cal = calibrate(spec_from_text(TABLE_I, "<t>"))
    (point,) = [p for p in cal.pieces if p.point and not p.low.is_Rational]
    assert None not in point.verdicts.values() and not point.why


# Found by an adversarial review of issue 11's reports (formerly in test_review_regressions.py).
def test_calibration_reads_a_chained_assumption():
    # "0 <= r <= 1" is a conjunction for sympy; calibration took it for one inequality and crashed
    text = ("name: p-discounted, chained bounds\nclasses: 3\nparameters: {r: {}}\nassume: '0 <= r <= 1'\n"
            "cost: 'abs(rank(yhat) - rank(y))'\nset_cost: 'genmean(1 - r, [c(yh, y) for yh in Y])'\n")
    chained = calibrate(spec_from_text(text))
    split = calibrate(spec_from_text(text.replace("'0 <= r <= 1'", "['r >= 0', 'r <= 1']")))

    def ends(c):
        return (c.pieces[0].low, c.pieces[-1].high)

    assert ends(chained) == ends(split) == (0, 1)
    assert [p.verdicts for p in chained.pieces] == [p.verdicts for p in split.pieces]
