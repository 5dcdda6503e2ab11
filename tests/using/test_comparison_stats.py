"""The statistics of `verify evaluate` when it compares classifiers: Demšar's (2006) worked example of the
Friedman test, Iman and Davenport's F and Nemenyi's critical difference; the paired bootstrap against a direct
resampling loop; Holm's step-down adjustment by hand; the Wilcoxon signed-rank test as scipy runs it; and the
command end to end with a dataset column, with one file per data set, and with --plot drawing the critical
difference diagram."""

import json
import math
import os
from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from scipy import stats

import verifier
from verifier.using.compare import holm
from verifier.using.compare.friedman import critical_difference, friedman_statistics, friedman_test, ranks
from verifier.using.evaluate import BOOTSTRAP, SEED

from conftest import SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
ALGORITHMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# ranks of the four algorithms on 14 data sets whose column sums reproduce Demšar's Table 6 average ranks
# (3.143, 2.000, 2.893, 1.964 = 44/14, 28/14, 40.5/14, 27.5/14); the last row has an exact tie
DEMSAR_RANKS = [(1, 4, 2, 3), (4, 2, 3, 1), (4, 1, 3, 2), (4, 1, 3, 2), (3, 1, 4, 2), (4, 1, 2, 3), (4, 1, 3, 2),
                (1, 4, 3, 2), (3, 1, 4, 2), (2, 4, 3, 1), (4, 3, 2, 1), (2, 1, 4, 3), (4, 3, 2, 1)]


def _demsar_groups():
    """Per-data-set mean costs ranked as in Demšar's example: rank r costs r/4; in the tied row, C4.5+cf and
    C4.5+m+cf cost log(6)/4 and (log 2 + log 3)/4, equal only exactly."""
    groups = {}
    for d, row in enumerate(DEMSAR_RANKS):
        groups[f"set{d}"] = [SimpleNamespace(name=a, mean_cost=sp.Rational(r, 4), dataset=f"set{d}")
                             for a, r in zip(ALGORITHMS, row)]
    tied = [sp.Integer(1), sp.Integer(0), sp.log(6) / 4, (sp.log(2) + sp.log(3)) / 4]
    groups["tied"] = [SimpleNamespace(name=a, mean_cost=c, dataset="tied") for a, c in zip(ALGORITHMS, tied)]
    return groups


def test_demsar_worked_example_average_ranks_chi2_ff_and_cd():
    f, why = friedman_test(_demsar_groups(), 0.05)
    assert why is None and len(f.datasets) == 14
    assert f.ranks == {"C4.5": F(44, 14), "C4.5+m": F(28, 14), "C4.5+cf": F(81, 28), "C4.5+m+cf": F(55, 28)}
    assert [round(float(f.ranks[a]), 3) for a in ALGORITHMS] == [3.143, 2.000, 2.893, 1.964]
    # by hand: chi2_F = 12N/(k(k+1)) (sum R_j^2 - k(k+1)^2/4), F_F = (N-1) chi2_F / (N(k-1) - chi2_F)
    n, k = 14, 4
    r = [44 / 14, 2.0, 40.5 / 14, 27.5 / 14]
    chi2 = 12 * n / (k * (k + 1)) * (sum(x * x for x in r) - k * (k + 1) ** 2 / 4)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert float(f.chi2) == pytest.approx(chi2) and round(float(f.chi2), 2) == 9.28
    assert float(f.ff) == pytest.approx(ff) and round(float(f.ff), 2) == 3.69
    assert f.df == (3, 39) and stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.01)  # the paper's 2.85
    assert f.ff_p_value == pytest.approx(stats.f.sf(ff, 3, 39)) and f.significant
    assert f.p_value == pytest.approx(stats.chi2.sf(chi2, 3))
    assert round(f.critical_difference, 2) == 1.25  # 2.569 sqrt(4*5/(6*14))
    assert f.critical_difference == pytest.approx(2.569 * math.sqrt(20 / 84), abs=1e-3)
    assert f.different == []  # 3.143 - 1.964 = 1.179 < 1.25: Nemenyi tells no pair apart at 0.05


def test_demsar_example_at_alpha_0_10_names_the_papers_two_pairs():
    f, _ = friedman_test(_demsar_groups(), 0.10)
    assert f.critical_difference == pytest.approx(2.291 * math.sqrt(20 / 84), abs=1e-3)  # 1.12
    assert set(f.different) == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}


