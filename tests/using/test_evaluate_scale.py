"""`verify evaluate` at scale (issue 37, item 10), as attacks and regressions: the vectorised bootstrap against
the scalar loop it replaces (the same seed gives the same numbers), every pair computed at once against one pair
at a time by hand (exact signs, scipy's Wilcoxon and sign test, the bootstrap of the differences, Holm),
`--pairs best|NAME` and a name that is no classifier, the default beyond 1,000 pairs, and a time limit that
stops the work: the scores are printed, what was cut is said, and the exit status is 0. No test here asserts
wall-clock time (benchmarks/bench_evaluate.py measures it)."""

import json
import os
import re
import time
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import verifier
from verifier import limits
from verifier.using.compare import compare, holm, wilcoxon_rows
from verifier.using.compare import comparison as compare_module
from verifier.using.evaluate.bootstrap import (
    BOOTSTRAP,
    COUNTS_FROM,
    SEED,
    bootstrap_interval,
    percentile_intervals,
    resample_means,
)

from conftest import ROOT, SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
CLASSES = ["h", "b", "n"]
SETS = ["h", "b", "n", "h|b", "b|n", "h|n", "h|b|n"]


def _snapshot(folder):
    out = {}
    for directory, subdirs, files in os.walk(folder):
        subdirs[:] = [d for d in subdirs if d not in ("__pycache__", ".pytest_cache", ".hypothesis")]
        for name in files:
            info = os.lstat(os.path.join(directory, name))
            out[os.path.relpath(os.path.join(directory, name), folder)] = (info.st_size, info.st_mtime_ns)
    return out


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Run in the temporary directory; afterwards nothing of the checkout's specs or package has changed."""
    before = _snapshot(os.path.join(ROOT, "specs")), _snapshot(os.path.join(ROOT, "verifier"))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    assert (_snapshot(os.path.join(ROOT, "specs")), _snapshot(os.path.join(ROOT, "verifier"))) == before


