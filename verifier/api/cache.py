"""A cache of finished reports, keyed by the spec's normalized content, the options that change the answer,
the code that decides (a hash of the package's own files) and the versions of the libraries that decide:
re-verifying an unchanged spec is near-instant. A cached result is always labelled as
such (never shown as fresh); `cache=False` (`--no-cache`) or VERIFY_NO_CACHE=1 bypasses it.

One entry per key holds the summary of the report (verdicts, evidence, fits, expectations) and the outputs
rendered so far (JSON record, console text at a given width, Markdown, HTML); an output not yet rendered is
made from a fresh analysis and added to the entry.

The cache directory is not trusted. Every entry carries an HMAC-SHA256 over its key and content, made with a
random secret kept in the directory's `key` file (created once, mode 0600); an entry whose MAC does not verify
(edited, truncated, copied under another key's name, or written by anything but this tool) is a miss. Entries
and the secret are opened without following links or blocking (a FIFO planted there is no hang), must be
regular files, and are bounded in size.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import stat
import time
from importlib import metadata

import orjson

from verifier.spec.text import read_bounded
from verifier.version import __version__


def directory() -> str | None:
    """The cache directory: $VERIFY_CACHE_DIR, else ~/.cache/verify; None when $VERIFY_NO_CACHE is set (no caching)."""
    if os.environ.get("VERIFY_NO_CACHE"):
        return None
    return os.environ.get("VERIFY_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "verify")


def key(content: object, options: dict) -> str:
    """Comments, key order and layout do not matter (`content` is the spec's plain data); content, options,
    the code that decides (`code_fingerprint`) and the versions of the libraries that decide do."""
    canonical = json.dumps({"spec": content, "options": options, "version": __version__, "format": ENTRY_FORMAT,
                            "code": code_fingerprint(), "libraries": library_versions()},
                           sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the distribution's own files that decide what is printed (every module and data file of the
    package, and of the standalone checker, which decides `expect: {certificate: checks}`; by relative path and
    content): a report cached by another checkout or another commit, even of the same version number, is a miss.
    Made once per process (about 320 small files, about 20 ms)."""
    import importlib.util

    package = os.path.dirname(os.path.abspath(__file__))
    found = importlib.util.find_spec("verifier_check")  # located, not imported
    roots = [os.path.dirname(package)] + ([os.path.dirname(found.origin)] if found and found.origin else [])
    digest = hashlib.sha256()
    for root in roots:
        for folder, dirs, files in sorted(os.walk(root)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".json", ".typed")):
                    path = os.path.join(folder, name)
                    with open(path, "rb") as handle:
                        data = handle.read()
                    where = os.path.relpath(path, os.path.dirname(root))
                    digest.update(where.encode("utf-8") + b"\0" + data + b"\0")
    return digest.hexdigest()


# the distributions whose results reach a verdict or a witness
DECIDING = ("z3-solver", "highspy", "python-flint", "sympy", "numpy", "scipy", "mpmath", "cvc5")


@functools.lru_cache(maxsize=1)
def library_versions() -> dict[str, str | None]:
    """The installed version of each library whose results reach a verdict (None where it is not installed); part of
    every cache key."""
    out: dict[str, str | None] = {}
    for name in DECIDING:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


# the shape of a stored summary and its outputs: a change makes older entries misses (4: entries written inside
# a Jupyter kernel before the console was kept out of it may hold empty texts)
ENTRY_FORMAT = 4
MAX_ENTRY_BYTES = 64 * 1024 * 1024
_SECRET_BYTES = 32


def load(cache_key: str | None) -> dict | None:
    """The entry, or None when there is none or it is not an intact entry of ours (then it is simply a miss)."""
    folder = directory()
    if not cache_key or not folder:
        return None
    secret = _secret(folder, create=False)
    raw = _read_regular(os.path.join(folder, f"{cache_key}.json"), MAX_ENTRY_BYTES)
    if secret is None or raw is None:
        return None
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    shape = {"summary": dict, "outputs": dict, "stored_at": str, "mac": str}
    if not isinstance(entry, dict) or any(not isinstance(entry.get(k), t) for k, t in shape.items()):
        return None
    if not hmac.compare_digest(entry["mac"], _mac(secret, cache_key, entry)):
        return None
    # a text that rendered to nothing is never an answer: it is made again rather than served
    entry["outputs"] = {k: v for k, v in entry["outputs"].items() if not (isinstance(v, str) and not v.strip())}
    return entry


