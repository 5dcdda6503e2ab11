"""The JSON Schema of the spec file (DESIGN.md §3), for editors and for checking specs outside `verify`.

The schema lives in spec.schema.json beside this module so that a YAML language server can point at the file
itself (`# yaml-language-server: $schema=<path>/spec.schema.json`). The loader in `reader` stays the ground
truth: the schema is a faithful but looser picture (it cannot check, say, that a row has one cost per class).
"""

from __future__ import annotations

import json
from importlib import resources

SCHEMA_FILE = "spec.schema.json"


def schema_text() -> str:
    """The schema as written; importlib.resources finds it inside an installed wheel or a source checkout."""
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict:
    """The JSON Schema of the spec file, parsed."""
    return json.loads(schema_text())
