"""CSV files written by users, read strictly: every row has exactly the header's number of fields, a column
name appears once, and whatever is quoted back in a message is a short excerpt with control characters
replaced (a file such as /proc/self/environ read by mistake must not be printed whole).

A compressed, archived or pickled file is refused by its first bytes as "not a CSV or .npy file" (read as
text it would yield garbage or no rows at all).

Owns: `csv_rows`, `class_columns`, `excerpt`, `regular_file` and `refuse_binary`. May import: `errors`.
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


# the first bytes of files people save by mistake where a CSV or a .npy belongs
_MAGIC = ((b"\x1f\x8b", "gzip-compressed data; decompress it first (gunzip)"),
          (b"PK\x03\x04", "a zip archive (a .npz of numpy.savez, or a spreadsheet); save one array with numpy.save, "
                          "or export the sheet as CSV"),
          (b"PK\x05\x06", "an empty zip archive"),
          (b"BZh", "bzip2-compressed data; decompress it first"),
          (b"\xfd7zXZ\x00", "xz-compressed data; decompress it first"),
          (b"\x28\xb5\x2f\xfd", "zstd-compressed data; decompress it first"),
          (b"\x93NUMPY", "a .npy array in a file whose name does not end in .npy; rename it to *.npy"),
          (b"\x89HDF", "an HDF5 file"),
          (b"PAR1", "a Parquet file"))


def not_data(path: str) -> str | None:
    """What a binary file that is neither CSV nor .npy looks like (compressed, archived, pickled), or None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return "a Python pickle (never unpickled: it could run code); save the data as CSV or with numpy.save"
    if b"\x00" in head:
        return "binary data (it holds NUL bytes)"
    return None


def refuse_binary(path: str, what: str, npy: bool = True) -> None:
    """A UsageError for a compressed, archived or pickled file where a CSV (or, with `npy`, a .npy) belongs."""
    kind = not_data(path)
    if kind is not None:
        raise UsageError(f"{what} {path}: not a CSV{' or .npy' if npy else ''} file: it looks like "
                         f"{kind}; expected a CSV text file with a header row"
                         + (", or a .npy array written by numpy.save" if npy else ""))


def csv_rows(path: str, what: str, how_to_write: str, npy: bool = True) -> Iterator[tuple[list[str], int, list[str]]]:
    """(header, line number, fields) for every non-blank row after the header. `how_to_write` is appended to
    a field-count error (e.g. how to write a set with commas in it); `npy`: whether the option also reads .npy."""
    refuse_binary(path, what, npy)
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


def class_columns(header: list[str], classes, what: str, path: str, kind: str) -> list[int]:
    """The header's column of each class, in class order: every class named, and no other column (a column that
    names no class is refused, never dropped: a misspelt class would otherwise vanish from every decision)."""
    missing = [c for c in classes if c not in header]
    if missing:
        raise UsageError(f"{what} {path}:1: the header {excerpt(','.join(header))} lacks the class column(s) "
                         f"{', '.join(missing)}")
    alien = [h for h in header if h not in classes]
    if alien:
        known = ", ".join(classes[:12]) + (", ..." if len(classes) > 12 else "")
        raise UsageError(f"{what} {path}:1: the column(s) {excerpt(', '.join(alien))} name no class of the spec "
                         f"({known}); expected one {kind} column per class and no other (keep ids and other columns "
                         "in another file)")
    return [header.index(c) for c in classes]