def store(cache_key: str | None, summary: dict, outputs: dict, stored_at: str | None = None) -> str | None:
    """Write (or rewrite) an entry atomically; returns its time stamp. A cache that cannot be written is no
    error."""
    folder = directory()
    if not cache_key or not folder:
        return None
    stamp = stored_at or time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    temporary = os.path.join(folder, f".{cache_key}.{secrets.token_hex(6)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)  # never through a planted link
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        secret = _secret(folder, create=True)
        if secret is None:
            return None
        entry = {"summary": summary, "outputs": outputs, "stored_at": stamp}
        if len(_encoded(entry)) + 200 > MAX_ENTRY_BYTES:  # could never be read back: not written at all
            return None
        entry["mac"] = _mac(secret, cache_key, entry)
        with os.fdopen(os.open(temporary, flags, 0o600), "wb") as handle:
            handle.write(_encoded(entry))
        os.replace(temporary, os.path.join(folder, f"{cache_key}.json"))  # replaces a link, never follows it
    except (OSError, TypeError, ValueError):
        if os.path.lexists(temporary):
            os.unlink(temporary)
        return None
    return stamp


def _encoded(entry: dict) -> bytes:
    """The entry as JSON by orjson's C encoder (json's `dump` is pure Python: seconds for a family's record);
    json for what orjson refuses (an integer beyond 64 bits). Either reads back as the same values."""
    try:
        return orjson.dumps(entry, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(entry).encode("utf-8")


def _mac(secret: bytes, cache_key: str, entry: dict) -> str:
    body = json.dumps({"key": cache_key, "summary": entry["summary"], "outputs": entry["outputs"],
                       "stored_at": entry["stored_at"]}, sort_keys=True, default=str)
    return hmac.new(secret, body.encode("utf-8"), hashlib.sha256).hexdigest()


def _secret(folder: str, create: bool) -> bytes | None:
    """The directory's MAC secret; made (exclusively, 0600) on first store. Anything odd there: no cache."""
    path = os.path.join(folder, "key")
    secret = _read_regular(path, _SECRET_BYTES + 1)
    if secret is not None:
        return secret if len(secret) == _SECRET_BYTES else None
    if not create or os.path.lexists(path):
        return None
    fresh = secrets.token_bytes(_SECRET_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(fresh)
    except OSError:
        return None
    return fresh


def _read_regular(path: str, limit: int) -> bytes | None:
    """A regular file's bytes (at most `limit`), opened without following links or blocking; else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None  # written by someone else: not ours to believe
        data = read_bounded(fd, limit)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def report_options(path: str, timeout, time_limit, classes, cross_check: bool, exact: bool, symmetry: bool,
                   lemmas: bool) -> dict:
    """What, beside the spec's content and the version, a cached report depends on (one definition, read by
    `verify` and by the command's cache-hit path)."""
    from verifier import limits

    return {"timeout": timeout, "time_limit": time_limit, "classes": classes, "cross_check": cross_check,
            "exact": exact, "symmetry": symmetry, "lemmas": lemmas, "rlimit": limits.RLIMIT,
            "memory": limits.MEMORY_MB, "kind": "report", "path": path}  # reports name their file


SUMMARY_SHAPE = {"report": {"source": str, "name": str, "classes": list, "verdicts": dict, "evidence": dict,
                            "why": dict, "fits": dict, "fit_lines": dict, "expectations": dict,
                            "expectations_met": bool, "disagreements": list},
                 "sweep": {"source": str, "name": str, "counts": list, "verdicts": dict, "first_failure": dict,
                           "expectations_met": bool, "disagreements": list}}
OUTPUT_SHAPE = {"json": dict, "markdown": str, "html": str, "fragment": str}


def usable(entry: dict | None, kind: str) -> bool:
    """A cache entry of the right kind and shape (anything else is a miss, never a crash)."""
    if entry is None or entry["summary"].get("kind") != kind:
        return False
    summary, outputs = entry["summary"], entry["outputs"]
    if any(not isinstance(summary.get(k), t) for k, t in SUMMARY_SHAPE[kind].items()):
        return False
    if kind == "report" and set(summary["verdicts"]) != {f"P{i}" for i in range(1, 11)}:
        return False
    return all(isinstance(v, OUTPUT_SHAPE.get(k, str)) and (k in OUTPUT_SHAPE or k.startswith(("text:", "summary:")))
               for k, v in outputs.items())


def entry_for_file(path: str, options: dict) -> dict | None:
    """The usable cached entry of a spec file, found from its YAML alone (no spec validation, no sympy): the
    entry was stored for exactly this content and these options, by a run that validated it."""
    from verifier.errors import SpecError
    from verifier.spec.family import MAX_FAMILY_CLASSES
    from verifier.spec.model import TOP_KEYS
    from verifier.spec.source import load_yaml
    from verifier.spec.text import read_text

    try:
        root = load_yaml(read_text(path), path, TOP_KEYS, {"classes": MAX_FAMILY_CLASSES})
    except (SpecError, RecursionError):
        return None  # the full path reports what is wrong with it
    entry = load(key(root.plain(), options))
    return entry if usable(entry, options["kind"]) else None
