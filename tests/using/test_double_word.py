"""Double-word arithmetic (`using.double_word`) against exact Fractions: each operation within the bound its
docstring states (add 3u² + 13u³ whatever the signs, mul 9u², div 20u²), and the exact mean of doubles
(`using.float_mean`) is the exact mean rounded once."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from verifier.using.exact import double_word as dw
from verifier.using.exact import exact_mean

U = F(1, 2 ** 53)


def _words(rng, n, spread):
    hi = rng.normal(size=n) * 2.0 ** rng.integers(-spread, spread, size=n)
    lo = hi * rng.uniform(-1, 1, size=n) * 2.0 ** -53
    return dw.add(dw.double(hi), dw.double(lo))  # normalised: hi = fl(hi + lo)


def _value(x, i) -> F:
    return F(float(x[0][i])) + F(float(x[1][i]))


@pytest.mark.parametrize("name, bound", [("add", 3 * U ** 2 + 13 * U ** 3), ("mul", 9 * U ** 2),
                                         ("div", 20 * U ** 2)])
def test_each_operation_is_within_its_bound(name, bound):
    rng = np.random.default_rng(len(name))
    x, y = _words(rng, 3000, 60), _words(rng, 3000, 60)
    if name == "add":  # cancelling sums: y near −x
        y = (np.where(np.arange(3000) % 2 == 0, -x[0], y[0]), np.where(np.arange(3000) % 2 == 0, y[1], y[1]))
    z = getattr(dw, name)(x, y)
    for i in range(3000):
        a, b = _value(x, i), _value(y, i)
        exact = {"add": a + b, "mul": a * b, "div": a / b}[name]
        assert abs(_value(z, i) - exact) <= bound * abs(exact)
        assert float(z[0][i]) == float(z[0][i] + z[1][i])  # normalised


def test_the_exact_mean_of_doubles_is_rounded_once():
    rng = np.random.default_rng(5)
    for trial in range(60):
        n = int(rng.integers(1, 400))
        x = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n)
        if trial % 3 == 0:
            x = np.r_[np.abs(x), 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]
        assert exact_mean(x) == float(sum(map(F, x.tolist()), F(0)) / len(x))
    assert exact_mean([0.1] * 10) == 0.1 and exact_mean([]) is None
    assert exact_mean(np.full(7, 1.7976931348623157e308)) == 1.7976931348623157e308  # no overflow
    theta = np.full(3, 1.5707963267948966)  # a float sum would give ...963 or ...966 by the order it takes
    assert exact_mean(np.r_[theta, 0.1, 0.7]) == float((3 * F(1.5707963267948966) + F(0.1) + F(0.7)) / 5)
    assert exact_mean([np.inf, 1.0]) == np.inf and np.isnan(exact_mean([np.inf, -np.inf]))
