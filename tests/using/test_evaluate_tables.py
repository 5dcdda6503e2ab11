"""`verify evaluate` for papers: the classifiers x measures table (console, CSV, Markdown, LaTeX, records, a data
frame), scores straight from a classifier's probabilities (and a scikit-learn scorer), and sweeps with exact
crossing points and bootstrap bands."""

import csv
import io
import json
import os
from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

import verifier
from verifier.analysis.pipeline import build
from verifier.api.entry import load
from verifier.formula.genmean import GenMean
from verifier.formula.notation import paper_text
from verifier.report.use import score_table
from verifier.using import from_arrays, score
from verifier.using.decide import decide

from conftest import SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
CAUTIOUS = os.path.join(SPECS, "obstacle-p-discounted-cautious.yaml")
U65 = os.path.join(SPECS, "accuracy-u65.yaml")
HA_DELTA = os.path.join(SPECS, "design", "ha-delta.yaml")

# three classifiers on the same six instances (truth h, h, b, b, n, n)
TRUTH = ["h", "h", "b", "b", "n", "n"]
SETS = {"precise": ["h", "b", "b", "h", "n", "n"],  # two mistakes
        "cautious": ["h", "h,b", "b", "h,b", "n", "n"],  # never wrong, two sets
        "vacuous": ["h,b,n"] * 6}


