"""Where each character of a YAML string value sits in the spec file, so that a formula error points at the
offending token (line and column) rather than at the start of the value.

Owns: `ScalarOrigin`. A value is decoded again from the file's text following YAML's rules for plain, quoted
('' and \\ escapes, folded lines) and block (| and >) scalars, keeping for each character of the value the
place it was written; the decoding is compared with the value PyYAML read, and when the two differ (an
indentation indicator, some rule not followed here) no position is given rather than a wrong one.
"""

from __future__ import annotations

import bisect
import re

import yaml

BREAKS = "\r\n\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BLANK = " \t"
_ESCAPES = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS
_CODES = yaml.scanner.Scanner.ESCAPE_CODES
_FOLDED = -1  # a character made by folding lines (a space or a line break): it is written nowhere


class FileLines:
    """Where each line of a spec file starts and ends (YAML's line breaks), found once, on first use."""

    def __init__(self, text: str):
        self.text = text
        self._starts: list[int] = []
        self._ends: list[int] = []

    def line(self, index: int) -> tuple[int, int, int]:
        """(1-based line number, start, end) of the line that holds `index`."""
        if not self._starts:
            self._starts = [0] + [m.end() for m in _BREAK.finditer(self.text)]
            self._ends = [m.start() for m in _BREAK.finditer(self.text)] + [len(self.text)]
        number = bisect.bisect_right(self._starts, index)
        return number, self._starts[number - 1], self._ends[number - 1]


class ScalarOrigin:
    """The characters of the string scalar that starts at `start` (an index into the file's text, on line
    `line`) and whose value is `value`; `locate` takes offsets into the stripped value (a formula's source)."""

    def __init__(self, lines: FileLines, start: int, line: int, value: str):
        self.lines, self.text, self.start, self.line, self.value = lines, lines.text, start, line, value
        self._places: list[tuple[int, int]] | None | bool = False  # (index, width) per character; False: not yet

    def locate(self, start: int, end: int) -> tuple[int, int, str, int, int] | None:
        """(line, column, the file's line, [lo, hi) in that line) of the formula's characters [start, end), or
        None when they cannot be placed exactly."""
        places = self._decoded()
        lead = len(self.value) - len(self.value.lstrip())
        if places is None or not 0 <= start + lead < len(places) or self.lines.line(self.start)[0] != self.line:
            return None  # (a count of lines that is not PyYAML's would place nothing right)
        first = places[start + lead][0]
        if first == _FOLDED:
            return None
        last = max((p + w - 1 for p, w in places[start + lead:end + lead] if p != _FOLDED), default=first)
        line, line_start, line_end = self.lines.line(first)
        lo, hi = first - line_start, min(last + 1, line_end) - line_start
        return line, lo + 1, self.text[line_start:line_end], lo, max(hi, lo + 1)

    def _decoded(self) -> list[tuple[int, int]] | None:
        if self._places is False:
            try:
                self._places = _decode(self.text, self.start, self.value)
            except (IndexError, ValueError):
                self._places = None
        return self._places  # type: ignore[return-value]


def _decode(text: str, start: int, value: str) -> list[int] | None:
    """Where each character of `value` (up to its trailing blanks) is written, as (index, width: 2 for an escape
    such as '' or \\n), or None if the text disagrees."""
    need = len(value.rstrip())
    first = text[start]
    if first in "|>":
        chars = _block(text, start, need)
    elif first in "'\"":
        chars = _quoted(text, start + 1, first, need)
    else:
        chars = _quoted(text, start, "", need)
    if chars is None or len(chars) < need or "".join(c for c, _, _ in chars[:need]) != value[:need]:
        return None
    return [(place, width) for _, place, width in chars[:need]]


def _skip_break(text: str, i: int) -> int:
    return i + 2 if text.startswith("\r\n", i) else i + 1


