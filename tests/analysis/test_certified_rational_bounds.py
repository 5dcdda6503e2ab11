"""The rational ends used around irrational cut points are certified (a review of issue 53 found them taken
from 30 significant digits moved by 10^-25, which lands on the wrong side of x once |x| passes about 10^5, and
`carry.zeros_inside` widens its search to those ends: a wrong end would drop a change of sign)."""

import mpmath
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from verifier.analysis.parameter_range import inside, rational_above, rational_below

mpmath.mp.dps = 200  # the independent judge: 200 digits, far beyond the gaps tested


def _value(x) -> mpmath.mpf:
    return mpmath.mpf(sp.N(x, 200))


irrationals = st.builds(lambda n, k, s: s * sp.sqrt(n) * sp.Integer(10) ** k,
                        st.integers(2, 10_000).filter(lambda n: int(n ** 0.5) ** 2 != n),
                        st.integers(-30, 30), st.sampled_from([1, -1]))


@given(irrationals)
def test_the_ends_lie_on_their_sides(x):
    assert _value(rational_above(x)) > _value(x) > _value(rational_below(x))


def test_large_values_that_thirty_digits_put_on_the_wrong_side():
    for k in range(5, 40, 3):
        x = sp.sqrt(2) * sp.Integer(10) ** k
        assert _value(rational_above(x)) > _value(x) > _value(rational_below(x)), k


@given(irrationals, st.integers(10, 60))
def test_a_rational_strictly_between_two_close_irrationals(x, digits):
    gap = sp.Rational(1, 10**digits) * (1 + abs(x))
    middle = inside(x, x + gap)
    assert middle.is_Rational and _value(x) < _value(middle) < _value(x + gap)


def test_rationals_are_their_own_ends():
    assert rational_above(sp.Rational(1, 3)) == sp.Rational(1, 3) == rational_below(sp.Rational(1, 3))
    assert inside(sp.Rational(1, 3), sp.Rational(1, 2)) == sp.Rational(2, 5)


def test_ends_too_close_to_part_give_no_point_inside():
    """Closer than the finest enclosure (2^-4096): no rational is claimed between them; `a` comes back, which
    the callers' certified check refuses (they report that no rational point was proved to lie between)."""
    from verifier.analysis.parameter_range import strictly_between

    a = sp.sqrt(2)
    b = a + sp.Rational(1, 2**5000)
    assert inside(a, b) == a and not strictly_between(a, inside(a, b), b)
