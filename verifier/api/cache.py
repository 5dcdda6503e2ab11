"""A cache of finished reports, keyed by the spec's normalized content, the options that change the answer,
and the tool version: re-verifying an unchanged spec is near-instant. A cached result is always labelled as
such (never shown as fresh); `cache=False` (`--no-cache`) or VERIFY_NO_CACHE=1 bypasses it.

One entry per key holds the summary of the report (verdicts, evidence, fits, expectations) and the outputs
rendered so far (JSON record, console text at a given width, Markdown, HTML); an output not yet rendered is
made from a fresh analysis and added to the entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time

from verifier.version import __version__


def directory() -> str | None:
    if os.environ.get("VERIFY_NO_CACHE"):
        return None
    return os.environ.get("VERIFY_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "verify")


def key(content: object, options: dict) -> str:
    """Comments, key order and layout do not matter (`content` is the spec's plain data); content, options
    and the version do."""
    canonical = json.dumps({"spec": content, "options": options, "version": __version__}, sort_keys=True,
                           default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load(cache_key: str | None) -> dict | None:
    """The entry, or None when there is none or it is not an entry of ours (then it is simply a miss)."""
    folder = directory()
    if not cache_key or not folder:
        return None
    try:
        with open(os.path.join(folder, f"{cache_key}.json"), encoding="utf-8") as handle:
            entry = json.load(handle)
    except (OSError, ValueError):
        return None
    shape = {"summary": dict, "outputs": dict, "stored_at": str}
    if not isinstance(entry, dict) or any(not isinstance(entry.get(k), t) for k, t in shape.items()):
        return None
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
        os.makedirs(folder, exist_ok=True)
        with os.fdopen(os.open(temporary, flags, 0o600), "w", encoding="utf-8") as handle:
            json.dump({"summary": summary, "outputs": outputs, "stored_at": stamp}, handle)
        os.replace(temporary, os.path.join(folder, f"{cache_key}.json"))  # replaces a link, never follows it
    except (OSError, TypeError, ValueError):
        if os.path.lexists(temporary):
            os.unlink(temporary)
        return None
    return stamp
