"""Rows of logits (`decide --p-file FILE --logits`, `evaluate --probabilities FILE --logits`) and their raw
certainty and doubt (Berenbeim et al.).

A row is K finite reals y (a CSV of exact decimals with a header naming every class, or an (N, K) `.npy` of
float64 or float32, each value the exact binary rational it is); its probabilities are softmax(y), which no
rational row equals: `logit_decide` decides on them exactly. The raw variants are the paper's certainty and
doubt computed on y itself: with j the top class (the lowest index among equal maxima), the pairwise raw
certainty ξ_i = y_j − y_i (ξ_j = 1), the raw doubt ρ_i = 1/ξ_i (ρ_j = 0; infinite on a tie), the minimum raw
certainty y_j minus the second largest logit, and the raw doubt cost θ = arcsin((1 − Π)/(1 + Π)),
Π = Π_{i≠j} ξ_i², computed as π/2 − 2·arctan(Π_{i≠j} ξ_i) (in floats 2·arctan((1 − t)/(1 + t))) (the same
number: for t ≥ 0, (1 − t²)/(1 + t²) = cos(2 arctan t)). Unlike χ, ξ is not bounded by 1, so θ lies in
(−π/2, π/2]: −π/2 is approached as the logits spread apart. Softmax keeps the order, so the top class and its
ties are the same on p and on y.

What decides is exact: the top class and whether it is tied, on the exact values (a .npy row's floats are its
values; a decimal row's floats are rounded, and equal floats are compared as the decimals read). The values
are floats: a .npy row's minimum raw certainty is the difference of two doubles rounded once; a decimal row's
is the exact difference rounded once; the maximum raw doubt is the exact reciprocal rounded once; θ is its exact
value correctly rounded (`using.certainty.doubt`, from u = 1 − t made by `using.certainty.doubt_inputs`).

Owns: `LogitRows`, `LogitFile`, `logit_rows`, `logit_row`, `raw_certainty`, `raw_pairwise`. May import:
`using.inputs.csv_text`, `using.inputs.npy`, `using.inputs.probabilities`, `using.certainty.rows`,
`using.certainty.doubt`, `using.certainty.doubt_inputs`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier import numbers
from verifier.errors import UsageError
from verifier.using.certainty import BlockCertainty, doubt_costs, logit_words, nothing_to_doubt, rational_word, top_two
from verifier.using.inputs.array_like import as_matrix
from verifier.using.inputs.csv_text import class_columns, csv_rows, excerpt, regular_file
from verifier.using.inputs.npy import open_npy
from verifier.using.inputs.probabilities import class_values, exact_number

BLOCK_ROWS = 10_000
EXPECTED = "finite real logits (one per class column; softmax gives the probabilities)"


@dataclass
class LogitRows:
    """A block of logit rows: floats (exact for a .npy row), and the exact decimals of a CSV row."""
    floats: np.ndarray  # (n, K) float64
    exact: list[list[Fraction]] | None = None  # None: the floats are the values

    def __len__(self) -> int:
        return len(self.floats)

    def row(self, i: int) -> list[Fraction]:
        """Row i exactly."""
        return self.exact[i] if self.exact is not None else [Fraction(x) for x in self.floats[i].tolist()]

    @property
    def rel(self) -> float:
        """The floats' relative error: 0 (they are the values) or 2^-53 (each rounded once)."""
        return 0.0 if self.exact is None else 2.0 ** -53


