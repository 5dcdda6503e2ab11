"""The newer surfaces of `verify evaluate` and `verify decide` (issue 52, item 3): scores files, operating-condition
uncertainty, threshold choice on costs that are no polynomials, --pairs with a classifier named all or best,
huge logits, API arguments of the wrong type, and figure file names. Each hostile input is a located message
(exit 2 at the command line, a UsageError in Python), warns nothing, and writes nothing.

Origin: attacks for issue 52, item 3; formerly test_attacks_use_surfaces.py."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import verifier
from verifier.errors import UsageError

from conftest import ROOT, SPECS
from untouched import located

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")
PROPORTION = os.path.join(ROOT, "examples", "operating-conditions", "cost-proportion.yaml")
OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")  # classes h, b, n
SWEEPS = ["--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3"]


@pytest.fixture
def scores(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("svm,nb,true\n0.9,0.6,P\n0.4,0.7,N\n0.8,0.2,P\n0.1,0.3,N\n0.6,0.6,P\n")
    return path


def test_a_long_score_is_refused_with_its_line_and_column(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("svm,true\n0.3,N\n0." + "1" * 5000 + ",P\n")  # Python's int refuses 4,300 digits
    for extra in (SWEEPS, ["--threshold-choice", "score"]):
        spec = FRIEDEL if extra is SWEEPS else PROPORTION
        located(tmp_path, ["evaluate", spec, "--scores", path, *extra], f"--scores {path}:3: column 'svm'",
                "5,002 characters", "longer than the 400")


@pytest.mark.parametrize("gamma", ["1e5", "1e15", "1e23", "1e308", "1e400", "1001", "-1", "nan", "1e-400"])
def test_certainties_beyond_the_checked_range_are_refused(tmp_path, scores, gamma):
    located(tmp_path, ["evaluate", PROPORTION, "--scores", scores, "--threshold-choice", "score", "--uncertainty",
                       gamma], f"--uncertainty '{gamma}'", "at most 1000", "or inf")


def test_the_largest_certainty_is_computed_and_inf_is_exact(scores):
    report = verifier.evaluate(PROPORTION, scores=str(scores), threshold_choice="score",
                               uncertainty=["1000", "inf", float("inf")])
    losses = report.record["operating_conditions"]["classifiers"][0]["loss"]
    assert set(losses) == {"1000", "inf"} and losses["inf"]["exact"] is not None
    assert losses["1000"]["exact"] is None and 0 < losses["1000"]["error"] < 0.01  # an estimate, stated


@pytest.mark.parametrize("gamma", [1e308, 10 ** 400, True, "1e400"])
def test_the_api_refuses_the_same_certainties_as_usage_errors(scores, gamma):
    with pytest.raises(UsageError, match="at most 1000|truth value|longer"):
        verifier.evaluate(PROPORTION, scores=str(scores), threshold_choice="score", uncertainty=[gamma])


@pytest.mark.parametrize("weight", ["beta:1e308,1e308", "beta:101,2", "beta:0,1", "beta:1,2,3", "beta:x,1"])
def test_weights_beyond_the_bound_are_refused(tmp_path, scores, weight):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warnings came before the OverflowError
        located(tmp_path, ["evaluate", PROPORTION, "--scores", scores, "--threshold-choice", "score", "--weight",
                           weight], f"--weight '{weight}'", "0 < A, B <= 100")


def test_costs_that_are_no_polynomial_get_the_located_message(tmp_path, scores):
    spec = tmp_path / "exp.yaml"
    spec.write_text(open(PROPORTION).read().replace("[0, 2*theta]", "[0, 2*exp(theta)]"))
    located(tmp_path, ["evaluate", spec, "--scores", scores, "--threshold-choice", "score"], f"{spec}:",
            "key 'cost_matrix'", "2*exp(theta), not affine in theta")
    rows, truth = tmp_path / "p.csv", tmp_path / "t.txt"
    rows.write_text("h,b,n\n0.2,0.3,0.5\n")
    truth.write_text("h\n")
    located(tmp_path, ["evaluate", os.path.join(SPECS, "p-discounted-symbolic.yaml"), "--probabilities", rows,
                       "--truth", truth, "--threshold-choice", "score"], "key 'set_cost'", "not affine in r")


def test_classifiers_named_all_or_best_are_picked_with_name(tmp_path, cli):
    spec = tmp_path / "two.yaml"
    spec.write_text('name: two\nclasses: [a, b]\ncost: "0 if yhat == y else 1"\nset_cost: "0.6"\n')
    rows = tmp_path / "pred.csv"
    rows.write_text("true,predicted,classifier\na,a,best\nb,b,best\na,b,x\nb,a,x\na,a,all\nb,a,all\n")
    code, out, err = cli("evaluate", spec, rows, "--pairs", "name:best", "--format", "json")
    assert code == 0, err
    import json

    comparison = json.loads(out)["comparison"]
    assert comparison["pairs_mode"] == "against" and comparison["pairs_done"] == 2
    assert all("best" in (p["a"], p["b"]) for p in comparison["pairs"])
    code, out, _ = cli("evaluate", spec, rows, "--pairs", "best", "--format", "json")
    assert code == 0 and json.loads(out)["comparison"]["pairs_mode"] == "best"  # the mode, as documented
    located(tmp_path, ["evaluate", spec, rows, "--pairs", "name:zz"], "--pairs 'name:zz'", "name:NAME")


def test_huge_logits_warn_nothing(cli):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, out, err = cli("decide", OBSTACLE, "--p", "h=1e308,b=-1e308,n=0", "--logits", "--certainty")
    assert code == 0 and err == "" and "{h}" in out


def test_api_arguments_of_the_wrong_type_are_usage_errors(scores):
    with pytest.raises(UsageError, match="sweep_text takes text"):
        verifier.evaluate(FRIEDEL, scores=str(scores), sweep_text=5)
    with pytest.raises(UsageError, match="logits takes True or False, not 'no'"):
        verifier.decide(OBSTACLE, p=[0.2, 0.3, 0.5], logits="no")
    with pytest.raises(UsageError, match="logits takes True or False"):
        verifier.evaluate(OBSTACLE, probabilities=np.array([[0.2, 0.3, 0.5]]), y_true=["h"], logits="no")
    with pytest.raises(UsageError, match="certainty takes True or False"):
        verifier.decide(OBSTACLE, p=[0.2, 0.3, 0.5], certainty=1)
    # a numpy row of logits is read as its doubles (np.float64's repr is no decimal)
    row = verifier.decide(OBSTACLE, p=np.array([3.0, 1.0, 0.5]), logits=True)
    assert row.record["logits"] == {"h": "3", "b": "1", "n": "1/2"} and row.prediction == ["h"]


def test_figure_files_are_distinct_for_every_name(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("a/b,a-b,A,a,true\n0.1,0.2,0.3,0.4,P\n0.5,0.1,0.2,0.9,N\n0.7,0.3,0.3,0.1,P\n")
    report = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=["mu=0:1:2", "nu=0:1:2"])
    files = report.figures(formats=("svg",))
    # 5 classifiers with the trivial one, 4 x 3 / 2 + 4 pairs: 15 pictures, one file each
    assert len(files) == 15, sorted(files)
    assert {"friedel-abstention-symbolic-abstention-a_2f_b.svg", "friedel-abstention-symbolic-abstention-a_2d_b.svg",
            "friedel-abstention-symbolic-abstention-+a.svg",
            "friedel-abstention-symbolic-abstention-a.svg"} <= set(files)


def test_a_classifier_named_trivial_is_refused(tmp_path):
    path = tmp_path / "trivial.csv"
    path.write_text("trivial,x,true\n0.1,0.2,P\n0.5,0.1,N\n")
    located(tmp_path, ["evaluate", FRIEDEL, "--scores", path, *SWEEPS, "--figures", tmp_path / "figures"],
            f"--scores {path}:1", "'trivial'", "rename the column")
    assert not (tmp_path / "figures").exists()
