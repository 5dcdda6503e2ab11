"""Every float of the check report beside an exact value is that value correctly rounded (DESIGN.md §9, issue
51): each matrix cell's `decimal` (rational, and the power means of ordinal-l1-9, ordinal-intervals-10 and
obstacle-p-discounted-averse), each witness's `margin_decimal`, each comparison's `lhs_decimal`/`rhs_decimal`, against
an independent rounding (sympy's 60 digits, read back by Python's correctly rounded decimal parser); and the text's
4-digit decimals are 4 digits of that float. Irrational margins and sides are read back from their exact text by
the test (the tool's own output, never input)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import verifier
from verifier.lazy_sympy import sympy as sp
from verifier.report.check import words

from conftest import SPECS


def _nearest(value) -> float:
    """The float nearest to an exact sympy value, computed apart from `formula.rounded`."""
    if value.is_Rational:
        return float(Fraction(int(value.p), int(value.q)))
    return float(str(sp.N(value, 60)))


def _of_text(text: str) -> float:
    try:
        return float(Fraction(text))
    except ValueError:
        return _nearest(sp.parse_expr(text))


def _margins_and_sides(record, found: list):
    """(exact text, float) of every `margin`/`margin_decimal` and `lhs`/`lhs_decimal`, `rhs`/`rhs_decimal`."""
    if isinstance(record, list):
        for item in record:
            _margins_and_sides(item, found)
    elif isinstance(record, dict):
        for key in ("margin", "lhs", "rhs"):
            text, value = record.get(key), record.get(key + "_decimal")
            if isinstance(text, str) and isinstance(value, float):
                found.append((text, value))
        for item in record.values():
            _margins_and_sides(item, found)


@pytest.mark.parametrize("name", ["ordinal-l1-9.yaml", "obstacle-p-discounted-averse.yaml", "ordinal-intervals-10.yaml",
                                  "accuracy-u65.yaml", "ha-numeric.yaml"])
def test_every_float_of_the_check_json_is_its_exact_value_correctly_rounded(name):
    report = verifier.verify(f"{SPECS}/{name}", cache=False)
    record, s = report.to_json(), report.analysis.scheme
    sets = {tuple(s.classes[i] for i in sorted(m)): m for m in s.all_sets}
    irrational = 0
    for row in record["matrix"]:
        exact = s.rows[sets[tuple(row["Y"])]]
        for y, value in enumerate(row["decimal"]):
            assert value == _nearest(exact[y]), (row["Y"], y, str(exact[y]))
            irrational += not exact[y].is_Rational
    if name not in ("accuracy-u65.yaml", "ha-numeric.yaml"):
        assert irrational > 0  # the scan meets irrational cells, not only fractions
    found: list = []
    _margins_and_sides(record, found)
    assert found
    for text, value in found:
        assert value == _of_text(text), text


def test_the_texts_decimals_are_four_digits_of_the_correctly_rounded_float():
    value = sp.sqrt(2) / 2 + sp.Rational(1, 3)
    assert words.float_of(value) == _nearest(value)
    assert words.decimal(value) == f"{_nearest(value):.4g}"
    assert words.number(sp.Rational(1, 3)) == "1/3 (0.3333)"
