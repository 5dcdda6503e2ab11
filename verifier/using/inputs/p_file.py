"""A file of distributions for `verify decide --p-file`: one row per instance, read in blocks.

A CSV names every class in its header, and nothing else (a column that names no class is refused, never dropped:
a misspelt class would otherwise vanish from the decisions), and holds exact decimals; a
`.npy` is an (N, K) array of float64 or float32, each value read as the exact binary rational it is. A row
must sum to 1 within 1e-6; it is then divided by its exact sum, so that every decision is about an exact
distribution. Rows come in blocks of `BLOCK_ROWS` (`ExactRows`: integers over each row's exact sum, with
floats beside them), so that memory stays bounded whatever the file's length; the file's size and declared
shape are checked before anything is read. The sum is checked in integers: a binary row over its least power
of two, a decimal row over its common power of ten, never one Fraction per value.

Rows already in memory (an array from Python) are read by the same path (`DistributionFile.of_array`).

Owns: `DistributionFile`. May import: `using.inputs.csv_text`, `using.inputs.npy`, `using.inputs.probabilities`,
`using.exact.exact_rows`, `using.exact.binary_sums` (a .npy block's exact sums without one integer per value).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError
from verifier.using.exact import CHECK, RESCALED, ExactRows, binary_rows, decimal_row, fast_binary_rows
from verifier.using.inputs.csv_text import class_columns, csv_rows, excerpt, regular_file
from verifier.using.inputs.npy import open_npy
from verifier.using.inputs.probabilities import exact_number, total_text

BLOCK_ROWS = 10_000
BLOCK_CELLS = 1 << 20  # a .npy block's values: the exact sums' temporaries stay near 100 MB whatever K
WHAT = "--p-file"
MILLION = 10 ** 6  # the tolerance on a row's sum is 1/MILLION


class DistributionFile:
    """A file of distributions, one row per instance, checked and read in blocks of exact rows divided by their
    exact sums (`blocks`); `rescaled`: the rows that summed to 1 only within the tolerance."""

    def __init__(self, path: str, classes: tuple[str, ...], what: str = WHAT):
        self.what = what  # the option that named the file, for every message
        regular_file(path, what)
        self.path, self.classes = path, classes
        self.label = f"{what} {path}"  # what names the rows in every message
        self.rescaled = 0  # rows whose sum was within the tolerance of 1 but not exactly 1
        self.count = 0
        self.array = None
        if str(path).endswith(".npy"):
            self.array = open_npy(path, what, ("f",), (2,))
            if self.array.shape[1] != len(classes) or self.array.dtype.itemsize > 8:
                raise UsageError(f"{self.what} {path}: {self.array.dtype} of shape {self.array.shape}, expected "
                                 f"float64 (or float32) of shape (N, {len(classes)}), one column per class in the "
                                 "spec's order")

    @classmethod
    def of_array(cls, array: np.ndarray, K: int, label: str) -> "DistributionFile":
        """Rows held in memory, an (N, K) float array, read as a `.npy` file's are (the same exact integers and
        checks, at the same speed); `label` names them in every message ("probabilities: row 3 ...")."""
        rows = cls.__new__(cls)
        rows.what, rows.path, rows.classes, rows.label = label, None, tuple(str(k) for k in range(K)), label
        rows.rescaled, rows.count, rows.array = 0, 0, array
        return rows

    def blocks(self) -> Iterator[ExactRows]:
        """The rows, exact and normalised, BLOCK_ROWS at a time (a located UsageError on a bad row)."""
        for block in (self._npy() if self.array is not None else self._csv()):
            yield block
        if self.count == 0:
            raise UsageError(f"{self.label}: no rows")

    def _checked(self, block: ExactRows, sums: list[tuple[int, int]], where) -> ExactRows:
        """Each row's exact sum (numerator, denominator) within the tolerance of 1; counts the rows rescaled."""
        negative = (block.floats < 0).any(axis=1).tolist()  # a float has its value's sign
        for i, (total, den) in enumerate(sums):
            if total == den and not negative[i]:
                continue
            self._check_row(total, den, negative[i], where(i))
        self.count += len(block)
        return block

    def _check_row(self, total: int, den: int, negative: bool, where: str) -> None:
        """A row whose exact sum total/den is not 1: refused (located), or counted as rescaled."""
        if total == den and not negative:
            return
        if negative or abs(total - den) * MILLION > den:
            problem = "a negative probability" if negative else f"the row sums to {total_text(Fraction(total, den))}"
            raise UsageError(f"{where}: {problem}; expected non-negative probabilities summing to 1 (within 1e-6)")
        self.rescaled += 1

    def _npy(self):
        step = max(1, min(BLOCK_ROWS, BLOCK_CELLS // max(1, self.array.shape[1])))  # 1,000 classes: 1,000 rows
        for start in range(0, self.array.shape[0], step):
            block = np.asarray(self.array[start:start + step], dtype=np.float64)  # float32 widens exactly
            finite = np.isfinite(block).all(axis=1)
            if not finite.all():
                bad = start + int(np.flatnonzero(~finite)[0])
                raise UsageError(f"{self.label}: row {bad} holds nan or inf")

            def where(i, start=start):
                return f"{self.label}: row {start + i}"

            fast = fast_binary_rows(block)  # exact sums in int64 limbs; integers only for rows that need them
            if fast is not None:
                rows, status, low = fast
                for i in np.flatnonzero(status == CHECK).tolist():  # a tiny or negative value, a near-tolerance sum
                    t, s = rows.total[i], int(low[i])
                    self._check_row(t << s if s >= 0 else t, 1 if s >= 0 else 1 << -s, block[i].min() < 0, where(i))
                self.rescaled += int((status == RESCALED).sum())
                self.count += len(rows)
                yield rows
                continue
            rows, shifts = binary_rows(block)  # a float is an exact binary rational: row i is num·2^shift
            sums = [(t << s, 1) if s >= 0 else (t, 1 << -s) for t, s in zip(rows.total, shifts)]
            yield self._checked(rows, sums, where)

    def _csv(self):
        num, total, floats, sums, lines, columns = [], [], [], [], [], None
        for header, line, fields in csv_rows(self.path, self.what, "write one probability per class column, with a "
                                             "dot as the decimal separator (0.35, 1/3 or 2e-3)"):
            if columns is None:
                columns = class_columns(header, self.classes, self.what, self.path, "probability")
            texts = [fields[j] for j in columns]
            n, den, f = decimal_row(texts, lambda k, line=line: exact_number(
                texts[k], f"{self.what} {self.path}:{line}: column {excerpt(header[columns[k]])}"))
            num.append(n)
            total.append(sum(n))
            floats.append(f)
            sums.append((total[-1], den))
            lines.append(line)
            if len(num) == BLOCK_ROWS:
                yield self._block(num, total, floats, sums, lines)
                num, total, floats, sums, lines = [], [], [], [], []
        if num:
            yield self._block(num, total, floats, sums, lines)

    def _block(self, num, total, floats, sums, lines) -> ExactRows:
        block = ExactRows(np.array(floats, dtype=np.float64).reshape(len(num), len(self.classes)), num, total,
                          2.0 ** -53)
        return self._checked(block, sums, lambda i: f"{self.what} {self.path}:{lines[i]}")
