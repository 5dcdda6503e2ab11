"""baycomp's Bayesian comparisons over several data sets (verifier.using.bayes_over_datasets): the signed-rank
test's posterior probabilities are baycomp's own, bit for bit, seeded and oriented for costs; baycomp's plots are
written by --figures; the hierarchical test runs baycomp.HierarchicalTest with Stan seeded and leaves nothing in
the working directory (a stand-in `stan` module plays Stan here: the real one compiles a C++ model for
minutes); a missing pystan, a bad --rope and data the hierarchical test cannot take are said plainly."""

from __future__ import annotations

import io
import json
import pathlib
import sys
import types
from fractions import Fraction as F

import numpy as np
import pytest

import verifier
from verifier.cli import check
from verifier.errors import UsageError
from verifier.using.compare.bayes_over_datasets import SEED

from conftest import SPECS

OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"
baycomp = pytest.importorskip("baycomp")
pytest.importorskip("statsmodels")
pytest.importorskip("scikit_posthocs")


def _data_sets(tmp_path, sizes=(16,) * 6, seed=3, same_on=None):
    """Per data set three classifiers' set predictions with ties; `same_on`: a data set where fair predicts as
    good does (their costs differ by 0 on every instance)."""
    rng = np.random.default_rng(seed)
    rows = ["true,predicted,classifier,dataset"]
    for d, n in enumerate(sizes):
        truth = rng.integers(0, 3, n)
        picks = {who: [('hbn'[t] if rng.random() < right else 'h|b|n') for t in truth]
                 for who, right in (("good", 0.85), ("fair", 0.6), ("poor", 0.45))}
        if d == same_on:
            picks["fair"] = picks["good"]
        for who, predicted in picks.items():
            rows += [f"{'hbn'[t]},{p},{who},s{d}" for t, p in zip(truth, predicted)]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _means(record):
    return {(s["dataset"], s["classifier"]): float(F(s["mean_cost"])) for s in record["scores"]}


def test_signed_rank_probabilities_are_baycomps_two_on_multiple_bit_for_bit(tmp_path):
    path = _data_sets(tmp_path)
    out = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--format", "json", "--extra-stats", "--rope", "0.02"], out,
                 io.StringIO()) == 0
    record = json.loads(out.getvalue())
    block = record["extra_stats"]["bayesian_signed_rank"]
    assert block["rope"] == 0.02 and block["seed"] == SEED and "random_state 20170101" in block["test"]
    means = _means(record)
    for p in block["pairs"]:
        a = np.array([means[(f"s{d}", p["a"])] for d in range(6)])
        b = np.array([means[(f"s{d}", p["b"])] for d in range(6)])
        # baycomp on the costs: its left is "a's score larger", a larger cost, so a's lower cost is its right
        left, rope, right = baycomp.two_on_multiple(a, b, rope=0.02, random_state=SEED)
        assert (p["p_a_lower"], p["p_equivalent"], p["p_b_lower"]) == (right, rope, left)
    assert "bayesian_hierarchical" not in record["extra_stats"]  # not asked for


def test_figures_are_baycomps_plots_of_each_pair_and_written_only_where_asked(tmp_path):
    path = _data_sets(tmp_path)
    figures = tmp_path / "figs"
    err = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats", "--figures", str(figures)], io.StringIO(),
                 err) == 0, err.getvalue()
    names = sorted(p.name for p in figures.iterdir())
    assert names == sorted(f"obstacle-discounted-bayes-signed-rank-{a}-vs-{b}.{fmt}"
                           for a, b in (("good", "fair"), ("good", "poor"), ("fair", "poor")) for fmt in ("svg", "pdf"))
    svg = (figures / "obstacle-discounted-bayes-signed-rank-good-vs-poor.svg").read_text()
    assert "p(good) = " in svg and "p(poor) = " in svg  # baycomp's labels, a's lower cost on its left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs", "p.csv"]
    result = verifier.evaluate(OBSTACLE, predictions=str(path))
    with pytest.raises(UsageError, match="baycomp's plots of the Bayesian comparisons over several data sets"):
        result.figures()  # before extra_stats(): nothing drawn
    result.extra_stats(0.02)
    drawn = result.figures(formats=("svg",))
    again = verifier.evaluate(OBSTACLE, predictions=str(path))
    again.extra_stats(0.02)
    assert again.figures(formats=("svg",)) == drawn  # seeded draws, deterministic SVG


@pytest.mark.parametrize("argv, message", [
    (["--rope", "0.1"], "--rope and --hierarchical set the Bayesian tests of --extra-stats; give --extra-stats"),
    (["--hierarchical"], "--rope and --hierarchical set the Bayesian tests of --extra-stats; give --extra-stats"),
    (["--extra-stats", "--rope", "-0.1"], "argument --rope: expected a number at least 0, got '-0.1'"),
    (["--extra-stats", "--rope", "nan"], "argument --rope: 'nan' is not a number"),
    (["--extra-stats", "--rope", "1e9999"], "argument --rope: '1e9999': the exponent is beyond"),
])
def test_bad_rope_options_are_located_usage_errors(tmp_path, argv, message):
    path = _data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), *argv], out, err) == 2 and not out.getvalue()
    assert err.getvalue().startswith("verify evaluate: usage error: ") and message in err.getvalue()
    assert "Traceback" not in err.getvalue() and sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]


@pytest.mark.parametrize("rope", [-1, float("nan"), float("inf"), True, "0.1"])
def test_bad_rope_in_python_is_a_usage_error(tmp_path, rope):
    result = verifier.evaluate(OBSTACLE, predictions=str(_data_sets(tmp_path)))
    with pytest.raises(UsageError, match="expected a finite number at least 0"):
        result.extra_stats(rope)


