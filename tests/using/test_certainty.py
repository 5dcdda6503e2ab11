"""Certainty and doubt of each decision (Berenbeim et al.): the paper's formulas by hand, ties (infinite doubt),
K = 2, the exact two-class certainty margin against `decide` on random rows, and hostile inputs to
`decide --certainty` as located usage errors."""

import json
import math
import os
import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import yaml

from verifier.analysis.pipeline import build
from verifier.api.entry import load
from verifier.report.text.float_text import shortest_texts
from verifier.using.certainty import block_certainty, doubt_cost, pairwise, two_class_margin
from verifier.using.decide import decide
from verifier.using.exact import rational_rows
from verifier.using.inputs import DistributionFile

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")
FRIEDEL = os.path.join(SPECS, "friedel-abstention.yaml")


def _spec(tmp_path, source, classes, **changes):
    data = yaml.safe_load(open(source))
    data["classes"] = classes
    data.pop("expect", None)
    data.update(changes)
    path = tmp_path / f"spec-{len(classes)}.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_pairwise_certainty_doubt_and_cost_are_the_papers_formulas_by_hand():
    j, chi, delta = pairwise([F(1, 10), F(3, 10), F(6, 10)])
    assert j == 2
    assert chi == [F(1, 2), F(3, 10), F(1)]  # χ_i = p_j − p_i, χ_j = 1
    assert delta == [F(2), F(10, 3), F(0)]  # δ_i = 1/χ_i, δ_j = 0
    product = F(1, 4) * F(9, 100)  # Π_{i≠j} χ_i² = 9/400: θ = arcsin(391/409), as the paper writes it
    assert (1 - product) / (1 + product) == F(391, 409)
    assert doubt_cost(chi, j) == pytest.approx(math.asin(391 / 409), rel=1e-15)
    with mpmath.workdps(50):
        assert doubt_cost(chi, j) == pytest.approx(float(mpmath.asin(mpmath.mpf(391) / 409)), rel=2e-16)


def test_a_tie_for_the_top_class_is_infinite_doubt_and_the_first_class_is_the_top():
    j, chi, delta = pairwise([F(2, 5), F(2, 5), F(1, 5)])
    assert (j, chi[1], delta[1]) == (0, 0, None)
    assert doubt_cost(chi, j) == math.pi / 2
    c = block_certainty(rational_rows([[F(2, 5), F(2, 5), F(1, 5)], [F(1, 2), F(1, 4), F(1, 4)]], 3))
    assert c.tied.tolist() == [True, False]
    assert c.max_doubt[0] == math.inf and c.min_certainty[0] == 0 and c.theta[0] == math.pi / 2
    assert c.min_certainty[1] == 0.25 and c.max_doubt[1] == 4.0 and c.top.tolist() == [0, 0]


def test_k2_one_hot_row_has_no_doubt_cost():
    c = block_certainty(rational_rows([[F(1), F(0)], [F(0), F(1)]], 2))
    assert c.top.tolist() == [0, 1] and c.min_certainty.tolist() == [1.0, 1.0] and c.theta.tolist() == [0.0, 0.0]


def test_equal_floats_of_different_decimals_are_no_tie(tmp_path, cli):
    """Rounded to floats, 0.35000000000000000001 and 0.35 are equal; the exact rows are not."""
    path = tmp_path / "p.csv"
    path.write_text("h,b,n\n0.35,0.35000000000000000001,0.29999999999999999999\n0.25,0.25,0.5\n0.4,0.4,0.2\n")
    blocks = list(DistributionFile(str(path), ("h", "b", "n")).blocks())
    c = block_certainty(blocks[0])
    assert c.tied.tolist() == [False, False, True]
    assert c.top.tolist() == [1, 2, 0]  # b, by 10^-20: the integers decide what the floats cannot
    assert c.min_certainty[0] == 1e-20 and c.max_doubt[0] == 1e20
    code, out, err = cli("decide", U65, "--p-file", str(path), "--certainty")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith(",top,min_certainty,max_doubt,doubt_cost,tie")
    assert lines[1].split(",")[-5:] == ['"b"', "1e-20", "1e+20",
                                          shortest_texts([math.pi / 2 - 2 * math.atan(1e-20 * 0.05)])[0],
                                          "0"]
    assert lines[3].split(",")[-5:] == ['"h"', "0.0", "inf", repr(math.pi / 2), "1"]  # the same digits
    assert "ties for the top class (infinite doubt): 1" in err