def test_ranks_average_exact_ties_and_critical_difference_formula():
    assert ranks([sp.Rational(1, 2), sp.Integer(0), sp.log(6), sp.log(2) + sp.log(3)]) == [2, 1, F(7, 2), F(7, 2)]
    assert ranks([sp.Integer(1)] * 3) == [2, 2, 2]
    chi2, ff = friedman_statistics([F(1), F(2), F(3)], 5)  # every data set ranks alike: F_F is infinite
    assert chi2 == 10 and ff is None
    q = stats.studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2)
    assert critical_difference(4, 14, 0.05) == pytest.approx(q * math.sqrt(4 * 5 / (6 * 14)))


def test_holm_by_hand():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])  # 3*0.01, max(2*0.03, 1*0.04)
    assert holm([0.5, 0.4]) == pytest.approx([0.8, 0.8])  # monotone: 0.5 is not adjusted below 2*0.4
    assert holm([0.9, 0.6, 0.01]) == pytest.approx([1.0, 1.0, 0.03])  # capped at 1
    assert holm([]) == []


def _two_classifiers(n=60, seed=5):
    rng = np.random.default_rng(seed)
    classes = ["h", "b", "n"]
    truth = [classes[i] for i in rng.integers(0, 3, n)]
    rows = {"true": [], "predicted": [], "classifier": []}
    for name, right in (("A", 0.8), ("B", 0.55)):
        for y in truth:
            u = rng.random()
            guess = y if u < right else ("h,b,n" if u < (1 + right) / 2 else classes[(classes.index(y) + 1) % 3])
            rows["true"].append(y)
            rows["predicted"].append(guess)
            rows["classifier"].append(name)
    return verifier.evaluate(OBSTACLE, predictions=None, y_true=_Frame(rows))


class _Frame:
    def __init__(self, columns):
        self.columns = list(columns)
        self._c = columns

    def __getitem__(self, key):
        return self._c[key]


def test_paired_bootstrap_matches_a_direct_resampling_loop():
    result = _two_classifiers()
    a, b = result.scores
    (pair,) = result.record["comparison"]["pairs"]
    rng = np.random.default_rng(SEED)  # the same seed; one set of indices per replicate, for both classifiers
    differences = []
    for _ in range(BOOTSTRAP):
        idx = rng.integers(0, a.n, size=a.n)
        differences.append(a.costs[idx].mean() - b.costs[idx].mean())
    level = pair["ci"]["level"]
    low, high = np.quantile(differences, (1 - level) / 2), np.quantile(differences, 1 - (1 - level) / 2)
    assert pair["ci"]["low"] == pytest.approx(low, abs=1e-12) and pair["ci"]["high"] == pytest.approx(high, abs=1e-12)
    assert "paired bootstrap percentile interval, a statistical estimate" in pair["ci"]["method"]
    exact = a.mean_cost - b.mean_cost
    assert pair["mean_difference"] == str(exact) and pair["mean_difference_float"] == pytest.approx(float(exact))


def test_wilcoxon_is_scipys_with_the_stated_zero_and_tie_treatment():
    result = _two_classifiers()
    a, b = result.scores
    (pair,) = result.record["comparison"]["pairs"]
    d = a.costs - b.costs
    assert (pair["a_lower"], pair["b_lower"], pair["ties"]) == (int((d < 0).sum()), int((d > 0).sum()),
                                                                int((d == 0).sum()))
    expected = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="asymptotic")  # ties: no exact
    assert pair["p_value"] == pytest.approx(expected.pvalue) and pair["statistic"] == pytest.approx(expected.statistic)
    assert "zero differences dropped (Wilcoxon's treatment, scipy's zero_method='wilcox')" in pair["test"]
    assert "normal approximation with tie correction" in pair["test"]
    assert pair["p_holm"] == pytest.approx(pair["p_value"])  # one pair: Holm changes nothing
    sign = stats.binomtest(pair["a_lower"], pair["a_lower"] + pair["b_lower"]).pvalue
    assert pair["sign_test"]["p_value"] == pytest.approx(sign)