def _csv(path, classifiers, rows, seed=7, name="clf{:03d}"):
    """`classifiers` classifiers on the same `rows` instances, each right with its own probability."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, rows)
    lines = ["true,predicted,classifier"]
    for c in range(classifiers):
        right, u, other = 0.3 + 0.6 * rng.random(), rng.random(rows), rng.integers(0, 7, rows)
        lines += [f"{CLASSES[t]},{CLASSES[t] if x < right else SETS[o]},{name.format(c)}"
                  for t, x, o in zip(truth, u, other)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _scalar_bootstrap(values, level):
    """The bootstrap as it was before vectorising: one classifier (or one pair's differences) at a time."""
    rng = np.random.default_rng(SEED)
    n = len(values)
    means = np.empty(BOOTSTRAP)
    block = max(1, min(100, 4_000_000 // n))
    for start in range(0, BOOTSTRAP, block):
        idx = rng.integers(0, n, size=(min(block, BOOTSTRAP - start), n))
        means[start:start + len(idx)] = values[idx].mean(axis=1)
    tail = (1 - level) / 2
    return means, (float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail)))


@pytest.mark.parametrize("classifiers, n", [(1, 1), (3, 7), (40, 20), (3, 127), (2, 1001), (1, 40_001)])
def test_the_vectorised_bootstrap_draws_what_the_scalar_loop_drew(classifiers, n):
    costs = np.random.default_rng(n).integers(0, 5, size=(classifiers, n)) / 4  # few values: counts from n = 320
    if n > 2 * COUNTS_FROM:
        costs = np.random.default_rng(n).random((classifiers, n))  # many values: the index draws
    means = resample_means(costs)
    intervals = percentile_intervals(means, 0.9)
    for c in range(classifiers):
        scalar, interval = _scalar_bootstrap(costs[c], 0.9)
        assert np.array_equal(means[c], scalar)  # the same draws, the same sums: identical, not close
        assert tuple(intervals[c]) == interval


@pytest.mark.parametrize("n, values", [(1000, [0, 0.5, 1]), (100_000, [0.1, 0.25, 1 / 3, 0.9, 1.7])])
def test_many_instances_with_few_values_are_resampled_by_counts_from_the_same_distribution(n, values):
    """The counts of each value in a resample of n instances are Multinomial(n, share of each value): the counts
    sampler and the index loop draw from one distribution (a two-sample test cannot tell them apart, and the
    intervals agree to within a few of their standard errors)."""
    x = np.random.default_rng(4).choice(values, size=n, p=np.arange(1, len(values) + 1) / sum(range(len(values) + 1)))
    by_counts = resample_means(x[None, :])[0]
    by_index, (low, high) = _scalar_bootstrap(x, 0.95)
    assert not np.array_equal(by_counts, by_index)  # another sampler ...
    assert stats.ks_2samp(by_counts, by_index).pvalue > 0.01  # ... of the same distribution
    assert by_counts.mean() == pytest.approx(x.mean(), abs=4 * x.std() / np.sqrt(n * BOOTSTRAP))
    assert by_counts.std() == pytest.approx(x.std() / np.sqrt(n), rel=0.1)
    assert percentile_intervals(by_counts[None, :], 0.95)[0] == pytest.approx((low, high), abs=x.std() / np.sqrt(n) / 4)
    assert np.array_equal(resample_means(x[None, :])[0], by_counts)  # the same seed, the same numbers


def test_a_pairs_interval_is_the_bootstrap_of_its_differences():
    costs = np.random.default_rng(3).integers(0, 3, size=(2, 60)) / 2
    means = resample_means(costs)
    pair = percentile_intervals(means[:1] - means[1:], 0.95)[0]
    _, direct = _scalar_bootstrap(costs[0] - costs[1], 0.95)
    assert pair == pytest.approx(direct, abs=1e-12)  # the mean of a - b over a resample, up to rounding


def test_many_instances_pairs_and_scores_are_the_bootstrap_of_their_own_values(tmp_path):
    result = verifier.evaluate(OBSTACLE, predictions=_csv(tmp_path / "p.csv", 2, 3000))
    a, b = result.scores
    assert a.interval == bootstrap_interval(a.costs, 0.95) and b.interval == bootstrap_interval(b.costs, 0.95)
    (pair,) = result.comparison.pairs
    assert pair.ci == bootstrap_interval(a.costs - b.costs, 0.95)  # few distinct differences: by counts


def _holm_by_loop(p):
    m, adjusted, running = len(p), [0.0] * len(p), 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda j: p[j])):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


@given(st.lists(st.sampled_from([0.0, 0.001, 0.01, 0.02, 0.04, 0.3, 0.5, 1.0]) | st.floats(0, 1), max_size=40))
@settings(max_examples=200, deadline=None)
def test_vectorised_holm_is_the_step_down_loop(p):
    assert holm(p) == _holm_by_loop(p)


def test_every_pair_at_once_equals_one_pair_at_a_time_by_hand(tmp_path):
    result = verifier.evaluate(OBSTACLE, predictions=_csv(tmp_path / "p.csv", 7, 40), pairs="all")
    scores = {s.name: s for s in result.scores}
    pairs = result.comparison.pairs
    assert len(pairs) == 21 and [(p.a, p.b) for p in pairs][:2] == [("clf000", "clf001"), ("clf000", "clf002")]
    for p in pairs:
        a, b = scores[p.a], scores[p.b]
        exact = [Fraction(str(x)) - Fraction(str(y)) for x, y in
                 zip(np.array(a.cell_costs, dtype=object)[a.cell_of], np.array(b.cell_costs, dtype=object)[b.cell_of])]
        assert (p.a_lower, p.b_lower, p.ties) == (sum(x < 0 for x in exact), sum(x > 0 for x in exact),
                                                  sum(x == 0 for x in exact))
        d = np.array([float(x) for x in exact])
        nonzero = d[d != 0]
        if nonzero.size == 0:
            assert p.p_value is None
            continue
        expected = stats.wilcoxon(d)  # scipy's defaults: zero_method 'wilcox', no correction, method 'auto'
        assert (p.statistic, p.p_value) == (float(expected.statistic), float(expected.pvalue))
        assert p.sign_p == stats.binomtest(p.a_lower, p.a_lower + p.b_lower, 0.5).pvalue
        assert p.ci == pytest.approx(_scalar_bootstrap(d, 0.95)[1], abs=1e-12)
        assert p.difference == a.mean_cost - b.mean_cost
    tested = [p for p in pairs if p.p_value is not None]
    assert [p.p_holm for p in tested] == _holm_by_loop([p.p_value for p in tested])


