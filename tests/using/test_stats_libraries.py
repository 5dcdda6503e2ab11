"""The statistics of `verify evaluate` against the libraries that define them (issue 43): Friedman's χ² with and
without the tie correction (scipy.stats.friedmanchisquare), the Wilcoxon test as scipy's method='auto' runs it,
the sign test's direction and decision, the effect sizes, on random data with ties and on Demšar's (2006)
worked examples (his Tables 2 and 6, the AUCs of four C4.5 variants on 14 data sets, typed from the paper)."""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from scipy import stats

import verifier
from verifier.cli import check
from verifier.report.use import rank_table
from verifier.report.use.comparison import comparison_json, comparison_text
from verifier.using import Comparison
from verifier.using.compare import comparison as compare_module
from verifier.using.compare import holm
from verifier.using.compare.friedman import friedman_test
from verifier.using.compare.over_datasets import dataset_pairs
from verifier.using.compare.signed_ranks import cliffs_delta, wilcoxon_rows

from conftest import SPECS

OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"
ALGORITHMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Demšar (2006), Table 6: AUC per data set (higher is better). The voting row prints 0.975 twice but ranks them
# 2 and 3 (the unrounded AUCs differ): 0.9749 keeps the paper's ranks, whose column sums are 44, 28, 40.5, 27.5.
DEMSAR_AUC = {
    "adult (sample)": (0.763, 0.768, 0.771, 0.798), "breast cancer": (0.599, 0.591, 0.590, 0.569),
    "breast cancer wisconsin": (0.954, 0.971, 0.968, 0.967), "cmc": (0.628, 0.661, 0.654, 0.657),
    "ionosphere": (0.882, 0.888, 0.886, 0.898), "iris": (0.936, 0.931, 0.916, 0.931),
    "liver disorders": (0.661, 0.668, 0.609, 0.685), "lung cancer": (0.583, 0.583, 0.563, 0.625),
    "lymphography": (0.775, 0.838, 0.866, 0.875), "mushroom": (1.000, 1.000, 1.000, 1.000),
    "primary tumor": (0.940, 0.962, 0.965, 0.962), "rheum": (0.619, 0.666, 0.614, 0.669),
    "voting": (0.972, 0.981, 0.975, 0.9749), "wine": (0.957, 0.978, 0.946, 0.970)}


def _groups(table: dict[str, tuple]) -> dict:
    """Per data set, each classifier's exact mean cost: 1 − AUC as a rational (lower is better)."""
    return {d: [SimpleNamespace(name=a, mean_cost=1 - sp.Rational(str(v)), dataset=d) for a, v in zip(ALGORITHMS, row)]
            for d, row in table.items()}


def test_demsar_table_6_uncorrected_is_the_papers_and_corrected_is_scipys():
    f, why = friedman_test(_groups(DEMSAR_AUC), 0.05)
    assert why is None
    assert [f.ranks[a] for a in ALGORITHMS] == [F(44, 14), F(28, 14), F(81, 28), F(55, 28)]  # 3.143 2.000 2.893 1.964
    assert round(float(f.chi2), 2) == 9.28 and round(float(f.ff), 2) == 3.69  # the paper's χ²_F and F_F
    costs = np.array([[1 - v for v in row] for row in DEMSAR_AUC.values()])
    scipy_result = stats.friedmanchisquare(*costs.T)  # with the tie correction (iris, lung cancer, mushroom, ...)
    assert float(f.chi2_corrected) == pytest.approx(scipy_result.statistic, rel=1e-12)
    assert f.p_corrected == pytest.approx(scipy_result.pvalue, rel=1e-9)
    assert f.chi2_corrected > f.chi2 and f.tie_factor < 1
    empty = Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None)
    text = " ".join(" ".join(comparison_text(empty)).split())
    assert "tie-corrected, the one printed by scipy.stats.friedmanchisquare and autorank" in text
    assert "without the tie correction (Demšar's formula, which Iman-Davenport's F_F uses)" in text
    empty = Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None)
    record = comparison_json(empty)["friedman"]
    assert record["statistic"] == pytest.approx(scipy_result.statistic) and record["printed"].startswith("tie-corr")
    assert record["uncorrected"]["statistic_exact"] == str(f.chi2) and \
        record["tie_correction_factor"] == str(f.tie_factor)