def _finite(block: np.ndarray, where) -> None:
    bad = np.flatnonzero(~np.isfinite(block).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise UsageError(f"{where(i)}: {excerpt(','.join(map(str, block[i].tolist())))} holds nan or inf; "
                         f"expected {EXPECTED}")


def logit_rows(values, K: int, where: str) -> Iterator[LogitRows]:
    """Blocks of logits from an (N, K) array or list of rows (Python callers), refused if not finite."""
    array, _ = as_matrix(values, where, "logits")  # numpy, lists, frames, tensors
    if array.ndim != 2 or array.shape[1] != K or array.shape[0] == 0:
        raise UsageError(f"{where}: shape {array.shape}, expected (N, {K}) logits with N >= 1")
    _finite(array, lambda i: f"{where}: row {i}")
    for start in range(0, len(array), BLOCK_ROWS):
        yield LogitRows(np.ascontiguousarray(array[start:start + BLOCK_ROWS]))


def logit_row(value, classes: tuple[str, ...], where: str = "--p") -> LogitRows:
    """One row of logits from a user: text 'h=1.5,b=-2,n=0' with every class (a logit left out has no default: 0
    is a logit like any other), a dict or a list (Python callers); each an exact rational within the doubles."""
    if isinstance(value, str):
        texts: dict[int, str] = dict(class_values(value, where, classes))
        missing = [c for i, c in enumerate(classes) if i not in texts]
        if missing:
            example = ", ".join(f"{c}=..." for c in classes[:3]) + (", ..." if len(classes) > 3 else "")
            raise UsageError(f"{where} {excerpt(value)}: no logit for {', '.join(missing)}; with --logits give every "
                             f"class's logit ({example})")
        row = [exact_number(texts[i], f"{where} {c}") for i, c in enumerate(classes)]
    else:
        items = [value.get(c) for c in classes] if isinstance(value, dict) else value
        try:
            items = list(items)
        except TypeError:
            raise UsageError(f"{where}: {excerpt(str(value))} is not a row of logits (text, a dict or a list)") \
                from None
        if isinstance(value, dict) and (any(x is None for x in items) or set(value) - set(classes)):
            raise UsageError(f"{where}: the keys {excerpt(', '.join(map(str, value)))} are not the spec's classes "
                             f"{', '.join(classes)}, one logit each")
        if len(items) != len(classes):
            raise UsageError(f"{where}: {len(items)} logits for {len(classes):,} classes")
        row = []
        for c, x in zip(classes, items):
            try:
                row.append(numbers.exact_value(x))
            except numbers.NumberError as exc:
                raise UsageError(f"{where} {c}: {exc}; expected {EXPECTED}") from None
    for c, x in zip(classes, row):
        if not math.isfinite(_float(x)):
            raise UsageError(f"{where} {c}: {excerpt(str(x))} is beyond the range of doubles; expected {EXPECTED}")
    return LogitRows(np.array([[_float(x) for x in row]], dtype=np.float64), [row])


class LogitFile:
    """A file of logits, one row per instance, read in blocks (a located UsageError on a bad row)."""

    def __init__(self, path: str, classes: tuple[str, ...], what: str = "--p-file"):
        self.what, self.path, self.classes = what, path, classes
        self.rescaled = 0  # logits are never rescaled (kept for the readers' common record)
        regular_file(path, what)
        self.array = None
        if str(path).endswith(".npy"):
            self.array = open_npy(path, what, ("f",), (2,))
            if self.array.shape[1] != len(classes) or self.array.dtype.itemsize > 8:
                raise UsageError(f"{what} {path}: {self.array.dtype} of shape {self.array.shape}, expected "
                                 f"float64 (or float32) logits of shape (N, {len(classes)}), one column per class "
                                 "in the spec's order")

    def blocks(self) -> Iterator[LogitRows]:
        """The rows of logits, BLOCK_ROWS at a time (a UsageError when the file has none)."""
        count = 0
        for block in (self._npy() if self.array is not None else self._csv()):
            count += len(block)
            yield block
        if count == 0:
            raise UsageError(f"{self.what} {self.path}: no rows")

    def _npy(self) -> Iterator[LogitRows]:
        for start in range(0, self.array.shape[0], BLOCK_ROWS):
            block = np.asarray(self.array[start:start + BLOCK_ROWS], dtype=np.float64)  # float32 widens exactly
            _finite(block, lambda i, start=start: f"{self.what} {self.path}: row {start + i}")
            yield LogitRows(block)

    def _csv(self) -> Iterator[LogitRows]:
        exact, columns = [], None
        for header, line, fields in csv_rows(self.path, self.what, f"write {EXPECTED}, with a dot as the "
                                             "decimal separator (-1.5, 2/3 or 2e-3)"):
            if columns is None:
                columns = class_columns(header, self.classes, self.what, self.path, "logit")
            row = [exact_number(fields[j], f"{self.what} {self.path}:{line}: column {excerpt(header[j])}")
                   for j in columns]
            for j, x in zip(columns, row):
                if not math.isfinite(_float(x)):
                    raise UsageError(f"{self.what} {self.path}:{line}: column {excerpt(header[j])}: "
                                     f"{excerpt(fields[j])} is beyond the range of doubles; expected {EXPECTED}")
            exact.append(row)
            if len(exact) == BLOCK_ROWS:
                yield self._block(exact)
                exact = []
        if exact:
            yield self._block(exact)

    def _block(self, exact: list[list[Fraction]]) -> LogitRows:
        return LogitRows(np.array([[_float(x) for x in row] for row in exact], dtype=np.float64), exact)


def _float(x: Fraction) -> float:
    try:
        return float(x)  # correctly rounded
    except OverflowError:
        return math.inf


def raw_pairwise(y: list[Fraction]) -> tuple[int, list[Fraction], list[Fraction | None]]:
    """(top class j, raw certainties ξ, raw doubts ρ) of exact logits, as in the paper: ξ_j = 1, ρ_j = 0, and
    ρ_i = None where ξ_i = 0 (infinite raw doubt)."""
    j = max(range(len(y)), key=lambda i: (y[i], -i))
    xi = [Fraction(1) if i == j else y[j] - y[i] for i in range(len(y))]
    rho = [Fraction(0) if i == j else (None if c == 0 else 1 / c) for i, c in enumerate(xi)]
    return j, xi, rho


def raw_certainty(rows: LogitRows) -> BlockCertainty:
    """Raw certainty and doubt of every row of a block of logits (see the module's docstring)."""
    Z = rows.floats
    n, K = Z.shape
    if n == 0:
        return BlockCertainty.join([])
    if K < 2:  # one class: nothing to doubt
        return nothing_to_doubt(n)
    top, high, second, low = top_two(Z)
    tied = high == low
    with np.errstate(over="ignore", invalid="ignore"):
        least = high - low  # a .npy row: two doubles' difference, rounded once (never 0 unless they are equal)
    if rows.exact is not None:  # rounded decimals: the exact values decide the top, ties and the least ξ
        for i in range(n):
            j, exact_xi, _ = raw_pairwise(rows.exact[i])
            s = min((y for y in range(K) if y != j), key=lambda y: (exact_xi[y], y))
            top[i], second[i], tied[i], least[i] = j, s, exact_xi[s] == 0, _float(exact_xi[s])
    least = np.where(tied, 0.0, np.maximum(least, np.finfo(float).tiny))  # a strict gap stays > 0
    gaps = _gaps(rows, top, second, tied)
    doubt = np.array([_reciprocal(n, d) for n, d in gaps], dtype=np.float64)
    if rows.exact is None:  # u = 1 − t from the exact differences of the doubles (`doubt_inputs`)
        u, err = logit_words(Z, top, tied)
    else:  # u = 1 − t exactly, rounded to a double word
        words = [(1.0, 0.0, 0.0) if tied[i] else _word(1 - _exact_product(rows.exact[i], int(top[i])))
                 for i in range(n)]
        u, err = (np.array([w[0] for w in words]), np.array([w[1] for w in words])), np.array([w[2] for w in words])
    theta = doubt_costs(u, err, lambda i: _exact_product(rows.row(i), int(top[i])))
    return BlockCertainty(top, least, doubt, theta, tied, [gaps])


def _gaps(rows: LogitRows, top, second, tied) -> list[tuple[int, int]]:
    """y_j − y_s of every row exactly, as (numerator, denominator) integers ((0, 1) on a tie)."""
    if rows.exact is not None:
        out = []
        for e, j, s, t in zip(rows.exact, top.tolist(), second.tolist(), tied.tolist()):
            gap = 0 if t else e[j] - e[s]
            out.append((0, 1) if t else (gap.numerator, gap.denominator))
        return out
    index = np.arange(len(top))
    highs, lows = rows.floats[index, top].tolist(), rows.floats[index, second].tolist()
    out = []
    for a, b, t in zip(highs, lows, tied.tolist()):
        if t:
            out.append((0, 1))
            continue
        (n1, d1), (n2, d2) = a.as_integer_ratio(), b.as_integer_ratio()  # powers of two below
        out.append((n1 * d2 - n2 * d1, d1 * d2))
    return out


def _reciprocal(n: int, d: int) -> float:
    """d/n correctly rounded (an integer division; inf for n = 0 or beyond the floats)."""
    try:
        return d / n if n else math.inf
    except OverflowError:
        return math.inf


def _word(u: Fraction) -> tuple[float, float, float]:
    return rational_word(u.numerator, u.denominator)


def _exact_product(y: list[Fraction], j: int) -> Fraction:
    """t = Π_{i≠j} ξ_i of one row, exactly (0 on a tie; ξ_i = y_j − y_i)."""
    p = Fraction(1)
    for i, x in enumerate(y):
        if i != j:
            p *= y[j] - x
    return p
