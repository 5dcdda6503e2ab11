"""A plain fixed-width table for the report's big sections (511 matrix rows render in milliseconds).

rich's Table measures every cell and needs seconds for thousands of them; this grid looks like rich's
SIMPLE_HEAD box and is used where a table can have hundreds of rows. It fits the terminal width: a last
column of free text wraps inside its column; a table of many narrow columns (the matrix of many classes) is
folded into several blocks, each repeating the first column.
"""

from __future__ import annotations

import textwrap

from rich.text import Text

MIN_TEXT_WIDTH = 24  # narrowest wrapped text column before the table is folded instead
MIN_FOLDED_WIDTH = 8  # a text column folded under the first one wraps down to this


def grid(title: str, headers: list[str], rows: list[list[str]], right: set[int] = frozenset(),
         breaks: set[int] = frozenset(), caption: str | None = None, width: int = 120) -> Text:
    """Rows of strings under headers; `right` columns are right-aligned; a blank line before `breaks` rows."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    out = [*_wrap(title, width), ""]
    if _span(widths) <= width:
        out += _block(headers, rows, widths, right, breaks)
    elif len(widths) > 1 and _span(widths[:-1] + [MIN_TEXT_WIDTH]) <= width and len(right & {len(widths) - 1}) == 0:
        widths[-1] = width - _span(widths[:-1]) - 3
        out += _block(headers, rows, widths, right, breaks, wrap_last=True)
    else:
        for part, columns in enumerate(_folds(widths, width)):
            if part:
                out.append("")
            keep = [0] + columns
            kept = [widths[i] for i in keep]
            wrap = _span(kept) > width and keep[-1] not in right  # a lone text column wider than the page
            if wrap:
                kept[-1] = max(MIN_FOLDED_WIDTH, width - _span(kept[:-1]) - 3)
            out += _block([headers[i] for i in keep], [[r[i] for i in keep] for r in rows], kept,
                          {keep.index(i) for i in right if i in keep}, breaks, wrap_last=wrap)
    if caption:
        out += ["", *_wrap(caption, width)]
    out.append("")
    return Text("\n".join(out), no_wrap=True, overflow="crop")


def _span(widths: list[int]) -> int:
    return sum(widths) + 3 * (len(widths) - 1) + 2


def _wrap(text: str, width: int) -> list[str]:
    return [line for paragraph in text.split("\n")
            for line in textwrap.wrap(paragraph, width - 1, break_on_hyphens=False) or [""]]


def _folds(widths: list[int], width: int) -> list[list[int]]:
    """Groups of columns (after the first) that fit beside the first column."""
    groups, current = [], []
    for i in range(1, len(widths)):
        if current and _span([widths[0]] + [widths[j] for j in current] + [widths[i]]) > width:
            groups.append(current)
            current = []
        current.append(i)
    return groups + [current] if current else groups


def _block(headers, rows, widths, right, breaks, wrap_last: bool = False) -> list[str]:
    def lines(cells: list[str]) -> list[str]:
        last = textwrap.wrap(cells[-1], widths[-1], break_long_words=True) or [""] if wrap_last else [cells[-1]]
        out = []
        for k, tail in enumerate(last):
            row = cells[:-1] + [tail] if k == 0 else [""] * (len(cells) - 1) + [tail]
            parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
            out.append(("  " + "   ".join(parts)).rstrip())
        return out

    out = [*lines(headers), " " + "─" * (_span(widths) - 1)]
    for index, row in enumerate(rows):
        if index in breaks:
            out.append("")
        out += lines(row)
    return out
