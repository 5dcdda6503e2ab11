"""The screened signs are the exact signs: against Fraction arithmetic on random integer rows at random rational
points, with rows built to be exactly on the bound, a hair beside it, and beyond the floats' exact range; and the
face point of a set's optima (started from a few constraints) is the one the full LP gives."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.engines.canonical import RationalGrid, _face_point
from verifier.engines.screened_rows import ScreenedRows

_ints = st.integers(min_value=-(2**70), max_value=2**70) | st.integers(min_value=-50, max_value=50)


def _exact_sign(row: list[int], p: list[Fraction], bound: Fraction) -> int:
    value = sum((a * x for a, x in zip(row, p)), Fraction(0)) - bound
    return (value > 0) - (value < 0)


@settings(max_examples=300)
@given(st.integers(min_value=1, max_value=6).flatmap(lambda K: st.tuples(
    st.lists(st.lists(_ints, min_size=K, max_size=K), min_size=1, max_size=12),
    st.lists(st.fractions(min_value=0, max_value=5, max_denominator=10**15), min_size=K, max_size=K),
    st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**9),
    st.integers(min_value=-3, max_value=3))))
def test_the_screened_signs_are_the_exact_signs(data):
    rows, p, bound, nudge = data
    # a row exactly on the bound, and one beside it by a last-place amount
    on = sum((a * x for a, x in zip(rows[0], p)), Fraction(0))
    rows = rows + [rows[0][:]]
    bounds = [bound, on, on + Fraction(nudge, 10**30)]
    for b in bounds:
        signs = ScreenedRows(rows).signs(p, b)
        assert signs.tolist() == [_exact_sign(row, p, b) for row in rows]


@settings(max_examples=60)
@given(st.integers(min_value=2, max_value=4).flatmap(lambda K: st.lists(
    st.lists(st.integers(min_value=0, max_value=6), min_size=K, max_size=K), min_size=K + 2, max_size=14)),
    st.data())
def test_the_face_point_from_a_few_constraints_is_the_full_lps(rows, data):
    grid = RationalGrid(rows, 1)
    i = data.draw(st.integers(min_value=0, max_value=len(rows) - 1))
    t = Fraction(data.draw(st.integers(min_value=-3, max_value=0)))
    start = data.draw(st.lists(st.integers(min_value=0, max_value=len(rows) - 1), max_size=3))
    assert _face_point(grid, i, t, start=start) == _face_point(grid, i, t)


def test_integers_beyond_the_floats_range_are_evaluated_exactly():
    rows = [[2**1100, -(2**1100)], [1, 2], [-(2**1100), 0]]
    p = [Fraction(1, 2), Fraction(1, 2)]
    assert ScreenedRows(rows).signs(p, Fraction(3, 2)).tolist() == [-1, 0, -1]
    assert ScreenedRows([[1, 1]]).signs([Fraction(10**400), Fraction(0)], Fraction(10**400)).tolist() == [0]
