"""A file of credal sets for `verify decide --intervals-file`: one set of probability intervals per row, read
strictly and in blocks.

The header names, for every class of the spec, the columns `<class>_lo` and `<class>_hi`, and nothing else: a
class without its two columns is an error (never an implicit [0, 0] or [0, 1]), and an unknown column is
refused with the nearest expected name. Cells are exact decimals (0.35, 1/3, 2e-3). A row is a located error
when a bound lies outside [0, 1], when a lower bound exceeds its upper bound, or when no distribution fits
(the lower bounds sum above 1, or the upper bounds below 1): the same sets `--intervals` accepts, so that a row
and the same intervals typed as one set are one credal set. The limits are the p-file's: at most 1 GiB, at
most as many values as a `.npy` p-file may hold, `BLOCK_ROWS` rows at a time.

Owns: `IntervalsFile`. May import: `analysis.use.csv_text`, `analysis.use.distribution`, `analysis.use.npy`,
`analysis.use.p_file`, `errors`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from fractions import Fraction

from verifier.analysis.use.csv_text import csv_rows, excerpt, regular_file
from verifier.analysis.use.distribution import exact_number, total_text
from verifier.analysis.use.npy import MAX_ELEMENTS
from verifier.analysis.use.p_file import BLOCK_ROWS
from verifier.errors import UsageError

WHAT = "--intervals-file"
HOW = "write one lower and one upper probability per class (columns h_lo, h_hi, ...), with a dot as the " \
      "decimal separator (0.35, 1/3 or 2e-3)"

Bounds = list[tuple[Fraction, Fraction]]


def column_names(classes: tuple[str, ...]) -> list[str]:
    """The header's columns in the spec's class order: h_lo, h_hi, b_lo, b_hi, ..."""
    return [f"{c}_{end}" for c in classes for end in ("lo", "hi")]


class IntervalsFile:
    def __init__(self, path: str, classes: tuple[str, ...]):
        regular_file(path, WHAT)
        self.path, self.classes = path, classes
        self.max_rows = MAX_ELEMENTS // (2 * len(classes))  # the .npy p-file's bound on values, rows × 2K here
        self.count = 0

    def blocks(self) -> Iterator[list[tuple[Bounds, int]]]:
        """(bounds per class in the spec's order, line number) for every row, BLOCK_ROWS at a time."""
        block, columns = [], None
        for header, line, fields in csv_rows(self.path, WHAT, HOW):
            if columns is None:
                columns = self._columns(header)
            self.count += 1
            if self.count > self.max_rows:
                raise UsageError(f"{WHAT} {self.path}:{line}: more than {self.max_rows:,} rows ({MAX_ELEMENTS:,} "
                                 f"values, the bound of a .npy p-file); split the file")
            block.append((self._bounds(fields, columns, line), line))
            if len(block) == BLOCK_ROWS:
                yield block
                block = []
        if block:
            yield block
        if self.count == 0:
            raise UsageError(f"{WHAT} {self.path}: no rows; expected a header ({excerpt(','.join(column_names(self.classes)))})"
                             " and one row of bounds per credal set")

    def _columns(self, header: list[str]) -> list[tuple[int, int]]:
        expected = column_names(self.classes)
        for i, name in enumerate(header):
            if name not in expected:
                near = difflib.get_close_matches(name, expected, n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                what = f"unknown column {excerpt(name)}" if name else "an unnamed column"
                raise UsageError(f"{WHAT} {self.path}:1: {what} (column {i + 1}{hint}); expected exactly the "
                                 f"columns {', '.join(expected)}")
        missing = [c for c in self.classes if f"{c}_lo" not in header or f"{c}_hi" not in header]
        if missing:
            lacking = [n for n in column_names(tuple(missing)) if n not in header]
            raise UsageError(f"{WHAT} {self.path}:1: the header {excerpt(','.join(header))} lacks the column(s) "
                             f"{', '.join(lacking)}; every class needs both <class>_lo and <class>_hi (a class left "
                             "out is not read as probability 0)")
        return [(header.index(f"{c}_lo"), header.index(f"{c}_hi")) for c in self.classes]

    def _bounds(self, fields: list[str], columns: list[tuple[int, int]], line: int) -> Bounds:
        where = f"{WHAT} {self.path}:{line}"
        bounds = []
        for c, (j_lo, j_hi) in zip(self.classes, columns):
            lo, hi = (self._probability(fields[j], f"{c}_{end}", where) for j, end in ((j_lo, "lo"), (j_hi, "hi")))
            if lo > hi:
                raise UsageError(f"{where}: class {excerpt(c)}: {c}_lo {excerpt(fields[j_lo].strip())} exceeds "
                                 f"{c}_hi {excerpt(fields[j_hi].strip())}; expected {c}_lo ≤ {c}_hi")
            bounds.append((lo, hi))
        for end, total, wrong in (("lo", sum((lo for lo, _ in bounds), Fraction(0)), lambda t: t > 1),
                                  ("hi", sum((hi for _, hi in bounds), Fraction(0)), lambda t: t < 1)):
            if wrong(total):
                side = "above" if end == "lo" else "below"
                raise UsageError(f"{where}: an empty credal set: the *_{end} columns sum to {total_text(total)}, "
                                 f"{side} 1, so no distribution fits; expected lower bounds summing to at most 1 "
                                 "and upper bounds summing to at least 1")
        return bounds

    @staticmethod
    def _probability(text: str, column: str, where: str) -> Fraction:
        x = exact_number(text, f"{where}: column {excerpt(column)}")
        if not 0 <= x <= 1:
            raise UsageError(f"{where}: column {excerpt(column)}: {excerpt(text.strip())} is outside [0, 1]; "
                             "expected a probability")
        return x
