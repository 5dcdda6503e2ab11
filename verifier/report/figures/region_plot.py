"""The picture of a design's freedom: the feasible region on two open cells, one panel per pair (matplotlib).

The pieces come exact from `designing.region`; floats only place pixels. A solid edge is included, a
dashed edge is excluded (a strict bound), a hollow dot an excluded corner, and an edge along the frame is where
the region goes on beyond the picture (no line is drawn there; the caption says so). The designed point is a
star. Finite vertices are labelled with their exact coordinates. The axes are the cells, typeset (c_{h,b}(n) as a
c with a subscript; class names escaped, see `typeset`).
"""

from __future__ import annotations

import textwrap
from fractions import Fraction

from verifier.report.figures.palette import BLUE, VERMILION
from verifier.report.figures.picture import figure_bytes, plt
from verifier.report.figures.typeset import cell_label, math, put

FILL = EDGE = BLUE  # the figures' palette (`palette`): the region filled light, its edges full
MAX_LABELS = 8  # vertex labels per panel; more would cover the picture
PANEL_IN, PER_ROW = 2.4, 3


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def figure(regions: list, title: str, fmt: str, classes=None) -> bytes:
    """The panels of `regions` (`designing.Region`, made by the design) as SVG (deterministic text), PDF or PNG
    bytes; `classes` (the spec's class names) typesets the axes."""
    shown = [r for r in regions if r.exact]
    # at most three panels a row, 2.4 inches each: a paper's full width (7.2 in), never 16 inches of panels
    count = max(1, len(regions))
    columns = min(count, PER_ROW)
    rows = -(-count // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(PANEL_IN * columns, PANEL_IN * rows + 0.5), squeeze=False)
    for ax, region in zip(axes.flat, regions):
        _panel(ax, region, classes)
    for ax in list(axes.flat)[len(regions):]:
        ax.set_visible(False)
    goes_on = any(not r.bounded for r in shown)
    if goes_on:  # the title (the spec's name, the setting) goes into the file's metadata, never drawn
        fig.suptitle(textwrap.fill("Edges along the frame: the region goes on beyond the picture.",
                                   12 * PANEL_IN * columns + 10), fontsize=8)  # within the panels' width
    fig.tight_layout()
    return figure_bytes(fig, fmt, title)


def _f(p) -> tuple[float, float]:  # p: an exact point (x, y) of Fractions
    return float(p[0]), float(p[1])


def _axis(cell, classes) -> tuple[str, bool]:
    return math(cell_label(classes, cell.members, cell.y), cell.label) if classes else (cell.label, False)


def _panel(ax, region, classes=None) -> None:
    (x0, y0), (x1, y1) = region.frame
    corners = [p for piece in region.pieces for p in piece.vertices] if region.exact else []
    # a frame that reaches below 0 around a region that never does (costs that must be >= 0) starts at 0
    if corners and x0 < 0 <= min(p[0] for p in corners):
        x0 = Fraction(0)
    if corners and y0 < 0 <= min(p[1] for p in corners):
        y0 = Fraction(0)
    ax.set_xlim(float(x0), float(x1))
    ax.set_ylim(float(y0), float(y1))
    put(ax.set_xlabel, label=_axis(region.x, classes))
    put(ax.set_ylabel, label=_axis(region.y, classes))
    ax.grid(True, lw=0.3, alpha=0.5)
    if not region.exact:
        ax.text(0.5, 0.5, "not computed:\nz3 gave no answer in time\n(the per-cell ranges still hold)",
                ha="center", va="center", transform=ax.transAxes)
        return
    if not region.pieces:
        ax.text(0.5, 0.5, "empty", ha="center", va="center", transform=ax.transAxes)
    labelled: set[tuple[Fraction, Fraction]] = set()
    for piece in region.pieces:
        points = [_f(p) for p in piece.vertices]
        if len(points) >= 3:
            ax.fill([p[0] for p in points], [p[1] for p in points], color=FILL, alpha=0.35, lw=0)
        for u, v, kind in piece.edges():
            if kind != "frame":
                ax.plot([float(u[0]), float(v[0])], [float(u[1]), float(v[1])], color=EDGE, lw=1.6 if len(points) < 3
                        else 1.2, ls="--" if kind == "open" else "-")
        excluded = set(piece.open_vertices())
        for p in piece.vertices:
            if _on_frame(p, region.frame):
                continue
            ax.plot(*_f(p), marker="o", ms=4.5, color=EDGE, mfc="white" if p in excluded else EDGE)
            if p not in labelled and len(labelled) < MAX_LABELS:
                labelled.add(p)
                ax.annotate(f"({_num(p[0])}, {_num(p[1])})", _f(p), textcoords="offset points", xytext=(4, 4),
                            fontsize=7)
    if region.chosen is not None:
        ax.plot(*_f(region.chosen), marker="*", ms=11, color=VERMILION, lw=0, label="designed")
        ax.legend(loc="best", fontsize=7, frameon=False)


def _on_frame(p, frame) -> bool:
    (x0, y0), (x1, y1) = frame
    return p[0] in (x0, x1) or p[1] in (y0, y1)
