"""`verify SPEC --report DIR`: <stem>.md (pull requests, design reviews), <stem>.html (one self-contained file:
inline SVG, no network, no JavaScript) and <stem>.json. File contents are deterministic (no timings), so the
committed reports of the bundled specs change only when a scheme or the tool's findings do.

Files are written safely: each is first written to a fresh temporary file in DIR (created exclusively, never
following a symbolic link) and then renamed over its name, which replaces a link there instead of writing
through it; names come from the spec's file name with anything but letters, digits, '.', '_' and '-'
replaced, so nothing lands outside DIR; two specs of one run that would share a name get distinct names.
"""

from __future__ import annotations

import os
import secrets

from verifier.analysis.pipeline import Analysis
from verifier.errors import UsageError
from verifier.report.check import page, to_json
from verifier.report.check.markdown import markdown
from verifier.report.output.paths import refuse_overwriting_inputs, stem_for
from verifier.report.text import json_text

__all__ = ["prepare_directory", "refuse_overwriting_inputs", "stem_for", "write_output", "write_reports"]


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


def write_reports(analysis: Analysis, directory: str, taken: set[str] | None = None) -> list[str]:
    """Write <stem>.md, .html and .json into `directory`; none of them may be the spec itself (a spec named
    t.md, or spec.json: JSON is YAML), which is refused before any file is written."""
    prepare_directory(directory)
    stem = stem_for(analysis.spec.path, taken)
    paths = [os.path.join(directory, f"{stem}.{suffix}") for suffix in ("md", "html", "json")]
    refuse_overwriting_inputs([("--report", path) for path in paths], [("spec", analysis.spec.path)])
    record = to_json(analysis)
    record.pop("seconds", None)
    for path, text in zip(paths, (markdown(analysis), page(analysis),
                                  json_text(record))):
        _write_atomically(path, text)
    return paths


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
    """A fresh temporary file `.NAME.<pid>.<hex>.tmp` beside the output, renamed over it: the output is complete
    or not written. An existing output keeps its permission bits; the temporaries of the same name left by a
    writer that is gone (a process killed mid-write) are swept first."""
    import stat

    folder = os.path.dirname(path) or "."
    _sweep(folder, os.path.basename(path))
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        kept = os.lstat(path) if os.path.lexists(path) and not os.path.islink(path) else None
        handle = os.open(temporary, flags, 0o644)
        try:
            if kept is not None and stat.S_ISREG(kept.st_mode):
                os.fchmod(handle, stat.S_IMODE(kept.st_mode))  # a private report stays private
            with os.fdopen(handle, "wb") as out:
                out.write(text.encode("utf-8") if isinstance(text, str) else text)
            os.replace(temporary, path)  # a rename replaces a symbolic link at `path`; it never follows it
        except BaseException:
            if os.path.lexists(temporary):
                os.unlink(temporary)
            raise
    except OSError as exc:
        raise UsageError(f"cannot write the report {path!r} ({exc.strerror or exc})") from None


def _sweep(folder: str, name: str) -> None:
    """Remove `.NAME.<pid>.<hex>.tmp` files beside the output whose writer is no longer running."""
    import re
    import stat

    pattern = re.compile(re.escape(f".{name}.") + r"(\d+)\.[0-9a-f]{12}\.tmp")
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match is None or int(match.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(match.group(1)), 0)
            continue  # its writer is still running
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError):
            continue
        path = os.path.join(folder, entry)
        try:
            if stat.S_ISREG(os.lstat(path).st_mode):
                os.unlink(path)
        except OSError:
            pass