def _fold(text: str, i: int, chars: list, escaped: bool = False) -> int:
    """At a line break inside a flow scalar: blank lines become line breaks, a single break a space (none after
    an escaped break); the next line's leading blanks are skipped. Returns where the text continues."""
    empties = 0
    i = _skip_break(text, i)
    while True:
        while i < len(text) and text[i] in _BLANK:
            i += 1
        if i < len(text) and text[i] in BREAKS:
            empties += 1
            i = _skip_break(text, i)
            continue
        break
    chars.extend([("\n", _FOLDED, 0)] * empties if empties else ([] if escaped else [(" ", _FOLDED, 0)]))
    return i


def _quoted(text: str, i: int, quote: str, need: int) -> list | None:
    """A plain (`quote` = ''), single- or double-quoted scalar from index i."""
    chars: list[tuple[str, int, int]] = []
    line_from = 0  # where the current line's characters start in `chars`
    while len(chars) < need + 1 and i < len(text):
        ch = text[i]
        if ch in BREAKS:
            while len(chars) > line_from and chars[-1][0] in _BLANK and chars[-1][1] != _FOLDED:
                chars.pop()  # blanks before a line break are not part of the value
            i = _fold(text, i, chars)
            line_from = len(chars)
        elif quote == "'" and ch == "'":
            if text.startswith("''", i):
                chars.append(("'", i, 2))
                i += 2
            else:
                break
        elif quote == '"' and ch == '"':
            break
        elif quote == '"' and ch == "\\":
            follow = text[i + 1]
            if follow in BREAKS:
                i = _fold(text, i + 1, chars, escaped=True)
                line_from = len(chars)
            elif follow in _ESCAPES:
                chars.append((_ESCAPES[follow], i, 2))
                i += 2
                line_from = len(chars)  # an escaped blank is kept before a line break
            elif follow in _CODES:
                size = _CODES[follow]
                chars.append((chr(int(text[i + 2:i + 2 + size], 16)), i, 2 + size))
                i += 2 + size
                line_from = len(chars)
            else:
                return None
        else:
            chars.append((ch, i, 1))
            i += 1
    return chars


def _block(text: str, start: int, need: int) -> list | None:
    """A literal (|) or folded (>) block scalar whose header starts at `start` (indentation detected)."""
    folded = text[start] == ">"
    i = start + 1
    while i < len(text) and text[i] in "+-":
        i += 1
    if i < len(text) and text[i].isdigit():
        return None  # an explicit indentation indicator: relative to the parent, which we do not track
    while i < len(text) and text[i] not in BREAKS:
        i += 1
    lines, indent = [], None  # (index of the line's first character, its text), up to the block's end
    while i < len(text):
        i = _skip_break(text, i)
        found = _BREAK.search(text, i)
        end = found.start() if found else len(text)
        line = text[i:end]
        if line.strip(" "):  # a tab is content in a block scalar
            depth = len(line) - len(line.lstrip(" "))
            indent = depth if indent is None else indent
            if depth < indent:
                break
        lines.append((i, line))
        i = end
    if indent is None:
        return None
    chars: list[tuple[str, int, int]] = []
    previous_plain = None  # whether the last content line started without extra blanks
    empties = 0
    for at, line in lines:
        if not line.strip(" ") and len(line) <= indent:
            empties += 1
            continue
        if len(line) - len(line.lstrip(" ")) < indent:
            break
        body = line[indent:]
        plain = body[:1] not in _BLANK
        if previous_plain is not None:
            if folded and previous_plain and plain:
                chars.extend([("\n", _FOLDED, 0)] * empties if empties else [(" ", _FOLDED, 0)])
            else:
                chars.extend([("\n", _FOLDED, 0)] * (empties + 1))
        elif empties:
            chars.extend([("\n", _FOLDED, 0)] * empties)
        empties = 0
        chars.extend((ch, at + indent + k, 1) for k, ch in enumerate(body))
        previous_plain = plain
        if len(chars) > need:
            break
    return chars
