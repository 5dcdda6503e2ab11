"""Inputs from the libraries users hold (issue 66): numpy, lists, pandas, polars, pyarrow (array, chunked array,
table) and any object with `__array__` give `decide` and `evaluate` the same exact JSON as the same numbers in a
`.npy` file; what cannot be read is a `UsageError` naming the argument, never the library's own exception."""

import json
import os
import pickle

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import verifier
from verifier.errors import SpecError, UsageError

from conftest import SPECS

SPEC = os.path.join(SPECS, "obstacle-discounted.yaml")
CLASSES = ["h", "b", "n"]
rng = np.random.default_rng(7)
P = rng.dirichlet(np.ones(3), size=300)
P[:3] = [[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3], [0.1, 0.3, 0.6]]  # ties and decimals among them
Y = rng.integers(0, 3, size=300)


class ArrayLike:
    """An object that is only an array through `__array__` (a CPU tensor, a JAX array)."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)


def dumped(result) -> str:
    return json.dumps(result.to_json(), indent=1, ensure_ascii=False)


def forms(array: np.ndarray) -> dict:
    """The same rows as every library holds them (a frame's columns shuffled: they are read by name)."""
    frame = pd.DataFrame(array, columns=CLASSES)[["n", "h", "b"]]
    listed = pa.array(array.tolist(), type=pa.list_(pa.float64(), 3))
    return {"numpy": array, "list": array.tolist(), "pandas": frame, "polars": pl.from_pandas(frame),
            "pyarrow table": pa.Table.from_pandas(frame, preserve_index=False), "pyarrow array": listed,
            "pyarrow chunked": pa.chunked_array([listed[:100], listed[100:]]), "__array__": ArrayLike(array),
            "integer-named columns": pd.DataFrame(array)}


@pytest.fixture(scope="module")
def from_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arrays")
    np.save(folder / "p.npy", P)
    np.save(folder / "y.npy", Y)
    return {"decide": dumped(verifier.decide(SPEC, p_file=str(folder / "p.npy"))),
            "evaluate": dumped(verifier.evaluate(SPEC, probabilities=str(folder / "p.npy"),
                                                 truth=str(folder / "y.npy")))}


@pytest.mark.parametrize("form", list(forms(P)))
def test_every_library_decides_and_evaluates_as_the_npy_file(form, from_file):
    rows = forms(P)[form]
    decided = verifier.decide(SPEC, rows)
    assert isinstance(decided, verifier.BatchDecisions)
    assert dumped(decided) == from_file["decide"]
    evaluated = verifier.evaluate(SPEC, y_true=Y, probabilities={"p": rows})  # named as the file names it
    assert dumped(evaluated) == from_file["evaluate"]


@pytest.mark.parametrize("form", ["numpy", "pandas", "polars", "pyarrow", "list", "__array__"])
def test_true_classes_and_sets_from_every_library_score_alike(form):
    names = [CLASSES[i] for i in Y[:50]]
    sets = [[CLASSES[i]] if i % 2 else [CLASSES[i], "n"] for i in Y[:50]]
    expected = dumped(verifier.evaluate(SPEC, names, sets))
    y_true = {"numpy": np.array(names), "pandas": pd.Series(names), "polars": pl.Series(names),
              "pyarrow": pa.array(names), "list": names, "__array__": ArrayLike(np.array(names))}[form]
    given = {"pandas": pd.Series(sets), "polars": pl.Series(sets), "pyarrow": pa.array(sets)}.get(form, sets)
    assert dumped(verifier.evaluate(SPEC, y_true, given)) == expected
    frame = pd.DataFrame({"true": names, "predicted": [",".join(s) for s in sets]})
    for table in (frame, pl.from_pandas(frame), pa.Table.from_pandas(frame)):
        assert dumped(verifier.evaluate(SPEC, table)) == expected


@pytest.mark.parametrize("bad, expected", [
    (pd.DataFrame({"h": ["0.5"] * 2, "b": ["0.5"] * 2, "n": ["0"] * 2}), "p: expected numbers"),
    (pd.DataFrame({"h": [0.5], "x": [0.5], "n": [0.0]}), "p's columns: the classifier's label 'x'"),
    (pa.table({"h": [0.5, None], "b": [0.5, 0.5], "n": [0.0, 0.5]}), "missing values"),
    (np.ones((2, 3, 1)) / 3, "p: shape (2, 3, 1), expected (N, 3)"),
    ([[0.5, 0.5], [1.0, 0.0]], "p: shape (2, 2), expected (N, 3)"),
    (np.array([[0.5, 0.6, 0.0]]), "p: row 0: the row sums to"),
    (np.array([[np.nan, 0.5, 0.5]]), "p: row 0 holds nan or inf"),
])
def test_misuse_names_the_argument(bad, expected):
    with pytest.raises(UsageError, match=None) as caught:
        verifier.decide(SPEC, bad)
    assert expected in str(caught.value)


def test_a_polars_series_of_sets_and_a_pyarrow_y_true_are_read_not_crashed():
    """The issue's raw errors: polars' `TypeError: iteration over a 0-d array`, pyarrow's `ArrowInvalid`."""
    report = verifier.evaluate(SPEC, pa.array(["h", "b"]), pl.Series([["h"], ["b", "n"]]))
    scores = report.to_json()["scores"][0]
    assert (scores["n"], scores["determinacy"], scores["mean_set_size"]) == (2, "1/2", "3/2")
    with pytest.raises(UsageError, match="unknown class 'x'"):
        verifier.evaluate(SPEC, pa.array(["h", "x"]), pl.Series([["h"], ["b"]]))


def test_a_prepared_spec_decides_batches_as_one_call_and_pickles_as_its_text():
    prepared = verifier.prepare(SPEC)
    one = verifier.decide(SPEC, P)
    batches = [prepared.decide(P[i:i + 70]) for i in range(0, len(P), 70)]
    assert np.array_equal(np.vstack([b.masks for b in batches]), one.masks)
    assert np.array_equal(np.concatenate([b.tied_optima for b in batches]), one.tied_optima)
    again = pickle.loads(pickle.dumps(prepared))
    assert dumped(again.decide(P)) == dumped(one)
    assert prepared.classes == tuple(CLASSES) and "3 classes" in repr(prepared)
    assert dumped(prepared.evaluate(y_true=Y, probabilities=P)) == dumped(verifier.evaluate(SPEC, y_true=Y,
                                                                                           probabilities=P))
    single = prepared.decide({"h": "0.1", "b": "0.3", "n": "0.6"})  # one row: the decision, as decide gives it
    assert single.prediction == ["b"]


def test_a_free_parameter_is_refused_when_prepared():
    with pytest.raises(SpecError, match="fixed|value"):
        verifier.prepare(os.path.join(SPECS, "p-discounted-symbolic.yaml"))


def test_batch_decisions_are_values_with_a_frame_and_a_pickle():
    decided = verifier.decide(SPEC, P[:5])
    with pytest.raises(ValueError):
        decided.masks[0, 0] = not decided.masks[0, 0]  # read-only: a result is a value
    frame = decided.to_frame()
    assert list(frame.columns) == CLASSES + ["tied_optima", "undecided"] and len(frame) == 5
    assert frame[CLASSES].to_numpy().tolist() == decided.masks.tolist()
    copied = pickle.loads(pickle.dumps(decided))
    assert isinstance(copied, verifier.BatchDecisions) and dumped(copied) == dumped(decided)
    assert copied.text == decided.text and np.array_equal(copied.masks, decided.masks)
    named = [[c for c, member in zip(CLASSES, row, strict=True) if member] for row in decided.masks.tolist()]
    assert named == decided.to_json()["predictions"]  # the masks are the record's sets
    assert repr(decided).startswith("<BatchDecisions")
