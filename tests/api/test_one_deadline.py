"""One deadline, still (issue 52, item 4), as attacks: reading a spec counts against `--time-limit` at the command
line too (the cache's look at the YAML included), a misspelt key holding a huge value is reported without
converting it, a cut evaluation prints what was done, figures count against the bound, and a spec with more
symbolic parameters than the engines can decide is refused early. No test asserts a wall-clock duration; a
subprocess timeout is only a guard against a hang, and sizes are the smallest that take the same path.

Origin: attacks for issue 52, item 4; formerly test_attacks_one_deadline.py."""

from __future__ import annotations

import os

import pytest

import verifier
from verifier.spec import load_spec
from verifier.spec.model import TOP_KEYS
from verifier.spec.source import load_yaml

from conftest import SPECS
from untouched import snapshot


def _huge_classes(tmp_path, n: int = 300_000):
    path = tmp_path / "classes.yaml"
    path.write_text("name: x\nclasses: [" + ",".join("a" for _ in range(n)) + ']\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "0.5"\n')
    return path


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_the_command_reads_the_spec_within_the_time_limit(tmp_path, cache, cli):
    path = _huge_classes(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = cli(path, "--time-limit", "0.1", *cache)
    assert code == 2 and out == ""
    assert f"{path}: invalid spec: reading the spec took longer than the time limit of 0.1 s (--time-limit)" in err
    assert snapshot(tmp_path) == before


def test_design_reads_the_spec_within_the_time_limit(tmp_path, cli):
    path = _huge_classes(tmp_path)
    code, out, err = cli("design", path, "--time-limit", "0.1")
    assert code == 2 and "reading the spec took longer than the time limit of 0.1 s" in err


def test_evaluate_says_it_was_reading_the_spec(tmp_path, cli):
    path = _huge_classes(tmp_path)
    rows = tmp_path / "pred.csv"
    rows.write_text("true,predicted\na,a\n")
    code, out, err = cli("evaluate", path, rows, "--time-limit", "0.1")
    assert code == 2 and "while reading the spec" in err


def test_the_value_under_an_unknown_key_is_not_converted(tmp_path, cli):
    text = 'name: x\nclasses: [a, b]\ncost: "0 if yhat == y else 1"\nset_cost: "0.5"\nbogus: [1, 2, [3]]\n'
    root = load_yaml(text, "s.yaml", TOP_KEYS)
    assert root.value["bogus"].value is None and root.value["bogus"].mark.line == 5  # left unread, still placed
    assert root.value["classes"].plain() == ["a", "b"]
    path = tmp_path / "bogus.yaml"
    path.write_text(text.replace("[1, 2, [3]]", "[" + ",".join("1" for _ in range(200_000)) + "]"))
    code, out, err = cli(path, "--time-limit", "60")
    assert code == 2 and f"{path}:5:8: invalid spec at key 'bogus': unknown key 'bogus'" in err


def test_the_analysis_gets_what_reading_left_and_names_the_whole_bound():
    spec = load_spec(os.path.join(SPECS, "ha.yaml"))
    spec.read_seconds = 3600.0  # as if reading had taken the whole bound: nothing is left to build the matrix
    cut = verifier.verify(spec, time_limit=60, cache=False)  # a cut run, naming the whole bound (issue 64, item 2)
    assert cut.analysis.stopped.startswith("Stopped: the time limit of 60 s (--time-limit) was reached during the "
                                           "stage 'building the extended matrix'")
    assert set(cut.verdicts.values()) == {"unknown"} and not cut.expectations_met
    spec.read_seconds = 0.0
    assert verifier.verify(spec, time_limit=60, cache=False).expectations_met


def test_forty_symbolic_parameters_are_decided_without_a_region_in_words(tmp_path):
    from verifier.analysis.regions import MAX_REGION_PARAMETERS

    n = 40
    assert n > MAX_REGION_PARAMETERS
    total = " + ".join(f"p{i}" for i in range(n))
    path = tmp_path / "forty.yaml"
    path.write_text("name: forty\nclasses: [a, b, c]\nparameters:\n" + "".join(f"  p{i}: {{}}\n" for i in range(n))
                    + f'cost: "0 if yhat == y else 1"\nset_cost: "(0 if y in Y else 1) + ({total}) * (len(Y) - 1)"\n')
    # the factoring behind a region in words ran for minutes: the bound is what this test would meet
    report = verifier.verify(str(path), time_limit=60, cache=False)
    assert "unknown" not in report.verdicts.values()
    assert report.verdicts["P2"] == "fails" and report.verdicts["P5"] == "holds"
    assert all(r.region is None for r in report.analysis.results)
    assert any(r.holds_at is not None for r in report.analysis.results if r.verdict.value == "fails")
    assert "time limit" not in report.to_text(width=200)


# -- evaluations cut by the time limit print what was done (exit 0) ---------------------------------------------

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")


def _many_scores(tmp_path, classifiers: int, rows: int = 60):
    import numpy as np

    rng = np.random.default_rng(3)
    truth = rng.random(rows) < 0.5
    path = tmp_path / "scores.csv"
    lines = [",".join(f"c{k}" for k in range(classifiers)) + ",true"]
    lines += [",".join(f"{rng.random():.3f}" for _ in range(classifiers)) + (",P" if t else ",N") for t in truth]
    path.write_text("\n".join(lines) + "\n")
    return path


class _SlowAfter:
    """A stand-in for one classifier's work that passes the time limit after `done` calls (the deadline is what
    is tested, not how fast a machine is)."""

    def __init__(self, real, done: int):
        self.real, self.done, self.calls = real, done, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls > self.done:
            import time

            while True:
                time.sleep(0.01)
        return self.real(*args, **kwargs)


def test_cut_abstention_curves_print_the_classifiers_done(tmp_path, monkeypatch, cli):
    import verifier.using.abstention.curves as curves

    real = curves._classifier
    monkeypatch.setattr(curves, "_classifier", _SlowAfter(real, 2))
    path = _many_scores(tmp_path, 5)
    code, out, err = cli("evaluate", FRIEDEL, "--scores", path, "--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3",
                         "--time-limit", "1")
    assert code == 0, err
    assert "c0 " in out and "c1 " in out and "c2 " not in out
    assert "Stopped: the time limit of 1 s (--time-limit) was reached: 2 of 5 classifiers done" in " ".join(out.split())
    assert "stopped:" in err
    monkeypatch.setattr(curves, "_classifier", _SlowAfter(real, 2))
    report = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=["mu=0:1:3", "nu=0:1:3"], time_limit=1)
    assert report.record["cut"]["classifiers_done"] == 2 and len(report.record["abstention"]["classifiers"]) == 2


