"""`verify evaluate SPEC --scores FILE --sweep ... --sweep ...`: the abstention cost curves through the command
line and the API: text, JSON grids (exact), figures, any two-class spec brought to the normal form, data sets,
exact ordering of decimal scores, and every refusal located with exit 2 (nothing written)."""

import io
import json
import os
from fractions import Fraction as F

import numpy as np
import pytest

import verifier
from verifier.cli import check

from conftest import SPECS

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")
SWEEPS = ["--sweep", "mu=0:1:5", "--sweep", "nu=0:1:5"]


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = check(["evaluate", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def scores(tmp_path):
    rng = np.random.default_rng(7)
    truth = rng.random(60) < 0.4
    path = tmp_path / "scores.csv"
    rows = ["svm,nb,true"] + [f"{rng.normal() + 1.2 * t:.2f},{rng.normal() + 0.5 * t:.1f},{'P' if t else 'N'}"
                              for t in truth]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_text_and_json_report_the_windows_exactly(scores):
    code, out, err = run([FRIEDEL, "--scores", scores, *SWEEPS])
    assert code == 0, err
    assert "VACC" in out and "svm - nb " in out and "Lemma 1 on these data" in out
    assert "left out, outside the assumptions (mu > 0, nu > 0)" in " ".join(out.split())
    code, out, _ = run([FRIEDEL, "--scores", scores, *SWEEPS, "--format", "json"])
    record = json.loads(out)["abstention"]
    assert record["shape"] == [5, 5] and record["parameters"] == ["mu", "nu"]
    names = [c["classifier"] for c in record["classifiers"]]
    assert names == ["svm", "nb", "trivial"]
    svm = record["classifiers"][0]
    assert len(svm["cost"]) == 25 and svm["cost"][0] is None  # mu = 0 is outside mu > 0
    assert svm["vacc"]["exact"] and F(svm["vacc"]["low"]) == F(svm["vacc"]["high"])
    assert svm["recheck"]["disagreement"] is None and svm["recheck"]["checked"] == 16
    # in the normal form the spec's cost is the normalised one
    assert svm["cost"] == svm["normalised_cost"]
    # where it abstains, l < u; where it does not, l == u
    for rate, low, high in zip(svm["abstention_rate"], svm["lower"], svm["upper"]):
        if rate not in (None, "0"):
            assert low != high
    pair = record["differences"][0]
    assert (pair["first"], pair["second"]) == ("svm", "nb")
    assert F(pair["vacc_difference"]) == F(svm["vacc"]["low"]) - F(record["classifiers"][1]["vacc"]["low"])


def test_any_two_class_spec_maps_to_the_normal_form(tmp_path, scores):
    """Costs doubled and shifted: the windows are the same, the spec's cost is 2 x Eq. 7 + the shift."""
    spec = tmp_path / "doubled.yaml"
    spec.write_text("name: doubled\nclasses: [P, N]\nparameters:\n  a: {}\n  w: {}\nassume: ['a >= 0', 'w >= 0']\n"
                    "cost_matrix:\n  P: [1, 1 + 2*a]\n  N: [3, 1]\nset_costs:\n  'P,N': [1 + 2*w, 1 + 2*w]\n")
    code, out, err = run([str(spec), "--scores", scores, "--sweep", "a=0:1:3", "--sweep", "w=0:1:3", "--format",
                          "json"])
    assert code == 0, err
    doubled = json.loads(out)["abstention"]
    _, out, _ = run([FRIEDEL, "--scores", scores, "--sweep", "mu=1/2:1:2", "--sweep", "nu=1/2:1:2", "--format",
                     "json"])
    friedel = json.loads(out)["abstention"]
    svm = doubled["classifiers"][0]
    at = {(s["mu"], s["nu"]): i for i, s in enumerate(doubled["scenarios"])}
    for i, s in enumerate(friedel["scenarios"]):
        j = at[(s["mu"], s["nu"])]
        assert F(svm["cost"][j]) == 2 * F(friedel["classifiers"][0]["cost"][i]) + 1
        assert svm["lower"][j] == friedel["classifiers"][0]["lower"][i]


def test_one_sweep_gives_a_curve_and_figures(tmp_path, scores):
    spec = tmp_path / "one.yaml"
    spec.write_text(open(FRIEDEL).read().replace("  mu: {}", "  mu: {value: 1/2}").replace('"mu > 0", ', ""))
    figures = tmp_path / "figs"
    code, out, err = run([str(spec), "--scores", scores, "--sweep", "nu=0:1:11", "--figures", str(figures),
                          "--plot", str(tmp_path / "curve.svg")])
    assert code == 0, err
    written = sorted(os.listdir(figures))
    assert "one-abstention-svm.svg" in written and "one-difference-svm-nb.pdf" in written
    assert (tmp_path / "curve.svg").read_bytes().startswith(b"<?xml")


def test_the_api_returns_the_curves_and_pictures(scores):
    result = verifier.evaluate(FRIEDEL, scores=scores, sweep_text=["mu=0:1:5", "nu=0:1:5"])
    assert result.abstention is not None and result.record["abstention"]["shape"] == [5, 5]
    assert result.picture("svg").startswith(b"<?xml")
    files = result.figures(formats=("svg",))
    assert all(name.endswith(".svg") for name in files) and len(files) == 3 + 3


def test_the_api_draws_figures_within_a_time_limit(scores, monkeypatch):
    """Issue 64: `UseReport.figures()` had no time limit in Python; now each picture starts before it, or is named
    as not drawn."""
    import time

    import verifier.report.use.figures as figures

    result = verifier.evaluate(FRIEDEL, scores=scores, sweep_text=["mu=0:1:5", "nu=0:1:5"])
    real = figures.PictureBytes
    monkeypatch.setattr(figures, "PictureBytes", lambda *args: time.sleep(0.4) or real(*args))
    drawn = result.figures(formats=("svg",), time_limit=0.5)
    assert len(drawn) < 6 and drawn.cut.startswith("the time limit of 0.5 s (--time-limit) was reached: ")
    assert f"{len(drawn)} of 6 figure files drawn; not drawn: " in drawn.cut
    with pytest.raises(verifier.UsageError, match="time limit must be None or a number of seconds"):
        result.figures(time_limit=-1)


def test_data_sets_are_evaluated_apart(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text("dataset,a,true\nx,0.1,N\nx,0.9,P\nx,0.5,P\ny,0.2,P\ny,0.8,N\n")
    code, out, err = run([FRIEDEL, "--scores", str(path), *SWEEPS])
    assert code == 0, err
    assert "Data set x:" in out and "Data set y:" in out


def test_scores_are_ordered_exactly(tmp_path):
    """0.5 and 0.50 are one score; 0.5000000000000000001 rounds to the same float but is larger."""
    path = tmp_path / "close.csv"
    path.write_text("a,true\n0.5,N\n0.50,N\n0.5000000000000000001,P\n")
    result = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=["mu=1:1:1", "nu=1/10:1/10:1"]
                               if False else ["mu=1/2:1:2", "nu=1/10:1/5:2"])
    a = result.abstention.classifiers[0]
    # a perfect separation at the midpoint of the two distinct scores: cost 0, threshold exact
    assert all(c == 0 for c in a.costs)
    assert a.thresholds[0] == (F("0.50000000000000000005"), F("0.50000000000000000005"))


@pytest.mark.parametrize("content, expected", [
    ("a,true\nnan,P\n", "'nan' is not a score"),
    ("a,true\n0.3,P\ninf,N\n", "'inf' is not a score"),
    ("a,true\n1e999,P\n", "beyond the range"),
    ("a,true\n0x10,P\n", "not a score"),
    ("a,true\n0.3,Q\n", "unknown class 'Q'"),
    ("true\nP\n", "no column of scores"),
    ("a\n0.3\n", "no true classes"),
])
def test_bad_scores_files_are_refused_with_their_place(tmp_path, content, expected):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    code, out, err = run([FRIEDEL, "--scores", str(path), *SWEEPS])
    assert code == 2 and expected in " ".join(err.split()) and str(path) in err and out == ""


def test_bad_specs_and_sweeps_are_refused(tmp_path, scores):
    cases = [([os.path.join(SPECS, "ha-numeric.yaml"), "--scores", scores, *SWEEPS], "not a symbolic parameter"),
             ([FRIEDEL, "--scores", scores], "give one or two sweeps"),
             ([FRIEDEL, "--scores", scores, "--sweep", "mu=0:1:3", "--sweep", "mu=0:1:3"], "given twice"),
             ([FRIEDEL, "--scores", scores, *SWEEPS, "--sweep", "nu=0:1:3"], "take one (a curve) or two"),
             ([FRIEDEL, "--scores", scores, "--sweep", "mu=0:1:3"], "nu is symbolic"),
             ([FRIEDEL, "--scores", scores, *SWEEPS, "--plot", scores], "scores")]
    negative = tmp_path / "negative.yaml"
    negative.write_text(open(FRIEDEL).read().replace('"P,N": [nu, nu]', '"P,N": [nu, -nu]'))
    cases.append(([str(negative), "--scores", scores, *SWEEPS], "abstaining costs less than a right prediction"))
    three = tmp_path / "three.yaml"
    three.write_text("name: three\nclasses: [a, b, c]\nparameters:\n  t: {}\n  w: {}\ncost_matrix:\n"
                     "  a: [0, t, 1]\n  b: [1, 0, 1]\n  c: [1, 1, 0]\nset_cost: \"w\"\n")
    cases.append(([str(three), "--scores", scores, "--sweep", "t=0:1:3", "--sweep", "w=0:1:3"], "3 classes, not 2"))
    before = open(scores).read()
    for argv, expected in cases:
        code, out, err = run(argv)
        assert code == 2 and expected in " ".join(err.split()), (argv, err)
    assert open(scores).read() == before


def test_truth_rows_must_match(tmp_path, scores):
    truth = tmp_path / "truth.txt"
    truth.write_text("P\nN\n")
    plain = tmp_path / "plain.csv"
    plain.write_text("a\n0.1\n0.2\n0.3\n")
    code, _, err = run([FRIEDEL, "--scores", str(plain), "--truth", str(truth), *SWEEPS])
    assert code == 2 and "2 true classes for the 3 rows" in err
    code, _, err = run([FRIEDEL, "--scores", scores, "--truth", str(truth), *SWEEPS])
    assert code == 2 and "give the true classes once" in err


def test_the_worked_example_in_the_docs_is_what_the_tool_prints():
    root = os.path.dirname(SPECS)
    result = verifier.evaluate(FRIEDEL, scores=os.path.join(root, "examples", "breast-cancer", "scores.csv"),
                               sweep_text=["mu=0:1:101", "nu=0:1:101"])
    out = result.text
    docs = open(os.path.join(root, "docs", "decide-evaluate.md"), encoding="utf-8").read()
    example = docs[docs.index("### Worked example"):]
    table = example[example.index("```\n") + 4:]
    table = table[:table.index("```")]
    for line in table.strip("\n").splitlines():
        assert line in out.splitlines(), line
    logistic = next(c for c in result.abstention.classifiers if c.name == "logistic")
    assert f"The exact VACC of logistic regression is\n{logistic.volume.low}." in example


def test_one_class_only_and_many_identical_scores(tmp_path):
    only = tmp_path / "only.csv"
    only.write_text("a,true\n0.1,P\n0.5,P\n0.9,P\n")
    code, out, err = run([FRIEDEL, "--scores", str(only), *SWEEPS])
    assert code == 0, err
    assert "Every instance here is P" in " ".join(out.split())
    same = tmp_path / "same.csv"
    same.write_text("a,true\n" + "".join(f"0.5,{'P' if i % 3 == 0 else 'N'}\n" for i in range(100_000)))
    code, out, err = run([FRIEDEL, "--scores", str(same), *SWEEPS, "--format", "json"])
    assert code == 0, err
    a, trivial = json.loads(out)["abstention"]["classifiers"]
    assert a["cost"] == trivial["cost"] and a["vacc"] == trivial["vacc"]  # one score: the trivial classifier


def test_results_show_themselves_in_a_notebook(scores):
    result = verifier.evaluate(FRIEDEL, scores=scores, sweep_text=["mu=0:1:5", "nu=0:1:5"])
    assert repr(result).startswith("<AbstentionReport abstention cost curves of 2 classifiers, VACC svm")
    html = result._repr_html_()
    assert "<svg" in html and "VACC" in html
    assert "VACC" in result._repr_markdown_()


def test_abstaining_may_cost_differently_by_the_truth(tmp_path, scores):
    """{P, N} costs nu on a P instance and 2 nu on an N one: windows exist where nu_N < mu (1 - nu_P), and each
    is the brute-force optimum (the re-check passed, or nothing would be reported)."""
    unequal = tmp_path / "unequal.yaml"
    unequal.write_text(open(FRIEDEL).read().replace('"P,N": [nu, nu]', '"P,N": [nu, 2*nu]'))
    code, out, err = run([str(unequal), "--scores", scores, *SWEEPS, "--format", "json"])
    assert code == 0, err
    record = json.loads(out)["abstention"]
    assert all(s["nu_n"] == str(2 * F(s["nu"])) for s in record["scenarios"] if s["nu"] is not None)
    svm = record["classifiers"][0]
    assert svm["recheck"]["disagreement"] is None and svm["recheck"]["lemma_1_holds"]
    code, out, _ = run([str(unequal), "--scores", scores, *SWEEPS])
    assert "nu_N >= mu (1 - nu_P)" in " ".join(out.split())


def test_special_files_are_refused_as_scores(tmp_path):
    for special in ("/dev/zero", str(tmp_path)):
        code, out, err = run([FRIEDEL, "--scores", special, *SWEEPS])
        assert code == 2 and "--scores" in err and "not a regular file" in err and "Traceback" not in err and out == ""


def test_a_plot_that_is_also_one_of_the_figures_is_refused_before_anything_is_written(tmp_path, scores):
    """Issue 64, item 5: --plot figs/one-abstention-svm.svg with --figures figs wrote the figure, then the plot
    over it ("wrote" twice on stderr); one output would replace the other, so neither is written."""
    spec = tmp_path / "one.yaml"
    spec.write_text(open(FRIEDEL).read().replace("  mu: {}", "  mu: {value: 1/2}").replace('"mu > 0", ', ""))
    figures = tmp_path / "figs"
    code, out, err = run([str(spec), "--scores", scores, "--sweep", "nu=0:1:11", "--figures", str(figures),
                          "--plot", str(figures / "one-abstention-svm.svg")])
    assert code == 2 and "--plot" in err and "is also one of the figures --figures" in err, err
    assert not figures.exists() or os.listdir(figures) == []
