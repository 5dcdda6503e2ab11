"""Spec files: their bytes read safely (`text`), safe YAML with positions and exact decimals (`source`), the
validated `Spec` (`model`), the reader that validates it (`reader`), and the JSON Schema for editors
(`schema`, `spec.schema.json`).

Owns: everything about the file format. May import: `formula` (to parse formulas), `properties` (to read
`expect:`), `errors`. Nothing here evaluates a formula or knows about engines or reports.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verifier.spec.model import MAX_CLASSES, TOP_KEYS, Parameter, Spec
    from verifier.spec.reader import load_spec, spec_from_data, spec_from_text

__all__ = ["MAX_CLASSES", "TOP_KEYS", "Parameter", "Spec", "load_spec", "spec_from_data", "spec_from_text"]
_FROM = {"MAX_CLASSES": "model", "TOP_KEYS": "model", "Parameter": "model", "Spec": "model",
         "load_spec": "reader", "spec_from_data": "reader", "spec_from_text": "reader"}


def __getattr__(name: str):
    """Loaded on first use, so that `verify schema` (which reads spec.schema.json only) does not load sympy."""
    if name in _FROM:
        import importlib

        return getattr(importlib.import_module(f"verifier.spec.{_FROM[name]}"), name)
    raise AttributeError(f"module 'verifier.spec' has no attribute {name!r}")
