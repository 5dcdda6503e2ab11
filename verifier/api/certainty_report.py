"""Deprecated: `verifier.api.certainty_report` moved to `verifier.api.use.certainty_report` (issue 53); the public
entry point is `verifier.certainty`. This forward keeps the old import working for one release, with a
DeprecationWarning naming the new place (issue 64, item 5)."""

from __future__ import annotations

import warnings

_MOVED = "verifier.api.use.certainty_report"


def __getattr__(name: str):
    import importlib

    module = importlib.import_module(_MOVED)
    if not hasattr(module, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"verifier.api.certainty_report.{name} moved to {_MOVED}.{name} (and verifier.certainty is the "
                  "public entry point); this forward goes in the next release", DeprecationWarning, stacklevel=2)
    return getattr(module, name)
