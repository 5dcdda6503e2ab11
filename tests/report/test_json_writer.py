"""The JSON writer lays text out as `json.dumps(indent=2, ensure_ascii=False)` does, slice by slice, and falls
back to `json` for what orjson refuses."""

from __future__ import annotations

import io
import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.report.text.json_writer import SLICE, json_text, write_json

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.text(max_size=6),
                    st.sampled_from(["\u2028", "é", "\ud800", '"\\', "\x00\x1f"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=3), st.integers(-5, 5)), inner,
                                                 max_size=4)), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_text_is_pythons_json_text(value):
    assert json_text(value) == json.dumps(value, indent=2, ensure_ascii=False) + "\n"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.integers(SLICE - 2, 3 * SLICE + 2), st.booleans())
def test_long_lists_at_every_depth_are_written_in_slices_with_the_same_text(depth, length, huge):
    items = [{"Y": ["a", str(i)], "costs": [str(i), "1/3"], "n": 2 ** 80 if huge and i == SLICE else i}
             for i in range(length)]
    value = items
    for d in range(depth):
        value = {"level": d, "items": value, "after": [1, 2]}
    out = io.StringIO()
    write_json(value, out)
    assert out.getvalue() == json.dumps(value, indent=2, ensure_ascii=False) + "\n"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=5))
def test_floats_read_back_as_the_same_numbers(values):
    record = {"margins": values, "rows": [{"margin_decimal": v} for v in values]}
    assert json.loads(json_text(record)) == record


def test_the_command_writes_a_large_record_as_it_makes_it_with_the_same_text(monkeypatch):
    """Beyond `limits.STREAMED_FROM_CELLS` the command's JSON is written list item by list item; the text is the
    whole record's (but for the run's seconds)."""
    import re

    from verifier import limits
    from verifier.cli import check
    from verifier.report.check import json_record

    from conftest import SPECS

    def run() -> str:
        out = io.StringIO()
        assert check([os.path.join(SPECS, "hierarchy-animals.yaml"), "--format", "json", "--no-cache"], out,
                     io.StringIO()) == 0
        return re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', out.getvalue())

    whole = run()
    streamed = []
    monkeypatch.setattr(limits, "STREAMED_FROM_CELLS", 0)
    original = json_record.streamed
    monkeypatch.setattr(json_record, "streamed", lambda a: streamed.append(1) or original(a))
    assert run() == whole and streamed == [1]
