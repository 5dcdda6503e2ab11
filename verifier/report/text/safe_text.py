"""Text from a spec (its name, description, source, assumptions, even its file name) on its way to a
terminal, a Markdown file or an HTML page: control, escape and bidirectional-override characters are removed,
so that a spec cannot move the cursor, recolour the terminal or reorder what a reader sees. In Markdown, every
'<' that could open HTML (a tag, a comment, an autolink) and every '&' that could start an entity becomes an
entity, so no raw HTML passes through, while 'delta < eta' stays readable, and link syntax is escaped, so that a
name such as '[x](javascript:...)' is shown, never followed. Every Markdown writer (the report's .md, `verify
--format markdown`, `evaluate --table markdown`, notebooks) escapes user text with these functions."""

from __future__ import annotations

import re
import unicodedata

_KEEP = {"\n", "\t"}


def clean(text: object) -> str:
    """The text without control (Cc) and format (Cf: bidi overrides, zero-width) characters."""
    return "".join(ch for ch in str(text) if ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf"))


def markdown(text: object) -> str:
    """Clean text that Markdown shows as written: no HTML passes through, and no link or image forms (every
    inline link, reference and link definition needs a ']' followed by '(', '[' or ':', which is escaped)."""
    text = clean(text).replace("\\", "\\\\")  # a backslash is shown, never escapes what follows it
    text = re.sub(r"&(?=#?\w+;)", "&amp;", text)
    text = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)
    return re.sub(r"\]([(\[:])", r"]\\\1", text)


def markdown_cell(text: object) -> str:
    """`markdown` for one table cell or one line: also no line break, and '|' escaped (it would end the cell)."""
    return " ".join(markdown(text).split()).replace("|", "\\|")


def code_span(text: object) -> str:
    """Text shown as code (a file name): control characters and backticks dropped, since a backtick would end
    the span and let the rest through as Markdown."""
    return "`" + " ".join(clean(text).replace("`", "").split()) + "`"
