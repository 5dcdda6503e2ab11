"""Issue 40: `decide --p 'CLASS=LOGIT,...' --logits` decides one row of logits exactly, by the machinery of
`--p-file --logits` (the same set and tie count as a file of that one row), with `--certainty` the raw
certainty and doubt, exact; hostile values (nan, inf, text, beyond the doubles, a class left out or unknown)
are located usage errors, in the command and in the Python API."""

import json
import math
import os
from fractions import Fraction as F

import pytest

from verifier.api import decide
from verifier.errors import UsageError

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")


@pytest.mark.parametrize("row", [
    {"h": "3/2", "b": "-2", "n": "0"},
    {"h": "0", "b": "0", "n": "0"},  # every logit equal: p uniform, exactly
    {"h": "1", "b": "1", "n": "-5"},  # the top two equal
    {"h": "0", "b": str(F(math.log(7 / 13))), "n": "-40"},  # on u65's boundary p_b = 7/13·p_h, within a rounding
])
def test_one_row_of_logits_decides_as_a_file_of_that_row(tmp_path, row, cli):
    text = ",".join(f"{c}={x}" for c, x in row.items())
    path = tmp_path / "y.csv"
    path.write_text("h,b,n\n" + ",".join(row.values()) + "\n")
    code, out, err = cli("decide", U65, "--p", text, "--logits", "--format", "json")
    assert code == 0, err
    one = json.loads(out)
    code, out, err = cli("decide", U65, "--p-file", str(path), "--logits", "--format", "json")
    assert code == 0, err
    batch = json.loads(out)
    assert [one["prediction"]] == batch["predictions"] and [one["tied_optima"]] == batch["tied_optima"]
    assert one["undecided"] is False and one["logits"] == {c: str(F(x)) for c, x in row.items()}
    assert sorted(os.listdir(tmp_path)) == ["y.csv"]


def test_one_row_of_logits_with_its_raw_certainty_exact(cli):
    code, out, err = cli("decide", U65, "--p", "h=3/2,b=-2,n=0.25", "--logits", "--certainty")
    assert code == 0, err
    assert "Optimal prediction for p = softmax(y), y = (h=3/2, b=-2, n=1/4): {h}" in out
    assert "Raw certainty of the largest logit's class h over each other class (y_h − y_i, exact): b 7/2, n 5/4" in out
    assert "Minimum raw certainty 5/4, maximum raw doubt 4/5" in out
    report = decide(U65, {"h": "1", "b": "1", "n": "0"}, logits=True, certainty=True)
    c = report.record["certainty"]
    assert c["tie"] is True and c["pairwise_raw_doubt"]["b"] == "inf" and c["raw"] is True
    assert report.prediction == report.record["prediction"]


@pytest.mark.parametrize("text, message", [
    ("h=nan,b=0,n=0", "--p h: 'nan' is not a number"),
    ("h=inf,b=0,n=0", "--p h: 'inf' is not a number"),
    ("h=-inf,b=0,n=0", "--p h: '-inf' is not a number"),
    ("h=one,b=0,n=0", "--p h: 'one' is not a number"),
    ("h=1e400,b=0,n=0", "--p h: '1000000"),  # exact, but beyond the doubles the screen needs
    ("h=1,b=2", "no logit for n; with --logits give every class's logit"),
    ("x=1,b=0,n=0", "unknown class 'x'"),
    ("h=1,h=2,b=0,n=0", "class 'h' is given twice"),
    ("", "--p: empty"),
])
def test_hostile_logits_on_the_command_line_are_located_usage_errors(tmp_path, text, message, cli):
    before = sorted(os.listdir(tmp_path))
    code, out, err = cli("decide", U65, "--p", text, "--logits")
    assert code == 2 and out == "" and message in err and "Traceback" not in err, err
    if "1e400" in text:
        assert "beyond the range of doubles" in err
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("value, message", [
    ({"h": float("nan"), "b": 0, "n": 0}, "--p h: nan is not a finite number"),
    ([float("inf"), 0, 0], "--p h: inf is not a finite number"),
    ([1, 2], "2 logits for 3 classes"),
    ({"h": 1, "b": 2}, "are not the spec's classes"),
    ({"h": 1, "b": 2, "n": 0, "z": 1}, "are not the spec's classes"),
    (["1", "x", "0"], "--p b: 'x' is not a number"),
    (3.0, "is not a row of logits"),
])
def test_hostile_logits_from_python_are_located_usage_errors(value, message):
    with pytest.raises(UsageError) as caught:
        decide(U65, value, logits=True)
    assert message in str(caught.value)