def test_hierarchical_without_pystan_names_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "stan", None)  # as if pystan were not installed: ImportError
    path = _data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats", "--hierarchical"], out, err) == 2
    assert not out.getvalue() and "Traceback" not in err.getvalue()
    assert ("the hierarchical Bayesian test (baycomp.HierarchicalTest) needs stan, an optional dependency: pip "
            "install 'verify-set-costs[hierarchical]' (or pip install 'pystan>=3.4'" in err.getvalue())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]


class _FakeStan(types.ModuleType):
    """Plays pystan 3 for baycomp: records what build() is given, samples a fixed posterior of the mean
    difference (in baycomp's scaled units), noisily printing as pystan does."""

    def __init__(self, delta: float):
        super().__init__("stan")
        self.delta, self.calls = delta, []

    def build(self, program_code, data=None, random_seed=None):
        self.calls.append({"data": data, "random_seed": random_seed})
        print("Building...")  # pystan's progress, which must stay off the report
        fake = self

        class Model:
            def sample(self, num_samples, num_chains):
                fake.calls[-1]["draws"] = (num_chains, num_samples)
                draws = num_chains * num_samples
                rng = np.random.default_rng(random_seed)
                return {"delta0": [fake.delta + 0.01 * rng.standard_normal(draws)], "std0": [np.full(draws, 0.1)],
                        "nu": [np.full(draws, 30.0)]}

        return Model()


def test_hierarchical_runs_baycomp_with_stan_seeded_and_leaves_no_file_behind(tmp_path, monkeypatch):
    fake = _FakeStan(delta=2.0)  # scaled mean of (a − b): a costs more, b costs less
    monkeypatch.setitem(sys.modules, "stan", fake)
    path = _data_sets(tmp_path)
    monkeypatch.chdir(tmp_path)  # baycomp would write last-sample.pickle here
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--format", "json", "--extra-stats", "--hierarchical",
                  "--figures", "figs"], out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())  # pystan's "Building..." did not reach standard output
    block = record["extra_stats"]["bayesian_hierarchical"]
    assert [(p["a"], p["b"]) for p in block["pairs"]] == [("good", "fair"), ("good", "poor"), ("fair", "poor")]
    assert all(c["random_seed"] == SEED and c["draws"] == (4, 2500) for c in fake.calls) and len(fake.calls) == 3
    scaled = [np.asarray(c["data"]["x"]) for c in fake.calls]  # baycomp's (negated b) − (negated a): a − b, scaled
    assert [x.shape for x in scaled] == [(6, 16)] * 3 and scaled[1].mean() < 0  # good costs less than poor
    for p in block["pairs"]:
        assert p["p_b_lower"] == 1.0 and p["p_a_lower"] == 0.0  # the stand-in's posterior: b costs less
    assert block["note"] is None and block["seed"] == SEED and "random_seed 20170101" in block["test"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs", "p.csv"]  # no last-sample.pickle
    assert any(n.startswith("obstacle-discounted-bayes-hierarchical-good-vs-fair") for n in
               (p.name for p in (tmp_path / "figs").iterdir()))
    text = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats", "--hierarchical"], text, io.StringIO()) == 0
    assert "Bayesian hierarchical test over the data sets (Corani et al. 2017" in " ".join(text.getvalue().split())
    assert "Building..." not in text.getvalue()


def test_hierarchical_says_why_it_does_not_run_on_unequal_data_sets_or_constant_odd_differences(tmp_path,
                                                                                               monkeypatch):
    fake = _FakeStan(delta=0.0)
    monkeypatch.setitem(sys.modules, "stan", fake)
    unequal = _data_sets(tmp_path, sizes=(16, 16, 12, 16))
    result = verifier.evaluate(OBSTACLE, predictions=str(unequal))
    block = result.extra_stats(hierarchical=True)["bayesian_hierarchical"]
    assert block["pairs"] == [] and not fake.calls
    assert block["note"] == ("the hierarchical test was not run: baycomp's HierarchicalTest takes the same number of "
                             "scores on every data set, and these data sets differ in size (s0: 16, s1: 16, s2: 12, "
                             "s3: 16)")
    odd = _data_sets(tmp_path, sizes=(15,) * 5, same_on=2)
    result = verifier.evaluate(OBSTACLE, predictions=str(odd))
    block = result.extra_stats(hierarchical=True)["bayesian_hierarchical"]
    assert [(p["a"], p["b"]) for p in block["pairs"]] == [("good", "poor"), ("fair", "poor")]
    assert block["note"].startswith("good vs fair: not run, their costs differ by the same amount on every instance "
                                    "of data set(s) s2")


def test_stan_failing_is_a_usage_error_and_leaves_stan_and_the_working_directory_as_they_were(tmp_path,
                                                                                             monkeypatch):
    class Broken(_FakeStan):
        def build(self, program_code, data=None, random_seed=None):
            raise RuntimeError("no C++ compiler found")

    fake = Broken(delta=0.0)
    original = fake.build
    monkeypatch.setitem(sys.modules, "stan", fake)
    path = _data_sets(tmp_path)
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats", "--hierarchical"], out, err) == 2
    assert err.getvalue() == ("verify evaluate: usage error: the hierarchical Bayesian test could not run: "
                              "RuntimeError: no C++ compiler found\n") and not out.getvalue()
    assert fake.build == original and pathlib.Path.cwd() == tmp_path  # the seeded wrapper is undone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]