def test_demsar_table_2_signed_ranks_of_c45_m_against_c45():
    auc = np.array(list(DEMSAR_AUC.values()))
    d = auc[:, 1] - auc[:, 0]
    r = stats.rankdata(np.abs(d))  # the paper splits the two zero differences' ranks between R+ and R-
    assert (r[d > 0].sum() + r[d == 0].sum() / 2, r[d < 0].sum() + r[d == 0].sum() / 2) == (93, 12)
    statistic, p, methods, _, biserial = wilcoxon_rows(d[None, :])
    expected = stats.wilcoxon(d)  # zeros and 14 differences: scipy's 'auto' takes the normal approximation
    assert methods == ["asymptotic"] and (statistic[0], p[0]) == (expected.statistic, expected.pvalue)
    nonzero = d[d != 0]
    m = len(nonzero)
    assert biserial[0] == pytest.approx(1 - 2 * expected.statistic / (m * (m + 1) / 2))  # C4.5+m's AUC is higher


@pytest.mark.parametrize("seed", range(6))
def test_friedman_both_ways_against_scipy_on_random_costs_with_ties(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 15)), int(rng.integers(3, 7))  # scipy needs k >= 3
    costs = rng.integers(0, 4, size=(n, k))  # many ties within data sets
    costs[0] = 2  # one data set ties every classifier
    groups = {f"d{i}": [SimpleNamespace(name=f"c{j}", mean_cost=sp.Rational(int(c), 3), dataset=f"d{i}")
                        for j, c in enumerate(row)] for i, row in enumerate(costs)}
    f, _ = friedman_test(groups, 0.05)
    expected = stats.friedmanchisquare(*costs.T)
    assert float(f.chi2_corrected) == pytest.approx(expected.statistic, rel=1e-12, abs=1e-12)
    assert f.p_corrected == pytest.approx(expected.pvalue, rel=1e-9)
    ranked = stats.rankdata(costs, axis=1)  # Demšar's uncorrected formula from scipy's ranks
    rbar = ranked.mean(axis=0)
    assert float(f.chi2) == pytest.approx(12 * n / (k * (k + 1)) * ((rbar ** 2).sum() - k * (k + 1) ** 2 / 4))
    assert f.p_value == pytest.approx(stats.chi2.sf(float(f.chi2), k - 1))


def test_every_data_set_all_tied_leaves_the_corrected_statistic_undefined_and_says_so():
    groups = {d: [SimpleNamespace(name=n, mean_cost=sp.Integer(1), dataset=d) for n in "AB"] for d in ("x", "y")}
    f, _ = friedman_test(groups, 0.05)
    assert f.tie_factor == 0 and f.chi2_corrected is None and f.p_corrected is None and f.chi2 == 0
    empty = Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None)
    text = " ".join(" ".join(comparison_text(empty)).split())
    assert "tie-corrected: undefined (every data set ties all the classifiers)" in text
    empty = Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=f, why_no_friedman=None)
    json.dumps(comparison_json(empty), allow_nan=False)


def _ladder(tmp_path):
    spec = tmp_path / "ladder.yaml"  # five classes; a set of size s containing the truth costs s/10
    spec.write_text('name: ladder\nclasses: [a, b, c, d, e]\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "(0 if y in Y else 1) if len(Y) == 1 else (len(Y) / 10 if y in Y else 1)"\n')
    return spec


class _Frame:
    def __init__(self, columns):
        self.columns = list(columns)
        self._c = columns

    def __getitem__(self, key):
        return self._c[key]


def _pairs(spec, a: list[str], b: list[str]):
    frame = _Frame({"true": ["a"] * (len(a) + len(b)), "predicted": a + b,
                    "classifier": ["A"] * len(a) + ["B"] * len(b)})
    result = verifier.evaluate(str(spec), frame)
    return result, result.record["comparison"]["pairs"][0]


