"""Attacks through the data files of `verify decide` and `verify evaluate` and what they write: nothing is
silently misread or executed by a spreadsheet, and every bad input is a located message with exit status 2 (never
a traceback); decisions say how a tie was resolved. Each test plants its files in a temporary directory. The
attacks on spec text are in tests/spec/test_bad_specs.py, on design's outputs in
tests/report/test_outputs_are_not_inputs.py.

Origin: attacks on data files and outputs for issue 24 (no input crashes, hangs, exhausts the machine or is silently
misread); formerly test_attacks_files.py."""

from __future__ import annotations

import json
import os
import textwrap

import numpy as np
import pytest

import verifier

from conftest import SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
U65 = os.path.join(SPECS, "accuracy-u65.yaml")


def _write(folder, name: str, text: str):
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- CSV files: the header's field count, once per column, short sanitised excerpts ----------------------------

def test_an_unquoted_set_is_a_located_error_not_a_silent_single_class(tmp_path, cli):
    path = _write(tmp_path, "p.csv", "true,predicted\nh,b,h\nb,b\n")
    code, out, err = cli("evaluate", U65, path)
    assert code == 2 and out == ""
    assert "p.csv:2: 3 field(s) 'h,b,h' under a header of 2" in err and 'quote it ("h,b")' in err


@pytest.mark.parametrize("text, expected", [
    ("true,predicted\nh\n", ":2: 1 field(s)"),
    ("true,predicted,true\nh,h,b\n", "the column 'true' appears twice in the header (columns 1 and 3)"),
])
def test_prediction_rows_and_headers_are_checked(tmp_path, text, expected, cli):
    code, _, err = cli("evaluate", U65, _write(tmp_path, "p.csv", text))
    assert code == 2 and expected in err, err


@pytest.mark.parametrize("text, expected", [
    ("h,b,h,n\n0.1,0.2,0.3,0.4\n", "the column 'h' appears twice"),
    ("h,b,n\n0.1,0.3,0.6,0.7\n", "p.csv:2: 4 field(s) '0.1,0.3,0.6,0.7' under a header of 3"),
    ("h,b,n\n0.1,0.3\n", "p.csv:2: 2 field(s)"),
    ("h;b;n\n0.1;0.3;0.6\n", "lacks the class column(s) h, b, n"),
])
def test_p_file_rows_and_headers_are_checked(tmp_path, text, expected, cli):
    code, _, err = cli("decide", OBSTACLE, "--p-file", _write(tmp_path, "p.csv", text))
    assert code == 2 and expected in err, err


def test_a_header_is_quoted_short_and_without_control_characters(tmp_path, cli):
    secret = "SECRET=" + "x" * 500 + "\x00\x1b[31mred"
    path = _write(tmp_path, "env.csv", secret + "\n0.1\n")
    code, _, err = cli("decide", OBSTACLE, "--p-file", path)
    assert code == 2 and "x" * 100 not in err and "\x1b" not in err and "\x00" not in err
    if os.path.exists("/proc/self/environ"):
        code, _, err = cli("decide", OBSTACLE, "--p-file", "/proc/self/environ")
        assert code == 2 and len(err) < 400 and os.environ.get("PATH", "#") not in err


# -- .npy files: the declared shape is checked before anything is read ----------------------------------------

def _npy_header(path, shape, dtype="<f8", data=b""):
    header = {"descr": dtype, "fortran_order": False, "shape": shape}
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, header)
        handle.write(data)


def test_a_huge_declared_shape_is_refused_before_reading(tmp_path, cli):
    _npy_header(tmp_path / "huge.npy", (10**12, 3), data=b"\0" * 48)
    code, _, err = cli("decide", OBSTACLE, "--p-file", tmp_path / "huge.npy")
    assert code == 2 and "holds 3,000,000,000,000 values, more than the 20,000,000" in err


def test_a_truncated_or_pickled_npy_is_refused(tmp_path, cli):
    _npy_header(tmp_path / "short.npy", (1000, 3), data=b"\0" * 48)
    code, _, err = cli("decide", OBSTACLE, "--p-file", tmp_path / "short.npy")
    assert code == 2 and "truncated" in err
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    code, _, err = cli("decide", OBSTACLE, "--p-file", tmp_path / "obj.npy")
    assert code == 2 and "pickled objects are never read" in err
    _npy_header(tmp_path / "masks.npy", (10**9, 10**9, 3), dtype="|b1")
    np.save(tmp_path / "t.npy", np.zeros(2, dtype=np.int64))
    code, _, err = cli("evaluate", OBSTACLE, tmp_path / "masks.npy", "--truth", tmp_path / "t.npy")
    assert code == 2 and "more than the 20,000,000" in err