def test_cut_expected_losses_print_the_classifiers_done(tmp_path, monkeypatch, cli):
    import verifier.using.operating.evaluation as evaluation

    monkeypatch.setattr(evaluation, "staircase", _SlowAfter(evaluation.staircase, 3))
    path = _many_scores(tmp_path, 6)
    spec = os.path.join(os.path.dirname(SPECS), "examples", "operating-conditions", "cost-proportion.yaml")
    code, out, err = cli("evaluate", spec, "--scores", path, "--threshold-choice", "score", "--uncertainty", "0",
                         "--time-limit", "1", "--format", "json")
    assert code == 0, err
    import json

    record = json.loads(out)
    assert record["cut"]["classifiers_done"] == 3 and record["cut"]["classifiers"] == 6
    assert [c["classifier"] for c in record["operating_conditions"]["classifiers"]] == ["c0", "c1", "c2"]
    assert record["operating_conditions"]["pairs"] == [] and "not compared" in record["cut"]["text"]


def test_a_sweep_cut_inside_a_classifier_prints_the_grid_points_done(tmp_path, monkeypatch, cli):
    """Issue 64, item 2: the time limit fell only between classifiers of a sweep; a cut inside the only one was a
    usage error with nothing shown. Now the points done are shown, the others `not reached`."""
    import json

    import verifier.using.evaluate.curves as curves

    monkeypatch.setattr(curves, "_band", _SlowAfter(curves._band, 7))
    path = tmp_path / "sets.csv"
    path.write_text("true,predicted\nh,h\nb,\"h,b\"\nn,\"b,n\"\nh,\"h,b,n\"\n")
    spec = os.path.join(SPECS, "p-discounted-symbolic.yaml")
    code, out, err = cli("evaluate", spec, path, "--sweep", "r=0:1:11", "--time-limit", "1", "--format", "json")
    assert code == 0 and "stopped:" in err
    record = json.loads(out)
    (curve,) = record["sweep"]["curves"]
    assert curve["points_done"] == 7 and curve["values"][7:] == [None] * 4 and record["sweep"]["crossings"] == []
    assert record["cut"]["text"] == ("the time limit of 1 s (--time-limit) was reached: 0 of 1 classifiers swept "
                                     "at every grid point; classifier at 7 of 11 grid points; where the curves "
                                     "cross was not computed (raise --time-limit, or sweep fewer points)")
    monkeypatch.setattr(curves, "_band", _SlowAfter(curves._band.real, 7))
    code, out, err = cli("evaluate", spec, path, "--sweep", "r=0:1:11", "--time-limit", "1")
    assert code == 0 and out.count("not reached") == 4 and "Stopped: the time limit of 1 s" in out


