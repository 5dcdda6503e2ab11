"""VACC, the volume under the abstention cost curve, exactly: between the exact bounds of every grid (the bounds
use only concavity, so they hold whatever the data), converging on it as the grid refines; equal to the closed
form for the trivial classifier; 0 for a perfect classifier; and the area where abstaining pays likewise."""

from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.using.abstention import Hull, staircase
from verifier.using.abstention.volume import exact_volume, grid_volume

data = st.lists(st.tuples(st.integers(0, 8), st.booleans()), min_size=1, max_size=40)


def stairs_of(scores, labels):
    ranks = np.unique(np.array(scores), return_inverse=True)[1]
    values = sorted(set(scores))
    return staircase(ranks, np.array(labels, dtype=bool), lambda r: F(values[r]))


@settings(max_examples=60, deadline=None)
@given(data)
def test_the_exact_volume_lies_within_the_grid_bounds(rows):
    stairs = stairs_of(*zip(*rows))
    hull = Hull(stairs)
    exact = exact_volume(stairs, hull)
    bounds = grid_volume(stairs, hull, 9)
    assert exact.exact and bounds.low <= exact.low <= bounds.high
    assert bounds.pays_low <= exact.pays_low <= bounds.pays_high


def test_the_grid_bounds_close_in_on_the_exact_volume():
    rng = np.random.default_rng(3)
    labels = rng.random(300) < 0.4
    scores = np.round(rng.normal(size=300) + 1.2 * labels, 2)
    stairs = stairs_of(scores.tolist(), labels.tolist())
    hull = Hull(stairs)
    exact = exact_volume(stairs, hull).low
    gaps = []
    for points in (5, 9, 17, 33):
        b = grid_volume(stairs, hull, points)
        assert b.low <= exact <= b.high
        gaps.append(b.high - b.low)
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < gaps[0] / 10


def _trivial_closed_form(positives: int, negatives: int):
    """∫∫ min(μ a, b, ν) dν dμ with a = |N|/n, b = |P|/n: for fixed μ, m = min(μ a, b) and ∫ min(m, ν) dν =
    m - m²/2; the area where abstaining pays is ∫ m dμ."""
    n = positives + negatives
    a, b = F(negatives, n), F(positives, n)
    knee = min(F(1), b / a) if a else F(1)
    # on [0, knee] m = μ a; on [knee, 1] m = b
    volume = a * knee ** 2 / 2 - a ** 2 * knee ** 3 / 6 + (1 - knee) * (b - b ** 2 / 2)
    area = a * knee ** 2 / 2 + (1 - knee) * b
    return volume, area


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 50), st.integers(0, 50))
def test_the_trivial_classifier_has_the_closed_form_volume(positives, negatives):
    if positives + negatives == 0:
        return
    stairs = stairs_of([0] * (positives + negatives), [True] * positives + [False] * negatives)
    v = exact_volume(stairs, Hull(stairs))
    assert (v.low, v.pays_low) == _trivial_closed_form(positives, negatives)


def test_a_perfect_classifier_costs_nothing_anywhere():
    stairs = stairs_of([1, 2, 3, 7, 8, 9], [False, False, False, True, True, True])
    v = exact_volume(stairs, Hull(stairs))
    assert v.low == v.high == 0 and v.pays_low == 0


@settings(max_examples=100, deadline=None)
@given(data, st.lists(st.fractions(min_value=0, max_value=2, max_denominator=9), min_size=1, max_size=6))
def test_the_fast_sections_equal_the_trapezoids_on_every_breakpoint(rows, mus):
    from verifier.using.abstention.volume import Sections, section

    stairs = stairs_of(*zip(*rows))
    hull = Hull(stairs)
    fast = Sections(stairs, hull)
    for mu in mus + list(hull.slopes):
        assert fast.at(mu) == section(stairs, hull, mu)
