"""`--logits` (issue 40, item 5): rows of logits decided exactly on their softmax, and the paper's raw
certainty, doubt and doubt cost on the logits. The raw formulas by hand, ties, K = 2, decisions against a
brute force in 80-digit mpmath on random and near-tie rows, the exact zero test (Lindemann–Weierstrass), and
hostile inputs as located usage errors."""

import json
import math
import os
import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.api.use.report import numeric_scheme
from verifier.report.text.float_text import shortest_texts
from verifier.using import BatchDecider, LogitDecider, LogitFile, logit_rows, raw_certainty
from verifier.using.decide.logit_decide import softmax_sign
from verifier.using.exact import rational_rows
from verifier.using.inputs import raw_pairwise

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")
OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
AVERSE = os.path.join(SPECS, "obstacle-p-discounted-averse.yaml")  # irrational costs (a generalised mean)


def _spec(tmp_path, source, classes, **changes):
    data = yaml.safe_load(open(source))
    data["classes"] = classes
    data.pop("expect", None)
    data.update(changes)
    path = tmp_path / f"spec-{len(classes)}.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def _zero_one(tmp_path):
    """Two classes, 0-1 costs, the pair costing 1: at p = (1/2, 1/2) the two singletons tie exactly."""
    path = tmp_path / "zero-one.yaml"
    path.write_text("name: zero-one\nclasses: [a, b]\ncost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if len(Y) == 1 "
                    "and y in Y else 1)\"\n")
    return str(path)


def test_raw_certainty_doubt_and_cost_are_the_papers_formulas_by_hand():
    j, xi, rho = raw_pairwise([F(3, 2), F(-2), F(1, 4)])
    assert j == 0 and xi == [F(1), F(7, 2), F(5, 4)] and rho == [F(0), F(2, 7), F(4, 5)]  # ξ_i = y_j − y_i
    c = raw_certainty(next(logit_rows([[1.5, -2.0, 0.25]], 3, "t")))
    assert c.top.tolist() == [0] and c.min_certainty.tolist() == [1.25] and c.max_doubt.tolist() == [0.8]
    product = F(7, 2) ** 2 * F(5, 4) ** 2  # Π_{i≠j} ξ_i² = 1225/64 > 1: θ below 0, as ξ is not bounded by 1
    with mpmath.workdps(50):
        expected = mpmath.asin(mpmath.mpf((1 - product).numerator) / (1 + product).numerator)
    assert (1 - product) / (1 + product) == F(-1161, 1289)
    assert c.theta[0] == pytest.approx(float(expected), rel=1e-15) and c.theta[0] < 0


def test_ties_for_the_top_logit_are_infinite_raw_doubt_and_the_first_class_is_the_top():
    c = raw_certainty(next(logit_rows([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [-3.0, 2.0, 2.0], [2.0, 1.0, 1.0]], 3, "t")))
    assert c.tied.tolist() == [True, True, True, False]
    assert c.top.tolist() == [0, 0, 1, 0]
    assert c.max_doubt[:3].tolist() == [math.inf] * 3 and c.theta[:3].tolist() == [math.pi / 2] * 3
    assert c.min_certainty.tolist() == [0.0, 0.0, 0.0, 1.0]


def test_equal_floats_of_different_decimal_logits_are_no_tie(tmp_path):
    path = tmp_path / "y.csv"
    path.write_text("h,b,n\n0.1,0.10000000000000000001,-4\n0.1,0.1,-4\n")
    block = next(LogitFile(str(path), ("h", "b", "n")).blocks())
    assert block.floats[0, 0] == block.floats[0, 1]
    c = raw_certainty(block)
    assert c.tied.tolist() == [False, True] and c.top.tolist() == [1, 0]  # b by 10^-20, decided exactly
    assert c.min_certainty[0] == float(F(1, 10 ** 20))


