"""Text from a spec (its name, description, source, assumptions, even its file name) on its way to a
terminal, a Markdown file or an HTML page: control, escape and bidirectional-override characters are removed,
so that a spec cannot move the cursor, recolour the terminal or reorder what a reader sees. In Markdown, every
'<' that could open HTML (a tag, a comment, an autolink) and every '&' that could start an entity becomes an
entity, so no raw HTML passes through, while 'delta < eta' stays readable."""

from __future__ import annotations

import re
import unicodedata

_KEEP = {"\n", "\t"}


def clean(text: object) -> str:
    """The text without control (Cc) and format (Cf: bidi overrides, zero-width) characters."""
    return "".join(ch for ch in str(text) if ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf"))


def markdown(text: object) -> str:
    """Clean text that Markdown shows as written (no HTML passes through)."""
    text = re.sub(r"&(?=#?\w+;)", "&amp;", clean(text))
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)
