"""Inputs that used to end as internal errors (issue 37, item 13) and their siblings: each is now a located
message (file, line or key, the text, what was expected), exit 2 at the command line, a SpecError or a
UsageError in Python. Each test plants its files in a temporary directory and checks that nothing there
changed.

Origin: attacks for issue 37, item 13; formerly test_attacks_located.py."""

from __future__ import annotations

import bz2
import gzip
import io
import os
import pickle

import numpy as np
import pytest

import verifier
from verifier.errors import SpecError, UsageError

from conftest import SPECS
from untouched import located

U65 = os.path.join(SPECS, "accuracy-u65.yaml")  # classes h, b, n
OPEN = os.path.join(SPECS, "design", "obstacle-open.yaml")
SYMBOLIC = os.path.join(SPECS, "p-discounted-symbolic.yaml")


# -- a family of single classes --------------------------------------------------------------------------------

SINGLETONS = """\
name: only single classes
classes: [a, b]
cost: "0 if yhat == y else 1"
set_cost: "0 if y in Y and len(Y) == 1 else (0.5 if y in Y else 1)"
predictions: {sets: [[a], [b]]}
"""


def test_a_family_of_single_classes_is_a_located_spec_error(tmp_path):
    spec = tmp_path / "single.yaml"
    spec.write_text(SINGLETONS)
    located(tmp_path, [spec], f"{spec}:5:", "invalid spec at key 'predictions.sets'", "all single classes",
            "(text: '[[a], [b]]')", "expected at least one set of two or more classes")
    with pytest.raises(SpecError) as caught:
        verifier.verify(str(spec), cache=False).to_text()
    assert (caught.value.key, caught.value.line) == ("predictions.sets", 5)
    # a listed set of two classes makes it a working spec again
    spec.write_text(SINGLETONS.replace("[[a], [b]]", "[[a], [a, b]]"))
    assert "possibility" in verifier.verify(str(spec), cache=False).to_text()


# -- numbers beyond every float in the files of decide and evaluate ----------------------------------------------

@pytest.mark.parametrize("row, expected", [
    ("1e400,0,0", ":2: the row sums to 1.00000E+400; expected non-negative probabilities summing to 1"),
    ("-1e400,0,1", ":2: a negative probability"),
    ("1e400,-1e400,1", ":2: a negative probability"),
])
def test_a_huge_probability_in_a_p_file_is_located(tmp_path, row, expected):
    path = tmp_path / "p.csv"
    path.write_text(f"h,b,n\n{row}\n")
    located(tmp_path, ["decide", U65, "--p-file", path], f"--p-file {path}{expected}")
    (tmp_path / "truth.txt").write_text("h\n")
    located(tmp_path, ["evaluate", U65, "--probabilities", path, "--truth", tmp_path / "truth.txt"],
            f"--probabilities {path}{expected}")


@pytest.mark.parametrize("cells, column", [("0,1e400,0,1,0,1", "h_hi"), ("-1e400,1,0,1,0,1", "h_lo"),
                                           ("0,1,0,1,0,1e-400e", "n_hi")])
def test_a_huge_bound_in_an_intervals_file_is_located(tmp_path, cells, column):
    path = tmp_path / "i.csv"
    path.write_text(f"h_lo,h_hi,b_lo,b_hi,n_lo,n_hi\n{cells}\n")
    located(tmp_path, ["decide", U65, "--intervals-file", path], f"--intervals-file {path}:2: column '{column}'")


# -- .npy headers that numpy reads but cannot make an array of ---------------------------------------------------

def _npy(path, shape: str, descr: str):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\0" * 64)
    return path


def _reader_argv(tmp_path, reader: str, bad):
    """The command line that hands `bad` to one reader, the others given good files."""
    np.save(tmp_path / "masks.npy", np.array([[True, False, False], [False, True, True]]))
    np.save(tmp_path / "truth.npy", np.array([0, 1]))
    return {"--p-file": ["decide", U65, "--p-file", bad],
            "--probabilities": ["evaluate", U65, "--probabilities", bad, "--truth", tmp_path / "truth.npy"],
            "predictions": ["evaluate", U65, bad, "--truth", tmp_path / "truth.npy"],
            "--truth": ["evaluate", U65, tmp_path / "masks.npy", "--truth", bad]}[reader]


SHAPES = {"--p-file": ("(-1, 3)", "<f8"), "--probabilities": ("(-2, 3)", "<f8"), "predictions": ("(-1, 3)", "|b1"),
          "--truth": ("(-3,)", "<i8")}


@pytest.mark.parametrize("reader", list(SHAPES))
def test_a_negative_dimension_in_a_npy_header_is_located_in_every_reader(tmp_path, reader):
    shape, descr = SHAPES[reader]
    bad = _npy(tmp_path / "bad.npy", shape, descr)
    located(tmp_path, _reader_argv(tmp_path, reader, bad),
            f"{reader} {bad}: the header declares the shape {shape}, with a negative dimension",
            "expected a .npy array written by numpy.save")


HUGE = {"--p-file": ("(0, 10**20)", "<f8", "a dimension beyond"), "--probabilities": ("(0, 10**20)", "<f8",
        "a dimension beyond"), "predictions": ("(0, 10**20, 3)", "|b1", "a dimension beyond"),
        "--truth": ("(10**20,)", "<i8", "more than the 20,000,000 one file may hold")}


@pytest.mark.parametrize("reader", list(HUGE))
def test_a_huge_dimension_in_a_npy_header_is_located(tmp_path, reader):
    shape, descr, expected = HUGE[reader]
    bad = _npy(tmp_path / "bad.npy", shape.replace("10**20", str(10 ** 20)), descr)
    located(tmp_path, _reader_argv(tmp_path, reader, bad), f"{reader} {bad}:", expected)


