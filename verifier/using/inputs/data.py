"""Set-valued predictions read from a user's file, checked and located: a CSV with a header (`true`,
`predicted`, optionally `classifier` and `dataset`; a set written "h,b" (quoted in CSV), "{h,b}" or "h|b"), or a boolean
mask array in `.npy` ((N, K), or (C, N, K) for C classifiers, the shape conformal prediction libraries give)
with the true classes beside it (`.npy` of class indices, or a text/CSV file of class names, one per line).

Files are data: `.npy` is loaded without pickles, CSV with the csv module; a bad row is a usage error naming the
file, the line, the column, the text and what was expected.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from verifier.errors import UsageError, few_of
from verifier.numbers import shown
from verifier.using.inputs.array_like import as_column, as_matrix, column_names, library_of
from verifier.using.inputs.csv_text import csv_rows, excerpt, refuse_binary, regular_file
from verifier.using.inputs.npy import open_npy

TRUE_COLUMNS = ("true", "y_true", "truth", "label")
PREDICTED_COLUMNS = ("predicted", "prediction", "set", "y_pred")
CLASSIFIER_COLUMNS = ("classifier", "model", "method")
DATASET_COLUMNS = ("dataset", "data_set", "data")


@dataclass
class Predictions:
    """One classifier's predictions: true class indices (N,) and predicted sets as a boolean mask (N, K), on
    one data set (`dataset`: its name, None when the input names no data set)."""
    name: str
    truth: np.ndarray
    masks: np.ndarray
    dataset: str | None = None
    source: str | None = None  # the file read, and each instance's line in it (CSV), for messages
    lines: list[int] | None = None


def from_arrays(classes: tuple[str, ...], y_true, sets, name: str = "classifier") -> Predictions:
    """From Python data: class names or indices, and sets as iterables of names/indices or boolean rows."""
    K = len(classes)
    truth = np.array([_index(classes, y, f"y_true[{i}]") for i, y in enumerate(_listed(y_true))], dtype=np.int64)
    if column_names(sets) is not None:  # a frame of one 0/1 column per class: a mask
        sets = as_matrix(sets, "sets", "0/1 set memberships")[0]
    elif library_of(sets) in ("polars", "pyarrow", "pandas"):  # a column of sets: its elements as Python values
        sets = _listed(sets, "sets")
    if hasattr(sets, "__array__") and not isinstance(sets, np.ndarray):  # a tensor (TorchCP) or an array-like
        sets = np.asarray(sets)
    if isinstance(sets, np.ndarray) and sets.ndim == 3:  # MAPIE: (N, K, levels), one mask per confidence level
        if sets.shape[2] != 1:
            raise UsageError(f"sets: an array of shape {sets.shape} holds one mask per confidence level (MAPIE's "
                             "(N, K, levels)); pick one level: sets[:, :, i]")
        sets = sets[:, :, 0]
    if isinstance(sets, np.ndarray) and sets.ndim == 2:  # a 2-D array is a mask, never rows of indices
        if sets.shape[1] != K or not (sets.dtype == bool or np.isin(sets, (0, 1)).all()):
            raise UsageError(f"sets: a 2-D array is read as a boolean mask of shape (N, {K}) with 0/1 entries; "
                             f"got {sets.dtype} {sets.shape}")
        return _checked(Predictions(name, truth, sets.astype(bool)), "sets")
    rows = _listed(sets, "sets")
    masks = np.zeros((len(rows), K), dtype=bool)
    for i, s in enumerate(rows):
        masks[i] = _mask(classes, s, f"sets[{i}]")
    return _checked(Predictions(name, truth, masks), "sets")


def labels(classes: tuple[str, ...], y_true, where: str = "y_true") -> np.ndarray:
    """True classes from Python data (class names or indices) as class indices."""
    return np.array([_index(classes, y, f"{where}[{i}]") for i, y in enumerate(_listed(y_true, where))],
                    dtype=np.int64)


def _mask(classes: tuple[str, ...], s, where: str) -> np.ndarray:
    """One predicted set from Python data: text ("h,b"), an iterable of class names or indices, or a boolean
    row; anything else (None, a number, a dict, nested lists, arbitrary objects) is refused by name."""
    K = len(classes)
    if hasattr(s, "__array__") and not isinstance(s, np.ndarray):  # a tensor of indices or a mask (TorchCP)
        s = np.asarray(s)
    if isinstance(s, str):
        members = _split(s)
    elif isinstance(s, np.ndarray) and s.dtype == bool:
        if s.shape != (K,):
            raise UsageError(f"{where}: a mask of shape {s.shape}, expected ({K},)")
        return s
    elif isinstance(s, (set, frozenset, list, tuple, np.ndarray)):
        members = list(s.ravel()) if isinstance(s, np.ndarray) and s.ndim == 1 else list(s)
        if isinstance(s, np.ndarray) and s.ndim != 1:
            raise UsageError(f"{where}: an array of shape {s.shape} is not a set; expected a list of classes "
                             f"or a boolean mask of shape ({K},)")
        if len(members) > K:
            raise UsageError(f"{where}: {len(members)} members, but the spec has {K} classes")
    else:
        raise UsageError(f"{where}: {_kind(s)} is not a set; write a list of classes, \"h,b\" or a boolean mask")
    mask = np.zeros(K, dtype=bool)
    for y in members:
        if not isinstance(y, (str, int, np.integer, np.str_)) or isinstance(y, (bool, np.bool_)):
            raise UsageError(f"{where}: a member that is {_kind(y)}; a set holds class names or indices")
        mask[_index(classes, y, where)] = True
    return mask


def _kind(value) -> str:
    return {dict: "a dict", type(None): "None", list: "a list", tuple: "a tuple", set: "a set"}.get(
        type(value), f"a {type(value).__name__}")


def frame_predictions(classes: tuple[str, ...], frame) -> list[Predictions]:
    """From a data frame (anything with `columns` and column access, such as pandas) with the CSV's columns."""
    original = column_names(frame) or list(frame.columns)  # pyarrow names its columns apart from them
    header = [str(c).strip().lower() for c in original]
    true_col = _column(header, TRUE_COLUMNS, "data frame", required=True)
    pred_col = _column(header, PREDICTED_COLUMNS, "data frame", required=True)
    who_col = _column(header, CLASSIFIER_COLUMNS, "data frame", required=False)
    truth = _listed(frame[original[true_col]], f"the data frame's column {original[true_col]}")
    sets = _listed(frame[original[pred_col]], f"the data frame's column {original[pred_col]}")
    who = _listed(frame[original[who_col]], "the data frame's classifiers") if who_col is not None else \
        ["classifier"] * len(truth)
    data_col = _column(header, DATASET_COLUMNS, "data frame", required=False)
    data = [str(d) for d in _listed(frame[original[data_col]], "the data frame's data sets")] \
        if data_col is not None else [None] * len(truth)
    groups: dict[tuple, list[int]] = {}
    for i, (w, d) in enumerate(zip(who, data)):
        groups.setdefault((str(w), d), []).append(i)
    out = []
    for (name, dataset), rows in groups.items():
        pred = from_arrays(classes, [truth[i] for i in rows], [sets[i] for i in rows], name)
        pred.dataset = dataset
        out.append(pred)
    return out


