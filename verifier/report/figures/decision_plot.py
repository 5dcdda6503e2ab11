"""The pictures of a report (matplotlib): for two classes, the optimal prediction along p(y2) (the paper's Fig. 2);
for three numeric classes, the ternary map of exact decision regions (`ternary_plot`); for one or two symbolic
parameters, where each property holds (`parameter_plot`, `interval_plot`). `pictures.pictures` lists them as
`Picture`s with stable names: the HTML report inlines their SVG, `Report.figures()` and `verify --figures DIR`
write each as its own SVG and PDF file.

Plots are for people: floats place pixels, and nothing drawn feeds a verdict. Exact boundaries are labelled with
their exact values. The SVG is deterministic (fixed hash salt, no date) so committed reports only change when
the scheme does.
"""

from __future__ import annotations

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.report.figures.picture import PALETTE, Picture, plt
from verifier.report.figures.typeset import exact_ticks, literal, math, put
from verifier.verdict import Truth

DECISION_TITLE = "Optimal prediction along the class probability"


def decision_picture(analysis) -> Picture:
    """The picture of the optimal prediction along p(y2) for two classes (the paper's Fig. 2)."""
    s, d = analysis.scheme, analysis.decision
    caption = (f"The optimal prediction as a function of {d.variable} (the paper's Fig. 2): exact regions of the "
               "lower envelope of the expected costs, with their exact boundaries; a triangle marks a "
               "distribution where a set is possible (Definition 4).")
    return Picture("decisions", DECISION_TITLE, caption, lambda: decision_line(analysis), s.spec.name)


def decision_line(analysis):
    """Draw the exact regions of the optimal prediction along p(y2), their boundaries, and a triangle where a set is
    possible."""
    s, d = analysis.scheme, analysis.decision
    fig, ax = plt.subplots(figsize=(3.5, 1.25))
    colours = {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(s.all_sets)}
    for region in d.regions:
        low, high = certified.to_float(region.low), certified.to_float(region.high)
        ax.axvspan(low, high, color=colours[region.optimal[0]], alpha=0.85, lw=0)
        if high > low:
            ax.text((low + high) / 2, 0.5, "\n".join(s.label(m) for m in region.optimal), ha="center",
                    va="center", fontsize=6.5, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                                     "alpha": 0.8})
    for boundary in d.boundaries():
        ax.axvline(certified.to_float(boundary), color="black", lw=0.8)
    for entry in analysis.possibility:
        if entry.status is Truth.TRUE:
            q = certified.to_float(entry.witness[1])
            ax.plot([q], [0.1], marker="v", ms=4, color="black", lw=0)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    zero, one = sp.Integer(0), sp.Integer(1)
    exact_ticks(ax, [*d.boundaries(), zero, one], (0.0, 1.0), certified.to_float)  # the boundaries, exactly
    put(ax.set_xlabel, label=math("p(" + literal(s.classes[1]) + ")", d.variable))
    ax.set_title(DECISION_TITLE)
    return fig
