"""Spec files: their bytes read safely (`text`), safe YAML with positions and exact decimals (`source`), the
validated `Spec` (`model`), the reader that validates it (`reader`), and the JSON Schema for editors
(`schema`, `spec.schema.json`).

Owns: everything about the file format. May import: `formula` (to parse formulas), `properties` (to read
`expect:`), `errors`. Nothing here evaluates a formula or knows about engines or reports.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.spec.model import MAX_CLASSES, TOP_KEYS, Parameter, Spec
    from verifier.spec.reader import load_spec, spec_from_data, spec_from_text

_FROM = {"MAX_CLASSES": "model", "TOP_KEYS": "model", "Parameter": "model", "Spec": "model",
         "load_spec": "reader", "spec_from_data": "reader", "spec_from_text": "reader"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