def test_a_handful_of_pairs_with_ties_gets_the_exact_permutation_p_value_not_the_normal_one(tmp_path):
    # d = A − B: 0.1, 0.1, -0.2, 0.3, 0.4 and one zero: ties and a zero among 6 instances
    result, pair = _pairs(_ladder(tmp_path), ["a,b,c", "a,b,c", "a,b", "a,b,c,d", "a,b,c,d,e", "a"],
                          ["a,b", "a,b", "a,b,c,d", "a", "a", "a"])
    d = np.array([0.1, 0.1, -0.2, 0.3, 0.5, 0.0])
    expected = stats.wilcoxon(d)  # scipy's own 'auto': the permutation distribution
    normal = stats.wilcoxon(d, method="asymptotic")
    assert pair["method"] == "permutation" and pair["zero_method"] == "wilcox"
    assert pair["p_value"] == pytest.approx(expected.pvalue, rel=1e-12) and \
        pair["p_value"] != pytest.approx(normal.pvalue)
    assert "exact permutation distribution over all 2^n sign assignments" in pair["test"]
    assert "Wilcoxon (exact permutation distribution, as scipy's method='auto' chooses)" in result.text


def test_the_sign_test_has_a_direction_a_decision_and_explains_its_disagreement(tmp_path):
    # A costs less on 40 instances by 0.1, more on 10 by 1: the share of wins is lopsided, the ranks are not
    result, pair = _pairs(_ladder(tmp_path), ["a,b"] * 40 + ["b"] * 10, ["a,b,c"] * 40 + ["a"] * 10)
    sign = pair["sign_test"]
    assert sign["more_wins"] == "A" and sign["p_value"] == pytest.approx(stats.binomtest(40, 50).pvalue)
    assert sign["significant"] is True and pair["significant"] is False
    assert pair["p_value"] == pytest.approx(stats.wilcoxon(np.array([-0.1] * 40 + [1.0] * 10)).pvalue)
    text = " ".join(result.text.split())
    assert "sign test (exact binomial): A costs less more often (40 against 10)" in text
    assert ("the tests disagree: the two tests ask different questions: Wilcoxon's weighs each difference by its "
            "rank (is the median difference zero?), the sign test only counts who costs less" in text)
    assert "here the Wilcoxon test is not significant and the sign test significant" in text
    assert ("note: A costs less more often, yet B has the lower mean cost: the sign test counts who costs less, not "
            "by how much" in text)
    assert pair["mean_difference"] == "3/25" and pair["effect_sizes"]["mean_difference"] == pytest.approx(0.12)


def test_effect_sizes_against_their_definitions_on_random_costs_with_ties():
    rng = np.random.default_rng(3)
    d = rng.integers(-3, 4, size=(40, 30)) / 4  # ties and zeros
    statistic, _, methods, _, r = wilcoxon_rows(d)
    for row, w, method, rb in zip(d, statistic, methods, r):
        x = row[row != 0]
        if x.size == 0:
            assert method is None and math.isnan(rb)
            continue
        ranks = stats.rankdata(np.abs(x))
        plus, minus = ranks[x > 0].sum(), ranks[x < 0].sum()
        assert rb == pytest.approx((plus - minus) / (plus + minus))
        assert abs(rb) == pytest.approx(1 - 2 * w / (x.size * (x.size + 1) / 2))  # from scipy's statistic
    a, b = rng.integers(0, 5, size=(7, 25)) / 4, rng.integers(0, 5, size=(7, 25)) / 4
    by_definition = [np.sign(a[i][:, None] - b[i][None, :]).mean() for i in range(7)]
    assert cliffs_delta(a, b) == pytest.approx(by_definition, abs=1e-12)


