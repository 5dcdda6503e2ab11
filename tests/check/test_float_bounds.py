"""Two helpers the fast report paths lean on, against what they replace:

- the checker's outward-rounded float bounds contain the exact value (mpmath intervals at 60 digits), and
  give None instead of a guess outside their rules;
- the memoising printer (with its shortcut for a rational times one factor) writes exactly sympy's
  `sstr(order="none")` text.
"""

from __future__ import annotations

import math

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import iv, mpf

from verifier.check.float_bounds import float_bounds
from verifier.report.check import words

RATIONALS = st.builds(lambda n, d: sp.Rational(n, d), st.integers(-10**6, 10**6), st.integers(1, 10**4))


def _expressions():
    leaves = RATIONALS | st.builds(lambda n: sp.sqrt(sp.Integer(n)), st.integers(0, 50))
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds(lambda a, b: a + b, inner, inner),
        st.builds(lambda a, b: a * b, inner, inner),
        st.builds(lambda a, k: a ** k, inner, st.integers(-3, 4)),
        st.builds(lambda a: sp.sqrt(abs(a)), inner)), max_leaves=8)


def _iv(expr):
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / int(expr.q)
    if isinstance(expr, sp.Add):
        return sum((_iv(a) for a in expr.args), iv.mpf(0))
    if isinstance(expr, sp.Mul):
        out = iv.mpf(1)
        for a in expr.args:
            out *= _iv(a)
        return out
    base, exponent = expr.args
    if exponent.is_Integer:
        return _iv(base) ** int(exponent)
    return iv.exp(_iv(exponent) * iv.log(_iv(base)))


@settings(max_examples=400, deadline=None)
@given(_expressions())
def test_the_bounds_contain_the_exact_value(expr):
    try:
        bounds = float_bounds(expr)
    except Exception as exc:  # noqa: BLE001 - the helper must never raise
        raise AssertionError(f"float_bounds raised on {expr}: {exc!r}")
    if bounds is None or expr.has(sp.zoo, sp.nan, sp.oo):
        return
    lo, hi = bounds
    assert math.isfinite(lo) and math.isfinite(hi) and lo <= hi
    iv.dps = 60
    try:
        exact = _iv(expr)
        assert mpf(lo) <= exact.a and exact.b <= mpf(hi), (expr, lo, hi, exact)
    except (ZeroDivisionError, ValueError):  # the reference cannot enclose it either
        pass
    finally:
        iv.dps = 15


def test_outside_the_rules_or_beyond_floats_there_is_no_bound():
    assert float_bounds(sp.log(2)) is None
    assert float_bounds(sp.Integer(2) ** sp.Rational(1, 3)) is None
    assert float_bounds(sp.Integer(10) ** 400) is None  # beyond the float range
    assert float_bounds(1 / (sp.sqrt(2) - sp.sqrt(2) + sp.Rational(1, 10**400))) is None
    assert float_bounds(sp.sqrt(sp.Integer(2))) == (math.nextafter(math.sqrt(2), 0), math.nextafter(math.sqrt(2), 2))
    assert float_bounds(sp.Integer(7)) == (7.0, 7.0)  # small integers are exact floats


def _printed():
    """Numbers as the matrices and margins hold them, and unevaluated products sympy prints its own way."""
    symbols = st.sampled_from([sp.Symbol("r"), sp.log(3), sp.pi, sp.sqrt(2), sp.Integer(5) ** sp.Rational(2, 3)])
    factors = st.one_of(symbols, _expressions(), st.builds(lambda a, k: a ** k, symbols, st.integers(-3, 3)))
    unevaluated = st.builds(lambda c, x: sp.Mul(c, x, evaluate=False), RATIONALS | st.just(sp.S.One), factors)
    return st.recursive(factors | unevaluated, lambda inner: st.one_of(
        st.builds(lambda a, b: a - b, inner, inner), st.builds(lambda c, a: c * a, RATIONALS, inner)), max_leaves=6)


@settings(max_examples=400, deadline=None)
@given(_printed())
def test_the_memoising_printer_writes_sympys_text(expr):
    assert words.exact(expr) == sp.sstr(expr, order="none")


def test_every_cell_and_margin_of_a_nine_class_report_prints_as_sympy_prints_it():
    import verifier

    spec = {"name": "ordinal", "classes": 9, "parameters": {"r": {"value": "1/2"}},
            "cost": "abs(rank(yhat) - rank(y))", "set_cost": "genmean(1 - r, [c(yh, y) for yh in Y])"}
    a = verifier.verify(spec, cache=False, detail="summary").analysis
    values = {v for m in a.scheme.all_sets for v in a.scheme.rows[m]} | {e.margin for e in a.possibility}
    assert len(values) > 800
    assert all(words.exact(v) == sp.sstr(v, order="none") for v in values)
