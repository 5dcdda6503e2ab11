"""`verify decide` and `verify evaluate`: the paper's Example 4, Zaffalon et al.'s Table 7, exact ties, decision
rules for credal sets against each other and against brute force, batch routes against the one-by-one exact
decision, and bad inputs as located usage errors."""

import json
import os
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier
from verifier.analysis.pipeline import build
from verifier.api.entry import load
from verifier.using.decide import batch, decide
from verifier.using.decide.credal import CredalSet, decide_credal

from conftest import SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")  # Table I's determinate costs (Example 1)
U65 = os.path.join(SPECS, "accuracy-u65.yaml")
P_SYMBOLIC = os.path.join(SPECS, "p-discounted-symbolic.yaml")
EXAMPLE_3 = "h=0:0.2,b=0.3:0.4,n=0.4:0.6"


@pytest.fixture(scope="module")
def obstacle():
    return build(load(OBSTACLE))


def test_example_3_credal_set_has_the_papers_four_vertices():
    record = verifier.decide(OBSTACLE, intervals_text=EXAMPLE_3).record
    assert sorted(map(tuple, record["credal_set"]["vertices"])) == sorted(
        [("0", "2/5", "3/5"), ("1/5", "3/10", "1/2"), ("1/5", "2/5", "2/5"), ("1/10", "3/10", "3/5")])


@pytest.mark.parametrize("how", ["intervals", "vertices"])
def test_example_4_maximality_predicts_b_with_the_papers_lower_expectations(how):
    if how == "intervals":
        result = verifier.decide(OBSTACLE, intervals_text=EXAMPLE_3, rule="maximality")
    else:
        result = verifier.decide(OBSTACLE, vertices=["h=0,b=0.4,n=0.6", "h=0.2,b=0.3,n=0.5", "h=0.2,b=0.4,n=0.4",
                                                     "h=0.1,b=0.3,n=0.6"], rule="maximality")
    assert result.prediction == ["b"]
    dominance = {(d["better"], d["worse"]): (d["value"], d["at"]) for d in result.record["dominances"]}
    assert dominance[("b", "n")] == ("3/10", ["1/10", "3/10", "3/5"])  # E[c_n - c_b] = 0.3 at (0.1, 0.3, 0.6)
    assert dominance[("b", "h")] == ("1/10", ["1/5", "3/10", "1/2"])  # E[c_h - c_b] = 0.1 at (0.2, 0.3, 0.5)
    assert set(dominance) == {("b", "n"), ("b", "h")}


def test_maximality_and_interval_dominance_differ_on_example_3():
    assert verifier.decide(OBSTACLE, intervals_text=EXAMPLE_3, rule="interval-dominance").prediction == ["h", "b"]
    assert verifier.decide(OBSTACLE, intervals_text=EXAMPLE_3, rule="e-admissibility").prediction == ["b"]


def _brute_force(scheme, p):
    costs = {m: sum(F(str(scheme.cost(m, y))) * x for y, x in enumerate(p)) for m in scheme.all_sets}
    best = min(costs.values())
    return {m for m, v in costs.items() if v == best}, best


def test_precise_decision_reports_every_exact_tie():
    scheme = build(load(U65))
    d = decide(scheme, [F(1, 3)] * 3)
    expected, best = _brute_force(scheme, [F(1, 3)] * 3)
    assert set(d.optimal) == expected and d.expected[0][1] == best
    assert not d.undecided


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=3, max_size=3).filter(any))
def test_precise_decision_matches_brute_force(weights):
    scheme = build(load(OBSTACLE))
    p = [F(w, sum(weights)) for w in weights]
    expected, best = _brute_force(scheme, p)
    d = decide(scheme, p)
    assert set(d.optimal) == expected and d.expected[0][1] == best


interval = st.tuples(st.integers(0, 10), st.integers(0, 10)).map(lambda t: (F(min(t), 10), F(max(t), 10)))