def test_random_rows_match_the_exact_formulas():
    rng = random.Random(7)
    rows = []
    for _ in range(300):
        K = rng.choice([2, 3, 5, 10])
        raw = [rng.choice([0, 1, 2, 3, 5, 8]) for _ in range(K)]
        raw[0] += sum(raw) == 0
        rows.append([F(x, sum(raw)) for x in raw])
    for p in rows:
        c = block_certainty(rational_rows([p], len(p)))
        j, chi, delta = pairwise(p)
        least = min(x for i, x in enumerate(chi) if i != j)
        assert c.top[0] == j and bool(c.tied[0]) == (least == 0)
        assert c.min_certainty[0] == pytest.approx(float(least), rel=1e-14)
        assert c.max_doubt[0] == (math.inf if least == 0 else pytest.approx(float(1 / least), rel=1e-14))
        assert c.theta[0] == pytest.approx(doubt_cost(chi, j), rel=1e-14)
        prod = math.prod(x * x for i, x in enumerate(chi) if i != j)
        with mpmath.workdps(60):  # the paper's arcsin, in 60 digits, of the exact argument
            paper = mpmath.asin(mpmath.mpf(prod.denominator - prod.numerator) / (prod.denominator + prod.numerator))
        assert doubt_cost(chi, j) == pytest.approx(float(paper), rel=1e-15)


@pytest.mark.parametrize("which", ["u65", "friedel", "ha"])
def test_two_class_margin_against_decide_on_random_rows(tmp_path, which):
    if which == "u65":
        path, expected = _spec(tmp_path, U65, ["a", "b"]), (F(-3, 10), F(3, 10))
    elif which == "friedel":
        path, expected = FRIEDEL, (F(-1, 2), F(0))  # abstain iff 1/4 < p_P < 1/2 (mu = 1/2, nu = 1/4)
    else:  # Ha's class-selective rejection, equal miss costs 1 and delta = 1/5: both iff |p_a − p_b| < 1 − 2δ
        path = _spec(tmp_path, os.path.join(SPECS, "ha-numeric.yaml"), ["a", "b"],
                     parameters={"delta": {"value": "1/5"}, "eta": {"per_class": True, "value": {"a": 1, "b": 1}}})
        expected = (F(-3, 5), F(3, 5))
    scheme = build(load(path))
    m = two_class_margin(scheme)
    assert not m.empty and (m.lo, m.hi) == expected
    assert m.symmetric == (which != "friedel")
    rng = random.Random(11)
    points = [F(rng.randrange(0, 1001), 1000) for _ in range(300)] + [(1 + m.lo) / 2, (1 + m.hi) / 2, F(1, 2)]
    for pa in points:
        d = decide(scheme, [pa, 1 - pa])
        assert (len(d.prediction) == 2) == (m.lo < 2 * pa - 1 < m.hi), (pa, d.optimal)