def test_large_batches_are_read_in_blocks_with_the_same_answers(tmp_path, monkeypatch, cli):
    from verifier.using.inputs import p_file

    rng = np.random.default_rng(5)
    rows = rng.dirichlet(np.ones(3), size=250)
    np.save(tmp_path / "p.npy", rows)
    code, whole, _ = cli("decide", OBSTACLE, "--p-file", tmp_path / "p.npy")
    monkeypatch.setattr(p_file, "BLOCK_ROWS", 7)
    code2, blocked, _ = cli("decide", OBSTACLE, "--p-file", tmp_path / "p.npy")
    assert code == code2 == 0 and whole == blocked and whole.count("\n") == 251


# -- outputs -----------------------------------------------------------------------------------------------------

def test_batch_csv_cells_cannot_start_a_spreadsheet_formula(tmp_path, cli):
    spec = _write(tmp_path, "inj.yaml", """\
        name: injection
        classes: ["=1+1", "@SUM(A1)", "-2", "+3", safe]
        cost: "0 if yhat == y else 1"
        set_cost: "(0 if y in Y else 1) + 0.3 * (len(Y) - 1)"
        """)
    rows = "=1+1,@SUM(A1),-2,+3,safe\n" + "".join(
        ",".join("0.6" if j == i else "0.1" for j in range(5)) + "\n" for i in range(5))
    code, out, err = cli("decide", spec, "--p-file", _write(tmp_path, "p.csv", rows))
    assert code == 0, err
    cells = [line.split(",", 1)[1].rsplit(",", 2)[0] for line in out.splitlines()[1:]]
    assert cells == ['"\'=1+1"', '"\'@SUM(A1)"', '"\'-2"', '"\'+3"', '"safe"']


# -- decisions say how a tie was resolved -------------------------------------------------------------------------

def test_gamma_maximin_prints_lower_and_upper_in_aligned_columns(cli):
    code, out, _ = cli("decide", OBSTACLE, "--intervals", "h=0:0.2,b=0.3:0.4,n=0.4:0.6", "--rule", "gamma-maximin")
    assert code == 0 and "gamma-maximin chooses the least upper one" in out
    table = [line for line in out.splitlines() if line.startswith("    ")]
    assert table[0].split() == ["set", "lower", "upper"]
    assert len({len(line) for line in table}) == 1  # aligned: every row as wide as the header
    assert table[1].split() == ["{b}", "1", "13/10"]


def test_a_tie_says_how_the_reported_optimum_was_chosen(cli):
    # discounted costs at p = (1/2, 1/2, 0): {h}, {b} and {h, b} all cost 1/2
    code, out, _ = cli("decide", OBSTACLE, "--p", "h=0.5,b=0.5,n=0", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["ties"] and record["prediction"] == ["h"]
    assert sorted(map(tuple, record["optimal"])) == [("b",), ("h",), ("h", "b")]
    code, text, _ = cli("decide", OBSTACLE, "--p", "h=0.5,b=0.5,n=0")
    assert "{h} is reported: among tied optima the smallest set is reported, then the first in class order" in \
        " ".join(text.split())  # the text wraps at the terminal's width


# -- what the report says about a parametric scheme is what design derives ----------------------------------------

def test_a_parametric_report_points_to_the_calibration_that_derives_the_condition(cli):
    spec = os.path.join(SPECS, "p-discounted-symbolic.yaml")
    code, out, _ = cli(spec, "--no-cache", "--width", "200")
    assert f"`verify design {spec} --setting choice` derives the exact values of r" in out
    report = verifier.design(spec, setting="choice")
    assert report.status == "calibrated" and "choice: fits for r in (0, 1]" in report.text


@pytest.mark.parametrize("logits", [False, True])
def test_a_column_that_names_no_class_is_refused_by_name(tmp_path, cli, logits):
    """Issue 64, item 5: `a,b,c,zz` decided on a, b, c with --logits (zz dropped, exit 0), and with probabilities
    was refused only as "row sums to 1/2"."""
    rows = tmp_path / "p.csv"
    rows.write_text("a,b,c,zz\n0.25,0.25,0,0.5\n")
    spec = os.path.join(SPECS, "ha-numeric.yaml")
    code, out, err = cli("decide", spec, "--p-file", str(rows), *(["--logits"] if logits else []))
    assert code == 2 and "the column(s) 'zz' name no class of the spec (a, b, c)" in err, err
