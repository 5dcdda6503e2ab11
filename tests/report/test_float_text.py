"""The batch CSV's float texts (`report.float_text`): each reads back as the same float and has repr's digits
(the shortest that do), whatever notation it uses; non-finite values as repr writes them."""

import math
import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from verifier.report.text.float_text import ShortestFloats, shortest_texts


def _digits(text: str) -> str:
    """The significant digits of a float's text, without sign, point or exponent."""
    mantissa = re.split("[eE]", text.lstrip("-"))[0].replace(".", "")
    return mantissa.strip("0") or "0"


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True), max_size=50))
def test_each_text_reads_back_with_the_shortest_digits(values):
    texts = shortest_texts(values)
    assert len(texts) == len(values)
    for text, value in zip(texts, values):
        assert float(text) == value and math.copysign(1, float(text)) == math.copysign(1, value)
        assert _digits(text) == _digits(repr(value))


def test_non_finite_values_and_blocks():
    assert shortest_texts([math.inf, -math.inf, math.nan, 0.5]) == ["inf", "-inf", "nan", "0.5"]
    assert shortest_texts([]) == []
    column = ShortestFloats(np.array([0.1, 1e-7, 2.5e-5, 1e20]))
    assert len(column) == 4 and column[1:3].tolist() == ["1e-7", "0.000025"]
    assert [float(t) for t in column.tolist()] == [0.1, 1e-7, 2.5e-5, 1e20]