def _csv(tmp_path, sets=SETS, truth=TRUTH) -> str:
    path = tmp_path / "pred.csv"
    rows = ["true,predicted,classifier"] + [f'{y},"{s}",{name}' for name, column in sets.items()
                                             for y, s in zip(truth, column)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _scores(spec=U65, betas=()):
    scheme = build(load(spec))
    return [score(scheme, from_arrays(scheme.classes, TRUTH, column, name), [F(b) for b in betas])
            for name, column in SETS.items()]


# -- the table ----------------------------------------------------------------------------------------------------

def test_the_best_value_of_each_column_is_decided_exactly_and_ties_are_all_marked():
    scores = _scores(U65)
    ms = {m.key: m for m in score_table.measures(scores)}
    # u65 of the sets: precise 4/6 right -> 2/3; cautious 4 singletons right + 2 pairs (u65 of a pair: 0.65)
    assert [s.u65 for s in scores] == [F(2, 3), F(4, 6) + F(2, 6) * F(65, 100), F(16, 30) - F(6, 90)]
    assert score_table.best(scores, ms["u65"]) == {1}
    assert score_table.best(scores, ms["set_accuracy"]) == {1, 2}  # cautious and vacuous both contain the truth always
    assert score_table.best(scores, ms["determinacy"]) == set()  # a descriptive measure has no better end
    assert score_table.best(scores, ms["mean_cost"]) == {1}  # u65's cost 1 - u65: the cautious one is cheapest


def test_markdown_latex_and_csv_tables_hold_the_same_numbers(tmp_path, cli):
    path = _csv(tmp_path)
    code, markdown, _ = cli("evaluate", U65, path, "--table", "markdown", "--f-beta", "1")
    assert code == 0 and markdown.splitlines()[0].startswith("| classifier | mean cost (95% CI) |")
    assert "| cautious | **0.1167** [" in markdown and "F1" in markdown.splitlines()[0]
    code, latex, _ = cli("evaluate", U65, path, "--table", "latex")
    assert code == 0 and r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"cautious & \textbf{0.1167}" in latex and "mean cost (95\\% CI)" in latex
    code, text, _ = cli("evaluate", U65, path, "--table", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["classifier"] for r in rows] == ["precise", "cautious", "vacuous"]
    assert rows[1]["mean_cost_exact"] == "7/60" and float(rows[1]["u65"]) == pytest.approx(53 / 60)
    assert rows[2]["determinate_accuracy"] == ""  # no determinate prediction: no value, not 0


def test_latex_and_csv_escape_names(tmp_path, cli):
    path = _csv(tmp_path, {"=1+1": SETS["precise"], "a_b & 50%": SETS["cautious"]})
    _, latex, _ = cli("evaluate", U65, path, "--table", "latex")
    assert r"a\_b \& 50\%" in latex
    _, text, _ = cli("evaluate", U65, path, "--table", "csv")
    assert "'=1+1" in text  # a spreadsheet does not run it


def test_the_console_puts_classifiers_side_by_side_and_labels_the_interval(tmp_path, cli):
    code, out, _ = cli("evaluate", U65, _csv(tmp_path))
    header = out.splitlines()[0].split()
    assert code == 0 and header == ["measure", "precise", "cautious", "vacuous"]
    assert "percentile bootstrap interval of the mean cost (a statistical estimate)" in out
    assert "cautious: 7/60" in out  # the exact mean cost beside the rounded one


def test_records_and_a_data_frame():
    report = verifier.evaluate(U65, TRUTH, SETS["cautious"])
    records = report.records()
    assert records[0]["mean_cost_exact"] == "7/60" and records[0]["determinacy"] == pytest.approx(4 / 6)
    pandas = pytest.importorskip("pandas")
    frame = report.to_frame()
    assert isinstance(frame, pandas.DataFrame) and list(frame["classifier"]) == ["classifier"]
    with pytest.raises(verifier.UsageError, match="expected one of csv, markdown, latex"):
        report.table("html")


def test_table_does_not_combine_with_json(tmp_path, cli):
    code, _, err = cli("evaluate", U65, _csv(tmp_path), "--table", "csv", "--format", "json")
    assert code == 2 and "--table" in err


# -- from probabilities to scores ---------------------------------------------------------------------------------

def _probabilities(n=60, seed=3):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet([1, 1, 1], size=n)
    truth = [["h", "b", "n"][i] for i in rng.integers(0, 3, size=n)]
    return P, truth


def test_probabilities_are_decided_row_by_row_as_decide_does_then_scored():
    P, truth = _probabilities()
    report = verifier.evaluate(CAUTIOUS, truth, probabilities=P)
    scheme = build(load(CAUTIOUS))
    expected = [decide(scheme, [F(x) / sum(map(F, row)) for x in map(F, row)]).prediction for row in P.tolist()]
    direct = verifier.evaluate(CAUTIOUS, truth, [sorted(m) for m in expected])
    assert report.record["scores"][0]["mean_cost"] == direct.record["scores"][0]["mean_cost"]
    assert report.record["decided_from_probabilities"][0]["rows"] == 60
    assert any(len(m) > 1 for m in expected)  # the scheme does predict sets here: the test is not vacuous


def test_probabilities_from_files_on_the_command_line(tmp_path, cli):
    P, truth = _probabilities(20)
    lines = ["h,b,n"] + [",".join(f"{x:.6f}" for x in row[:2]) + f",{1 - sum(round(x, 6) for x in row[:2]):.6f}"
                         for row in P]
    (tmp_path / "probs.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "truth.csv").write_text("true\n" + "\n".join(truth) + "\n")
    code, out, err = cli("evaluate", CAUTIOUS, "--probabilities", str(tmp_path / "probs.csv"), "--truth",
                         str(tmp_path / "truth.csv"), "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert record["scores"][0]["classifier"] == "probs" and record["scores"][0]["n"] == 20
    code, _, err = cli("evaluate", CAUTIOUS, "--probabilities", str(tmp_path / "probs.csv"))
    assert code == 2 and "--truth" in err
    (tmp_path / "short.csv").write_text("true\nh\n")
    code, _, err = cli("evaluate", CAUTIOUS, "--probabilities", str(tmp_path / "probs.csv"), "--truth",
                       str(tmp_path / "short.csv"))
    assert code == 2 and "20 rows of probabilities but 1 true classes" in err


def test_the_scorer_inside_cross_val_score():
    sklearn = pytest.importorskip("sklearn")
    del sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, cross_val_score

    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = np.array(["h", "b", "n"])[np.argmax(X + rng.normal(scale=0.8, size=X.shape), axis=1)]
    scorer = verifier.scorer(U65, "u65")
    values = cross_val_score(LogisticRegression(max_iter=500), X, y, scoring=scorer, cv=3)
    assert len(values) == 3 and all(0 < v <= 1 for v in values)
    # the scorer's value is evaluate's u65 on the same fold
    model = LogisticRegression(max_iter=500).fit(X[:100], y[:100])
    report = verifier.evaluate(U65, list(y[100:]), probabilities=model.predict_proba(X[100:])[:, [1, 0, 2]])
    assert model.classes_.tolist() == ["b", "h", "n"]  # hence the columns reordered to the spec's h, b, n
    assert scorer(model, X[100:], y[100:]) == pytest.approx(float(F(report.record["scores"][0]["u65"])))
    cost = verifier.scorer(U65)
    assert cost(model, X[100:], y[100:]) == pytest.approx(-float(sp.Rational(report.record["scores"][0]["mean_cost"])))
    search = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 1.0]}, scoring=scorer, cv=3).fit(X, y)
    assert search.best_params_["C"] in (0.01, 1.0)