@settings(max_examples=60, deadline=None)
@given(st.lists(interval, min_size=3, max_size=3).filter(
    lambda b: sum(lo for lo, _ in b) <= 1 <= sum(hi for _, hi in b)),
    st.lists(st.integers(-5, 5), min_size=3, max_size=3))
def test_lower_expectation_and_rules_agree_with_the_vertices(bounds, c):
    credal = CredalSet(3, bounds=bounds)
    by_vertices = CredalSet(3, vertices=[list(v) for v in credal.vertices])
    c = [F(x) for x in c]
    value, at = credal.lower(c)
    assert value == min(sum(a * b for a, b in zip(v, c)) for v in credal.vertices)
    assert at in credal.vertices and credal.contains(at)
    assert by_vertices.lower(c)[0] == value
    scheme = build(load(OBSTACLE))
    chosen = {rule: set(decide_credal(scheme, credal, rule).prediction)
              for rule in ("maximality", "interval-dominance", "e-admissibility")}
    assert chosen["e-admissibility"] <= chosen["maximality"] <= chosen["interval-dominance"]
    assert chosen["e-admissibility"]  # a non-empty credal set always admits some optimal class
    assert chosen["maximality"] == set(decide_credal(scheme, by_vertices, "maximality").prediction)


def test_gamma_maximin_picks_the_set_of_least_upper_expected_cost():
    record = verifier.decide(OBSTACLE, intervals_text=EXAMPLE_3, rule="gamma-maximin").record
    uppers = {k: F(v["upper"]) for k, v in record["expected_costs"].items()}
    assert record["prediction"] == ["b"] and uppers["{b}"] == min(uppers.values()) == F(13, 10)


@pytest.mark.parametrize("K", [3, 9])
def test_batch_routes_agree_with_each_other_and_with_exact_decisions(K):
    text = open(U65).read().replace("classes: [h, b, n]", f"classes: {K}")
    scheme = build(load(text))
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(150):
        w = rng.integers(0, 4, size=K)
        w[0] += 0 if w.sum() else 1
        rows.append([F(int(x), int(w.sum())) for x in w])
    rows.append([F(1, K)] * K)  # every set of a size ties
    symmetric = batch._symmetric(K, rows, *batch.symmetric_costs(scheme))
    vectorised = batch._vectorised(scheme, rows)
    assert symmetric.predictions == vectorised.predictions
    assert symmetric.tied_optima == vectorised.tied_optima
    for i in range(0, len(rows), 15):
        d = decide(scheme, rows[i])
        assert vectorised.predictions[i] == d.prediction and vectorised.tied_optima[i] == len(d.optimal)


def test_batch_file_csv_and_npy(tmp_path, cli):
    csv_path = tmp_path / "p.csv"
    csv_path.write_text("n,h,b\n0.6,0.1,0.3\n0.333333,0.333333,0.333334\n0.2,0.7,0.1\n")
    code, out, _ = cli("decide", OBSTACLE, "--p-file", str(csv_path), "--format", "json")
    assert code == 0
    record = json.loads(out)
    assert record["predictions"][0] == ["b"] and record["rows_rescaled"] == 0
    npy = tmp_path / "p.npy"
    np.save(npy, np.array([[0.1, 0.3, 0.6], [0.7, 0.1, 0.2]]))
    code, out, _ = cli("decide", OBSTACLE, "--p-file", str(npy))
    assert code == 0 and out.splitlines()[0] == "row,prediction,tied_optima,undecided" and \
        out.splitlines()[1] == '0,"b",1,0'


