"""Optimal abstention windows (Friedel, Rückert & Kramer) against a brute force over every window, exactly: the
scalar route, the batch route (floats pre-screen, exact fractions settle), the independent re-check (and that it
refuses wrong windows), Lemma 1 and the nested windows on random data with tied scores."""

from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.using.abstention import Hull, optimal_windows, staircase
from verifier.using.abstention.recheck import recheck
from verifier.using.abstention.windows import Window, optimal_window, window_cost

COSTS = st.fractions(min_value=0, max_value=3, max_denominator=12)


def stairs_of(scores, labels):
    ranks = np.unique(np.array(scores), return_inverse=True)[1]
    values = sorted(set(scores))
    return staircase(ranks, np.array(labels, dtype=bool), lambda r: F(values[r]))


data = st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=30)


def brute(stairs, mu, nu):
    """Least (cost, abstained, lower cut) over every window i <= j: the narrowest optimal window, and among
    empty ones the lowest cut."""
    return min((window_cost(stairs, i, j, mu, nu), stairs.counted(j) - stairs.counted(i), i, j)
               for i in range(stairs.k + 1) for j in range(i, stairs.k + 1))


@settings(max_examples=300, deadline=None)
@given(data, COSTS, COSTS)
def test_the_window_is_the_brute_force_optimum_with_the_tie_rule(rows, mu, nu):
    stairs = stairs_of(*zip(*rows))
    w = optimal_window(stairs, Hull(stairs), mu, nu)
    cost, abstained, low, high = brute(stairs, mu, nu)
    assert (w.cost, w.abstained, w.low, w.high) == (cost, abstained, low, high)


@settings(max_examples=200, deadline=None)
@given(data, st.lists(st.tuples(COSTS, COSTS), min_size=1, max_size=20))
def test_batch_windows_equal_the_scalar_ones_and_pass_the_recheck(rows, scenarios):
    stairs = stairs_of(*zip(*rows))
    hull = Hull(stairs)
    # scenarios that put (mu - nu)/nu exactly on a hull slope: the floats must hand them to exact fractions
    scenarios += [(F(1, 7) * (1 + s), F(1, 7)) for s in hull.slopes]
    batch = optimal_windows(stairs, hull, scenarios)
    assert batch == [optimal_window(stairs, hull, mu, nu) for mu, nu in scenarios]
    checked = recheck(stairs, scenarios, batch)
    assert checked.disagreement is None and checked.checked == len(scenarios) and checked.lemma_holds


@settings(max_examples=150, deadline=None)
@given(data, COSTS, COSTS, st.integers(0, 3))
def test_the_recheck_refuses_a_window_that_is_not_the_rule_s(rows, mu, nu, change):
    stairs = stairs_of(*zip(*rows))
    right = optimal_window(stairs, Hull(stairs), mu, nu)
    low, high = right.low, right.high
    low, high = [(low - 1, high), (low, high + 1), (low + 1, high + 1), (high, high)][change]
    if not 0 <= low <= high <= stairs.k or (low, high) == (right.low, right.high):
        return
    wrong = Window(low, high, window_cost(stairs, low, high, mu, nu), stairs.counted(high) - stairs.counted(low))
    assert recheck(stairs, [(mu, nu)], [wrong]).disagreement is not None
    forged = Window(right.low, right.high, right.cost - F(1, 1000), right.abstained)
    assert "not the least" in recheck(stairs, [(mu, nu)], [forged]).disagreement


@settings(max_examples=200, deadline=None)
@given(data, COSTS, COSTS, COSTS)
def test_windows_are_nested_as_the_abstention_cost_grows(rows, mu, nu1, nu2):
    """Friedel et al.'s second observation: for nu1 < nu2 the window at nu2 lies inside the window at nu1."""
    stairs = stairs_of(*zip(*rows))
    hull = Hull(stairs)
    nu1, nu2 = sorted((nu1, nu2))
    wide, narrow = optimal_window(stairs, hull, mu, nu1), optimal_window(stairs, hull, mu, nu2)
    if not narrow.empty:
        assert wide.low <= narrow.low <= narrow.high <= wide.high


@settings(max_examples=200, deadline=None)
@given(data, COSTS, COSTS)
def test_lemma_1_no_window_abstains_beyond_the_line(rows, mu, nu):
    stairs = stairs_of(*zip(*rows))
    if nu * (1 + mu) < mu:
        return
    best = brute(stairs, mu, nu)
    abstaining = [window_cost(stairs, i, j, mu, nu) for i in range(stairs.k + 1) for j in range(i + 1, stairs.k + 1)]
    assert all(c >= best[0] for c in abstaining)
    assert optimal_window(stairs, Hull(stairs), mu, nu).empty


def test_the_trivial_classifier_is_the_cheapest_of_always_p_always_n_always_abstain():
    labels = [True] * 3 + [False] * 5
    stairs = stairs_of([0] * 8, labels)
    for mu in (F(0), F(1, 5), F(1, 2), F(1)):
        for nu in (F(0), F(1, 10), F(3, 10), F(1)):
            w = optimal_window(stairs, Hull(stairs), mu, nu)
            assert w.cost == min(mu * 5, F(3), nu * 8) / 8


def test_one_class_only_and_identical_scores():
    positives = stairs_of([1, 2, 3], [True] * 3)
    negatives = stairs_of([1, 2, 3], [False] * 3)
    for mu, nu in ((F(1, 2), F(1, 10)), (F(1), F(0)), (F(0), F(0))):
        assert optimal_window(positives, Hull(positives), mu, nu).cost == 0
        assert optimal_window(negatives, Hull(negatives), mu, nu).cost == 0
    many = staircase(np.zeros(10 ** 6, dtype=np.int64), np.arange(10 ** 6) % 3 == 0, lambda r: F(1, 2))
    hull = Hull(many)
    windows = optimal_windows(many, hull, [(F(a, 10), F(b, 10)) for a in range(11) for b in range(11)])
    assert recheck(many, [(F(a, 10), F(b, 10)) for a in range(11) for b in range(11)], windows).disagreement is None
    assert many.threshold(0) is None and many.threshold(1) is None and many.k == 1


def brute_two(stairs, mu, nu, nu_n):
    return min((window_cost(stairs, i, j, mu, nu, nu_n), stairs.counted(j) - stairs.counted(i), i, j)
               for i in range(stairs.k + 1) for j in range(i, stairs.k + 1))


@settings(max_examples=300, deadline=None)
@given(data, COSTS, COSTS, COSTS)
def test_two_abstention_costs_give_the_brute_force_optimum(rows, mu, nu, nu_n):
    """Abstaining costs ν_P on a P instance and ν_N on an N one: the same hull queries at ν_N/(1 - ν_P) and
    (μ - ν_N)/ν_P, Lemma 1 at ν_N >= μ (1 - ν_P); the batch route and the re-check agree."""
    stairs = stairs_of(*zip(*rows))
    hull = Hull(stairs)
    w = optimal_window(stairs, hull, mu, nu, nu_n)
    cost, abstained, low, high = brute_two(stairs, mu, nu, nu_n)
    assert (w.cost, w.abstained, w.low, w.high) == (cost, abstained, low, high)
    assert optimal_windows(stairs, hull, [(mu, nu, nu_n)]) == [w]
    assert recheck(stairs, [(mu, nu, nu_n)], [w]).disagreement is None