def test_pairs_report_effect_sizes_beside_the_p_values(tmp_path):
    result, pair = _pairs(_ladder(tmp_path), ["a,b", "a,b,c", "b", "a", "a,b"] * 4, ["a"] * 10 + ["a,b,c"] * 10)
    costs = {s.name: s.costs for s in result.scores}
    effects = pair["effect_sizes"]
    assert effects["cliffs_delta"] == pytest.approx(np.sign(costs["A"][:, None] - costs["B"][None, :]).mean())
    assert effects["orientation"].startswith("a minus b: positive when a costs more")
    assert "rank-biserial r = " in result.text and "Cliff's delta = " in result.text
    json.dumps(result.record, allow_nan=False)


def test_cli_json_says_method_and_zero_method(tmp_path):
    spec = _ladder(tmp_path)
    csv = tmp_path / "p.csv"
    csv.write_text("true,predicted,classifier\n" + "".join(f"a,{p},A\n" for p in ("a|b", "a|b|c", "b", "a")) +
                   "".join(f"a,{p},B\n" for p in ("a", "a", "a|b", "a|b|c|d")))
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", str(spec), str(csv), "--format", "json"], out, err) == 0, err.getvalue()
    (pair,) = json.loads(out.getvalue())["comparison"]["pairs"]
    d = np.array([0.2, 0.3, 0.8, -0.4])
    assert pair["method"] == "exact" and pair["p_value"] == pytest.approx(stats.wilcoxon(d).pvalue)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ladder.yaml", "p.csv"]


def test_demsar_two_classifiers_over_the_data_sets_is_scipys_wilcoxon_on_the_mean_cost_differences():
    groups = _groups({d: row[:2] for d, row in DEMSAR_AUC.items()})  # C4.5 and C4.5+m: the paper's Table 2
    c = compare_module.Comparison(alpha=0.05, level=0.95, pairs=[], tested=0, friedman=None, why_no_friedman=None)
    c.friedman, _ = friedman_test(groups, 0.05)
    c.over_datasets, c.over_datasets_note = dataset_pairs(groups, c.friedman.classifiers, c.friedman.ranks)
    compare_module.finish(c)
    (pair,) = c.over_datasets
    auc = np.array(list(DEMSAR_AUC.values()))[:, :2]
    d = (1 - auc[:, 0]) - (1 - auc[:, 1])  # C4.5's mean cost minus C4.5+m's
    expected = stats.wilcoxon(d)
    assert (pair.a, pair.b, pair.a_lower, pair.b_lower, pair.ties) == ("C4.5", "C4.5+m", 2, 10, 2)
    assert pair.method == "asymptotic" and pair.p_value == pytest.approx(expected.pvalue, rel=1e-12)
    assert pair.p_holm == pair.p_value and pair.significant  # Demšar: C4.5+m is better at 0.05
    assert pair.sign_p == pytest.approx(stats.binomtest(2, 12).pvalue)  # the two tied data sets dropped
    text = " ".join(" ".join(comparison_text(c)).split())
    assert "Two classifiers at a time over the 14 data sets (Demšar 2006, Section 3.1.3)" in text
    assert "C4.5 vs C4.5+m: lower mean cost on 2 data set(s) for C4.5, 10 for C4.5+m, equal on 2" in text


def test_cli_over_data_sets_gives_every_pair_the_wilcoxon_of_its_mean_cost_differences(tmp_path):
    rng = np.random.default_rng(4)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(8):
        truth = rng.integers(0, 3, 15)
        for who, right in (("good", 0.8), ("fair", 0.6), ("poor", 0.5)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'h|b|n'},{who},s{d}" for t in truth]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n")
    out, err = io.StringIO(), io.StringIO()
    code = check(["evaluate", OBSTACLE, str(tmp_path / "p.csv"), "--format", "json"], out, err)
    assert code == 0, err.getvalue()
    record = json.loads(out.getvalue())
    means = {(s["dataset"], s["classifier"]): F(s["mean_cost"]) for s in record["scores"]}
    over = record["comparison"]["over_datasets"]
    assert [(p["a"], p["b"]) for p in over["pairs"]] == [("good", "fair"), ("good", "poor"), ("fair", "poor")]
    for p in over["pairs"]:
        d = np.array([float(means[(f"s{i}", p["a"])] - means[(f"s{i}", p["b"])]) for i in range(8)])
        expected = stats.wilcoxon(d)
        assert p["p_value"] == pytest.approx(expected.pvalue, rel=1e-12) and p["statistic"] == expected.statistic
        assert (p["a_lower"], p["b_lower"], p["ties"]) == ((d < 0).sum(), (d > 0).sum(), (d == 0).sum())
    assert [p["p_holm"] for p in over["pairs"]] == pytest.approx(holm([p["p_value"] for p in over["pairs"]]))
    json.dumps(record, allow_nan=False)