def _listed(values, where: str = "y_true") -> list:
    return as_column(values, where)  # numpy, pandas, polars, pyarrow, tensors: Python values


def _index(classes, y, where: str) -> int:
    if isinstance(y, (int, np.integer)) and not isinstance(y, bool):
        if 0 <= int(y) < len(classes):
            return int(y)
        raise UsageError(f"{where}: class index {int(y)} outside 0..{len(classes) - 1}")
    name = str(y).strip() if isinstance(y, str) else None
    position = _positions(tuple(classes)).get(name)
    if position is None:
        raise UsageError(f"{where}: unknown class {shown(y if name is None else name)}; the spec's classes are "
                         f"{few_of(classes, y if name is None else name)}")
    return position


@lru_cache(maxsize=8)
def _positions(classes: tuple[str, ...]) -> dict[str, int]:
    """Each class name's index (a look-up, not a scan of 1,000 names per value read)."""
    return {name: i for i, name in reversed(list(enumerate(classes)))}


def _split(text: str) -> list[str]:
    body = text.strip().strip("{}")
    for sep in (",", "|"):
        if sep in body:
            return [part.strip() for part in body.split(sep)]
    return [body.strip()] if body.strip() else []


def _checked(pred: Predictions, where: str) -> Predictions:
    if len(pred.truth) != len(pred.masks):
        raise UsageError(f"{where}: {len(pred.truth):,} true classes but {len(pred.masks):,} predicted sets")
    if len(pred.truth) == 0:
        raise UsageError(f"{where}: no predictions")
    empty = np.flatnonzero(~pred.masks.any(axis=1))
    if empty.size:
        raise UsageError(f"{where}: the predicted set of instance {int(empty[0])} is empty; a prediction is a "
                         "non-empty set of classes")
    return pred


def read_datasets(paths: list[str], classes: tuple[str, ...], truth_path: str | None = None) -> list[Predictions]:
    """Several prediction files, each one data set named by its file stem, unless it has a dataset column."""
    if truth_path is not None and len(paths) > 1:
        raise UsageError("--truth holds the true classes of one data set; give several data sets as CSV files "
                         "(columns true, predicted, classifier) or one .npy at a time")
    out, seen = [], {}
    for path in paths:
        stem = os.path.splitext(os.path.basename(str(path)))[0]
        for pred in read_predictions(path, classes, truth_path):
            if pred.dataset is None:
                pred.dataset = stem
            if (pred.name, pred.dataset) in seen:
                raise UsageError(f"{path}: classifier {pred.name!r} on data set {pred.dataset!r} was already read "
                                 f"from {seen[pred.name, pred.dataset]}; each file is one data set, named by its "
                                 "file stem unless it has a dataset column")
            seen[pred.name, pred.dataset] = path
            out.append(pred)
    return out