def test_wilcoxon_uses_the_exact_distribution_without_ties_and_says_when_p_is_undefined(tmp_path):
    spec = tmp_path / "ladder.yaml"  # five classes whose singleton costs differ for every true class
    spec.write_text('name: ladder\nclasses: [a, b, c, d, e]\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "(0 if y in Y else 1) if len(Y) == 1 else (len(Y) / 10 if y in Y else 1)"\n')
    frame = _Frame({"true": ["a"] * 10, "predicted": ["a,b", "a,b,c", "a,b,c,d", "a,b,c,d,e", "b"] + ["a"] * 5,
                    "classifier": ["A"] * 5 + ["B"] * 5})
    (pair,) = verifier.evaluate(str(spec), frame).record["comparison"]["pairs"]
    assert "exact null distribution" in pair["test"]
    d = np.array([0.2, 0.3, 0.4, 0.5, 1.0])
    assert pair["p_value"] == pytest.approx(stats.wilcoxon(d, method="exact").pvalue)  # 2/32
    same = _Frame({"true": ["a"] * 4, "predicted": ["a", "b"] * 2, "classifier": ["A", "A", "B", "B"]})
    result = verifier.evaluate(str(spec), same)
    (pair,) = result.record["comparison"]["pairs"]
    assert pair["p_value"] is None and pair["p_holm"] is None and "p undefined" in pair["test"]
    assert result.record["comparison"]["holm_family"] == 0 and "no non-zero difference" in result.text
    json.dumps(result.record, allow_nan=False)


def test_one_data_set_has_no_friedman_and_says_why():
    result = _two_classifiers()
    comparison = result.record["comparison"]
    assert "friedman" not in comparison and "wilcoxon" not in comparison
    assert comparison["friedman_not_run"].startswith("Friedman/Nemenyi compare classifiers over several data sets")
    text = " ".join(result.text.split())
    assert ("these predictions come from one data set: add a 'dataset' column or give one file per data set"
            in text)
    assert not result.picture() and result.picture().reason  # NoPicture: empty bytes saying why


def _datasets_csv(path, sets=4, n=24, seed=11, column="dataset"):
    rng = np.random.default_rng(seed)
    classes = ["h", "b", "n"]
    rows = [f"true,predicted,classifier,{column}"]
    for d in range(sets):
        truth = [classes[i] for i in rng.integers(0, 3, n)]
        for name, right in (("good", 0.9), ("fair", 0.6), ("poor", 0.3)):
            for y in truth:
                guess = y if rng.random() < right else classes[(classes.index(y) + 1) % 3]
                rows.append(f"{y},{guess},{name},set {d}")
    path.write_text("\n".join(rows) + "\n")
    return path


def test_cli_with_a_dataset_column_runs_friedman_over_the_data_sets(tmp_path, cli):
    csv = _datasets_csv(tmp_path / "all.csv", column="data_set")
    code, out, err = cli("evaluate", OBSTACLE, str(csv), "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    f = record["comparison"]["friedman"]
    assert f["datasets"] == 4 and f["classifiers"] == ["good", "fair", "poor"]
    assert f["iman_davenport"]["df"] == [2, 6] and set(f["average_ranks"]) == {"good", "fair", "poor"}
    assert sum(f["average_ranks"].values()) == pytest.approx(6)  # 1 + 2 + 3
    pairs = record["comparison"]["pairs"]
    assert len(pairs) == 12 and {p["dataset"] for p in pairs} == {f"set {d}" for d in range(4)}
    assert record["comparison"]["holm_family"] == 12
    assert {s["dataset"] for s in record["scores"]} == {f"set {d}" for d in range(4)}
    code, text, _ = cli("evaluate", OBSTACLE, str(csv))
    assert code == 0 and "Iman-Davenport F_F" in text and "Nemenyi critical difference CD" in text
    assert all(len(line) <= 110 for line in text.splitlines()), max(text.splitlines(), key=len)


def test_cli_with_two_files_names_each_data_set_by_its_stem_and_plots_the_cd_diagram(tmp_path, cli):
    for name, seed in (("iris", 1), ("wine", 2)):
        rng = np.random.default_rng(seed)
        truth = rng.integers(0, 3, 20)
        rows = ["true,predicted,classifier"]
        for who, right in (("A", 0.9), ("B", 0.4)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'hbn'[(t + 1) % 3]},{who}" for t in truth]
        (tmp_path / f"{name}.csv").write_text("\n".join(rows) + "\n")
    files = [str(tmp_path / "iris.csv"), str(tmp_path / "wine.csv")]
    svg = tmp_path / "cd.svg"
    code, out, err = cli("evaluate", OBSTACLE, *files, "--plot", str(svg), "--format", "json")
    assert code == 0, err
    f = json.loads(out)["comparison"]["friedman"]
    assert f["dataset_names"] == ["iris", "wine"] and f["datasets"] == 2
    assert f["average_ranks_exact"] == {"A": "1", "B": "2"}
    body = svg.read_text()
    assert body.lstrip().startswith(("<?xml", "<svg")) and "CD = " in body and "A (1.000)" in body
    assert "Traceback" not in err


def test_plot_without_sweep_or_several_data_sets_is_a_usage_error(tmp_path, cli):
    csv = tmp_path / "one.csv"
    csv.write_text("true,predicted,classifier\nh,h,A\nb,h,A\nh,b,B\nb,b,B\n")
    code, out, err = cli("evaluate", OBSTACLE, str(csv), "--plot", str(tmp_path / "x.svg"))
    assert code == 2 and not out and "Traceback" not in err
    assert "--plot draws the curves of --sweep or, with several data sets, the critical difference diagram" in err
    assert not (tmp_path / "x.svg").exists()


def test_order_by_average_rank_and_by_mean_cost_can_disagree():
    costs = {"d1": (1, 2), "d2": (1, 2), "d3": (100, 2)}  # A ranks first twice, yet costs more on average
    groups = {d: [SimpleNamespace(name=n, mean_cost=sp.Integer(c), dataset=d) for n, c in zip("AB", pair)]
              for d, pair in costs.items()}
    f, _ = friedman_test(groups, 0.05)
    assert f.ranks == {"A": F(4, 3), "B": F(5, 3)} and f.disagreements == [("A", "B")]
    assert f.mean_costs == {"A": 34, "B": 2}
    from verifier.report.use.comparison import comparison_text
    from verifier.using import Comparison

    empty = Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None)
    text = " ".join(comparison_text(empty))
    assert "disagree: A ranks better, B costs less" in text


