"""A power mean is kept whole only when it is irrational, its ball holds the exact value, and a margin rounded
down from kept-whole cells is the one rounded down from the exact cells."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.engines.exact_floor import margin_floor
from verifier.formula.enclose import enclose
from verifier.formula.genmean import genmean
from verifier.formula.irrational_mean import IrrationalMean, irrational_mean
from verifier.lazy_sympy import sympy as sp

_exponents = st.sampled_from([Fraction(1, 2), Fraction(-1, 2), Fraction(2), Fraction(3), Fraction(-2),
                              Fraction(2, 3), Fraction(-3, 2), Fraction(1, 3)])
# squares, cubes and their ratios make rational powers (and rational means) common, not rare
_values = st.lists(st.sampled_from([0, 1, 2, 4, 8, 9, 16, 27]) | st.integers(min_value=0, max_value=40),
                   min_size=2, max_size=6).flatmap(
    lambda xs: st.tuples(st.just(xs), st.lists(st.sampled_from([1, 1, 1, 4, 8, 9, 3]), min_size=len(xs),
                                              max_size=len(xs))))


def _rationals(data) -> tuple:
    numerators, denominators = data
    return tuple(sp.Rational(n, d) for n, d in zip(numerators, denominators, strict=True))


@settings(max_examples=400)
@given(_exponents, _values)
def test_a_mean_is_kept_whole_exactly_when_it_is_irrational_and_its_ball_holds_it(p, data):
    values = _rationals(data)
    exponent = sp.Rational(p.numerator, p.denominator)
    if p < 0 and any(v == 0 for v in values):
        assert irrational_mean(exponent, values) is None  # undefined there: never kept whole
        return
    exact = genmean(exponent, values)
    whole = irrational_mean(exponent, values)
    # kept whole only when irrational; sympy may leave a rational mean unsimplified ((3/4 * 18^(1/3))^3), so
    # is_Rational is the sound direction only
    assert not (exact.is_Rational and whole is not None), (p, values, exact)
    if whole is not None:
        assert whole.exact() == exact
        for prec in (64, 128, 512):
            assert whole.ball(prec).overlaps(enclose(exact, prec))
            assert whole.ball(prec).rad() < 2.0 ** (20 - prec) * (1 + abs(float(whole.ball(prec).mid())))


@settings(max_examples=60)
@given(_exponents.filter(lambda p: p > 0), st.lists(_values, min_size=2, max_size=4),
       st.lists(st.fractions(min_value=0, max_value=1, max_denominator=7), min_size=2, max_size=4))
def test_a_margin_from_kept_whole_cells_is_the_margin_from_exact_cells(p, cells, weights):
    exponent = sp.Rational(p.numerator, p.denominator)
    exact_cells = [genmean(exponent, _rationals(c)) for c in cells]
    whole = [irrational_mean(exponent, _rationals(c)) or e for c, e in zip(cells, exact_cells, strict=True)]
    n = min(len(cells), len(weights))
    # two forms: Σ w·(cell_k − cell_0) and its mirror, plus a constant that keeps one positive
    shift = Fraction(1000)
    exact_forms = [[(Fraction(1), sp.Rational(int(shift)))] + [(w, c) for w, c in zip(weights[:n], exact_cells[:n])],
                   [(Fraction(1), sp.Rational(int(shift)))] + [(-w, c) for w, c in zip(weights[:n], exact_cells[:n])]]
    whole_forms = [[(Fraction(1), sp.Rational(int(shift)))] + [(w, c) for w, c in zip(weights[:n], whole[:n])],
                   [(Fraction(1), sp.Rational(int(shift)))] + [(-w, c) for w, c in zip(weights[:n], whole[:n])]]
    assert any(isinstance(c, IrrationalMean) for c in whole) or all(c.is_Rational for c in exact_cells)
    assert margin_floor(whole_forms) == margin_floor(exact_forms)