def read_predictions(path: str, classes: tuple[str, ...], truth_path: str | None = None) -> list[Predictions]:
    """Set predictions from a file, one Predictions per classifier: a CSV holding its own 'true' column, or a .npy
    of boolean masks, (N, K) or (C, N, K), with the true classes read from `truth_path`."""
    regular_file(path, "predictions")
    if str(path).endswith(".npy"):
        if truth_path is None:
            raise UsageError(f"{path}: boolean masks need the true classes beside them: --truth FILE")
        return _from_npy(path, classes, read_truth(truth_path, classes))
    if truth_path is not None:
        raise UsageError("--truth goes with .npy masks; a CSV holds its own 'true' column")
    return _from_csv(path, classes)


def _from_npy(path: str, classes, truth: np.ndarray) -> list[Predictions]:
    masks = np.asarray(open_npy(path, "predictions", ("b",), (2, 3)))
    if masks.ndim == 2:
        masks = masks[None]
    if masks.shape[2] != len(classes) or masks.shape[0] == 0:
        raise UsageError(f"{path}: shape {masks.shape}, expected (N, {len(classes)}) or (C, N, {len(classes)})")
    return [_checked(Predictions(f"classifier {c + 1}" if len(masks) > 1 else "classifier", truth, m,
                                 source=str(path)), path) for c, m in enumerate(masks)]


def read_truth(path: str, classes) -> np.ndarray:
    """The true classes beside predictions or probabilities: a .npy of class indices, or names one per line."""
    regular_file(path, "--truth")
    if str(path).endswith(".npy"):
        values = np.asarray(open_npy(path, "--truth", ("i", "u"), (1,)))
        bad = np.flatnonzero((values < 0) | (values >= len(classes)))
        if bad.size:
            raise UsageError(f"--truth {path}: index {int(values[bad[0]])} at position {int(bad[0])} is not a "
                             f"class (0..{len(classes) - 1})")
        return values.astype(np.int64)
    refuse_binary(path, "--truth")
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        lines = [(i, line.strip()) for i, line in enumerate(handle, 1) if line.strip()]
    if lines and lines[0][1].lower() in TRUE_COLUMNS and lines[0][1] not in classes:
        lines = lines[1:]  # a header line such as 'true'
    return np.array([_index(classes, n, f"--truth {path}:{i}") for i, n in lines], dtype=np.int64)


_HOW = ('a set of several classes is one field: quote it ("h,b"), or write it as {h,b} in quotes or as h|b; '
        'the columns are true, predicted and optionally classifier and dataset')


def _from_csv(path: str, classes) -> list[Predictions]:
    groups: dict[tuple[str, str | None], tuple[list[int], list[list[int]], list[int]]] = {}
    columns = None
    for header, line, row in csv_rows(path, "predictions", _HOW):
        if columns is None:
            lowered = [h.lower() for h in header]
            columns = (_column(lowered, TRUE_COLUMNS, path, required=True),
                       _column(lowered, PREDICTED_COLUMNS, path, required=True),
                       _column(lowered, CLASSIFIER_COLUMNS, path, required=False),
                       _column(lowered, DATASET_COLUMNS, path, required=False))
        true_col, pred_col, who_col, data_col = columns
        y = _index(classes, row[true_col], f"{path}:{line}: column {header[true_col]!r}")
        members = [_index(classes, n, f"{path}:{line}: column {header[pred_col]!r}") for n in _split(row[pred_col])]
        if not members:
            raise UsageError(f"{path}:{line}: column {header[pred_col]!r}: empty set {excerpt(row[pred_col])}; "
                             "expected a non-empty set such as \"h,b\"")
        name = row[who_col].strip() if who_col is not None else "classifier"
        dataset = row[data_col].strip() if data_col is not None else None
        if dataset == "":
            raise UsageError(f"{path}:{line}: column {header[data_col]!r}: empty; expected the name of a data set")
        truth, sets, where = groups.setdefault((name, dataset), ([], [], []))
        truth.append(y)
        sets.append(members)
        where.append(line)
    if not groups:
        raise UsageError(f"{path}: no predictions (a header and one row per prediction are expected)")
    out = []
    for (name, dataset), (truth, sets, where) in groups.items():
        masks = np.zeros((len(sets), len(classes)), dtype=bool)
        for i, members in enumerate(sets):
            masks[i, members] = True
        out.append(_checked(Predictions(name, np.array(truth, dtype=np.int64), masks, dataset, str(path), where),
                            path))
    return out


def _column(header: list[str], names: tuple[str, ...], path: str, required: bool) -> int | None:
    for name in names:
        if name in header:
            return header.index(name)
    if required:
        raise UsageError(f"{path}: the header {excerpt(','.join(header))} has no column {' / '.join(names)}")
    return None
