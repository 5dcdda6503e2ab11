"""A plain fixed-width table for the report's big sections (511 matrix rows render in milliseconds).

rich's Table measures every cell and needs seconds for thousands of them; this grid looks like rich's
SIMPLE_HEAD box and is used where a table can have hundreds of rows.
"""

from __future__ import annotations

from rich.text import Text


def grid(title: str, headers: list[str], rows: list[list[str]], right: set[int] = frozenset(),
         breaks: set[int] = frozenset(), caption: str | None = None) -> Text:
    """Rows of strings under headers; `right` columns are right-aligned; a blank line before `breaks` rows."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return ("  " + "   ".join(parts)).rstrip()

    rule = min(sum(widths) + 3 * (len(widths) - 1) + 2, 118)
    out = [title, "", line(headers), " " + "─" * rule]
    for index, row in enumerate(rows):
        if index in breaks:
            out.append("")
        out.append(line(row))
    if caption:
        out += ["", caption]
    out.append("")
    return Text("\n".join(out), no_wrap=False, overflow="fold")