def test_the_scorer_refuses_what_it_cannot_read():
    with pytest.raises(verifier.UsageError, match="measure"):
        verifier.scorer(U65, "accuracy")

    class NoProbabilities:
        classes_ = np.array(["h", "b", "n"])

    with pytest.raises(verifier.UsageError, match="predict_proba"):
        verifier.scorer(U65)(NoProbabilities(), np.zeros((2, 1)), ["h", "b"])


# -- sweeps: exact crossings, bands, the paper's notation -------------------------------------------------------

def test_a_crossing_computed_by_hand_is_found_exactly(tmp_path, cli):
    # Ha's rule: the precise classifier is wrong once in four (mean cost 1/4 for every delta); the cautious one
    # always predicts {a, b} with the truth inside (mean cost delta). They cross at delta = 1/4 exactly.
    path = tmp_path / "pred.csv"
    rows = ["true,predicted,classifier"] + [f"{y},{p},precise" for y, p in zip("abab", "abaa")] + \
        [f'{y},"a,b",cautious' for y in "abab"]
    path.write_text("\n".join(rows) + "\n")
    code, out, _ = cli("evaluate", HA_DELTA, str(path), "--sweep", "delta=0:2:9", "--format", "json")
    assert code == 0
    (pair,) = json.loads(out)["sweep"]["crossings"]
    assert pair["zeros"][0]["value"] == "1/4" and pair["flips_at"] == [{"value": "1/4"}]
    assert [p["cheaper"] for p in pair["pieces"]] == ["cautious", "precise"]
    code, text, _ = cli("evaluate", HA_DELTA, str(path), "--sweep", "delta=0:2:9")
    assert "the order flips at delta = 1/4" in text and "cautious costs less for delta in (0, 1/4)" in text


def test_curves_in_the_papers_notation_with_bands(tmp_path, cli):
    path = _csv(tmp_path)
    code, out, _ = cli("evaluate", os.path.join(SPECS, "p-discounted-symbolic.yaml"), path, "--sweep", "r=0:1:5",
                       "--format", "json")
    sweep = json.loads(out)["sweep"]
    assert code == 0 and all("GenMean" not in c["mean_cost_text"] for c in sweep["curves"])
    assert "M_{1 - r}(" in sweep["curves"][1]["mean_cost_text"]
    for curve in sweep["curves"]:
        for value, band in zip(curve["values"], curve["band"]):
            assert band[0] <= value + 1e-12 and value <= band[1] + 1e-12
    assert len(sweep["crossings"]) == 3


def test_the_papers_notation_for_power_means():
    r = sp.Symbol("r")
    assert paper_text(2 * GenMean(1 - r, 0, 1) / 3 + r ** 2) == "r^2 + 2*M_{1 - r}(0, 1)/3"


def test_conformal_libraries_sets_are_read_as_they_come():
    truth = ["h", "b", "n", "h"]
    crepes = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]])  # crepes: (N, K) 0/1
    mapie = crepes.astype(bool)[:, :, None]  # MAPIE: (N, K, levels), one level
    torchcp = [np.array([0]), np.array([0, 1]), np.array([2]), np.array([0, 2])]  # TorchCP: index lists
    means = {verifier.evaluate(U65, truth, sets).record["scores"][0]["mean_cost"] for sets in (crepes, mapie, torchcp)}
    assert means == {"7/40"}  # (0 + 0.35 + 0 + 0.35) / 4 with u65's cost 1 - u65 of a pair
    with pytest.raises(verifier.UsageError, match="pick one level"):
        verifier.evaluate(U65, truth, np.repeat(mapie, 2, axis=2))


def test_a_bad_probabilities_file_is_named_by_its_own_option(tmp_path, cli):
    (tmp_path / "p.csv").write_text("h,b\n0.5,0.5\n")
    (tmp_path / "t.csv").write_text("h\n")
    code, out, err = cli("evaluate", U65, "--probabilities", str(tmp_path / "p.csv"), "--truth",
                         str(tmp_path / "t.csv"))
    assert code == 2 and not out and "--probabilities" in err and ":1:" in err and "lacks the class column(s) n" in err
    assert "--p-file" not in err and "Traceback" not in err
