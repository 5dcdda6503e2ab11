"""Text utilities every report shares: the lowest floor of `report`.

Owns: rendering rich output to text at one width and colour (`terminal`), plain fixed-width tables
(`text_grid`), text from a spec made safe for each format (`safe_text`), mathematics in each format's notation
(`math_text`), sympy's text of exact values, faster (`sympy_text`), the shortest texts of floats
(`float_text`) and JSON laid out as `json.dump(indent=2)` lays it out (`json_writer`).

May import: formula, verdict, properties, errors and the standard libraries; nothing else of `report`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.text.float_text import ShortestFloats
    from verifier.report.text.json_writer import Streamed, json_text, write_json
    from verifier.report.text.safe_text import clean, code_span, markdown_cell
    from verifier.report.text.sympy_text import PRINTER
    from verifier.report.text.terminal import DEFAULT_WIDTH, render_to_text
    from verifier.report.text.text_grid import grid

_FROM = {"DEFAULT_WIDTH": "terminal", "PRINTER": "sympy_text", "ShortestFloats": "float_text",
         "Streamed": "json_writer", "clean": "safe_text", "code_span": "safe_text", "grid": "text_grid",
         "json_text": "json_writer", "markdown_cell": "safe_text", "render_to_text": "terminal",
         "write_json": "json_writer"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
