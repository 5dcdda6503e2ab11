"""Shaffer's static procedure and Bergmann and Hommel's procedure for all pairwise comparisons after Friedman
(verifier.using.all_pairs; García and Herrera 2008), against their definitions computed by brute force on small
k (every subset of hypotheses, every level), and against the libraries for what the libraries have: the raw
p-values (scikit-posthocs' posthoc_siegel_friedman) and Holm's adjustment (statsmodels), which Shaffer's may
never exceed, nor Bergmann-Hommel's Shaffer's."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.cli import check
from verifier.using.compare.all_pairs import (
    MAX_BERGMANN_K,
    all_pairs,
    bergmann_hommel,
    pairwise_p_values,
    partitions,
    possible_true_counts,
    shaffer,
    shaffer_t,
)

from conftest import SPECS

OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"


def _exhaustive_by_brute_force(k: int) -> list[frozenset[int]]:
    """Every non-empty set of pairs (indices in combinations order) closed under transitivity: the sets of
    pairwise equalities that can be exactly the true ones. Enumerates all 2^m subsets."""
    pairs = list(combinations(range(k), 2))
    index = {pair: i for i, pair in enumerate(pairs)}
    out = []
    for mask in range(1, 2 ** len(pairs)):
        chosen = {pairs[i] for i in range(len(pairs)) if mask >> i & 1}
        same = lambda a, b: (min(a, b), max(a, b)) in chosen  # noqa: E731
        if all(same(a, c) for a in range(k) for b in range(k) for c in range(k)
               if len({a, b, c}) == 3 and same(a, b) and same(b, c)):
            out.append(frozenset(index[p] for p in chosen))
    return out


@pytest.mark.parametrize("k", range(1, 6))
def test_possible_numbers_of_true_hypotheses_are_the_sizes_of_the_exhaustive_sets(k):
    sizes = {0} | {len(s) for s in _exhaustive_by_brute_force(k)}
    assert possible_true_counts(k) == tuple(sorted(sizes))


@pytest.mark.parametrize("k", range(2, 8))
def test_the_partition_generator_gives_each_partition_once_bell_numbers(k):
    seen = list(partitions(k))
    canonical = {frozenset(frozenset(i for i in range(k) if labels[i] == g) for g in set(labels)) for labels in seen}
    assert len(seen) == len(canonical) == [1, 1, 2, 5, 15, 52, 203, 877][k]


def test_shaffers_t_for_four_and_five_classifiers():
    # S(4) = {0, 1, 2, 3, 6}: four classifiers all equal (6 true), three equal (3), two pairs (2), one pair (1);
    # the values of Shaffer's (1986) example, typed here, not computed (the brute force below checks them too)
    assert possible_true_counts(4) == (0, 1, 2, 3, 6) and shaffer_t(4) == [6, 3, 3, 3, 2, 1]
    assert possible_true_counts(5) == (0, 1, 2, 3, 4, 6, 10) and shaffer_t(5) == [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]


@pytest.mark.parametrize("k", [3, 4, 5])
def test_shaffers_t_is_the_most_hypotheses_that_can_be_true_once_any_i_minus_1_are_false(k):
    m = k * (k - 1) // 2
    true_sets = [frozenset()] + _exhaustive_by_brute_force(k)
    expected = []
    for i in range(1, m + 1):
        expected.append(max(max(len(t) for t in true_sets if not t & set(false))
                            for false in combinations(range(m), i - 1)))
    assert shaffer_t(k) == expected


def _random_p(rng, m: int) -> list[float]:
    """p-values with ties and extremes, as average ranks give."""
    pool = [0.0, 1.0, 0.01, 0.02, 0.05] + list(rng.random(4))
    return [float(rng.choice(pool)) if rng.random() < 0.5 else float(rng.random() ** 3) for _ in range(m)]


@pytest.mark.parametrize("seed", range(12))
def test_adjusted_p_values_decide_exactly_as_the_procedures_do_at_every_level(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 6))
    m = k * (k - 1) // 2
    p = _random_p(rng, m)
    sh, bh = shaffer(p, k), bergmann_hommel(p, k)
    exhaustive = _exhaustive_by_brute_force(k)
    t = shaffer_t(k)
    order = sorted(range(m), key=lambda i: p[i])
    for alpha in sorted((set(p) | set(sh) | set(bh) | {0.05, 0.1, 0.5}) - {1.0}):  # adjusted p-values stop at 1
        # Shaffer: reject in order while p_(i) <= alpha / t_i, stop at the first that is not
        rejected, going = set(), True
        for rank, i in enumerate(order):
            going = going and p[i] * t[rank] <= alpha
            if going:
                rejected.add(i)
        assert {i for i in range(m) if sh[i] <= alpha} == rejected
        # Bergmann-Hommel: accept every hypothesis of an exhaustive set I with min p over I > alpha / |I|
        accepted = set().union(*[s for s in exhaustive if min(p[i] for i in s) * len(s) > alpha])
        assert {i for i in range(m) if bh[i] <= alpha} == set(range(m)) - accepted


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6).flatmap(lambda k: st.tuples(st.just(k), st.lists(
    st.sampled_from([0.0, 1e-6, 0.003, 0.01, 0.04, 0.05, 0.2, 0.5, 1.0]) | st.floats(0, 1),
    min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2))))
def test_bergmann_hommel_at_most_shaffer_at_most_statsmodels_holm(case):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    k, p = case
    holm = multitest.multipletests(p, method="holm")[1]
    sh, bh = shaffer(p, k), bergmann_hommel(p, k)
    for raw, b, s, h in zip(p, bh, sh, holm):
        assert raw <= b <= s <= h + 1e-12 and s <= 1


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.001, 0.01, 0.04, 0.05, 0.3, 1.0]) | st.floats(0, 1), min_size=1, max_size=30))
def test_verifys_holm_is_statsmodels_holm_with_ties(p):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    from verifier.using.compare import holm

    assert list(holm(p)) == pytest.approx(list(multitest.multipletests(p, method="holm")[1]), rel=1e-12, abs=0)


@pytest.mark.parametrize("seed", range(5))
def test_raw_p_values_are_scikit_posthocs_siegel_friedman_on_random_costs_with_ties(seed):
    posthocs = pytest.importorskip("scikit_posthocs")
    from scipy import stats

    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(4, 20)), int(rng.integers(3, 8))
    costs = rng.integers(0, 4, size=(n, k))  # many ties within data sets
    ranks = [F(r).limit_denominator(2 * n) for r in stats.rankdata(costs, axis=1).mean(axis=0)]
    expected = np.asarray(posthocs.posthoc_siegel_friedman(costs.astype(float), p_adjust=None))
    got = pairwise_p_values(ranks, n)
    assert [p for _, p in got] == pytest.approx([expected[a, b] for a, b in combinations(range(k), 2)],
                                                rel=1e-12, abs=1e-300)


def test_beyond_the_bounds_it_says_what_it_did_not_compute():
    names = [f"c{i}" for i in range(MAX_BERGMANN_K + 1)]
    record = all_pairs(names, {c: F(i + 1) for i, c in enumerate(names)}, 30, 0.05)
    assert record["bergmann_hommel"] is None and "p_bergmann_hommel" not in record["pairs"][0]
    assert record["note"] == ("Bergmann-Hommel not computed: 10 classifiers have 115,974 exhaustive sets, it is "
                              "computed for at most 9")
    assert len(record["pairs"]) == 45 and all(p["p_shaffer"] >= p["p_value"] for p in record["pairs"])
    many = [f"c{i}" for i in range(46)]
    record = all_pairs(many, {c: F(1) for c in many}, 30, 0.05)
    assert record["pairs"] == [] and "adjusted for at most 45 classifiers" in record["note"]


def _several_data_sets(tmp_path, sets=10, seed=7):
    rng = np.random.default_rng(seed)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(sets):
        truth = rng.integers(0, 3, 12)
        for who, right in (("good", 0.9), ("fair", 0.6), ("poor", 0.4), ("odd", 0.6)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'h|b|n'},{who},s{d}" for t in truth]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_cli_extra_stats_gives_every_pair_after_friedman_with_both_adjustments(tmp_path):
    posthocs = pytest.importorskip("scikit_posthocs")
    pytest.importorskip("baycomp")
    path = _several_data_sets(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--format", "json", "--extra-stats"], out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())
    names = record["comparison"]["friedman"]["classifiers"]
    means = {(s["dataset"], s["classifier"]): float(F(s["mean_cost"])) for s in record["scores"]}
    table = np.array([[means[(f"s{d}", c)] for c in names] for d in range(10)])
    siegel = np.asarray(posthocs.posthoc_siegel_friedman(table, p_adjust=None))
    block = record["extra_stats"]["all_pairs_after_friedman"]
    assert [(p["a"], p["b"]) for p in block["pairs"]] == list(combinations(names, 2))
    raw = [p["p_value"] for p in block["pairs"]]
    assert raw == pytest.approx([siegel[a, b] for a, b in combinations(range(4), 2)], rel=1e-12)
    assert [p["p_shaffer"] for p in block["pairs"]] == pytest.approx(shaffer(raw, 4), rel=0, abs=0)
    assert [p["p_bergmann_hommel"] for p in block["pairs"]] == bergmann_hommel(raw, 4)
    assert [p["significant_shaffer"] for p in block["pairs"]] == [p["p_shaffer"] <= 0.05 for p in block["pairs"]]
    assert block["possible_true_counts"] == [0, 1, 2, 3, 6] and block["note"] is None
    json.dumps(record, allow_nan=False)
    text_out = io.StringIO()
    assert check(["evaluate", OBSTACLE, str(path), "--extra-stats"], text_out, io.StringIO()) == 0
    text = " ".join(text_out.getvalue().split())
    assert "All pairwise comparisons after Friedman: Shaffer's static procedure (García and Herrera 2008)" in text
    first = block["pairs"][0]
    assert (f"{first['a']} vs {first['b']}: z = {first['z']:.3f}, p-value {first['p_value']:.4g}, Shaffer "
            f"{first['p_shaffer']:.4g}") in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]
