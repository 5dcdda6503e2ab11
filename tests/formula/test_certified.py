"""Certified signs: exact ties are ties, near-ties are separated, and undecidable means unknown."""

import sympy as sp

from verifier.formula import certified


def test_exact_ties_are_recognised():
    log3 = sp.log(3)
    assert certified.compare(log3, sp.Rational(2, 3) * log3 * sp.Rational(3, 2)).value == 0
    assert certified.compare(sp.log(6), sp.log(2) + sp.log(3)).value == 0
    assert certified.compare(sp.log(27) / 3, sp.log(3)).value == 0
    assert certified.compare(sp.sqrt(2) + sp.sqrt(3), sp.sqrt(5 + 2 * sp.sqrt(6))).value == 0


def test_near_ties_are_separated_exactly():
    close = sp.Rational(141421356237309504880168872, 10**26)  # sqrt(2) to 26 digits
    assert certified.compare(sp.sqrt(2), close).value == 1
    assert certified.compare(sp.sqrt(2) ** 3, 2 * sp.sqrt(2)).value == 0


def test_rationals_never_touch_intervals():
    sign = certified.compare(sp.Rational(1, 3), sp.Rational(1, 3))
    assert (sign.value, sign.method) == (0, "rational")


def test_undecidable_is_unknown_with_a_reason():
    sign = certified.sign(sp.Symbol("delta") - 1)
    assert sign.value is None and "delta" in sign.reason


def test_linear_sign_uses_exact_rationals():
    terms = [(sp.Rational(1, 3), sp.Integer(3)), (sp.Integer(-1), sp.Integer(1))]
    assert certified.linear_sign(terms).value == 0