def test_decide_json_contract(cli):
    code, out, _ = cli("decide", OBSTACLE, "--p", "h=0.1,b=0.3,n=0.6", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["prediction"] == ["b"] and record["expected_costs"]["{b}"] == "13/10"


def _table_7_spec(which: str) -> str:
    return open(os.path.join(SPECS, f"accuracy-{which}.yaml")).read().replace("classes: [h, b, n]", "classes: 4")


@pytest.mark.parametrize("which", ["u65", "u80", "f1", "f2"])
def test_zaffalon_table_7_scores_and_the_specs_costs_agree(which):
    table_7 = {  # prediction -> (F1, F2, u65, u80), actual class 1; exact values of the rounded table
        ("1",): (1, 1, 1, 1), ("1", "2"): (F(2, 3), F(5, 6), F(13, 20), F(4, 5)),
        ("1", "2", "3"): (F(1, 2), F(5, 7), F(7, 15), F(3, 5)), ("2", "3", "4"): (0, 0, 0, 0)}
    column = {"f1": 0, "f2": 1, "u65": 2, "u80": 3}[which]
    for prediction, scores in table_7.items():
        result = verifier.evaluate(_table_7_spec(which), ["1"], [list(prediction)], f_beta=[1, 2])
        record = result.record["scores"][0]
        got = (F(record["f_beta"]["1"]), F(record["f_beta"]["2"]), F(record["u65"]), F(record["u80"]))
        assert got == scores
        assert F(record["mean_cost"]) == 1 - scores[column]  # the spec's cost is one minus the score


def test_mean_cost_is_the_exact_average_of_the_cells(obstacle):
    truth = ["h", "b", "n", "n", "b"]
    sets = [["h"], ["h", "b"], ["n"], ["b", "n"], ["h", "b", "n"]]
    record = verifier.evaluate(OBSTACLE, truth, sets).record["scores"][0]
    expected = sum(F(str(obstacle.cost(frozenset(obstacle.classes.index(c) for c in s), obstacle.classes.index(t))))
                   for t, s in zip(truth, sets)) / len(truth)
    assert F(record["mean_cost"]) == expected
    assert record["determinacy"] == "2/5" and record["mean_set_size"] == "9/5" and record["set_accuracy"] == "1"
    assert record["bootstrap_interval"]["low"] <= float(expected) <= record["bootstrap_interval"]["high"]


def test_evaluate_accepts_numpy_masks_and_compares_classifiers(tmp_path, cli):
    masks = np.zeros((3, 40, 3), dtype=bool)
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, size=40)
    masks[0, np.arange(40), truth] = True  # always right
    masks[1, :, :] = True  # always everything
    masks[2, np.arange(40), (truth + 1) % 3] = True  # always wrong
    np.save(tmp_path / "m.npy", masks)
    np.save(tmp_path / "t.npy", truth)
    code, out, _ = cli("evaluate", OBSTACLE, str(tmp_path / "m.npy"), "--truth", str(tmp_path / "t.npy"),
                       "--format", "json")
    assert code == 0
    record = json.loads(out)
    assert [s["mean_cost"] for s in record["scores"]][0] == "0"
    assert "friedman" not in record["comparison"]  # one data set: Friedman/Nemenyi compare over several
    pairs = {(p["a"], p["b"]): p for p in record["comparison"]["pairs"]}
    one_three = pairs[("classifier 1", "classifier 3")]
    assert one_three["lower_mean_cost"] == "classifier 1" and one_three["significant"]
    assert one_three["a_lower"] == 40 and one_three["p_holm"] >= one_three["p_value"]


