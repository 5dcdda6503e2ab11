"""A file of credal sets for `verify decide --intervals-file`: one set of probability intervals per row, read
strictly and in blocks.

The header names, for every class of the spec, the columns `<class>_lo` and `<class>_hi`, and nothing else: a
class without its two columns is an error (never an implicit [0, 0] or [0, 1]), and an unknown column is
refused with the nearest expected name. Cells are exact decimals (0.35, 1/3, 2e-3). A row is a located error
when a bound lies outside [0, 1], when a lower bound exceeds its upper bound, or when no distribution fits
(the lower bounds sum above 1, or the upper bounds below 1): the same sets `--intervals` accepts, so that a row
and the same intervals typed as one set are one credal set. The limits are the p-file's: at most 1 GiB, at
most as many values as a `.npy` p-file may hold, `BLOCK_ROWS` rows at a time, each block an `IntervalRows`
(a row's bounds as integers over one denominator, with floats beside them). A row of plain decimals is checked
in those integers; any other row, and any row that fails a check, is read again value by value in Fractions,
so that the first problem of the row is the one reported.

Owns: `IntervalsFile`. May import: `using.inputs.csv_text`, `using.inputs.probabilities`, `using.inputs.npy`,
`using.inputs.p_file`, `using.exact.exact_rows`, `errors`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from fractions import Fraction
from math import lcm

from verifier.errors import UsageError
from verifier.using.exact import IntervalRows, decimal_row, interval_block
from verifier.using.inputs.csv_text import csv_rows, excerpt, regular_file
from verifier.using.inputs.npy import MAX_ELEMENTS
from verifier.using.inputs.p_file import BLOCK_ROWS
from verifier.using.inputs.probabilities import exact_number, total_text

WHAT = "--intervals-file"
HOW = "write one lower and one upper probability per class (columns h_lo, h_hi, ...), with a dot as the " \
      "decimal separator (0.35, 1/3 or 2e-3)"

Bounds = list[tuple[Fraction, Fraction]]


def column_names(classes: tuple[str, ...]) -> list[str]:
    """The header's columns in the spec's class order: h_lo, h_hi, b_lo, b_hi, ..."""
    return [f"{c}_{end}" for c in classes for end in ("lo", "hi")]


class IntervalsFile:
    """A CSV of interval credal sets for `--intervals-file`, checked strictly and read in blocks of exact
    bounds (`blocks`); `count`: the rows read so far."""

    def __init__(self, path: str, classes: tuple[str, ...]):
        regular_file(path, WHAT)
        self.path, self.classes = path, classes
        self.max_rows = MAX_ELEMENTS // (2 * len(classes))  # the .npy p-file's bound on values, rows × 2K here
        self.count = 0

    def blocks(self) -> Iterator[tuple[IntervalRows, list[int]]]:
        """(the credal sets, their line numbers), BLOCK_ROWS rows at a time; bounds in the spec's class order."""
        num, den, floats, lines, columns = [], [], [], [], None
        for header, line, fields in csv_rows(self.path, WHAT, HOW, npy=False):
            if columns is None:
                columns = self._columns(header)
            self.count += 1
            if self.count > self.max_rows:
                raise UsageError(f"{WHAT} {self.path}:{line}: more than {self.max_rows:,} rows ({MAX_ELEMENTS:,} "
                                 f"values, the bound of a .npy p-file); split the file")
            n, d, f = self._row(fields, columns, line)
            num.append(n)
            den.append(d)
            floats.append(f)
            lines.append(line)
            if len(lines) == BLOCK_ROWS:
                yield interval_block(num, den, floats, len(self.classes)), lines
                num, den, floats, lines = [], [], [], []
        if lines:
            yield interval_block(num, den, floats, len(self.classes)), lines
        if self.count == 0:
            raise UsageError(f"{WHAT} {self.path}: no rows; expected a header "
                             f"({excerpt(','.join(column_names(self.classes)))})"
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

    def _row(self, fields: list[str], columns: list[tuple[int, int]], line: int) -> tuple[list[int], int, list]:
        """lo, hi of each class as integers over one denominator, and as floats; checked in those integers."""
        texts = [fields[j] for pair in columns for j in pair]
        try:
            num, den, floats = decimal_row(texts, lambda k: exact_number(texts[k], ""))
        except UsageError:
            num = None
        if num is not None and all(0 <= x <= den for x in num) and all(a <= b for a, b in zip(num[0::2], num[1::2])) \
                and sum(num[0::2]) <= den <= sum(num[1::2]):
            return num, den, floats
        values = [x for pair in self._bounds(fields, columns, line) for x in pair]  # raises the first problem
        d = lcm(*(x.denominator for x in values))
        return [x.numerator * (d // x.denominator) for x in values], d, [float(x) for x in values]

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
