"""Say only what is proved where a stretch's end is only enclosed (issue 37, item 1).

A zero of a comparison that certified bisection only encloses may lie anywhere in its enclosure, even at its
end. A calibration therefore never claims a verdict inside an enclosure beyond what is proved for all of it,
nor beyond an exact point decided at its end: for the issue's ordinal scheme, P8 holds only at r = 1 and the
stretch [1 - 2^-40, 1) is undecided (at r = 1 - 10^-20 P8 fails: c_Y(a)/c_Y(b) tends to √2 as r → 1). Every
piece a calibration claims is checked here by the ordinary exact pipeline at rational points near both of its
ends, enclosed ends included, and inside (hypothesis). Sweep crossings: a flip is the exact zero, never a
rational beside it, and a printed stretch never reaches past the proved one.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections import namedtuple
from fractions import Fraction

import pytest
import sympy as sp
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier
from verifier.analysis.parameter_range import inside, rational_above, rational_below
from verifier.designing.calibrate import calibrate
from verifier.designing.pieces import Piece, fit_test, settle
from verifier.errors import SpecError
from verifier.formula import certified
from verifier.report.use.scores import stretch_end as printed_end
from verifier.spec.reader import spec_from_text
from verifier.using.evaluate.crossings import Crossing, crossings
from verifier.using.evaluate.crossings import Piece as Stretch

from conftest import ROOT, SPECS

ISSUE = ("name: issue 37 ordinal\nclasses: {classes}\nparameters: {{r: {{}}}}\nassume: [\"r >= 0\", \"r <= 1\"]\n"
         "cost: \"abs(rank(yhat) - rank(y))\"\n"
         "set_cost: \"genmean(1 - r, [c(yh, y) for yh in Y]) if y in Y else genmean(1 + r, [c(yh, y) for yh in Y])\"\n")
ISSUE_3 = ISSUE.format(classes="[a, b, c]")
ISSUE_4 = ISSUE.format(classes="[a, b, c, d]")
BELOW_ONE = "1099511627775/1099511627776"  # 1 - 2^-40: the enclosure of the zero at the end r = 1
LOG = ("name: log\nclasses: [a, b]\nparameters: {d: {}}\nassume: [\"d > 0\", \"d < 3\"]\n"
       "cost: \"0 if yhat == y else 1\"\nset_cost: \"min([c(yh, y) for yh in Y]) + log(1 + d) * (len(Y) - 1)\"\n")
TIE = ("name: a tie P8 depends on\nclasses: [a, b, c]\nparameters:\n  r: {}\nassume: [\"r >= 0\", \"r <= 1\"]\n"
       "cost_matrix:\n  a: [0, 1, 1]\n  b: [2, 1, 1]\n  c: [3, 2, 2]\n"
       "set_cost: \"(0 if y in Y else 5) if len(Y) == 2 else genmean(1 - r, [c(yh, y) for yh in Y])\"\n")


def _ha() -> str:
    with open(os.path.join(SPECS, "design", "ha-delta.yaml"), encoding="utf-8") as handle:
        return handle.read()


SPECS_CALIBRATED = {"issue-3": ISSUE_3, "log": LOG, "tie": TIE, "ha": _ha()}


@functools.lru_cache(maxsize=None)
def _calibration(name: str):
    return calibrate(spec_from_text(SPECS_CALIBRATED[name], f"<{name}>"))


def _contains(piece, x) -> bool:
    """Whether the piece contains x, by exact comparison."""
    low = piece.low is None or certified.compare(piece.low, x).value in ((-1, 0) if piece.low_in else (-1,))
    high = piece.high is None or certified.compare(x, piece.high).value in ((-1, 0) if piece.high_in else (-1,))
    return low and high


@pytest.mark.parametrize("text", [ISSUE_3, ISSUE_4], ids=["3 classes", "4 classes"])
def test_p8_is_claimed_only_at_r_1_and_the_stretch_below_is_undecided(text):
    record = verifier.design(text, setting="filtering").record
    cal = record["calibration"]
    at_one = [{"low": "1", "high": "1", "low_closed": True, "high_closed": True}]
    assert cal["holds"]["P8"] == at_one
    assert cal["fits_without_warnings"]["filtering"] == at_one
    (below,) = [u for u in cal["undecided"] if u["high"] == "1"]
    assert below["low"] == BELOW_ONE and below["low_closed"] is True and below["high_closed"] is False
    assert {"P1", "P4"} <= set(below["properties"]) and "P8" not in below["properties"]
    # P8's comparisons (M_{1-r}(0, 1, 2) against M_{1-r}(0, 1, 1)) vanish only at r = 1 itself, so the enclosure
    # below it is joined to the stretch on its left alone: P9 holds (P8 fails) on all of [0, 1)
    assert cal["holds"]["P9"] == [{"low": "0", "high": "1", "low_closed": True, "high_closed": False}]
    # no run of any property or setting reaches into the enclosure: each one ends at or before its exact end
    for runs in [*cal["holds"].values(), *cal["fits"].values(), *cal["fits_without_warnings"].values()]:
        for run in runs:
            assert isinstance(run["low"], str) and isinstance(run["high"], str), run  # exact ends only
    assert "enclosed_in" not in json.dumps(cal)
    assert record["value"] == "1"


def test_no_claimed_piece_holds_p8_where_it_fails():
    # the one piece there is the enclosure below 1, joined to its left neighbour: P8 fails on it, as it does
    cal = calibrate(spec_from_text(ISSUE_3, "<issue>"))
    near_one = 1 - sp.Rational(1, 10**20)  # P8 fails there (c_Y(a)/c_Y(b) -> √2), beyond the pipeline's reach
    claimed = [p for p in cal.pieces if p.verdicts is not None and p.verdicts["P8"] is not None]
    assert [p.verdicts["P8"] for p in claimed if _contains(p, near_one)] == ["fails"]
    assert [p.verdicts["P8"] for p in claimed if _contains(p, sp.Integer(1))] == ["holds"]
    assert [p.verdicts["P8"] for p in claimed if _contains(p, sp.Rational(99, 100))] == ["fails"]
    # and the exact pipeline agrees where it reaches: P8 fails at r = 999/1000, holds at r = 1
    for value, verdict in (("999/1000", "fails"), ("1", "holds")):
        fixed = ISSUE_3.replace("r: {}", f"r: {{value: '{value}'}}")
        assert verifier.verify(fixed, cache=False, detail="summary").verdicts["P8"] == verdict


def test_the_command_says_at_r_1_and_undecided_below_it(tmp_path):
    spec = tmp_path / "issue37.yaml"
    spec.write_text(ISSUE_3, encoding="utf-8")
    before = sorted(os.listdir(tmp_path)), sorted(os.listdir(os.path.join(ROOT, "specs")))
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run([sys.executable, "-m", "verifier", "design", str(spec)], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "correctness cost-insensitivity     holds at r = 1\n" in text
    assert "filtering: fits without warnings at r = 1\n" in text
    assert f"undecided for r in [{BELOW_ONE}, 1) (P1, P4)" in text
    assert "correctness cost-sensitivity       holds for r in [0, 1)\n" in text
    assert "≈" not in text and "certified to within" not in text
    assert (sorted(os.listdir(tmp_path)), sorted(os.listdir(os.path.join(ROOT, "specs")))) == before


def test_an_enclosure_left_to_an_exact_end_is_joined_to_its_other_side_only():
    common = {f"P{i}": "holds" for i in range(1, 11)}
    left = Piece(sp.Integer(0), sp.Rational(1, 2), common | {"P8": "fails"}, possible={"{a, b}"})
    end = Piece(sp.Integer(1), sp.Integer(1), common, possible={"{a, b}"})

    def enclosure(groups, open_high=True):
        return Piece(sp.Rational(1, 2), sp.Integer(1), None, "enclosed", groups=set(groups), fuzzy=True,
                     open_high=open_high)

    untouched = enclosure({"P4"})
    settle([left, untouched, end])
    assert untouched.verdicts["P8"] == "fails" and untouched.verdicts["P4"] is None  # P8's comparisons never vanish
    assert untouched.verdicts["P1"] == "holds"
    touched = enclosure({"P8", "P1 {a, b}"})
    settle([left, touched, end])
    assert touched.verdicts["P8"] is None and touched.verdicts["P1"] is None
    closed = enclosure({"P4"}, open_high=False)  # the end's own verdict counts only when the enclosure holds it
    settle([left, closed, end])
    assert closed.verdicts["P8"] is None


def _at(text: str, value: Fraction) -> dict[str, str] | None:
    """The ordinary exact pipeline's verdicts with the parameter fixed at value (None: not evaluable there)."""
    data = yaml.safe_load(text)
    (name,) = [k for k, v in data["parameters"].items() if not v]
    data["parameters"][name] = {"value": str(value)}
    try:
        return verifier.verify(yaml.safe_dump(data, sort_keys=False), cache=False, detail="summary").verdicts
    except SpecError:  # e.g. a power mean's exponent beyond the evaluator's bound: nothing to compare
        return None


