"""Every sentence about a test says what the test says (issue 51): beside each p-value the classifier the test
favours (`test_favours` in JSON: the side of the Wilcoxon signed ranks, recomputed here from the exact
per-instance differences), and, when the lower mean is the other classifier, both; the notebook's Friedman
sentence as the console says it (tie-corrected only when mean costs tie, the significance from the p-value that
gates Nemenyi's test); and a Bayesian pair whose exact differences lie on ±2·rope says so."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F

import numpy as np
import pytest

import verifier
from verifier.cli import check
from verifier.report.use.comparison import friedman_sentence

from conftest import ROOT, SPECS

stats = pytest.importorskip("scipy.stats")
SCORES = f"{ROOT}/examples/breast-cancer/scores.csv"
CONDITIONS = f"{ROOT}/examples/operating-conditions/cost-proportion.yaml"
OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"


def _side(d) -> int:
    """The sign of R+ − R− over the non-zero differences (−1: the negative side, the first, costs less)."""
    d = np.asarray([x for x in d if x != 0], dtype=float)
    ranks = stats.rankdata(np.abs(d))
    return int(np.sign(ranks[d > 0].sum() - ranks[d < 0].sum()))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_operating_condition_pairs_name_the_side_of_their_test():
    report = verifier.evaluate(CONDITIONS, scores=SCORES, threshold_choice="score", uncertainty=["0", "inf"])
    losses = {(c.name, g): c.instance_losses[g] for c in report.conditions.classifiers for g in c.instance_losses}
    text, pairs = _flat(report.shown(verbose=True)), report.record["operating_conditions"]["pairs"]  # 10 pairs: -v
    disagreements = 0
    for p in pairs:
        if p["p_holm"] is None:
            assert p["test_favours"] is None
            continue
        gamma = 0.0 if p["gamma"] == "0" else None  # None: complete certainty (inf)
        side = _side([F(x) for x in losses[(p["first"], gamma)] - losses[(p["second"], gamma)]])
        assert p["test_favours"] == {-1: p["first"], 1: p["second"], 0: None}[side]
        assert f"{p['gamma']}: {p['sentence']}" in text
        if p["test_favours"] not in (None, p["cheaper"]):
            disagreements += 1
            assert f"{p['cheaper']} has the lower mean loss, yet the test favours {p['test_favours']}" in p["sentence"]
        elif p["test_favours"] is not None:
            assert f"the test favours {p['test_favours']} too" in p["sentence"]
    assert disagreements > 0  # the case: the means and the ranks disagree on these data


def _data_sets(tmp_path, count: int, same_on: int | None = None, seed: int = 3):
    rng = np.random.default_rng(seed)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(count):
        truth = rng.integers(0, 3, 16)
        picks = {who: ['hbn'[t] if rng.random() < right else 'h|b|n' for t in truth]
                 for who, right in (("good", 0.85), ("fair", 0.6), ("poor", 0.45))}
        if d == same_on:
            picks["fair"] = picks["good"]
        for who, predicted in picks.items():
            rows += [f"{'hbn'[t]},{p},{who},s{d}" for t, p in zip(truth, predicted)]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_each_pair_names_the_side_of_its_signed_ranks_and_both_when_the_mean_disagrees(tmp_path):
    spec = tmp_path / "two.yaml"
    spec.write_text('name: two\nclasses: [a, b]\ncost: "0 if yhat == y else 100"\n'
                    'set_cost: "(0 if y in Y else 100) if len(Y) == 1 else (1 if y in Y else 100)"\n')
    rows = ["true,predicted,classifier"] + ['a,"a,b",A', "a,a,B"] * 20 + ["a,a,A", "a,b,B"]
    (tmp_path / "pred.csv").write_text("\n".join(rows) + "\n")
    for report in (verifier.evaluate(str(spec), predictions=str(tmp_path / "pred.csv")),
                   verifier.evaluate(OBSTACLE, predictions=str(_data_sets(tmp_path, 4)))):
        scores = {(s.dataset, s.name): s for s in report.scores}
        text = _flat(report.shown(verbose=True))  # over data sets, each pair's sentence is a detail (-v)
        for p in report.record["comparison"]["pairs"]:
            a, b = scores[(p["dataset"], p["a"])], scores[(p["dataset"], p["b"])]
            exact = [a.cell_costs[i] - b.cell_costs[k] for i, k in zip(a.cell_of, b.cell_of)]
            assert p["test_favours"] == {-1: p["a"], 1: p["b"], 0: None}[_side(exact)]
            if p["test_favours"] != p["lower_mean_cost"]:
                assert (f"signed ranks favour {p['test_favours']}, yet {p['lower_mean_cost']} has the lower mean "
                        "cost") in text
            else:
                assert f"signed ranks favour {p['test_favours']}, which has the lower mean cost too" in text
        for p in report.record["comparison"].get("over_datasets", {}).get("pairs", []):
            means = report.record["comparison"]["friedman"]["mean_cost_over_datasets"]
            lower = None if F(means[p["a"]]) == F(means[p["b"]]) else min((p["a"], p["b"]), key=lambda c: F(means[c]))
            assert p["lower_mean_cost"] == lower
        html = report._repr_html_()
        for p in report.record["comparison"]["pairs"]:  # the notebook's table: the same side
            assert f"<td>{p['test_favours']}" in html


@pytest.mark.parametrize("same_on", [None, 1])
def test_the_notebooks_friedman_sentence_says_what_the_record_says(tmp_path, same_on):
    report = verifier.evaluate(OBSTACLE, predictions=str(_data_sets(tmp_path, 4, same_on=same_on)))
    f = report.record["comparison"]["friedman"]
    sentence = _flat(report._repr_markdown_()).replace("\\_", "_")
    assert f"Friedman test over 4 data sets: chi2_F = {f['uncorrected']['statistic_exact']}" in sentence \
        or f"Friedman test over 4 data sets: chi2 = {f['statistic_exact']} tie-corrected" in sentence
    tied = f["tie_correction_factor"] != "1"
    assert tied == (same_on is not None) and ("tie-corrected" in sentence) == tied
    assert f["significance_from"] == "iman_davenport"
    gate = f["iman_davenport"]["p_value"]
    assert f["significant"] == (gate < report.record["comparison"]["alpha"])
    verdict = "significant" if f["significant"] else "not significant"
    assert f"by Iman-Davenport's p-value {verdict} at" in sentence
    assert f"Iman-Davenport F_F = {f['iman_davenport']['statistic_exact']}, p-value {gate:.4g}" in sentence
    console = _flat(report.text)  # the console's answer is the notebook's sentence, and its detail says the same
    said = _flat(friedman_sentence(report.record["comparison"]))
    assert said in console and said in sentence
    assert f"by the Iman-Davenport p-value: {verdict}" in _flat(report.shown(verbose=True))


def test_a_difference_on_the_ropes_edge_is_said(tmp_path):
    """Per data set A errs on e_A of 10 instances and B on e_B: differences 2/10, −1/10, 3/10 of mean costs.
    With rope 0.1, baycomp compares d_i + d_j (i ≤ j, d_0 = 0) with ±0.2: 0 + 2/10, −1/10 + 3/10 and
    −1/10 + −1/10 lie on that edge, where it weighs ½."""
    pytest.importorskip("baycomp")
    pytest.importorskip("statsmodels")
    pytest.importorskip("scikit_posthocs")
    spec = tmp_path / "01.yaml"
    spec.write_text('name: zero-one\nclasses: [a, b]\ncost: "0 if yhat == y else 1"\nset_cost: "0 if y in Y else 1"\n')
    rows = ["true,predicted,classifier,dataset"]
    for d, (errors_a, errors_b) in enumerate([(3, 1), (1, 2), (4, 1)]):
        rows += [f"a,{'b' if i < errors_a else 'a'},A,s{d}" for i in range(10)]
        rows += [f"a,{'b' if i < errors_b else 'a'},B,s{d}" for i in range(10)]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n")
    out, err = io.StringIO(), io.StringIO()
    argv = ["evaluate", str(spec), str(tmp_path / "p.csv"), "--extra-stats", "--rope", "0.1"]
    assert check([*argv, "--format", "json"], out, err) == 0, err.getvalue()
    (pair,) = json.loads(out.getvalue())["extra_stats"]["bayesian_signed_rank"]["pairs"]
    assert pair["on_rope_edge"].startswith("3 sum(s) of two per-data-set differences")
    text = io.StringIO()
    assert check(argv, text, io.StringIO()) == 0
    assert "equal ±2·rope exactly, where baycomp weighs a sum ½ each side" in _flat(text.getvalue())
    out = io.StringIO()
    assert check([*argv[:-1], "0.03", "--format", "json"], out, io.StringIO()) == 0
    (pair,) = json.loads(out.getvalue())["extra_stats"]["bayesian_signed_rank"]["pairs"]
    assert pair["on_rope_edge"] is None