def test_k2_raw_cost_and_the_margin_in_tanh(tmp_path, cli):
    c = raw_certainty(next(logit_rows([[2.0, -1.0], [-1.0, -1.0]], 2, "t")))
    assert c.theta[0] == pytest.approx(math.asin(-0.8), rel=1e-15)  # Π = 9: (1 − 9)/(1 + 9)
    assert c.tied.tolist() == [False, True] and c.min_certainty.tolist() == [3.0, 0.0]
    path = tmp_path / "y.npy"
    np.save(path, np.array([[2.0, -1.0], [-1.0, -1.0]]))
    code, out, err = cli("decide", _spec(tmp_path, U65, ["a", "b"]), "--p-file", str(path), "--logits",
                         "--certainty")
    assert code == 0, err
    assert out.splitlines()[0] == "row,prediction,tied_optima,undecided,top,min_raw_certainty,max_raw_doubt," \
                                  "raw_doubt_cost,tie"
    assert out.splitlines()[2].endswith(",inf,1.5707963267948966,1")
    assert "tanh(ξ/2)" in err and "Raw certainty and doubt, on the logits" in err


def test_softmax_sign_is_exact_on_ties_and_on_differences_below_every_float():
    assert softmax_sign([1, -1], [F(0), F(0)]) == 0  # equal logits: the grouped coefficient is 0
    assert softmax_sign([F(1, 3), F(2, 3), -1], [F(5), F(5), F(5)]) == 0
    assert softmax_sign([1, -1], [F(0), F(1, 10 ** 40)]) == -1  # e^0 < e^(10^-40)
    assert softmax_sign([1, 1, -2], [F(1), F(-1), F(0)]) == 1  # e + 1/e > 2: never 0 (Lindemann–Weierstrass)
    assert softmax_sign([-1, 1, 2], [F(1), F(-1), F(0)]) == -1  # 1/e + 2 ≈ 2.37 < e