def test_sweep_gives_exact_curves_and_a_picture(tmp_path, cli):
    csv_path = tmp_path / "pred.csv"
    csv_path.write_text('true,predicted\nh,"h,b"\nn,n\n')
    code, out, _ = cli("evaluate", P_SYMBOLIC, str(csv_path), "--sweep", "r=0:2:5", "--plot",
                       str(tmp_path / "c.svg"), "--format", "json")
    assert code == 0 and (tmp_path / "c.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    sweep = json.loads(out)["sweep"]
    assert sweep["grid"] == ["0", "1/2", "1", "3/2", "2"] and sweep["excluded"] == ["3/2", "2"]
    values = sweep["curves"][0]["values"]
    assert values[0] == pytest.approx(0.5 * 0.5) and values[2] == 0 and values[3] is None  # (1 + 0)/2 / 2 at r = 0


@pytest.mark.parametrize("argv, words", [
    (["decide", OBSTACLE, "--p", "h=0.1,b=0.3,n=0.5"], "sum to 9/10; expected non-negative probabilities summing to 1"),
    (["decide", OBSTACLE, "--p", "h=0.1,x=0.9"], "unknown class 'x'"),
    (["decide", OBSTACLE, "--p", "h=-0.1,b=0.5,n=0.6"], "negative probability for h"),
    (["decide", OBSTACLE, "--p", "h=nan,b=1"], "'nan' is not a number"),
    (["decide", OBSTACLE], "give exactly one of"),
    (["decide", OBSTACLE, "--intervals", "h=0.5:0.2"], "not an interval inside [0, 1]"),
    (["decide", OBSTACLE, "--intervals", "h=0.6:1,b=0.6:1"], "no distribution fits"),
    (["decide", OBSTACLE, "--intervals", EXAMPLE_3, "--rule", "best"], "--rule: invalid choice: 'best'"),
    (["decide", P_SYMBOLIC, "--p", "h=1"], "needs every parameter fixed"),
])
def test_bad_decide_inputs_are_located_usage_errors(argv, words, cli):
    code, out, err = cli(*argv)
    assert code == 2 and words in err and "Traceback" not in err and not out, err


@pytest.mark.parametrize("content, words", [
    ('true,predicted\nh,""\n', ":2: column 'predicted': empty set"),
    ('true,predicted\nh,"h,x"\n', ":2: column 'predicted': unknown class 'x'"),
    ('truth,pred\nh,h\n', "has no column predicted"),
    ('true,predicted\nq,h\n', ":2: column 'true': unknown class 'q'"),
    ('true,predicted\n', "no predictions"),
])
def test_bad_prediction_files_are_located_usage_errors(tmp_path, content, words, cli):
    path = tmp_path / "pred.csv"
    path.write_text(content)
    code, _, err = cli("evaluate", OBSTACLE, str(path))
    assert code == 2 and words in err and "Traceback" not in err, err


def test_bad_arrays_are_usage_errors(tmp_path, cli):
    np.save(tmp_path / "m.npy", np.ones((4, 3), dtype=bool))
    np.save(tmp_path / "t.npy", np.zeros(5, dtype=np.int64))
    code, _, err = cli("evaluate", OBSTACLE, str(tmp_path / "m.npy"), "--truth", str(tmp_path / "t.npy"))
    assert code == 2 and "5 true classes but 4 predicted sets" in err
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object))
    code, _, err = cli("evaluate", OBSTACLE, str(tmp_path / "o.npy"), "--truth", str(tmp_path / "t.npy"))
    assert code == 2 and "pickled objects are never read" in err
    with pytest.raises(verifier.UsageError, match="empty"):
        verifier.evaluate(OBSTACLE, ["h"], [np.zeros(3, dtype=bool)])
    with pytest.raises(verifier.UsageError, match="2 true classes but 1 predicted sets"):
        verifier.evaluate(OBSTACLE, ["h", "b"], [["h"]])
    bad_rows = tmp_path / "p.csv"
    bad_rows.write_text("h,b,n\n0.5,0.5,0.5\n")
    code, _, err = cli("decide", OBSTACLE, "--p-file", str(bad_rows))
    assert code == 2 and "p.csv:2: the row sums to 3/2" in err


def test_figure_8_f1_lies_between_u65_and_u80_for_every_set_size():
    from verifier.using.evaluate.scores import f_beta, u65, u80

    for k in range(1, 40):
        assert u65(k, True) <= f_beta(k, True, F(1)) <= u80(k, True)
        assert f_beta(k, True, F(2)) >= f_beta(k, True, F(1))  # F2 rewards indeterminacy more


class _Frame:  # the little of a pandas DataFrame that evaluate uses, so the test needs no pandas
    def __init__(self, **columns):
        self.columns = list(columns)
        self._data = {k: np.array(v, dtype=object) for k, v in columns.items()}

    def __getitem__(self, key):
        return _Column(self._data[key])


class _Column:
    def __init__(self, values):
        self.values = values

    def to_numpy(self):
        return self.values


