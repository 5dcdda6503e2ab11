"""Which spec files a command line names: files as given, directories as their *.yaml files. Light on purpose
(no solver, no sympy): the command resolves its paths before deciding whether any work is needed."""

from __future__ import annotations

import os
from collections.abc import Iterable

from verifier.errors import UsageError


def spec_paths(paths: Iterable[str]) -> list[str]:
    """Files as given; directories become their *.yaml / *.yml files in sorted order."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            # every *.yaml entry but a directory: a FIFO, device or broken link there is reported, not skipped
            found = sorted(os.path.join(path, name) for name in os.listdir(path)
                           if name.endswith((".yaml", ".yml")) and not os.path.isdir(os.path.join(path, name)))
            if not found:
                raise UsageError(f"{path}: the directory holds no *.yaml spec")
            out += found
        else:
            out.append(path)
    return out