def test_rows_of_the_vectorised_wilcoxon_are_scipys_one_dimensional_calls():
    rng = np.random.default_rng(5)
    for n in (12, 20):  # ties and zeros: a permutation test (n <= 13) or the normal approximation; else exact
        d = np.concatenate([rng.integers(-3, 4, size=(30, n)) / 3,
                            rng.normal(size=(30, n)) * (rng.random((30, n)) < 0.7),
                            rng.normal(size=(5, n)), np.zeros((2, n))])  # the last: nothing to test
        statistic, p, methods, favours, _ = wilcoxon_rows(d)
        for row, w, pv, method, side in zip(d, statistic, p, methods, favours):
            nonzero = row[row != 0]
            if nonzero.size == 0:
                assert method is None and np.isnan(pv)
                continue
            expected = stats.wilcoxon(row)  # scipy's defaults, one row alone: method 'auto', zero_method 'wilcox'
            assert (w, pv) == (expected.statistic, expected.pvalue)
            ranks = stats.rankdata(np.abs(nonzero))
            assert side == np.sign(ranks[nonzero > 0].sum() - ranks[nonzero < 0].sum())
        assert {"exact", "permutation" if n <= 13 else "asymptotic"} <= set(methods)


def test_pairs_best_compares_each_classifier_with_the_lowest_mean_cost(sandbox, cli):
    path = _csv(sandbox / "p.csv", 6, 30)
    code, out, err = cli("evaluate", OBSTACLE, path, "--pairs", "best", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    best = min(record["scores"], key=lambda s: Fraction(s["mean_cost"]))["classifier"]
    comparison = record["comparison"]
    assert comparison["pairs_mode"] == "best" and comparison["compared_with"] == [{"dataset": None, "classifier": best}]
    assert [p["b"] for p in comparison["pairs"]] == [best] * 5 and comparison["holm_family"] <= 5
    assert all(Fraction(p["mean_difference"]) >= 0 for p in comparison["pairs"])
    code, text, _ = cli("evaluate", OBSTACLE, path, "--pairs", "best")
    assert f"Each classifier is compared with the best of its data set (the lowest mean cost): {best}." in text


def test_pairs_name_compares_each_with_the_named_one_in_the_api_too(sandbox, cli):
    path = _csv(sandbox / "p.csv", 5, 30)
    code, out, err = cli("evaluate", OBSTACLE, path, "--pairs", "clf003", "--format", "json")
    assert code == 0, err
    pairs = json.loads(out)["comparison"]["pairs"]
    assert [(p["a"], p["b"]) for p in pairs] == [(f"clf00{i}", "clf003") for i in (0, 1, 2, 4)]
    api = verifier.evaluate(OBSTACLE, predictions=path, pairs="clf003")
    assert [(p.a, p.b) for p in api.comparison.pairs] == [(p["a"], p["b"]) for p in pairs]
    assert api.record["comparison"]["pairs_mode"] == "against"
    assert "Each classifier is compared with clf003 (--pairs)." in api.text


def test_a_named_classifier_missing_from_a_data_set_gives_no_pairs_there_and_says_so(tmp_path):
    rows = ["true,predicted,classifier,dataset"] + [f"{y},{p},{c},{d}" for d, names in (("d1", "AB"), ("d2", "AC"))
                                                     for c in names for y, p in zip("hbn", "hbh")]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n")
    result = verifier.evaluate(OBSTACLE, predictions=str(tmp_path / "p.csv"), pairs="B")
    assert [(p.a, p.b, p.dataset) for p in result.comparison.pairs] == [("A", "B", "d1")]
    assert "B is not in data set(s) d2: no pairs there." in result.text


def test_a_pairs_name_that_is_no_classifier_is_a_located_usage_error(sandbox, cli):
    path = _csv(sandbox / "p.csv", 4, 10)
    code, out, err = cli("evaluate", OBSTACLE, path, "--pairs", "clf01")
    assert code == 2 and out == ""
    assert err.startswith("verify evaluate: usage error: --pairs 'clf01': no classifier of ")
    assert path in err and "did you mean 'clf001'?" in err and "expected all, best, or one of: clf000" in err
    assert "Traceback" not in err
    with pytest.raises(verifier.UsageError, match="did you mean 'clf001'"):
        verifier.evaluate(OBSTACLE, predictions=path, pairs="clf01")
    with pytest.raises(verifier.UsageError, match="--pairs: expected all, best or a classifier's name"):
        verifier.evaluate(OBSTACLE, predictions=path, pairs=3)


def test_beyond_a_thousand_pairs_the_default_compares_with_the_best(tmp_path):
    path = _csv(tmp_path / "p.csv", 46, 6)  # 1,035 pairs
    result = verifier.evaluate(OBSTACLE, predictions=path)
    comparison = result.record["comparison"]
    assert comparison["pairs_mode"] == "best" and comparison["pairs_planned"] == 45
    assert comparison["pairs_note"].startswith("1,035 pairs in all is more than 1,000")
    assert "--pairs all compares every pair" in " ".join(result.text.split())
    small = verifier.evaluate(OBSTACLE, predictions=_csv(tmp_path / "q.csv", 45, 6))  # 990 pairs: all of them
    assert small.record["comparison"]["pairs_mode"] == "all" and small.record["comparison"]["pairs_done"] == 990


def _stop_pairs_after(monkeypatch, chunks: int):
    """Let `chunks` chunks of pairs through, then wait for the time limit (the alarm interrupts the wait)."""
    real, calls = compare_module.pair_chunk, []

    def slow(*args):
        calls.append(1)
        if len(calls) > chunks:
            time.sleep(600)
        return real(*args)

    monkeypatch.setattr(compare_module, "pair_chunk", slow)
    monkeypatch.setattr(compare_module, "CHUNK_PAIRS", 100)
    monkeypatch.setattr(compare_module, "MAX_CHUNK_PAIRS", 100)


def test_a_time_limit_during_the_pairs_keeps_the_scores_and_says_what_was_cut(sandbox, monkeypatch, cli):
    path = _csv(sandbox / "p.csv", 60, 50)  # 1,770 pairs
    _stop_pairs_after(monkeypatch, 2)
    code, out, err = cli("evaluate", OBSTACLE, path, "--pairs", "all", "--time-limit", "3")
    assert code == 0, err
    assert "usage error" not in err
    assert all(f"clf{c:03d}" in out.splitlines()[0] for c in range(8))  # the scores table comes first
    assert "mean cost (Eq. 4)" in out and "Mean cost, exact (Eq. 4):" in out
    text = " ".join(out.split())
    assert ("Stopped: the time limit of 3 s (--time-limit) was reached: pairwise comparisons: 200 of 1,770 pairs "
            "done before the time limit of 3 s; Holm's adjustment is over the pairs done" in text)
    assert "Holm-adjusted over the 200 pair(s) tested (of the 1,770 planned" in text
    assert "Each classifier" not in text  # every pair: nobody to compare with
    assert text.count(" vs clf") == 200


def test_a_stopped_evaluation_says_what_was_cut_in_json(sandbox, monkeypatch, cli):
    path = _csv(sandbox / "p.csv", 30, 40)
    _stop_pairs_after(monkeypatch, 1)
    code, out, err = cli("evaluate", OBSTACLE, path, "--pairs", "all", "--time-limit", "3", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert len(record["scores"]) == 30 and all(s["bootstrap_interval"] for s in record["scores"])
    cut = record["cut"]
    assert (cut["pairs_done"], cut["pairs_planned"], cut["classifiers_scored"], cut["seconds"]) == (100, 435, 30, 3)
    assert cut["comparison"] == "pairwise comparisons: 100 of 435 pairs done before the time limit of 3 s"
    assert record["comparison"]["cut"] == cut["comparison"] and len(record["comparison"]["pairs"]) == 100
    code, table, err = cli("evaluate", OBSTACLE, path, "--pairs", "all", "--time-limit", "3", "--table", "csv")
    assert code == 0 and table.count("\n") == 31 and "stopped: the time limit of 3 s" in err


def test_a_time_limit_while_scoring_keeps_the_classifiers_scored(sandbox, monkeypatch):
    from verifier.api.use import evaluation

    real, calls = evaluation.score, []

    def slow(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:
            time.sleep(600)
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluation, "score", slow)
    path = _csv(sandbox / "p.csv", 8, 20)
    result = verifier.evaluate(OBSTACLE, predictions=path, time_limit=3)
    assert [s.name for s in result.scores] == ["clf000", "clf001", "clf002"]
    assert all(s.interval is None for s in result.scores) and result.comparison is None
    cut = result.record["cut"]
    assert cut["classifiers_scored"] == 3 and cut["classifiers"] == 8 and cut["stage"] == "scoring the classifiers"
    text = " ".join(result.text.split())
    assert "scores: 3 of 8 classifiers scored before the time limit of 3 s; not scored: clf003, clf004" in text
    assert "bootstrap intervals of the mean costs: not computed" in text and "[not computed]" in text
    assert result.table("markdown") and result.records()[0]["ci_low"] is None


def test_a_time_limit_before_any_score_is_still_an_error_that_says_so(sandbox, monkeypatch, cli):
    from verifier.api.use import evaluation

    monkeypatch.setattr(evaluation, "score", lambda *args, **kwargs: time.sleep(600))
    path = _csv(sandbox / "p.csv", 2, 20)
    code, out, err = cli("evaluate", OBSTACLE, path, "--time-limit", "1")
    assert code == 2 and out == ""
    assert "the time limit of 1 s (--time-limit) was reached while scoring the classifiers, before any " \
           "classifier was scored" in err


def test_compare_called_directly_chooses_pairs_too():
    rng = np.random.default_rng(1)
    scores = [SimpleNamespace(name=f"c{i}", n=30, dataset=None, truth=None, costs=rng.integers(0, 3, 30) / 2,
                              cell_costs=None, cell_of=None, resampled=None, mean_cost_float=0.0)
              for i in range(4)]
    for s in scores:
        s.mean_cost = verifier_sum(s.costs)
    c = compare(scores, pairs="c2")
    assert [(p.a, p.b) for p in c.pairs] == [("c0", "c2"), ("c1", "c2"), ("c3", "c2")] and c.mode == "against"
    with pytest.raises(verifier.UsageError, match="did you mean 'c2'"):
        compare(scores, pairs="c22")
    assert re.search(r"\d", str(limits.DEFAULT_TIME_LIMIT_S))


def verifier_sum(costs):
    import sympy as sp

    return sp.Rational(int(round(costs.sum() * 2)), 2 * len(costs))


def test_outside_the_main_thread_the_time_limit_stops_between_chunks(tmp_path, monkeypatch):
    import threading

    real, calls = compare_module.pair_chunk, []

    def slow(*args):  # no alarm outside the main thread: each chunk after the first takes a second
        calls.append(1)
        if len(calls) > 1:
            time.sleep(1)
        return real(*args)

    monkeypatch.setattr(compare_module, "pair_chunk", slow)
    monkeypatch.setattr(compare_module, "CHUNK_PAIRS", 100)
    monkeypatch.setattr(compare_module, "MAX_CHUNK_PAIRS", 100)
    path, out = _csv(tmp_path / "p.csv", 30, 40), {}
    worker = threading.Thread(target=lambda: out.setdefault(
        "result", verifier.evaluate(OBSTACLE, predictions=path, pairs="all", time_limit=3)))
    worker.start()
    worker.join()
    cut = out["result"].record["cut"]
    assert cut is not None and len(out["result"].scores) == 30 and 100 <= cut["pairs_done"] < 435
    assert len(out["result"].comparison.pairs) == cut["pairs_done"]
