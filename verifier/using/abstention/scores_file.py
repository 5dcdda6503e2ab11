"""Classifiers' scores on a validation set, read from a user's CSV: a header, one column of scores (or margins)
per classifier, higher meaning more likely the spec's first class; optionally a `true` column (else `--truth`,
one class per line) and a `dataset` column (then each data set is evaluated on its own rows).

Scores are decimal numbers, compared exactly: floats order them (rounding to the nearest float is monotone),
and scores that round to the same float are told apart, or found equal, with exact fractions. NaN, infinities
and anything else that is not a finite decimal number is refused with its line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier import numbers
from verifier.errors import UsageError, few_of
from verifier.using.inputs import DATASET_COLUMNS, TRUE_COLUMNS, csv_rows, excerpt, read_truth, regular_file

NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?\s*")
HOW = "one number per classifier column (and the true class, and the data set, where those columns are given)"


@dataclass(frozen=True, kw_only=True)
class Scores:
    """One classifier's scores on one data set: exact ranks (equal ranks are equal scores), the exact score of
    each rank, and which instances are of the spec's first class."""

    name: str
    dataset: str | None
    ranks: np.ndarray
    texts: tuple[str, ...]  # the distinct scores, ascending, as written; texts[r] is the score of rank r
    positive: np.ndarray

    def score(self, rank: int) -> Fraction:
        """The exact score of a rank."""
        return Fraction(self.texts[rank])


def read_scores(path: str, classes: tuple[str, ...], truth_path: str | None) -> list[Scores]:
    """Every (classifier, data set) of the file, in column order then data set order."""
    regular_file(path, "--scores")  # not a directory, a FIFO or a device (/dev/zero would never end)
    header, names, lines, true_col, data_col, rows = None, [], [], None, None, []
    for header, line, row in csv_rows(path, "--scores", HOW, npy=False):
        if true_col is None and data_col is None and not names:
            true_col, data_col, names = _layout(header, path, truth_path)
        rows.append(row)
        lines.append(line)
    if not rows:
        raise UsageError(f"--scores {path}: no rows of scores under the header")
    if true_col is not None:
        truth = np.array([_class(classes, row[true_col], f"--scores {path}:{line}") for row, line in zip(rows, lines)])
    else:
        truth = read_truth(truth_path, classes)
        if len(truth) != len(rows):
            raise UsageError(f"--truth {truth_path}: {len(truth):,} true classes for the {len(rows):,} rows of "
                             f"scores in {path}; one true class per row is expected")
    datasets = [row[data_col].strip() for row in rows] if data_col is not None else [None] * len(rows)
    found = []
    for column, name in names:
        texts = [row[column] for row in rows]
        ranks, texts_by_rank = _ranked(texts, path, header[column], lines)
        for dataset in dict.fromkeys(datasets):
            keep = np.array([d == dataset for d in datasets]) if data_col is not None else slice(None)
            found.append(Scores(name=name, dataset=dataset, ranks=ranks[keep], texts=texts_by_rank,
                                positive=truth[keep] == 0))
    return sorted(found, key=lambda s: list(dict.fromkeys(datasets)).index(s.dataset))


def _layout(header: list[str], path: str, truth_path: str | None):
    lowered = [h.lower() for h in header]
    true_col = next((i for i, h in enumerate(lowered) if h in TRUE_COLUMNS), None)
    data_col = next((i for i, h in enumerate(lowered) if h in DATASET_COLUMNS), None)
    if true_col is None and truth_path is None:
        raise UsageError(f"--scores {path}: no true classes: give --truth FILE (one class per line) or a column "
                         f"named {TRUE_COLUMNS[0]!r} in the scores file")
    if true_col is not None and truth_path is not None:
        raise UsageError(f"--scores {path} has a {header[true_col]!r} column and --truth {truth_path} is given "
                         "too; give the true classes once")
    names = [(i, h) for i, h in enumerate(header) if i not in (true_col, data_col)]
    if not names:
        raise UsageError(f"--scores {path}:1: no column of scores; the header names one column per classifier")
    return true_col, data_col, names


def _class(classes: tuple[str, ...], text: str, where: str) -> int:
    name = text.strip()
    if name not in classes:
        raise UsageError(f"{where}: unknown class {excerpt(name)}; the spec's classes are {few_of(classes, name)}")
    return classes.index(name)


def _ranked(texts: list[str], path: str, column: str, lines: list[int]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Exact ranks of a column of decimal texts, and the exact value of each rank."""
    for i, text in enumerate(texts):  # before numpy's fixed-width copy: one long text would widen every row
        if len(text) > numbers.MAX_CHARS:
            raise UsageError(f"--scores {path}:{lines[i]}: column {excerpt(column)}: a number of {len(text):,} "
                             f"characters is longer than the {numbers.MAX_CHARS} this tool reads; a finite decimal "
                             "number is expected (such as 0.73, -1.5 or 2e-3)")
    distinct, inverse = np.unique(np.array(texts, dtype=str), return_inverse=True)
    for text in distinct.tolist():
        if not NUMBER.fullmatch(text):
            where = lines[texts.index(text)]
            raise UsageError(f"--scores {path}:{where}: column {excerpt(column)}: {excerpt(text)} is not a score; a "
                             "finite decimal number is expected (such as 0.73, -1.5 or 2e-3)")
    floats = distinct.astype(np.float64)
    if not np.isfinite(floats).all():
        text = distinct[np.flatnonzero(~np.isfinite(floats))[0]]
        raise UsageError(f"--scores {path}:{lines[texts.index(text)]}: column {excerpt(column)}: {excerpt(text)} is "
                         "beyond the range of scores this tool reads (about 1e308)")
    order = np.argsort(floats, kind="stable")
    same = np.diff(floats[order]) == 0
    for start, stop in _runs(same):  # texts that round to one float: order and compare them exactly
        exact = {int(i): Fraction(str(distinct[i]).strip()) for i in order[start:stop + 1]}
        order[start:stop + 1] = sorted(exact, key=exact.__getitem__)
        ordered = [exact[int(i)] for i in order[start:stop + 1]]
        same[start:stop] = [a == b for a, b in zip(ordered, ordered[1:])]
    rank_of_sorted = np.concatenate([[0], np.cumsum(~same)])
    rank_of_distinct = np.empty(len(distinct), dtype=np.int64)
    rank_of_distinct[order] = rank_of_sorted
    first = np.concatenate([[True], ~same])
    texts_by_rank = tuple(str(t).strip() for t in distinct[order[first]].tolist())
    return rank_of_distinct[inverse], texts_by_rank


def _runs(same: np.ndarray):
    """(start, stop) of each maximal run of equal neighbours: positions start..stop of the sorted values."""
    n = len(same)
    flagged = np.flatnonzero(same)
    starts = flagged[np.concatenate([[True], np.diff(flagged) > 1])] if flagged.size else []
    for start in list(starts):
        stop = start
        while stop < n and same[stop]:
            stop += 1
        yield int(start), int(stop)