def _point(piece, where: str, k: int, at_end: bool) -> sp.Rational | None:
    """An exact rational point of the piece: at an included rational end, 10^-k inside an end (an enclosed or
    irrational end included), or strictly inside; None when there is no rational one."""
    return _point_in(piece.low, piece.high, piece.low_in, piece.high_in, where, k, at_end)


def _point_in(low, high, low_in, high_in, where: str, k: int, at_end: bool) -> sp.Rational | None:
    span = _Span(low, high, low_in, high_in)
    if low is not None and low == high:
        return low if low.is_Rational else None
    end = low if where == "low" else high if where == "high" else None
    if end is not None and at_end and end.is_Rational and (low_in if where == "low" else high_in):
        return end
    if end is None:
        x = inside(low, high)
    elif where == "low":
        x = rational_above(end) + sp.Rational(1, 10**k)
    else:
        x = rational_below(end) - sp.Rational(1, 10**k)
    return x if _contains(span, x) else inside(low, high)


_Span = namedtuple("_Span", "low high low_in high_in")


def _claimed_pieces(name: str) -> list:
    return [p for p in _calibration(name).pieces if p.admissible and not p.undefined and p.verdicts is not None
            and any(v is not None for v in p.verdicts.values())]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(SPECS_CALIBRATED)), index=st.integers(0, 1000),
       where=st.sampled_from(["low", "high", "inside"]), k=st.integers(1, 14), at_end=st.booleans())
