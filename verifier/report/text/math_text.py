"""Mathematics in the report's words, one notation per output format (the JSON keeps the engines' text).

The words are written once, in plain text, with the engines' labels (`c_{a, b}(c)`, `mean_{a, b}(c)`) and
some relations in ASCII (`>=` from a remedy, a lemma or a spec's assumption). On the console, in Markdown and
in HTML the relations are the paper's ≥ ≤ ≠, and a term's set index is written without a space: on the
console as the set itself, `c{a,b}(c)` (plain text has no subscript), in Markdown and HTML as a subscript,
`c<sub>a,b</sub>(c)` (GitHub's Markdown shows `<sub>`). Markdown and HTML are rewritten after escaping, so the
only markup added is our own balanced `<sub>` pair around already escaped text.
"""

from __future__ import annotations

import re

SIGNS = {">=": "≥", "<=": "≤", "!=": "≠"}
# A term of the properties' atoms with its set index (`engines.terms.term_label`), or the notation's c_Y, E_p.
_TERM = re.compile(r"(?<![A-Za-z0-9_])(c|C|mean|min|max)_\{([^{}]*)\}")
_NOTATION = re.compile(r"(?<![A-Za-z0-9_])(c|C|mean|E)_([A-Za-zŶŷ])(?![A-Za-z0-9_{])")
_ESCAPED_SIGNS = {"&gt;=": "≥", "&lt;=": "≤"}


def signs(text: str) -> str:
    """>=, <= and != as ≥, ≤ and ≠ (the formula language gives them no other meaning)."""
    for ascii_sign, sign in SIGNS.items():
        text = text.replace(ascii_sign, sign)
    return text


def _index(inner: str) -> str:
    return ",".join(part.strip() for part in inner.split(","))


def console(text: object) -> str:
    """Plain text for the terminal: ≥ ≤ ≠, and c{a,b}(c) for c_{a, b}(c)."""
    return _TERM.sub(lambda m: f"{m[1]}{{{_index(m[2])}}}", signs(str(text)))


def markup(escaped: str) -> str:
    """Escaped Markdown or HTML: ≥ ≤ ≠, and c<sub>a,b</sub>(c) for c_{a, b}(c), c<sub>Y</sub> for c_Y."""
    for ascii_sign, sign in _ESCAPED_SIGNS.items():
        escaped = escaped.replace(ascii_sign, sign)
    escaped = _TERM.sub(lambda m: f"{m[1]}<sub>{_index(m[2])}</sub>", signs(escaped))
    return _NOTATION.sub(lambda m: f"{m[1]}<sub>{m[2]}</sub>", escaped)
