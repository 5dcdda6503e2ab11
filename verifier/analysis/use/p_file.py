"""A file of distributions for `verify decide --p-file`: one row per instance, read in blocks.

A CSV names every class in its header (other columns, such as an id, are ignored) and holds exact decimals; a
`.npy` is an (N, K) array of float64 or float32, each value read as the exact binary rational it is. A row
must sum to 1 within 1e-6; it is then divided by its exact sum, so that every decision is about an exact
distribution. Rows come in blocks of `BLOCK_ROWS`, so that memory stays bounded whatever the file's length;
the file's size and declared shape are checked before anything is read.

Owns: `DistributionFile`. May import: `analysis.use.csv_text`, `analysis.use.npy`, `analysis.use.distribution`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from verifier.analysis.use.csv_text import csv_rows, excerpt, regular_file
from verifier.analysis.use.distribution import ROW_TOLERANCE, exact_number, total_text
from verifier.analysis.use.npy import open_npy
from verifier.errors import UsageError

BLOCK_ROWS = 10_000
WHAT = "--p-file"


class DistributionFile:
    def __init__(self, path: str, classes: tuple[str, ...]):
        regular_file(path, WHAT)
        self.path, self.classes = path, classes
        self.rescaled = 0  # rows whose sum was within the tolerance of 1 but not exactly 1
        self.count = 0
        self.array = None
        if str(path).endswith(".npy"):
            self.array = open_npy(path, WHAT, ("f",), (2,))
            if self.array.shape[1] != len(classes) or self.array.dtype.itemsize > 8:
                raise UsageError(f"{WHAT} {path}: {self.array.dtype} of shape {self.array.shape}, expected float64 "
                                 f"(or float32) of shape (N, {len(classes)}), one column per class in the spec's order")

    def blocks(self) -> Iterator[list[list[Fraction]]]:
        """The rows, exact and normalised, BLOCK_ROWS at a time (a located UsageError on a bad row)."""
        source = self._npy() if self.array is not None else self._csv()
        for rows, where in source:
            yield [self._normalised(p, w) for p, w in zip(rows, where)]
        if self.count == 0:
            raise UsageError(f"{WHAT} {self.path}: no rows")

    def _normalised(self, p: list[Fraction], where: str) -> list[Fraction]:
        self.count += 1
        total = sum(p, Fraction(0))
        if any(x < 0 for x in p) or abs(total - 1) > ROW_TOLERANCE:
            problem = "a negative probability" if any(x < 0 for x in p) else f"the row sums to {total_text(total)}"
            raise UsageError(f"{where}: {problem}; expected non-negative probabilities summing to 1 (within 1e-6)")
        if total != 1:
            self.rescaled += 1
            return [x / total for x in p]
        return p

    def _npy(self):
        for start in range(0, self.array.shape[0], BLOCK_ROWS):
            block = np.asarray(self.array[start:start + BLOCK_ROWS], dtype=np.float64)  # float32 widens exactly
            finite = np.isfinite(block).all(axis=1)
            if not finite.all():
                raise UsageError(f"{WHAT} {self.path}: row {start + int(np.flatnonzero(~finite)[0])} holds nan or inf")
            rows = [[Fraction(x) for x in row] for row in block.tolist()]  # a float is an exact binary rational
            yield rows, [f"{WHAT} {self.path}: row {start + i}" for i in range(len(rows))]

    def _csv(self):
        rows, where, columns = [], [], None
        for header, line, fields in csv_rows(self.path, WHAT, "write one probability per class column, with a "
                                             "dot as the decimal separator (0.35, 1/3 or 2e-3)"):
            if columns is None:
                missing = [c for c in self.classes if c not in header]
                if missing:
                    raise UsageError(f"{WHAT} {self.path}:1: the header {excerpt(','.join(header))} lacks the class "
                                     f"column(s) {', '.join(missing)}")
                columns = [header.index(c) for c in self.classes]
            rows.append([exact_number(fields[j], f"{WHAT} {self.path}:{line}: column {excerpt(header[j])}")
                         for j in columns])
            where.append(f"{WHAT} {self.path}:{line}")
            if len(rows) == BLOCK_ROWS:
                yield rows, where
                rows, where = [], []
        if rows:
            yield rows, where