def test_every_claimed_piece_agrees_with_the_exact_pipeline_near_its_ends(name, index, where, k, at_end):
    claimed = _claimed_pieces(name)
    piece = claimed[index % len(claimed)]
    x = _point(piece, where, k, at_end)
    if x is None:
        return
    assert _contains(piece, x)
    verdicts = _at(SPECS_CALIBRATED[name], Fraction(int(x.p), int(x.q)))
    if verdicts is None:
        return
    wrong = {pid: (claim, verdicts[pid]) for pid, claim in piece.verdicts.items()
             if claim is not None and verdicts[pid] in ("holds", "fails") and verdicts[pid] != claim}
    assert not wrong, (name, piece.low, piece.high, x, wrong)


CLAIMS = [(pid, verdict) for pid in (f"P{i}" for i in range(1, 11)) for verdict in ("holds", "fails")] + \
    [(setting, clean) for setting in ("filtering", "choice") for clean in (False, True)]


@settings(max_examples=16, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(SPECS_CALIBRATED)), claim=st.sampled_from(CLAIMS), index=st.integers(0, 1000),
       where=st.sampled_from(["low", "high", "inside"]), k=st.integers(1, 14), at_end=st.booleans())
def test_every_reported_run_agrees_with_the_exact_pipeline_near_its_ends(name, claim, index, where, k, at_end):
    """The runs the report prints ("P8 holds for r in ...", "filtering: fits for r in ..."), near both ends."""
    cal = _calibration(name)
    what, how = claim
    test = fit_test(what, clean=how) if what in ("filtering", "choice") else (lambda v: v[what] == how)
    runs = cal.where(test)
    if not runs:
        return
    run = runs[index % len(runs)]
    x = _point_in(*run, where, k, at_end)
    if x is None:
        return
    assert _contains(_Span(*run), x)
    verdicts = _at(SPECS_CALIBRATED[name], Fraction(int(x.p), int(x.q)))
    if verdicts is None or "unknown" in verdicts.values():
        return
    assert test(verdicts), (name, claim, run, x, verdicts)


