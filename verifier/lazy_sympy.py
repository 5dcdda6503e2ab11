"""sympy, imported on first use.

`from verifier.lazy_sympy import sympy as sp` reads like `import sympy as sp`, but sympy is imported only when
an attribute is first read (`sp.Rational`), and each attribute read once is kept on the proxy, so later reads
cost what a module attribute costs. A command that never computes symbolically, such as a batch of decisions
over numeric costs (`verify decide --p-file`), never pays sympy's import, about a third of a second. Modules
keep import-time references to sympy out of their top level (a registry keyed by names, a class made on first
use) so that importing them stays free.

Owns: `sympy`, the proxy. May import: nothing of the package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING


class LazyModule:
    """A module imported when one of its attributes is first read."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attribute: str):
        if attribute == "_name":  # a copy made without __init__: no name, and no endless lookup
            raise AttributeError(attribute)
        value = getattr(importlib.import_module(self._name), attribute)
        setattr(self, attribute, value)  # kept: the next read finds it without __getattr__
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


if TYPE_CHECKING:  # type checkers read sympy itself, so that `sp.Expr` in an annotation names sympy's class
    import sympy
else:
    sympy = LazyModule("sympy")
