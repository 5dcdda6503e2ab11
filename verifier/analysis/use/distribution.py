"""Probabilities written by a user, read exactly: a distribution ('h=0.1,b=0.3,n=0.6'), probability intervals
('h=0:0.2,b=0.3:0.4') or one vertex of a credal set. Decimals are exact (0.1 is 1/10), as in specs; a class
left out has probability 0 (intervals: [0, 1]). Anything else is a usage error that quotes the text."""

from __future__ import annotations

import re
from fractions import Fraction

from verifier.errors import UsageError

_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?$|^[+-]?\d+/[1-9]\d*$")


def exact_number(text: str, where: str) -> Fraction:
    """An exact rational from '0.35', '1/3' or '2e-3' (no floats, no nan/inf)."""
    t = text.strip()
    if not _NUMBER.match(t):
        raise UsageError(f"{where}: {text!r} is not a number (write 0.35, 1/3 or 2e-3)")
    return Fraction(t)


def _pairs(text: str, option: str, classes: tuple[str, ...]) -> list[tuple[int, str]]:
    if not text or not text.strip():
        raise UsageError(f"{option}: empty; write {_example(classes, option)}")
    out, seen = [], set()
    for part in text.split(","):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"{option} {text!r}: {part.strip()!r} is not CLASS=VALUE; write {_example(classes, option)}")
        if name not in classes:
            raise UsageError(f"{option}: unknown class {name!r}; the spec's classes are {', '.join(classes)}")
        if name in seen:
            raise UsageError(f"{option}: class {name!r} is given twice")
        seen.add(name)
        out.append((classes.index(name), value))
    return out


def _example(classes: tuple[str, ...], option: str) -> str:
    if option == "--intervals":
        return ",".join(f"{c}=0:1" for c in classes[:3])
    return ",".join(f"{c}={Fraction(1, len(classes)) if len(classes) <= 3 else 0}" for c in classes[:3])


def distribution(text: str, classes: tuple[str, ...], option: str = "--p") -> list[Fraction]:
    p = [Fraction(0)] * len(classes)
    for i, value in _pairs(text, option, classes):
        p[i] = exact_number(value, f"{option} {classes[i]}")
    return checked(p, classes, option)


def checked(p: list[Fraction], classes: tuple[str, ...], where: str) -> list[Fraction]:
    negative = [classes[i] for i, x in enumerate(p) if x < 0]
    if negative:
        raise UsageError(f"{where}: negative probability for {', '.join(negative)}")
    total = sum(p, Fraction(0))
    if total != 1:
        raise UsageError(f"{where}: the probabilities sum to {_short(total)}, not 1 (exactly)")
    return p


def intervals(text: str, classes: tuple[str, ...]) -> list[tuple[Fraction, Fraction]]:
    bounds = [(Fraction(0), Fraction(1))] * len(classes)
    for i, value in _pairs(text, "--intervals", classes):
        low, sep, high = value.partition(":")
        if not sep:
            raise UsageError(f"--intervals {classes[i]}={value.strip()!r}: expected LOW:HIGH, e.g. 0.3:0.4")
        lo, hi = exact_number(low, f"--intervals {classes[i]}"), exact_number(high, f"--intervals {classes[i]}")
        if not 0 <= lo <= hi <= 1:
            raise UsageError(f"--intervals {classes[i]}: [{lo}, {hi}] is not an interval inside [0, 1]")
        bounds[i] = (lo, hi)
    if sum(lo for lo, _ in bounds) > 1 or sum(hi for _, hi in bounds) < 1:
        raise UsageError("--intervals: no distribution fits (the lower bounds sum above 1 or the upper bounds "
                         "below 1)")
    return bounds


ROW_TOLERANCE = Fraction(1, 10**6)
MAX_BYTES = 1 << 30


def _short(x: Fraction) -> str:
    return str(x) if len(str(x)) <= 40 else f"{float(x):.6g}" if abs(x) < 10**300 else "more than 1e300"


def read_distributions(path: str, classes: tuple[str, ...]) -> tuple[list[list[Fraction]], int]:
    """Rows of a CSV (a header naming every class; exact decimals) or an (N, K) `.npy` of float64 (or float32)
    values, each read as the exact binary rational it is. A row must sum to 1 within 1e-6; it is then divided
    by its exact sum, so that every decision is about an exact distribution. Returns (rows, rows rescaled)."""
    import csv
    import os

    if not os.path.isfile(path):
        raise UsageError(f"--p-file {path!r}: not a regular file")
    if os.path.getsize(path) > MAX_BYTES:
        raise UsageError(f"--p-file {path!r}: larger than 1 GiB; split it")
    if path.endswith(".npy"):
        rows, where = _npy_distributions(path, classes)
    else:
        with open(path, newline="", encoding="utf-8-sig", errors="replace") as handle:
            reader = csv.reader(handle, strict=True)
            try:
                rows, where = _csv_distributions(reader, path, classes)
            except csv.Error as exc:
                raise UsageError(f"--p-file {path}:{reader.line_num}: not valid CSV ({exc})") from None
    if not rows:
        raise UsageError(f"--p-file {path}: no rows")
    rescaled = 0
    for i, p in enumerate(rows):
        total = sum(p, Fraction(0))
        if any(x < 0 for x in p) or abs(total - 1) > ROW_TOLERANCE:
            problem = "a negative probability" if any(x < 0 for x in p) else f"the row sums to {_short(total)}"
            raise UsageError(f"{where[i]}: {problem}; expected non-negative probabilities summing to 1 (within 1e-6)")
        if total != 1:
            rows[i] = [x / total for x in p]
            rescaled += 1
    return rows, rescaled


def _npy_distributions(path: str, classes) -> tuple[list[list[Fraction]], list[str]]:
    import numpy as np

    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise UsageError(f"--p-file {path}: not a readable .npy array without pickles ({exc})") from None
    if array.ndim != 2 or array.shape[1] != len(classes) or array.dtype not in (np.float64, np.float32, np.float16):
        raise UsageError(f"--p-file {path}: {array.dtype} of shape {array.shape}, expected float64 (or float32) "
                         f"of shape (N, {len(classes)})")
    if not np.all(np.isfinite(array)):
        raise UsageError(f"--p-file {path}: row {int(np.flatnonzero(~np.isfinite(array).all(axis=1))[0])} "
                         "holds nan or inf")
    rows = [[Fraction(float(x)) for x in row] for row in array]  # float64 and narrower convert exactly
    return rows, [f"--p-file {path}: row {i}" for i in range(len(rows))]


def _csv_distributions(reader, path: str, classes) -> tuple[list[list[Fraction]], list[str]]:
    header = [h.strip() for h in next(reader, [])]
    missing = [c for c in classes if c not in header]
    if missing:
        raise UsageError(f"--p-file {path}: the header {header} lacks the class column(s) {', '.join(missing)}")
    columns = [header.index(c) for c in classes]
    rows, where = [], []
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        line = reader.line_num
        if len(row) < len(header):
            raise UsageError(f"--p-file {path}:{line}: {len(row)} fields, expected {len(header)}")
        rows.append([exact_number(row[j], f"--p-file {path}:{line}: column {header[j]!r}") for j in columns])
        where.append(f"--p-file {path}:{line}")
    return rows, where