def test_evaluate_takes_a_data_frame_with_the_csv_columns():
    frame = _Frame(true=["h", "b", "h", "b"], predicted=[{"h"}, "h,b", ["n"], "{b,n}"], Classifier=["A", "A", "B", "B"])
    result = verifier.evaluate(OBSTACLE, frame)
    assert [s.name for s in result.scores] == ["A", "B"]
    assert [s.n for s in result.scores] == [2, 2]


WEIRD_8 = """name: every class alike, a set dearer for its own members (a_k > b_k)
classes: 8
cost: "0 if yhat == y else 1"
set_cost: "(len(Y) / 4 if y in Y else 1 - len(Y) / 10) if len(Y) > 1 else (0 if y in Y else 1)"
"""


def test_batch_and_single_decisions_resolve_ties_to_the_same_set(tmp_path):
    spec = tmp_path / "weird.yaml"
    spec.write_text(WEIRD_8)
    probs = tmp_path / "p.csv"
    probs.write_text(",".join(str(i) for i in range(1, 9)) + "\n" + ",".join(["0.125"] * 8) + "\n")
    single = verifier.decide(str(spec), ",".join(f"{i}=0.125" for i in range(1, 9)))
    many = verifier.decide(str(spec), p_file=str(probs))
    assert many.record["route"] == "symmetric" and many.prediction == [single.prediction]
    assert many.record["tied_optima"] == [len(single.record["optimal"])]


def test_wilcoxon_names_the_side_the_signed_ranks_favour(tmp_path):
    spec = tmp_path / "two.yaml"
    spec.write_text('name: two\nclasses: [a, b]\ncost: "0 if yhat == y else 100"\n'
                    'set_cost: "(0 if y in Y else 100) if len(Y) == 1 else (1 if y in Y else 100)"\n')
    rows = ["true,predicted,classifier"]
    for i in range(20):  # B is a little cheaper on 20 instances, A far cheaper on one
        rows += ['a,"a,b",A', "a,a,B"]
    rows += ["a,a,A", "a,b,B"]
    path = tmp_path / "pred.csv"
    path.write_text("\n".join(rows) + "\n")
    result = verifier.evaluate(str(spec), predictions=str(path))
    (pair,) = result.record["comparison"]["pairs"]
    scores = {s["classifier"]: float(F(s["mean_cost"])) for s in result.record["scores"]}
    assert scores["A"] < scores["B"]  # the means say A ...
    assert pair["mean_difference"] == str(F(20, 21) - F(100, 21)) and pair["lower_mean_cost"] == "A"
    assert pair["signed_ranks_favour"] == pair["test_favours"] == "B" and pair["significant"]  # ... the ranks say B
    assert "signed ranks favour B, yet A has the lower mean cost" in " ".join(result.text.split())


def test_paired_tests_need_the_same_instances():
    with pytest.raises(verifier.UsageError, match="different true classes at instance 0"):
        verifier.evaluate(OBSTACLE, _Frame(true=["h", "b", "b", "h"], predicted=["h", "h", "h", "h"],
                                           classifier=["A", "A", "B", "B"]))


def test_identical_classifiers_give_no_friedman_and_valid_json():
    frame = _Frame(true=["h", "b"] * 3, predicted=["h", "b"] * 3, classifier=["A", "A", "B", "B", "C", "C"])
    record = verifier.evaluate(OBSTACLE, frame).record
    assert "friedman" not in record["comparison"]
    json.dumps(record, allow_nan=False)


def test_integer_masks_are_masks_and_long_doubles_are_refused(tmp_path, cli):
    result = verifier.evaluate(OBSTACLE, np.array([0, 1]), np.array([[1, 0, 0], [0, 1, 1]]))
    assert result.record["scores"][0]["mean_cost"] == str(F(1, 2) * (0 + F(str(build(load(OBSTACLE)).cost(
        frozenset((1, 2)), 1)))))
    np.save(tmp_path / "p.npy", np.array([[0.5, 0.5, 0.0]], dtype=np.longdouble))
    code, _, err = cli("decide", OBSTACLE, "--p-file", str(tmp_path / "p.npy"))
    assert code == 2 and "expected float64" in err
