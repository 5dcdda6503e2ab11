"""Witnesses built from each set's own classes (issue 41, item 4, at the speed of the 10 s target):
`engines.family_witnesses` decides `alone` for many sets in one certified product per batch, and the batch
checker re-checks them in one product with integer witnesses.

Attacks: every `alone` the screen claims, on irrational (p-discounted) and rational schemes, is re-decided here
exactly, cell by cell (`certified.linear_sign` on the exact cells, rationals for rational ones), against every
other set; the exact margin of a rational scheme is recomputed with Fractions; a certified margin bound is below
the exact gap; witnesses that are not distributions (weights summing past 1, a negative weight, a float) are
refused by the checker; and beyond a thousand intervals of ordinal classes the statuses come without one LP.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.analysis.pipeline import analyse
from verifier.check.checker import Checker
from verifier.check.optimality_batch import check_optimality_batch
from verifier.engines import family_optimality
from verifier.engines.family_optimality import FamilyOptimality
from verifier.engines.family_witnesses import SHAPES, Screen, shape_point
from verifier.formula import certified
from verifier.spec import spec_from_text
from verifier.verdict import SetOptimality

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scheme(K: int, set_cost: str, cost: str = "abs(rank(yhat) - rank(y))"):
    text = f"name: ordinal\nclasses: {K}\ncost: '{cost}'\nset_cost: '{set_cost}'\npredictions: intervals\n"
    return analyse(spec_from_text(text, "ordinal.yaml"), 20000, optimality=False).scheme


def _exact_gaps(scheme, members, witness) -> list:
    """E_p[c_Z] - E_p[c_Y] for every other allowed set Z, each as (sign, exact value or None), cell by cell."""
    rows, out = scheme.rows, []
    for z in scheme.all_sets:
        if z == members:
            continue
        terms = [(x, rows[z][y]) for y, x in enumerate(witness) if x] + \
            [(-x, rows[members][y]) for y, x in enumerate(witness) if x]
        value = sp.Add(*[k * v for k, v in terms]) if all(v.is_Rational for _, v in terms) else None
        out.append((certified.linear_sign(terms).value, value))
    return out


def _all_points(scheme):
    return [p for shape in SHAPES for p in (shape_point(m, shape) for m in scheme.all_sets) if p]


@SETTINGS
@given(st.integers(4, 9), st.sampled_from(["1/2", "1/4", "3/4", "0"]), st.sampled_from(["1", "3/4", "1/2"]))
def test_every_alone_the_screen_certifies_is_alone_exactly(K, r, scale):
    # power means of |i - j| (square roots: the enclosure route) and scaled means (rationals: the integer route)
    for set_cost in (f"genmean(1 - {r}, [c(v, y) for v in Y])", f"mean([c(v, y) for v in Y]) * {scale}"):
        scheme = _scheme(K, set_cost)
        found = Screen(scheme, scheme.all_sets).alone(_all_points(scheme))
        assert found, set_cost
        for members, entry in found.items():
            assert entry.status == "alone" and sum(entry.witness) == 1 and min(entry.witness) >= 0
            gaps = _exact_gaps(scheme, members, entry.witness)
            assert all(sign == 1 for sign, _ in gaps), (K, set_cost, sorted(members))
            if all(value is not None for _, value in gaps):  # rational: the margin is the exact gap
                assert entry.margin == min(value for _, value in gaps) and not entry.margin_is_bound
            else:  # a certified lower bound of the gap
                assert entry.margin_is_bound and 0 < entry.margin
                smallest = min(sign for sign, _ in gaps)
                assert smallest == 1


def test_a_certified_margin_bound_is_below_the_exact_gap():
    scheme = _scheme(7, "genmean(1/2, [c(v, y) for v in Y])")
    found = Screen(scheme, scheme.all_sets).alone(_all_points(scheme))
    rows = scheme.rows
    for members, entry in list(found.items())[:10]:
        for z in scheme.all_sets:
            if z != members:  # E_p[c_Z] - E_p[c_Y] - margin > 0, exactly
                terms = [(x, rows[z][y]) for y, x in enumerate(entry.witness) if x] + \
                    [(-x, rows[members][y]) for y, x in enumerate(entry.witness) if x] + \
                    [(-entry.margin, sp.Integer(1))]
                assert certified.linear_sign(terms).value == 1


@pytest.mark.parametrize("witness, why", [
    (lambda K: (sp.Integer(1),) * 2 + (sp.Integer(0),) * (K - 2), "not a probability distribution"),  # sums to 2
    (lambda K: (sp.Rational(1, 2),) * 3 + (sp.Integer(0),) * (K - 3), "not a probability distribution"),
    (lambda K: (sp.Rational(3, 2), sp.Rational(-1, 2)) + (sp.Integer(0),) * (K - 2), "not a probability distribution"),
    (lambda K: (0.5, 0.5) + (sp.Integer(0),) * (K - 2), "not a probability distribution"),
    (lambda K: (sp.Integer(1),) + (sp.Integer(0),) * (K - 1), "not the unique minimiser"),
])
def test_the_batch_checker_refuses_a_witness_that_is_no_distribution_or_not_alone(witness, why):
    for set_cost in ("genmean(1/2, [c(v, y) for v in Y])", "mean([c(v, y) for v in Y]) * 3 / 4"):
        scheme = _scheme(12, set_cost)
        pair = frozenset({0, 1})
        entries = {pair: SetOptimality(pair, "alone", witness=witness(scheme.K))}
        check_optimality_batch(scheme, entries, Checker(scheme))
        assert entries[pair].status == "unknown" and why in entries[pair].reason, (set_cost, entries[pair].reason)


def test_beyond_a_thousand_p_discounted_intervals_every_status_comes_without_an_lp(monkeypatch):
    # 45 ordinal classes: 1,035 intervals, past the one-LP-per-set route; the witnesses settle every one of them
    def no_lp(*args, **kwargs):
        raise AssertionError("an LP was solved")

    monkeypatch.setattr(family_optimality, "_search", no_lp)
    scheme = _scheme(45, "genmean(1/2, [c(v, y) for v in Y])")
    assert len(scheme.all_sets) == 1035
    found: dict = {}
    for batch in FamilyOptimality(scheme).batches():
        check_optimality_batch(scheme, batch, Checker(scheme))
        found.update(batch)
    assert len(found) == 1035 and {e.status for e in found.values()} == {"alone"}
    members = frozenset(range(3, 20))  # one of them, re-decided here cell by cell
    assert all(sign == 1 for sign, _ in _exact_gaps(scheme, members, found[members].witness))


def test_the_shapes_are_distributions_on_the_set_and_never_repeat():
    for n in range(1, 9):
        members = frozenset(range(2, 2 + n))
        points = [shape_point(members, shape) for shape in SHAPES]
        made = [p for p in points if p]
        for classes, weights, q in made:
            assert set(classes) <= members and sum(weights) == q and min(weights) > 0
        exact = [{y: Fraction(w, q) for y, w in zip(*p[:2])} for p in made]
        assert len(exact) == len({tuple(sorted(p.items())) for p in exact})  # each point tried once
