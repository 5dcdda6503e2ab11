"""Property-based tests of the standalone checker (verifier_check.py): its own rational bounds of roots, logs
and exponentials always enclose the true value, and a random rational scheme's certificate always checks."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier_check as vc

positive = st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=10 ** 6)


@settings(max_examples=200, deadline=None)
@given(positive, st.integers(2, 5))
def test_a_root_to_its_power_encloses_the_radicand(x, k):
    lo, hi = vc.bounds(["root", f"{x.numerator}/{x.denominator}", k], 64, "t")
    assert 0 <= lo <= hi and lo ** k <= x <= hi ** k and hi - lo <= Fraction(2, 1 << 64)


@settings(max_examples=200, deadline=None)
@given(positive)
def test_log_and_exp_bound_each_other(x):
    text = f"{x.numerator}/{x.denominator}"
    lo, hi = vc.bounds(["log", text], 64, "t")
    assert lo <= hi and hi - lo < Fraction(1, 1 << 50)
    # exp is increasing, so exp(lo) <= x <= exp(hi) when [lo, hi] encloses log x
    assert vc.bounds(["exp", f"{lo.numerator}/{lo.denominator}"], 64, "t")[0] <= x
    assert vc.bounds(["exp", f"{hi.numerator}/{hi.denominator}"], 64, "t")[1] >= x
    assert float(lo) - 1e-9 <= math.log(x) <= float(hi) + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.fractions(min_value=-30, max_value=30, max_denominator=1000))
def test_exp_encloses_the_float_value(x):
    lo, hi = vc.bounds(["exp", f"{x.numerator}/{x.denominator}"], 64, "t")
    assert 0 < lo <= hi and float(lo) * (1 - 1e-12) <= math.exp(x) <= float(hi) * (1 + 1e-12)


def test_an_exact_tie_of_logarithms_cancels_instead_of_being_bounded():
    numbers = vc.Numbers()
    a = numbers.linear(["log", "3"], "a")
    b = numbers.linear(["*", "2/3", "3/2", ["log", "3"]], "b")
    assert numbers.sign(vc.add(a, vc.times(-1, b)), "tie") == 0
    with pytest.raises(vc.Undecided):  # log 9 / 2 is log 3 too, but not term for term: never guessed
        numbers.sign(vc.add(a, vc.times(Fraction(-1, 2), numbers.linear(["log", "9"], "c"))), "tie")


cost = st.sampled_from(["0", "1/4", "1/2", "3/4", "1", "3/2", "2"])


@settings(max_examples=12, deadline=None)
@given(st.lists(cost, min_size=9, max_size=9), st.lists(cost, min_size=12, max_size=12))
def test_a_random_rational_scheme_writes_a_certificate_that_checks(det, sets):
    import verifier

    rows = {"a,b": sets[0:3], "a,c": sets[3:6], "b,c": sets[6:9], "a,b,c": sets[9:12]}
    spec = {"name": "random", "classes": ["a", "b", "c"],
            "cost_matrix": {"a": det[0:3], "b": det[3:6], "c": det[6:9]}, "set_costs": rows}
    cert = verifier.verify(spec, cache=False).certificate()
    results = vc.claims(cert)
    assert [r for r in results if r[1] not in ("checked", "no claim")] == [], results