def test_exact_ties_between_sets_from_equal_logits(tmp_path, cli):
    spec = _zero_one(tmp_path)
    path = tmp_path / "y.npy"
    np.save(path, np.array([[0.0, 0.0], [0.0, 1e-300], [7.5, 7.5]]))
    code, out, err = cli("decide", spec, "--p-file", str(path), "--logits", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert record["predictions"] == [["a"], ["b"], ["a"]]  # 1e-300 apart: b, though their floats' softmax tie
    assert record["tied_optima"] == [2, 1, 2] and record["undecided_rows"] == []
    assert record["route"] == "softmax" and record["rows_decided_exactly_one_by_one"] == 3


def _brute_force(scheme, logits: list[float]) -> tuple[set, float]:
    """The optimal sets at softmax(y) in 80-digit mpmath (the float logits read exactly), and the gap to the
    next best set; rows whose optimum is within 10^-60 of another are compared only on exact ties."""
    with mpmath.workdps(80):
        m = max(logits)
        w = [mpmath.exp(mpmath.mpf(x) - mpmath.mpf(m)) for x in logits]
        values = {Y: mpmath.fsum(w[y] * mpmath.mpf(F(scheme.rows[Y][y]).numerator) / F(scheme.rows[Y][y]).denominator
                                 for y in range(scheme.K)) for Y in scheme.all_sets}
        low = min(values.values())
        optimal = {Y for Y, v in values.items() if v - low < mpmath.mpf(10) ** -60}
        return optimal, float(min((v - low for v in values.values() if v - low >= mpmath.mpf(10) ** -60),
                                  default=1))


@pytest.mark.parametrize("source, seed", [(U65, 1), (U65, 2), (OBSTACLE, 3)])
def test_decisions_from_logits_equal_a_high_precision_brute_force(source, seed):
    _, scheme = numeric_scheme(source, "test")
    rng = random.Random(seed)
    rows = []
    for _ in range(150):  # log-ratios of small integers: many near ties (and exact ties from equal integers)
        rows.append([math.log(rng.randint(1, 6)) for _ in range(scheme.K)])
    for _ in range(30):  # on u65's boundary p_2 = 7/13·p_1 (K = 3), within a rounding of it
        a = rng.uniform(-3, 3)
        rows.append([a, a + math.log(7 / 13), a - rng.uniform(0.5, 3)])
    decider = LogitDecider(scheme)
    for block in logit_rows(rows, scheme.K, "t"):
        decider.add(block)
    assert decider.result.exact_rows > 0 and decider.result.undecided == []
    for i, y in enumerate(rows):
        optimal, _ = _brute_force(scheme, y)
        assert decider.result.predictions[i] == min(optimal, key=lambda t: (len(t), sorted(t))), (i, y)
        assert decider.result.tied_optima[i] == len(optimal), (i, y)


def test_logits_of_a_rational_distribution_decide_as_it_does():
    """y = (0, log 2, log 3) has softmax (1/6, 2/6, 3/6) up to the floats' rounding; away from every boundary the
    decision is the rational row's."""
    _, scheme = numeric_scheme(U65, "test")
    rows = [[0.0, math.log(2), math.log(3)], [math.log(5), 0.0, 0.0], [0.0, 0.0, math.log(9)]]
    exact = [[F(1, 6), F(2, 6), F(3, 6)], [F(5, 7), F(1, 7), F(1, 7)], [F(1, 11), F(1, 11), F(9, 11)]]
    decider, batch = LogitDecider(scheme), BatchDecider(scheme)
    decider.add(next(logit_rows(rows, 3, "t")))
    batch.add(rational_rows(exact, 3))
    assert decider.result.predictions == batch.result.predictions


def test_irrational_costs_decide_with_certified_balls():
    _, scheme = numeric_scheme(AVERSE, "test")
    rng = np.random.default_rng(5)
    rows = rng.normal(size=(40, scheme.K))
    decider = LogitDecider(scheme)
    decider.add(next(logit_rows(rows, scheme.K, "t")))
    assert len(decider.result.undecided) < 5  # the balls separate all but (at most) a few
    for i, y in enumerate(rows.tolist()):
        with mpmath.workdps(40):
            m = max(y)
            w = [mpmath.exp(mpmath.mpf(x) - m) for x in y]
            values = {Y: sum(w[k] * mpmath.mpf(str(scheme.rows[Y][k].evalf(60))) for k in range(scheme.K))
                      for Y in scheme.all_sets}
        if i not in decider.result.undecided:
            assert decider.result.predictions[i] == min(values, key=lambda Y: values[Y])


def test_evaluate_logits_scores_the_sets_decide_finds(tmp_path, cli):
    rng = np.random.default_rng(7)
    y = rng.normal(size=(60, 3)) * 2
    y[:4] = [[0.0, 0.0, 0.0], [1.0, 1.0, -1.0], [2.0, -1.0, 2.0], [0.5, 0.5, 0.5]]
    truth = rng.integers(0, 3, 60)
    paths = [tmp_path / "y.npy", tmp_path / "truth.npy"]
    np.save(paths[0], y)
    np.save(paths[1], truth)
    code, out, err = cli("decide", U65, "--p-file", str(paths[0]), "--logits", "--format", "json")
    assert code == 0, err
    decided = json.loads(out)["predictions"]
    code, out, err = cli("evaluate", U65, "--probabilities", str(paths[0]), "--truth", str(paths[1]), "--logits",
                         "--certainty", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert record["decided_from_probabilities"][0]["logits"] is True
    assert record["certainty"]["raw"] is True and record["certainty"]["classifiers"][0]["ties"] == 4
    classes = ("h", "b", "n")
    _, scheme = numeric_scheme(U65, "test")
    costs = [scheme.rows[frozenset(classes.index(c) for c in s)][t] for s, t in zip(decided, truth.tolist())]
    assert record["scores"][0]["mean_cost"] == str(sum(costs) / len(costs))
    from verifier import api

    result = api.evaluate(U65, y_true=truth.tolist(), probabilities=y, logits=True)
    assert result.record["scores"][0]["mean_cost"] == record["scores"][0]["mean_cost"]


@pytest.mark.parametrize("name, text, message", [
    ("y.csv", "h,b,n\n0,nan,1\n", "y.csv:2: column 'b': 'nan' is not a number"),
    ("y.csv", "h,b,n\n0,1,inf\n", "y.csv:2: column 'n': 'inf' is not a number"),
    ("y.csv", "h,b,n\n0,1\n", "y.csv:2: 2 field(s) '0,1' under a header of 3"),
    ("y.csv", "h,b,n\n0,1,1e400\n", "y.csv:2: column 'n': '1e400' is beyond the range of doubles"),
    ("y.csv", "h,b\n0,1\n", "lacks the class column(s) n"),
    ("y.npy", [[0.0, 1.0, 2.0], [0.0, np.nan, 1.0]], "y.npy: row 1: '0.0,nan,1.0' holds nan or inf"),
    ("y.npy", [[0.0, 1.0, np.inf]], "y.npy: row 0: '0.0,1.0,inf' holds nan or inf"),
    ("y.npy", [[0.0, 1.0, 2.0, 3.0]], "float64 of shape (1, 4), expected float64 (or float32) logits of shape (N, 3)"),
])
def test_hostile_logits_are_refused_with_their_location(tmp_path, name, text, message, cli):
    path = tmp_path / name
    if name.endswith(".npy"):
        np.save(path, np.array(text))
    else:
        path.write_text(text)
    before, here = sorted(os.listdir(tmp_path)), sorted(os.listdir("."))
    for argv in (["decide", U65, "--p-file", str(path), "--logits", "--certainty"],
                 ["evaluate", U65, "--probabilities", str(path), "--truth", str(path), "--logits"]):
        code, out, err = cli(*argv)
        assert code == 2 and out == "" and "Traceback" not in err, err
        if argv[0] == "decide":
            assert message in err and str(path) in err, err
    assert sorted(os.listdir(tmp_path)) == before and sorted(os.listdir(".")) == here


@pytest.mark.parametrize("argv, message", [
    (["decide", U65, "--p", "h=1", "--logits"], "no logit for b, n"),  # one row: every class's logit
    (["decide", U65, "--intervals", "h=0:1,b=0:1,n=0:1", "--logits"], "--logits reads rows of logits from --p-file"),
    (["evaluate", U65, "--scores", "s.csv", "--logits", "--sweep", "mu=0:1:3"], "--logits reads --probabilities"),
])
def test_logits_without_rows_of_logits_is_a_usage_error(argv, message, cli):
    code, out, err = cli(*argv)
    assert code == 2 and message in err and out == "", err


def test_evaluate_logits_refuses_a_sweep(tmp_path, cli):
    path, truth = tmp_path / "y.npy", tmp_path / "t.npy"
    np.save(path, np.zeros((3, 3)))
    np.save(truth, np.array([0, 1, 2]))
    code, out, err = cli("evaluate", os.path.join(SPECS, "p-discounted-symbolic.yaml"), "--probabilities",
                         str(path), "--truth", str(truth), "--logits", "--sweep", "r=0:1:3")
    assert code == 2 and "not with --scores, --sweep or --threshold-choice" in err, err


def test_logits_beyond_the_enumerated_sets_is_a_usage_error(tmp_path, cli):
    y, truth = tmp_path / "y.npy", tmp_path / "t.npy"
    np.save(y, np.zeros((2, 40)))
    np.save(truth, np.array([0, 1]))
    code, out, err = cli("evaluate", os.path.join(SPECS, "ordinal-l1-40.yaml"), "--probabilities", str(y), "--truth",
                         str(truth), "--logits")
    assert code == 2 and out == "" and "verify evaluate --probabilities --logits decides each row's optimal set by " \
        "comparing every allowed set;" in err and "has 40 classes (1,099,511,627,775 sets), beyond the 16 classes " \
        "whose sets are enumerated" in err and "score set predictions made elsewhere with verify evaluate" in err, err
    assert err.rstrip().endswith("the costs of the predicted sets only."), err


def test_batch_csv_lines_are_the_values_shortest_texts_and_six_digits(tmp_path, cli):
    """The one-format-per-line CSV writer (issue 40, speed): each line is the record's values as their shortest
    round-trip texts (certainty, θ), %.6g (doubt, "inf" on a tie) and quoted spreadsheet-safe names."""
    spec = _spec(tmp_path, U65, ["=a", "b c", "d"])
    path = tmp_path / "p.npy"
    np.save(path, np.array([[0.4, 0.4, 0.2], [0.99999, 0.00001, 0.0], [0.5, 0.25, 0.25], [1e-7, 0.5, 0.5 - 1e-7],
                            [0.1, 0.2, 0.7]]))
    code, out, err = cli("decide", spec, "--p-file", str(path), "--certainty")
    assert code == 0, err
    code, js, err = cli("decide", spec, "--p-file", str(path), "--certainty", "--format", "json")
    record = json.loads(js)
    rows = record["certainty"]["rows"]
    quoted = {"=a": "\"'=a\"", "b c": '"b c"', "d": '"d"'}
    expected = ["row,prediction,tied_optima,undecided,top,min_certainty,max_doubt,doubt_cost,tie"]
    for i, prediction in enumerate(record["predictions"]):
        cell = '"' + ",".join(("'" + x if x.startswith("=") else x) for x in prediction).replace('"', '""') + '"'
        doubt = rows["max_doubt"][i]
        expected.append(",".join([str(i), cell, str(record["tied_optima"][i]), "0", quoted[rows["top"][i]],
                                  shortest_texts([rows["min_certainty"][i]])[0],
                                  "inf" if doubt == "inf" else "%.6g" % doubt,
                                  shortest_texts([rows["doubt_cost"][i]])[0], "1" if rows["tie"][i] else "0"]))
    assert out == "\n".join(expected) + "\n"
    assert "e-7," in out and ",1e+07," in out and ",inf," in out  # exponents (shortest text, %.6g) and inf, kept


def test_bounded_exp_is_within_its_proven_bound_of_an_80_digit_exp():
    from verifier.using.decide.logit_decide import EXP_REL, TINY_WEIGHT, bounded_exp

    rng = np.random.default_rng(11)
    x = np.concatenate([-rng.random(3000) * 800, -rng.random(3000) * 2, -rng.random(500) * 1e-12,
                        [0.0, -0.0, -745.0, -744.5, -708.4, -1e300, -800.0, -5e-324, -math.log(2) / 2]])
    w = bounded_exp(x)
    assert w[x == 0].tolist() == [1.0, 1.0]  # the top logit's weight is exactly 1
    with mpmath.workdps(40):
        for xi, wi in zip(x.tolist(), w.tolist()):
            e = mpmath.exp(mpmath.mpf(xi))
            assert abs(mpmath.mpf(wi) - e) <= 2.0 ** -40 * e + TINY_WEIGHT, xi  # 16 times inside EXP_REL
    assert EXP_REL == 2.0 ** -36


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-6, 6).map(lambda v: v / 2), min_size=3, max_size=3), min_size=1, max_size=8))
def test_property_decisions_from_small_logits_equal_the_brute_force(rows):
    """Halves in [−3, 3]: many equal logits (exact ties between sets, Lindemann–Weierstrass) and near ties."""
    _, scheme = numeric_scheme(U65, "test")
    decider = LogitDecider(scheme)
    for block in logit_rows(rows, 3, "t"):
        decider.add(block)
    assert decider.result.undecided == []
    for i, y in enumerate(rows):
        optimal, _ = _brute_force(scheme, y)
        assert decider.result.predictions[i] == min(optimal, key=lambda t: (len(t), sorted(t)))
        assert decider.result.tied_optima[i] == len(optimal)