# -- compressed, archived and pickled files are not CSV --------------------------------------------------------

CSV = b"h,b,n\n0.2,0.3,0.5\n"


def _compressed(kind: str) -> bytes:
    if kind == "gzip":
        return gzip.compress(CSV)
    if kind == "bzip2":
        return bz2.compress(CSV)
    if kind == "pickle":
        return pickle.dumps([[0.2, 0.3, 0.5]])
    buffer = io.BytesIO()
    np.savez(buffer, p=np.array([[0.2, 0.3, 0.5]]))
    return buffer.getvalue()


WHAT = {"gzip": "gzip-compressed data", "bzip2": "bzip2-compressed data", "pickle": "a Python pickle",
        "npz": "a zip archive (a .npz of numpy.savez"}


@pytest.mark.parametrize("kind", list(WHAT))
@pytest.mark.parametrize("reader, name", [("--p-file", "p.csv"), ("--p-file", "p.npy"), ("--p-file", "p.npz"),
                                          ("--probabilities", "p.csv"), ("predictions", "p.csv"),
                                          ("--truth", "t.txt"), ("--intervals-file", "i.csv")])
def test_a_compressed_or_pickled_file_is_not_a_csv_or_npy_file(tmp_path, kind, reader, name):
    bad = tmp_path / name
    bad.write_bytes(_compressed(kind))
    argv = {"--intervals-file": ["decide", U65, "--intervals-file", bad],
            "predictions": ["evaluate", U65, bad]}.get(reader) or _reader_argv(tmp_path, reader, bad)
    err = located(tmp_path, argv, f"{reader} {bad}: not a CSV", f"it looks like {WHAT[kind]}")
    assert "no rows" not in err
    assert ("or .npy file" in err) == (reader != "--intervals-file")


# -- arguments of the Python API of the wrong type ---------------------------------------------------------------

@pytest.mark.parametrize("call, expected", [
    (lambda: verifier.design(OPEN, objective=1), "objective takes text such as 'closest'"),
    (lambda: verifier.design(OPEN, objective=None), "objective takes text"),
    (lambda: verifier.design(OPEN, objective=["closest"]), "objective takes text"),
    (lambda: verifier.design(OPEN, to=2), "to takes a scheme's name or a set_cost formula"),
    (lambda: verifier.design(OPEN, with_="P6"), "with_ takes a list of properties, not 'P6'; write with_=['P6']"),
    (lambda: verifier.design(OPEN, without=3), "without takes a list of properties, not 3"),
    (lambda: verifier.design(OPEN, free=[None]), "free takes a list of properties; None is not text"),
    (lambda: verifier.design(OPEN, region=1), "region takes a list of open cells"),
    (lambda: verifier.design(OPEN, margin="1e-400"), "at most 100 digits"),
    (lambda: verifier.design(OPEN, margin="1e400"), "at most 100 digits"),
    (lambda: verifier.decide(U65, vertices=1), "vertices takes a list of distributions"),
    (lambda: verifier.decide(U65, vertices="h=1"), "vertices takes a list of distributions"),
    (lambda: verifier.decide(U65, intervals_text=1), "intervals_text takes probability intervals as text"),
    (lambda: verifier.decide(U65, p_file=1), "p_file takes a path"),
    (lambda: verifier.decide(U65, intervals_text="h=0:1", rule=None), "rule takes a rule's name as text"),
    (lambda: verifier.evaluate(SYMBOLIC, y_true=["h"], sets=[["h"]], sweep_text=1), "sweep_text takes text"),
    (lambda: verifier.evaluate(U65, predictions=1), "predictions takes a file, a non-empty list of files"),
    (lambda: verifier.evaluate(U65, predictions=[1]), "predictions takes a file"),
    (lambda: verifier.evaluate(U65, predictions="p.npy", truth=1), "truth takes a path"),
    (lambda: verifier.verify(U65, cache=False, progress=1), "progress takes a function"),
    (lambda: verifier.sweep_classes(U65, "2..3", progress="x"), "progress takes a function"),
    (lambda: verifier.verify_all(1), "directory takes a path"),
])
def test_a_wrong_type_in_the_python_api_is_a_usage_error(call, expected):
    with pytest.raises(UsageError) as caught:
        call()
    assert expected in str(caught.value)


@pytest.mark.parametrize("method, expected", [
    (lambda r: r.to_text("wide"), "width takes a whole number of columns from 20 to 10000, not 'wide'"),
    (lambda r: r.to_text(-1), "width takes a whole number of columns"),
    (lambda r: r.to_summary(None), "width takes a whole number of columns"),
    (lambda r: r.write(None), "directory takes a path"),
    (lambda r: r.figures(1), "directory takes a path"),
    (lambda r: r.figures(formats="svg"), "formats takes a list of formats (svg, pdf, png), not 'svg'"),
])
def test_a_wrong_type_given_to_a_report_is_a_usage_error(method, expected):
    report = verifier.verify(U65, cache=False)
    with pytest.raises(UsageError) as caught:
        method(report)
    assert expected in str(caught.value)
    assert report.to_text(np.int64(100)) == report.to_text(100)  # numpy's integers are whole numbers too


def test_files_given_as_paths_are_read(tmp_path):
    (tmp_path / "p.csv").write_text("true,predicted\nh,h\nb,\"h,b\"\n")
    scores = verifier.evaluate(U65, predictions=tmp_path / "p.csv")
    assert scores.scores[0].name == "classifier"
    (tmp_path / "d.csv").write_text("h,b,n\n0.1,0.1,0.8\n")
    assert verifier.decide(U65, p_file=tmp_path / "d.csv").prediction == [["n"]]