def _several_data_sets(tmp_path, sets=8, seed=4):
    rng = np.random.default_rng(seed)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(sets):
        truth = rng.integers(0, 3, 15)
        for who, right in (("good", 0.8), ("fair", 0.6), ("poor", 0.5)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'h|b|n'},{who},s{d}" for t in truth]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_extra_stats_are_the_libraries_numbers(tmp_path):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    posthocs = pytest.importorskip("scikit_posthocs")
    pytest.importorskip("baycomp")
    path = _several_data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--format", "json", "--extra-stats"], out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())
    extra = record["extra_stats"]
    pairs = [p for p in record["comparison"]["pairs"] if p["p_value"] is not None]
    assert [p["p_bh"] for p in extra["pairs"]["p_bh"]] == pytest.approx(
        list(multitest.multipletests([p["p_value"] for p in pairs], method="fdr_bh")[1]))
    names = record["comparison"]["friedman"]["classifiers"]
    means = {(s["dataset"], s["classifier"]): float(F(s["mean_cost"])) for s in record["scores"]}
    table = np.array([[means[(f"s{d}", c)] for c in names] for d in range(8)])
    conover = np.asarray(posthocs.posthoc_conover_friedman(table, p_adjust="holm"))
    assert [p["p_holm"] for p in extra["conover_friedman"]["p_holm"]] == pytest.approx(
        [conover[0, 1], conover[0, 2], conover[1, 2]])
    for p in extra["bayesian_signed_rank"]["pairs"]:
        assert p["p_a_lower"] + p["p_equivalent"] + p["p_b_lower"] == pytest.approx(1)
    good_poor = next(p for p in extra["bayesian_signed_rank"]["pairs"] if (p["a"], p["b"]) == ("good", "poor"))
    assert good_poor["p_a_lower"] > good_poor["p_b_lower"]  # good costs less on most data sets
    code = check(["evaluate", OBSTACLE, str(path), "--extra-stats"], out := io.StringIO(), io.StringIO())
    text = out.getvalue()
    assert code == 0 and "Further statistics (the optional extra 'stats'" in text and "P(good costs less) = " in text
    again = io.StringIO()
    check(["evaluate", OBSTACLE, str(path), "--extra-stats"], again, io.StringIO())
    assert again.getvalue() == text  # baycomp's Monte Carlo draws are seeded


def test_extra_stats_without_the_libraries_is_a_usage_error_naming_the_extra(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "statsmodels.stats.multitest", None)  # as if not installed: ImportError
    path = _several_data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats"], out, err) == 2 and not out.getvalue()
    assert ("the Benjamini-Hochberg adjustment needs statsmodels.stats.multitest, an optional dependency: pip "
            "install 'verify-set-costs[stats]'" in err.getvalue()) and "Traceback" not in err.getvalue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]