def test_margin_is_printed_with_certainty_and_absent_beyond_two_classes(tmp_path, cli):
    code, out, err = cli("decide", _spec(tmp_path, U65, ["a", "b"]), "--p", "a=0.6,b=0.4", "--certainty",
                         "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert record["certainty"]["margin"]["minimum_certainty_below"] == "3/10"
    assert record["certainty"]["pairwise_certainty"] == {"a": "1", "b": "1/5"}
    code, out, err = cli("decide", U65, "--p", "h=0.4,b=0.4,n=0.2", "--certainty", "--format", "json")
    record = json.loads(out)
    assert code == 0 and "margin" not in record["certainty"]
    assert record["certainty"]["pairwise_doubt"]["b"] == "inf" and record["certainty"]["tie"] is True


def test_batch_json_says_inf_as_a_string_with_a_flag(tmp_path, cli):
    path = tmp_path / "p.npy"
    np.save(path, np.array([[0.5, 0.5], [0.75, 0.25]]))
    code, out, err = cli("decide", _spec(tmp_path, U65, ["a", "b"]), "--p-file", str(path), "--certainty",
                         "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["certainty"]["rows"]
    assert rows["max_doubt"] == ["inf", 2.0] and rows["tie"] == [True, False] and rows["top"] == ["a", "a"]


@pytest.mark.parametrize("values, message", [
    ([[np.nan, 1.0]], "row 0 holds nan or inf"),
    ([[-0.5, 1.5]], "a negative probability"),
    ([[0.5, 0.6]], "the row sums to"),
])
def test_hostile_rows_are_refused_with_their_location(tmp_path, values, message, cli):
    path = tmp_path / "p.npy"
    np.save(path, np.array(values))
    spec = _spec(tmp_path, U65, ["a", "b"])
    before = sorted(os.listdir(tmp_path))
    code, out, err = cli("decide", spec, "--p-file", str(path), "--certainty")
    assert code == 2 and message in err and str(path) in err and "Traceback" not in err and out == ""
    assert sorted(os.listdir(tmp_path)) == before


def test_certainty_with_a_credal_set_is_a_usage_error(cli):
    code, out, err = cli("decide", U65, "--intervals", "h=0:0.5,b=0:0.5,n=0:1", "--certainty")
    assert code == 2 and "--certainty goes with --p or --p-file" in err and out == ""


def _two_classifiers(tmp_path):
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 200)
    good = rng.dirichlet(np.ones(3), 200)
    good[np.arange(200), truth] += 0.5
    good /= good.sum(axis=1, keepdims=True)
    bad = rng.dirichlet(np.ones(3), 200)
    bad[:5] = [0.4, 0.4, 0.2]  # ties for the top class: infinite doubt
    paths = [tmp_path / "good.npy", tmp_path / "bad.npy", tmp_path / "truth.npy"]
    for path, values in zip(paths, (good, bad, truth)):
        np.save(path, values)
    return [str(p) for p in paths], good, bad, truth


def test_evaluate_certainty_per_classifier_and_paired_wilcoxon(tmp_path, cli):
    from scipy import stats

    (good, bad, truth), g, b, t = _two_classifiers(tmp_path)
    plot = tmp_path / "doubt.svg"
    code, out, err = cli("evaluate", U65, "--probabilities", good, "--probabilities", bad, "--truth", truth,
                         "--certainty", "--doubt-plot", str(plot), "--format", "json")
    assert code == 0, err
    record = json.loads(out)["certainty"]
    first, second = record["classifiers"]
    assert (first["classifier"], second["classifier"]) == ("good", "bad")
    assert (first["ties"], second["ties"]) == (0, 5) and second["max_doubt"]["quantiles"]["q100"] == "inf"
    outcomes = first["by_outcome"]
    assert sum(o["rows"] for o in outcomes.values()) == 200
    # the minimum certainty of each row, by hand: top minus second largest
    sorted_g, sorted_b = np.sort(g, axis=1), np.sort(b, axis=1)
    least_g, least_b = sorted_g[:, -1] - sorted_g[:, -2], sorted_b[:, -1] - sorted_b[:, -2]
    assert first["min_certainty"]["mean"] == pytest.approx(least_g.mean(), rel=1e-12)
    pair = record["pairs"][0]
    expected = stats.wilcoxon(least_g, least_b)
    assert pair["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert pair["statistic"] == pytest.approx(expected.statistic)
    assert "Wilcoxon signed-rank" in pair["test"]
    assert plot.read_bytes().startswith(b"<?xml") and b"good" in plot.read_bytes()
    code, out, err = cli("evaluate", U65, "--probabilities", good, "--truth", truth, "--certainty")
    assert code == 0 and "right (a singleton holding the truth)" in out and "Paired" not in out


@pytest.mark.parametrize("extra, message", [
    (["--doubt-plot", "d.svg"], "--doubt-plot draws what --certainty computes"),
    (["--certainty", "--doubt-plot", "d.txt"], "--doubt-plot 'd.txt': the file name must end in .svg, .pdf or .png"),
    (["--certainty", "--table", "csv"], "--certainty goes with --probabilities"),
])
def test_evaluate_certainty_options_that_do_not_combine_exit_2(tmp_path, extra, message, cli):
    (good, bad, truth), *_ = _two_classifiers(tmp_path)
    before = sorted(os.listdir(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, err = cli("evaluate", U65, "--probabilities", good, "--truth", truth, *extra)
    finally:
        os.chdir(cwd)
    assert code == 2 and message in err and out == "" and sorted(os.listdir(tmp_path)) == before


def test_evaluate_certainty_refuses_a_directory_as_the_figure(tmp_path, cli):
    (good, bad, truth), *_ = _two_classifiers(tmp_path)
    (tmp_path / "d.svg").mkdir()
    code, out, err = cli("evaluate", U65, "--probabilities", good, "--truth", truth, "--certainty",
                         "--doubt-plot", str(tmp_path / "d.svg"))
    assert code == 2 and "--doubt-plot" in err and "Traceback" not in err and os.listdir(tmp_path / "d.svg") == []


def test_python_api_certainty_from_arrays_and_its_picture():
    from verifier.api.use import certainty

    rng = np.random.default_rng(9)
    truth = rng.integers(0, 3, 50)
    first, second = rng.dirichlet(np.ones(3), 50), rng.dirichlet(np.ones(3), 50)
    report = certainty(U65, {"first": first, "second": second}, y_true=["hbn"[t] for t in truth])
    assert [c["classifier"] for c in report.record["classifiers"]] == ["first", "second"]
    assert len(report.pairs) == 1 and report.pairs[0].p_value is not None
    assert report.picture("png").startswith(b"\x89PNG")
    same = certainty(U65, {"x": first, "y": first}, y_true=["hbn"[t] for t in truth])
    assert same.pairs[0].p_value is None and "nothing to test" in same.text


def test_three_classes_have_no_margin_and_u65_ties_where_the_docs_say(cli):
    """u65 at K = 3: {h} and {h, b} tie at p_b = 7/13·p_h, whatever the margin p_h − p_b."""
    scheme = build(load(U65))
    assert two_class_margin(scheme) is None
    for p in ([F(52, 100), F(28, 100), F(20, 100)], [F(65, 100), F(35, 100), F(0)]):
        assert p[1] == F(7, 13) * p[0]
        assert sorted(map(sorted, decide(scheme, p).optimal)) == [[0], [0, 1]]
    code, out, err = cli("decide", U65, "--p", "h=0.5,b=0.3,n=0.2", "--certainty")
    assert code == 0 and "derived for two classes only" in out
