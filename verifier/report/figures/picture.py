"""The one matplotlib set-up of the reports and the bytes of a figure: SVG (deterministic: fixed hash salt, no
date, text kept as text), PDF (TrueType fonts embedded, no date) or PNG; and `Picture`, one named figure of a
report (a stable name for its files, a title, a caption for the HTML page, and how to draw it).

Sizes are for a one-column paper figure (3.5 inches wide). Text from a spec (class names, the scheme's name,
classifiers) is never parsed as mathtext: `text.parse_math` is off for every text, and the labels we typeset
ourselves turn it on for their own text object only, with every name from the spec escaped (`typeset`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cycler  # noqa: E402  (matplotlib's validated cycler: no extra dependency)

from verifier.report.figures.palette import LINES, ONE_COLUMN_WIDTH, REGIONS  # noqa: E402
from verifier.report.text import clean  # noqa: E402

ONE_COLUMN = (ONE_COLUMN_WIDTH, 2.6)  # inches: one column of a two-column paper
plt.rcParams.update({"svg.hashsalt": "verify", "svg.fonttype": "none", "pdf.fonttype": 42, "ps.fonttype": 42,
                     "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 6.5,
                     "xtick.labelsize": 7, "ytick.labelsize": 7, "text.parse_math": False,
                     "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],  # DejaVu ships with matplotlib
                     "mathtext.fontset": "dejavusans", "path.simplify": True,
                     "axes.prop_cycle": cycler(color=list(LINES))})  # a line without a colour: still Okabe-Ito

PALETTE = list(REGIONS)  # one colour per predicted set of three classes (`palette`: Okabe & Ito's, no black)
FORMATS = ("svg", "pdf", "png")


def figure_bytes(fig, fmt: str, title: str | None = None) -> bytes:
    """The figure as `fmt` bytes (the figure is closed); `title` goes into the file's metadata."""
    if fmt not in FORMATS:
        raise ValueError(f"figure format {fmt!r}: expected one of {', '.join(FORMATS)}")
    buffer = io.BytesIO()
    named = {"Title": clean(title)} if title else {}  # no control or bidi characters in a file's metadata
    if fmt == "svg":
        fig.savefig(buffer, format="svg", metadata={"Date": None, **named}, bbox_inches="tight")
    elif fmt == "pdf":
        fig.savefig(buffer, format="pdf", metadata={"CreationDate": None, "ModDate": None, **named},
                    bbox_inches="tight")
    else:
        fig.savefig(buffer, format="png", dpi=150, metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def inline_svg(data: bytes, scale: float = 1.5) -> str:
    """SVG bytes as markup for an HTML page: without the XML prolog, the doctype and the RDF metadata (the
    <title> stays), shown `scale` times its paper size (a one-column figure is small on a screen)."""
    text = data.decode("utf-8")
    text = text[text.index("<svg"):]
    start, end = text.find(" <metadata>"), text.find("</metadata>\n")
    if start != -1 and end != -1:
        text = text[:start] + text[end + len("</metadata>\n"):]
    head = text[:text.index(">")]
    sized = re.sub(r'(width|height)="([\d.]+)pt"', lambda m: f'{m.group(1)}="{float(m.group(2)) * scale:.2f}pt"',
                   head)
    return sized + text[len(head):]


def file_part(text: str) -> str:
    """A name (a classifier's, a data set's) as part of a file name, injectively and the same on every file
    system: a-z and 0-9 kept, a capital as + and its small letter (case-insensitive file systems), every other
    character as _ and its code point in hex and _ (a/b is a_2f_b, a-b is a_2d_b). No "-" is left, so parts
    joined by "-" stay apart."""
    out = []
    for ch in text:
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            out.append(ch)
        elif "A" <= ch <= "Z":
            out.append("+" + ch.lower())
        else:
            out.append(f"_{ord(ch):x}_")
    return "".join(out) or "_"


@dataclass
class Picture:
    """One figure of a report: `name` is stable (file `<spec stem>-<name>.svg`), `title` is drawn on it and
    stored in its files, `caption` says in words what it shows, `draw()` makes a new matplotlib figure."""

    name: str
    title: str
    caption: str
    draw: Callable[[], object]
    document: str = ""  # the scheme's name, for the files' metadata title
    details: list[str] = field(default_factory=list)  # exact facts behind the picture, in words (HTML)

    def render(self, fmt: str) -> bytes:
        """The picture drawn and written in `fmt` (svg, pdf or png), titled in the file's metadata."""
        return figure_bytes(self.draw(), fmt, f"{self.document}: {self.title}" if self.document else self.title)