def test_nothing_done_is_still_a_usage_error(tmp_path, monkeypatch, cli):
    import verifier.using.abstention.curves as curves

    monkeypatch.setattr(curves, "_classifier", _SlowAfter(curves._classifier, 0))
    path = _many_scores(tmp_path, 2)
    code, out, err = cli("evaluate", FRIEDEL, "--scores", path, "--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3",
                         "--time-limit", "0.5")
    assert code == 2 and out == "" and "before any classifier's abstention cost curves were done" in err


# -- figures: the pairs asked for, within the time limit --------------------------------------------------------

def test_differential_maps_are_drawn_for_the_pairs_asked_for(tmp_path):
    path = _many_scores(tmp_path, 4, rows=20)
    sweeps = ["mu=0:1:2", "nu=0:1:2"]
    every = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=sweeps)
    named = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=sweeps, pairs="c2")
    best = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=sweeps, pairs="best")
    pairs = lambda r: [(d["first"], d["second"]) for d in r.record["abstention"]["differences"]]  # noqa: E731
    assert len(pairs(every)) == 6 + 4  # every pair, and each against the trivial classifier
    assert [p for p in pairs(named) if p[1] != "trivial"] == [("c0", "c2"), ("c1", "c2"), ("c3", "c2")]
    assert len(pairs(best)) == 3 + 4 and len({p[1] for p in pairs(best) if p[1] != "trivial"}) == 1
    assert len(named.figures(formats=("svg",))) == 5 + 3 + 4  # maps (the trivial one too), then the pairs


def test_many_classifiers_compare_each_with_the_best_by_default(tmp_path):
    from verifier.using.abstention.curves import MAX_PAIRS

    k = 16  # 120 pairs > MAX_PAIRS
    assert k * (k - 1) // 2 > MAX_PAIRS
    path = _many_scores(tmp_path, k, rows=12)
    report = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=["mu=0:1:2", "nu=0:1:2"])
    assert len(report.record["abstention"]["differences"]) == (k - 1) + k
    assert "compared with the one of least VACC" in report.record["abstention"]["pairs_note"]
    assert "--pairs all compares every pair" in " ".join(report.text.split())


def test_figures_count_against_the_time_limit(tmp_path, monkeypatch, cli):
    import verifier.report.use.figures as use_figures

    path = _many_scores(tmp_path, 3, rows=12)
    clock = iter(range(1000))  # each look at the clock is 5 s later: the bound passes after a few pictures
    start = use_figures._now()
    monkeypatch.setattr(use_figures, "_now", lambda: start + 5 * next(clock))
    figures = tmp_path / "figures"
    code, out, err = cli("evaluate", FRIEDEL, "--scores", path, "--sweep", "mu=0:1:2", "--sweep", "nu=0:1:2",
                         "--figures", figures, "--time-limit", "30")
    assert code == 0, err
    assert "verify: stopped: the time limit of 30 s (--time-limit) was reached" in err
    written = os.listdir(figures)
    assert 0 < len(written) < 2 * (4 + 3 + 3) and f"{len(written)} of 20 figure files written" in err


def test_a_list_of_classes_beyond_the_bound_is_refused_by_its_length_unread(tmp_path, cli):
    text = "name: x\nclasses: [" + ",".join(f"c{i}" for i in range(1500)) + ']\ncost: "0 if yhat == y else 1"\n'
    root = load_yaml(text, "s.yaml", TOP_KEYS, {"classes": 1000})
    items = root.value["classes"].value
    assert len(items) == 1500 and all(item.value is None for item in items[:3])  # never converted
    path = tmp_path / "many.yaml"
    path.write_text(text)
    code, out, err = cli(path)
    assert code == 2 and f"{path}:2:10: invalid spec at key 'classes': 1,500 classes" in err
    assert "at most 64 classes (up to 1,000 with a restricted 'predictions' family)" in err