def test_rank_table_of_demsars_table_6_marks_the_best_per_data_set_and_ends_with_the_average_ranks():
    groups = _groups(DEMSAR_AUC)
    f, _ = friedman_test(groups, 0.05)
    scores = [s for group in groups.values() for s in group]
    t = rank_table.rank_table(f, scores)
    assert [round(float(r), 3) for r in t.average] == [3.143, 2.000, 2.893, 1.964]  # the paper's last row
    best = dict(zip(t.datasets, t.best))
    assert best["mushroom"] == set() and best["iris"] == {0} and best["lung cancer"] == {3}
    assert best["primary tumor"] == {2} and best["breast cancer"] == {0}
    iris = t.ranks[t.datasets.index("iris")]
    assert iris == [1, F(5, 2), 4, F(5, 2)]  # the paper's ranks: 1, 2.5, 4, 2.5
    md = rank_table.table(t, "markdown")
    assert "| iris | **0.0640** (1) | 0.0690 (2.5) | 0.0840 (4) | 0.0690 (2.5) |" in md
    assert "| average rank | 3.143 | 2.000 | 2.893 | 1.964 |" in md and "bold: the best of the data set" in md
    latex = rank_table.table(t, "latex")
    assert r"\textbf{0.0640} (1)" in latex and "average rank & 3.143 & 2.000 & 2.893 & 1.964" in latex
    transposed = rank_table.table(t, "latex", transposed=True)
    assert transposed.splitlines()[3].startswith("classifier & adult (sample) & breast cancer")
    assert r"C4.5+m+cf & " in transposed and transposed.count(r" \\") == 5  # a header and four classifiers
    rows = list(__import__("csv").DictReader(io.StringIO(rank_table.table(t, "csv"))))
    assert len(rows) == 14 * 4 + 4 and rows[0] == {"dataset": "adult (sample)", "classifier": "C4.5",
                                                    "mean_cost": "0.237", "mean_cost_exact": "237/1000",
                                                    "rank": "4.0", "best": "False"}
    assert [float(r["rank"]) for r in rows[-4:]] == pytest.approx([44 / 14, 2, 40.5 / 14, 27.5 / 14])


def test_cli_rank_table_and_its_console_section(tmp_path):
    path = _several_data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path)], out, err) == 0, err.getvalue()
    text = out.getvalue()  # the answer first: the table's one line per data set, then the rest with -v
    assert "Mean cost and rank per data set (rank 1 = lowest" in text and "\n  average rank " in text
    assert text.index("Friedman test over 8 data sets") < text.index("Mean cost and rank per data set")
    out = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "-v"], out, io.StringIO()) == 0
    assert "  Mean costs and ranks per data set:" in out.getvalue() and "    average rank " in out.getvalue()
    assert all(len(line) <= 110 for line in text.splitlines()), max(text.splitlines(), key=len)
    out = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--rank-table", "latex-transposed"], out, io.StringIO()) == 0
    assert out.getvalue().startswith(r"% requires \usepackage{booktabs}") and "classifier & s0 & s1" in out.getvalue()
    one = tmp_path / "one.csv"
    one.write_text("true,predicted,classifier\nh,h,A\nb,h,A\nh,b,B\nb,b,B\n")
    for argv, words in (([str(one), "--rank-table", "csv"], "the ranks table needs classifiers compared over "
                         "several data sets: Friedman/Nemenyi compare classifiers over several data sets"),
                        ([str(path), "--rank-table", "csv", "--table", "csv"], "--rank-table prints the ranks "
                         "table; it does not combine with --table")):
        out, err = io.StringIO(), io.StringIO()
        assert check(["evaluate", OBSTACLE, *argv], out, err) == 2 and not out.getvalue()
        assert words in err.getvalue() and "Traceback" not in err.getvalue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.csv", "p.csv"]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 13])
def test_the_vectorised_permutation_p_values_are_scipys_own_bit_for_bit(n):
    rng = np.random.default_rng(n)
    d = np.concatenate([rng.integers(-2, 3, size=(25, n)) / 2, np.round(rng.normal(size=(10, n)), 1)])
    d = np.concatenate([d, d[:5][:, ::-1]])  # the same multisets in another order: looked up, not recomputed
    statistic, p, methods, _, _ = wilcoxon_rows(d)
    for row, w, pv, method in zip(d, statistic, p, methods):
        if not row.any():
            assert method is None
            continue
        with np.errstate(all="ignore"):
            expected = stats.wilcoxon(row)  # scipy's own default call on the row alone
        assert (w, pv) == (expected.statistic, expected.pvalue), (row, method)
    assert "permutation" in methods or n == 1  # one difference: a zero (not run) or no tie (exact)
