"""A package face whose names load on first use (PEP 562), written once for every subpackage.

A subpackage's `__init__` names what it exports and the module each name lives in; this module gives it the
three module attributes that make the names load on first use:

    __all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), {"to_json": "json_record", ...})

A module is named relative to the package (`"json_record"`) or absolutely (`"verifier.api.report"`). Reading
a name costs its own module only, so that importing a package face stays free and, for instance, checking a
spec never imports the statistics stack.

Owns: `lazy_exports`. May import: nothing of the package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, namespace: Mapping[str, Any], modules: Mapping[str, str]
                 ) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """`__all__`, `__getattr__` and `__dir__` for the package `package` (its `__name__`), whose module
    globals are `namespace`, exporting each name of `modules` from the module it maps to."""
    table = {name: module if module.startswith("verifier.") else f"{package}.{module}"
             for name, module in modules.items()}
    exported = sorted(table)

    def __getattr__(name: str) -> Any:
        if name in table:
            return getattr(importlib.import_module(table[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        """The lazily loaded names too, so that `dir()` and tab completion list them."""
        return sorted(set(namespace) | set(exported))

    return exported, __getattr__, __dir__
