"""A cache of finished reports, keyed by the spec's normalized content, the options that change the answer,
and the tool version: re-verifying an unchanged spec is near-instant. A cached result is always labelled as
such (never shown as fresh); `--no-cache` or VERIFY_NO_CACHE=1 bypasses it."""

from __future__ import annotations

import hashlib
import json
import os
import time

from . import __version__
from .yaml_source import load_yaml, read_text


def directory() -> str | None:
    if os.environ.get("VERIFY_NO_CACHE"):
        return None
    return os.environ.get("VERIFY_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "verify")


def key(path: str, options: dict) -> str | None:
    """Comments, key order and layout do not matter; content, options and the version do."""
    try:
        content = load_yaml(read_text(path), path).plain()
    except Exception:  # an invalid spec is never cached: it is reported afresh every time
        return None
    canonical = json.dumps({"spec": content, "options": options, "version": __version__}, sort_keys=True,
                           default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load(cache_key: str | None) -> dict | None:
    folder = directory()
    if not cache_key or not folder:
        return None
    try:
        with open(os.path.join(folder, f"{cache_key}.json"), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def store(cache_key: str | None, entry: dict) -> None:
    folder = directory()
    if not cache_key or not folder:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        temporary = os.path.join(folder, f"{cache_key}.tmp{os.getpid()}")
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump({**entry, "stored_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}, handle)
        os.replace(temporary, os.path.join(folder, f"{cache_key}.json"))
    except OSError:
        pass  # a cache that cannot be written is no error
