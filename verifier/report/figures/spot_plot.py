"""Exact verdicts at sample points, for the properties over two parameters whose region has no exact condition
(the SMT encoding could not state it, e.g. a parameter in a power mean's exponent): one small panel per such
property, a filled circle where the property holds and a cross where it fails. The verdicts come from the
analysis (`Analysis.spot_verdicts`: each decided exactly by the enumeration engine on the scheme rebuilt at a
rational point, made by the run: `parameter_window` says which properties and how many points); this module
draws them. A picture of where it was checked, not a region: the caption says so, and the pictures with an
exact condition are drawn by `parameter_plot`.
"""

from __future__ import annotations

from verifier.report.figures.palette import BLUISH_GREEN, VERMILION
from verifier.report.figures.parameter_window import SPOT_POINTS as POINTS
from verifier.report.figures.picture import Picture, plt
from verifier.report.figures.typeset import math, put, symbol
from verifier.verdict import Verdict

TITLE = "Exact verdicts at sample points"
MARKS = {Verdict.HOLDS: ("o", BLUISH_GREEN, "holds"), Verdict.FAILS: ("x", VERMILION, "fails"),
         Verdict.UNKNOWN: ("s", "#999999", "unknown")}


def spot_picture(analysis, results, windows) -> Picture:
    """One panel per property of `results`, over the two parameters' `windows`."""
    s = analysis.scheme
    ids = ", ".join(r.property.id for r in results)
    caption = (f"{ids}: no exact condition on {', '.join(x.name for x in s.symbols)} was derived; the "
               f"verdict at each of {POINTS} x {POINTS} rational points, decided exactly there (not a region).")
    return Picture("spot-checks", TITLE, caption, lambda: draw(analysis, results, windows), s.spec.name)


def draw(analysis, results, windows):
    """Draw one panel per property: its exact verdict at each sample point of the two parameters' windows."""
    s = analysis.scheme
    found = analysis.spot_verdicts(results, windows, POINTS)
    columns = min(3, len(results))
    rows = -(-len(results) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.5, 0.5 + 1.25 * rows), squeeze=False, sharex=True,
                             sharey=True)
    used = set()
    for ax, r in zip(axes.flat, results):
        for verdict, (marker, colour, _) in MARKS.items():
            points = [p for p, table in found.items() if table[r.property.id] is verdict]
            if points:
                used.add(verdict)
                ax.plot([float(p[0]) for p in points], [float(p[1]) for p in points], lw=0, marker=marker,
                        ms=2.6, color=colour, mew=0.8)
        ax.set_title(r.property.id, fontsize=7, pad=2)
        ax.set_xlim(*windows[0])
        ax.set_ylim(*windows[1])
        ax.tick_params(labelsize=5.5)
    for ax in axes.flat[len(results):]:
        ax.axis("off")
    for ax in axes[-1]:
        put(ax.set_xlabel, label=math(symbol(s.symbols[0].name), s.symbols[0].name), fontsize=7)
    for ax in axes[:, 0]:
        put(ax.set_ylabel, label=math(symbol(s.symbols[1].name), s.symbols[1].name), fontsize=7)
    handles = [plt.Line2D([], [], lw=0, marker=MARKS[v][0], color=MARKS[v][1], ms=3) for v in MARKS if v in used]
    fig.legend(handles, [MARKS[v][2] for v in MARKS if v in used], loc="lower center", ncol=3, frameon=False,
               bbox_to_anchor=(0.5, -0.04))
    fig.suptitle(TITLE, fontsize=8)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig
