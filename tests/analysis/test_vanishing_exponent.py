"""The end lemmas of `analysis.zeros` and the witnesses carried across a piece (`analysis.central_witness`), on
the p-discounted costs genmean(1 − r, ...) of specs/p-discounted-symbolic.yaml, whose sets were undecided on
(0, 1): near r = 1 the exponent q = 1 − r tends to 0+ and every mean of a list holding a 0 tends to 0 like
(k/n)^(1/q), too flat for certified bisection (`vanishing_exponent.flat_end`); at r = 0 some comparisons are
exactly 0 (`end_zero.zero_end`); inside, a witness's comparison crosses 0 where the set stays alone with
another witness (`central_witness`, or one moving from the tie at r = 0)."""

from __future__ import annotations

import os
from fractions import Fraction

import pytest
import sympy as sp

from verifier.analysis.central_witness import alone_at, central_witness
from verifier.analysis.end_zero import zero_end
from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.analysis.vanishing_exponent import flat_end
from verifier.analysis.zeros import zeros
from verifier.check.optimality import check_optimality
from verifier.engines.optimality import analyse_optimality
from verifier.formula import certified
from verifier.formula.genmean import genmean_class
from verifier.scheme import build_scheme
from verifier.spec import load_spec

from conftest import SPECS

r = sp.Symbol("r")
G = genmean_class()
q = 1 - r
# differences of the witnesses found at r = 1/2, each enclosed on [1 - 2^-40, 1] before the lemma
NEAR_ONE = [
    -G(q, 0, 1) + G(q, 0, 4) / 2 + G(q, 1, 4) / 2,
    -G(q, 0, 1) + G(q, 0, 1, 4),
    G(q, 0, 1) / 2 - G(q, 0, 2) / 2 - G(q, 0, 4) / 2 + 1,
    -G(q, 0, 4) / 2 + G(q, 1, 4) / 2,
    G(q, 0, 2) / 2 + G(q, 0, 4) / 4 + G(q, 1, 4) / 4 - G(q, 0, 1, 4) / 2 - G(q, 0, 2, 2) / 2,
]
# exactly 0 at both ends: at r = 1 every mean holds a 0 (geometric means), at r = 0 the arithmetic means cancel
BOTH_ENDS = -G(q, 0, 2) / 2 - G(q, 0, 4) / 2 + G(q, 0, 1, 4) / 2 + G(q, 0, 2, 2) / 2
SPEC = os.path.join(SPECS, "p-discounted-symbolic.yaml")


def _sign(d, value) -> int:
    found = certified.sign(d.subs(r, value)).value
    assert found is not None
    return found


@pytest.mark.parametrize("d", NEAR_ONE, ids=range(len(NEAR_ONE)))
def test_the_sign_is_certified_near_r_1_where_the_exponent_vanishes(d):
    reach = flat_end(d, r, Fraction(1), Fraction(0))
    assert reach is not None and 0 <= reach < 1
    one = sp.Rational(reach.numerator, reach.denominator)
    # the lemma's sign is the leading group's at q = 0+: here positive, as the exact values inside show
    for value in (one, (1 + one) / 2, 1 - (1 - one) / 8, sp.Rational(63, 64)):
        assert _sign(d, value) == 1
    exact, enclosed = zeros(d, r, sp.Integer(0), sp.Integer(1))
    assert all(hi <= reach for _, hi in enclosed)  # before: [1 - 2^-40, 1] (an interior crossing may remain)
    assert (1 in exact) == (_sign(d, sp.Integer(1)) == 0)  # the end itself: exactly (geometric means)


def test_an_exact_zero_at_each_end_is_a_point_and_nothing_is_enclosed():
    assert _sign(BOTH_ENDS, sp.Integer(1)) == 0 and _sign(BOTH_ENDS, sp.Integer(0)) == 0
    assert flat_end(BOTH_ENDS, r, Fraction(1), Fraction(0)) is not None  # the lists with 2 of 3 positive lead
    assert zero_end(BOTH_ENDS, r, Fraction(0), Fraction(1)) is not None  # d'(0) > 0 (about 0.27)
    exact, enclosed = zeros(BOTH_ENDS, r, sp.Integer(0), sp.Integer(1))
    assert sorted(exact) == [0, 1] and enclosed == []


def test_the_lemma_declines_when_the_leading_group_cancels_at_q_0():
    # M_0(1, 4) = M_0(2, 2) = 2, both with 2 of 3 values positive: L(0) = 0, the sign is not the lemma's to say
    assert flat_end(G(q, 0, 1, 4) - G(q, 0, 2, 2), r, Fraction(1), Fraction(0)) is None
    # ... also beside a smaller group (1 of 2 positive), whose bound alone cannot give the sign of 0 + R
    assert flat_end(G(q, 0, 1, 4) - G(q, 0, 2, 2) + G(q, 0, 4), r, Fraction(1), Fraction(0)) is None


def test_the_lemmas_decline_where_they_do_not_apply():
    assert flat_end(NEAR_ONE[0], r, Fraction(0), Fraction(1)) is None  # the exponent is 1 at r = 0
    assert flat_end(G(1 + r, 0, 1) - G(1 - r, 0, 2), r, Fraction(1), Fraction(0)) is None  # two exponents
    assert zero_end(NEAR_ONE[0], r, Fraction(0), Fraction(1)) is None  # d(0) = 1/2 + ... is not 0
    assert zero_end(BOTH_ENDS, r, Fraction(1), Fraction(0)) is None  # the exponent is 0 there: not smooth


def test_a_central_witness_is_alone_exactly_with_a_positive_margin():
    scheme = build_scheme(load_spec(SPEC), values={"r": sp.Rational(1, 2)})
    h_n = frozenset({0, 2})
    p = central_witness(scheme.rows, h_n, scheme.K)
    assert p is not None and sum(p) == 1 and all(x.is_Rational and x >= 0 for x in p)
    assert alone_at(scheme.rows, h_n, p, scheme.K)
    assert not alone_at(scheme.rows, h_n, (sp.Integer(1), sp.Integer(0), sp.Integer(0)), scheme.K)


def test_every_set_of_the_p_discounted_spec_is_decided_on_every_piece():
    found = symbolic_optimality(build_scheme(load_spec(SPEC)))
    zero, one = sp.Integer(0), sp.Integer(1)
    singleton = [(zero, zero, "alone"), (zero, one, "alone"), (one, one, "tied")]
    pair = [(zero, zero, "tied"), (zero, one, "alone"), (one, one, "tied")]
    expected = {frozenset({0}): singleton, frozenset({1}): singleton, frozenset({2}): singleton,
                frozenset({0, 1}): pair, frozenset({0, 2}): pair, frozenset({1, 2}): pair,
                frozenset({0, 1, 2}): [(zero, zero, "tied"), (zero, one, "alone"), (one, one, "alone")]}
    assert {m: e.where for m, e in found.items()} == expected
    assert all(e.status == "alone" for e in found.values())


@pytest.mark.parametrize("value", [sp.Rational(1, 1000), sp.Rational(3, 10), sp.Rational(999, 1000)])
def test_alone_on_the_open_piece_agrees_with_the_exact_engine(value):
    concrete = build_scheme(load_spec(SPEC), values={"r": value})
    found = analyse_optimality(concrete)
    check_optimality(concrete, found)
    assert {e.status for e in found.values()} == {"alone"}


def test_cuts_beside_an_enclosure_leave_it_inside_and_stay_inside_the_piece():
    from verifier.analysis.symbolic_optimality import MARGIN, _around

    lo, hi = Fraction(405797027414, 2**40), Fraction(405797027415, 2**40)  # a crossing near r = 0.3691
    left, right = _around([(lo, hi)], sp.Integer(0), sp.Integer(1))
    assert lo - 2 * Fraction(1, 2**30) < left < lo and hi < right < hi + 2 * Fraction(1, 2**30)
    assert MARGIN == sp.Rational(1, 2**30)
    # an enclosure at an end of the piece: only the cut on the inner side
    assert _around([(Fraction(0), Fraction(1, 2**37))], sp.Integer(0), sp.Integer(1)) == \
        [_around([(Fraction(0), Fraction(1, 2**37))], None, None)[1]]
