"""CSV files written by users, read strictly: every row has exactly the header's number of fields, a column
name appears once, and whatever is quoted back in a message is a short excerpt with control characters
replaced (a file such as /proc/self/environ read by mistake must not be printed whole).

Owns: `csv_rows` and `excerpt`. May import: `errors`.
"""

from __future__ import annotations

import csv
import os
import unicodedata
from collections.abc import Iterator

from verifier.errors import UsageError

MAX_BYTES = 1 << 30
SHOWN = 60  # characters of a file's text quoted in a message


def excerpt(text: str) -> str:
    """A short, printable rendering of text from a file, for messages."""
    clean = "".join(ch if ch == " " or unicodedata.category(ch)[0] not in "CZ" else "?" for ch in text[:SHOWN + 1])
    return repr(clean[:SHOWN] + ("..." if len(text) > SHOWN else ""))


def regular_file(path: str, what: str) -> None:
    """A regular file of at most MAX_BYTES (a FIFO or a device would block, a directory is no data)."""
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path):
        raise UsageError(f"{what} {excerpt(str(path))}: not a regular file")
    if os.path.getsize(path) > MAX_BYTES:
        raise UsageError(f"{what} {excerpt(str(path))}: larger than 1 GiB; split it")


def csv_rows(path: str, what: str, how_to_write: str) -> Iterator[tuple[list[str], int, list[str]]]:
    """(header, line number, fields) for every non-blank row after the header. `how_to_write` is appended to
    a field-count error (e.g. how to write a set with commas in it)."""
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as handle:
        reader = csv.reader(handle, strict=True)
        try:
            header = [h.strip() for h in next(reader, [])]
            if not any(header):
                raise UsageError(f"{what} {path}: the first line should be a header naming the columns")
            seen: dict[str, int] = {}
            for i, name in enumerate(header):
                if name in seen:
                    raise UsageError(f"{what} {path}:1: the column {excerpt(name)} appears twice in the header "
                                     f"(columns {seen[name] + 1} and {i + 1}); each column is named once")
                seen[name] = i
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) != len(header):
                    raise UsageError(f"{what} {path}:{reader.line_num}: {len(row)} field(s) {excerpt(','.join(row))}"
                                     f" under a header of {len(header)} ({excerpt(','.join(header))}); "
                                     + how_to_write)
                yield header, reader.line_num, row
        except csv.Error as exc:
            raise UsageError(f"{what} {path}:{reader.line_num}: not valid CSV ({exc})") from None
