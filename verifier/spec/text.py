"""A spec's bytes, read once and safely: regular files and standard input only, bounded in size, UTF-8.

`-` and `/dev/stdin` read standard input (a pipe or a redirected file). Any other path is opened without
blocking and must be a regular file: a FIFO nobody writes to, a device or a socket is refused at once, never
waited on.
"""

from __future__ import annotations

import os
import stat
import sys

from verifier.errors import SpecError, did_you_mean

MAX_BYTES = 4_000_000
STDIN_NAMES = ("-", "/dev/stdin")


def read_text(path: str) -> str:
    """The spec's text, read once. `-` and `/dev/stdin` read standard input (a pipe or a file); any other
    path must be a regular file: FIFOs, devices and directories are refused without blocking on them."""
    raw = _read_stdin(path) if path in STDIN_NAMES else _read_file(path)
    if len(raw) > MAX_BYTES:
        raise SpecError(f"the file is larger than {MAX_BYTES} bytes", file=path, expected="a spec file of a few KB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"the file is not valid UTF-8 (byte {exc.start})", file=path, expected="a UTF-8 text file"
        ) from None


def _read_file(path: str) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)  # opening never blocks
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        hint = _nearby(path) if isinstance(exc, FileNotFoundError) else ""
        raise SpecError(f"cannot read the file: {exc.strerror or exc}{hint}", file=path) from None
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise SpecError(f"the path is {kind}, not a regular file", file=path,
                            expected="a spec file (use - to read a spec from standard input)")
        os.set_blocking(fd, True)
        return _read_all(fd, path)
    finally:
        os.close(fd)


def _nearby(path: str) -> str:
    """" (did you mean 'specs/ha.yaml'?)" for a missing spec whose directory holds a spec of a close name."""
    folder, name = os.path.split(path)
    try:
        names = [n for n in os.listdir(folder or ".") if n.endswith((".yaml", ".yml"))]
    except OSError:
        return ""
    hint = did_you_mean(name, names) or did_you_mean(name, [n.rsplit(".", 1)[0] for n in names])
    if not hint:
        return ""
    close = hint.split("'")[1]
    close = next((n for n in names if n == close or n.rsplit(".", 1)[0] == close), close)
    return f" (did you mean '{os.path.join(folder, close)}'?)"


def _read_stdin(path: str) -> bytes:
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        raise SpecError("standard input is not available", file=path) from None
    kind = _kind(os.fstat(fd).st_mode)
    if kind not in (None, "a FIFO (named pipe)", "a character device"):
        raise SpecError(f"standard input is {kind}", file=path, expected="a spec piped or redirected in")
    return _read_all(fd, path)


def _read_all(fd: int, path: str) -> bytes:
    try:
        return read_bounded(fd, MAX_BYTES)
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror or exc}", file=path) from None


def read_bounded(fd: int, limit: int) -> bytes:
    """Up to limit + 1 bytes from an open file (one byte more than allowed tells the caller it is too big)."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words (None for a regular file)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"