def test_the_claimed_pieces_of_the_issue_spec_agree_at_their_ends():
    """Deterministically, each claimed piece of the issue's spec at both of its ends (10^-3 inside, or the end
    itself when included) and at its inner point, wherever the exact evaluator reaches (a power mean's exponent
    1/(1 - r) is bounded, so not within 1/1000 of r = 1 but at r = 1)."""
    checked = 0
    for piece in _calibration("issue-3").pieces:
        if piece.verdicts is None or not piece.admissible:
            continue
        for where in ("low", "high", "inside"):
            x = _point(piece, where, 3, at_end=True)
            verdicts = _at(ISSUE_3, Fraction(int(x.p), int(x.q)))
            if verdicts is None:
                assert x > sp.Rational(999, 1000), x
                continue
            checked += 1
            for pid, claim in piece.verdicts.items():
                assert claim is None or verdicts[pid] == claim, (piece.low, piece.high, x, pid, claim, verdicts[pid])
    assert checked >= 15


# -- sweep crossings ---------------------------------------------------------------------------------------------

Curve = namedtuple("Curve", "name expression")


def test_a_flip_at_an_irrational_zero_is_that_zero_never_a_rational_beside_it():
    r = sp.Symbol("r")
    (pair,) = crossings([Curve("a", r**2), Curve("b", sp.Rational(1, 2))], r, Fraction(0), Fraction(1))
    assert pair.flips == [sp.sqrt(2) / 2]
    left, right = pair.pieces
    assert (left.cheaper, right.cheaper) == ("a", "b")
    assert certified.compare(sp.Rational(left.high.numerator, left.high.denominator), sp.sqrt(2) / 2).value == -1
    assert certified.compare(sp.Rational(right.low.numerator, right.low.denominator), sp.sqrt(2) / 2).value == 1


def test_a_flip_between_two_close_zeros_is_the_stretch_holding_them():
    # two exact zeros whose brackets overlap: the flip is somewhere between the stretches, never one of them
    pair = Crossing("a", "b", points=[sp.sqrt(2) / 2, sp.sqrt(2) / 2 + sp.Rational(1, 10**15)],
                    pieces=[Stretch(Fraction(0), Fraction(7, 10), "a", -1), Stretch(Fraction(71, 100), Fraction(1),
                                                                                  "b", 1)])
    assert pair.flips == [(Fraction(7, 10), Fraction(71, 100))]


@settings(max_examples=60, deadline=None)
@given(num=st.integers(-10**30, 10**30), den=st.integers(10**6, 10**40))
def test_printed_stretch_ends_are_rounded_inward(num, den):
    x = Fraction(num, den)
    low, high = Fraction(printed_end(x, True)), Fraction(printed_end(x, False))
    assert high <= x <= low and low - high <= abs(x) / 10**10 + Fraction(1, 10**60)


def test_the_sweep_names_the_irrational_crossing_itself(tmp_path):
    # precise: wrong once in three (mean cost 1/3); cautious: always {h, b} (mean cost M_{1-r}(0, 1) = 2^(-1/(1-r))
    # on Table I): they cross where 1/(1 - r) = log 3 / log 2, at r = 1 - log 2 / log 3, never at a rational
    predictions = tmp_path / "pred.csv"
    predictions.write_text("true,predicted,classifier\nh,h,precise\nh,h,precise\nb,h,precise\n"
                           'h,"h,b",cautious\nh,"h,b",cautious\nb,"h,b",cautious\n', encoding="utf-8")
    before = sorted(os.listdir(tmp_path)), sorted(os.listdir(os.path.join(ROOT, "specs")))
    env = {**os.environ, "PYTHONPATH": ROOT}
    command = [sys.executable, "-m", "verifier", "evaluate", os.path.join(SPECS, "p-discounted-symbolic.yaml"),
               str(predictions), "--sweep", "r=0:1:5"]
    done = subprocess.run(command + ["--format", "json"], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    (pair,) = json.loads(done.stdout)["sweep"]["crossings"]
    (flip,) = pair["flips_at"]
    zero = 1 - sp.log(2) / sp.log(3)
    assert certified.compare(sp.sympify(flip["value"]), zero).value == 0  # test-side parsing of our own output
    text = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300).stdout
    assert "the order flips at r = -log(2)/log(3) + 1" in text
    assert (sorted(os.listdir(tmp_path)), sorted(os.listdir(os.path.join(ROOT, "specs")))) == before
