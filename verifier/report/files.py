"""`verify SPEC --report DIR`: <stem>.md (pull requests, design reviews), <stem>.html (one self-contained file:
inline SVG, no network, no JavaScript) and <stem>.json. File contents are deterministic (no timings), so the
committed reports of the bundled specs change only when a scheme or the tool's findings do.

Files are written safely: each is first written to a fresh temporary file in DIR (created exclusively, never
following a symbolic link) and then renamed over its name, which replaces a link there instead of writing
through it; names come from the spec's file name with anything but letters, digits, '.', '_' and '-'
replaced, so nothing lands outside DIR; two specs of one run that would share a name get distinct names.
"""

from __future__ import annotations

import json
import os
import re
import secrets

from verifier.analysis.pipeline import Analysis
from verifier.errors import UsageError
from verifier.report.html import page
from verifier.report.json_record import to_json
from verifier.report.markdown import markdown


def prepare_directory(directory: str, option: str = "--report") -> None:
    """Make sure reports can be written into `directory` before any work is done (UsageError otherwise)."""
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise UsageError(f"{option} {directory!r}: not a directory")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{option} {directory!r}: cannot create the directory ({exc.strerror or exc})") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {directory!r}: the directory is not writable")


def stem_for(spec_path: str, taken: set[str] | None = None) -> str:
    """A file name stem inside the report directory, distinct from those already `taken` in this run."""
    name = "stdin" if spec_path in ("-", "/dev/stdin") else os.path.splitext(os.path.basename(spec_path))[0]
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".").lstrip("-") or "spec"
    chosen, n = stem, 2
    while taken is not None and chosen in taken:
        chosen, n = f"{stem}-{n}", n + 1
    if taken is not None:
        taken.add(chosen)
    return chosen


def write_reports(analysis: Analysis, directory: str, taken: set[str] | None = None) -> list[str]:
    prepare_directory(directory)
    stem = stem_for(analysis.spec.path, taken)
    record = to_json(analysis)
    record.pop("seconds", None)
    paths = []
    for suffix, text in (("md", markdown(analysis)), ("html", page(analysis)),
                         ("json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")):
        path = os.path.join(directory, f"{stem}.{suffix}")
        _write_atomically(path, text)
        paths.append(path)
    return paths


def refuse_overwriting_inputs(outputs: dict[str, str | None], inputs: list[str | None]) -> None:
    """An output that is one of the inputs (the same file by device and inode, through any link or spelling),
    or two outputs that are one file, is a usage error, as compilers do: `-o X.yaml` never replaces X.yaml."""
    def identity(path):
        try:
            info = os.stat(path)
        except (OSError, ValueError, TypeError):
            return None
        return info.st_dev, info.st_ino

    given = [(option, path, identity(path)) for option, path in outputs.items() if path]
    for option, path, ident in given:
        for source in filter(None, inputs):
            if ident is not None and ident == identity(source):
                raise UsageError(f"{option} {path!r} is the input {source!r}; writing there would replace it "
                                 "(choose another output file)")
    seen = {}
    for option, path, ident in given:
        key = ident or os.path.abspath(path)
        if key in seen:
            raise UsageError(f"{option} {path!r} and {seen[key]} name the same file")
        seen[key] = f"{option} {path!r}"


def write_output(path: str, text: str | bytes, option: str = "-o") -> None:
    """Write one output file the same safe way; `path` must be a regular file or not exist (a directory, a
    FIFO or a device there is a usage error, not something to write through)."""
    if os.path.lexists(path) and not os.path.islink(path):
        import stat

        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise UsageError(f"{option} {path!r}: not a regular file (a directory, FIFO or device is refused)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {path!r}: the directory {folder!r} does not exist")
    _write_atomically(path, text)


def _write_atomically(path: str, text: str | bytes) -> None:
    folder = os.path.dirname(path) or "."
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        handle = os.open(temporary, flags, 0o644)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(text.encode("utf-8") if isinstance(text, str) else text)
            os.replace(temporary, path)  # a rename replaces a symbolic link at `path`; it never follows it
        except BaseException:
            if os.path.lexists(temporary):
                os.unlink(temporary)
            raise
    except OSError as exc:
        raise UsageError(f"cannot write the report {path!r} ({exc.strerror or exc})") from None