def test_classifiers_missing_from_a_data_set_are_left_out_of_friedman():
    groups = {"d1": [SimpleNamespace(name=n, mean_cost=sp.Integer(c), dataset="d1") for n, c in (("A", 1),
                                                                                                 ("B", 2), ("C", 3))],
              "d2": [SimpleNamespace(name=n, mean_cost=sp.Integer(c), dataset="d2") for n, c in (("A", 1), ("B", 2))]}
    f, _ = friedman_test(groups, 0.05)
    assert f.classifiers == ["A", "B"] and f.left_out == ["C"]
    groups["d2"] = groups["d2"][:1]
    f, why = friedman_test(groups, 0.05)
    assert f is None and "at least two classifiers present on every data set" in why


@pytest.mark.parametrize("make, words", [
    (lambda p: p.write_text("true,predicted,classifier,dataset\nh,h,A,x\nh,h,B,\n"),
     ":3: column 'dataset': empty; expected the name of a data set"),
])
def test_bad_dataset_columns_are_located_usage_errors(tmp_path, make, words, cli):
    path = tmp_path / "p.csv"
    make(path)
    code, out, err = cli("evaluate", OBSTACLE, str(path))
    assert code == 2 and words in err and "Traceback" not in err and not out, err


def test_the_same_classifier_and_data_set_twice_is_refused(tmp_path, cli):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        (tmp_path / d / "iris.csv").write_text("true,predicted,classifier\nh,h,A\nb,h,B\n")
    code, _, err = cli("evaluate", OBSTACLE, str(tmp_path / "a" / "iris.csv"), str(tmp_path / "b" / "iris.csv"))
    assert code == 2 and "classifier 'A' on data set 'iris' was already read" in err and "Traceback" not in err


def test_every_data_set_ranking_alike_makes_f_infinite_and_gates_on_chi_square():
    groups = {d: [SimpleNamespace(name=n, mean_cost=sp.Integer(c), dataset=d) for n, c in zip("ABC", (1, 2, 3))]
              for d in ("d1", "d2")}
    f, _ = friedman_test(groups, 0.05)
    assert f.chi2 == 4 and f.ff is None and f.ff_p_value is None
    assert f.p_value == pytest.approx(stats.chi2.sf(4, 2)) and not f.significant and f.different == []
    from verifier.report.use.comparison import comparison_json
    from verifier.using import Comparison

    record = comparison_json(Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None))
    assert record["friedman"]["iman_davenport"]["statistic"] is None
    json.dumps(record, allow_nan=False)
