"""The ternary map of a numeric three-class scheme: where each predicted set is the unique optimum on the
probability simplex, drawn as the exact convex polygons the analysis computes (`Analysis.simplex_regions`, from
`analysis.simplex_regions`, made when this picture first asks for them; one colour per set from
Okabe & Ito's colour-blind-safe palette, the label inside its region at the exact vertex average, a legend).

Floats only place the exact vertices on the page. The polygons are a few paths, not a lattice of dots, so the
SVG stays small; the exact vertices are listed in words under the picture (`details`).
"""

from __future__ import annotations

import math

from verifier.formula import certified
from verifier.formula.notation import paper_text
from verifier.report.figures.picture import ONE_COLUMN, PALETTE, Picture, plt
from verifier.report.figures.typeset import legend_math, literal, put
from verifier.report.figures.typeset import math as typeset

TITLE = "Optimal prediction on the simplex"
LABELLED_AREA = 0.02  # regions smaller than this (the simplex is 1/2) are named in the legend only
CORNERS = ((0.0, 0.0), (1.0, 0.0), (0.5, math.sqrt(3) / 2))


def ternary_picture(analysis) -> Picture:
    """The map of a numeric three-class analysis, drawn from its exact regions (each with `sets`, `vertices`,
    `centroid`, `area` and `exact`)."""
    s = analysis.scheme
    regions = analysis.simplex_regions
    drawn = {m for r in regions for m in r.sets}
    never = [s.label(m) for m in s.all_sets if m not in drawn]
    caption = ("Where each prediction is the unique optimum (the least expected cost E_p[c_Y]) on the probability "
               f"simplex of p = (p({s.classes[0]}), p({s.classes[1]}), p({s.classes[2]})): exact convex regions, "
               "whose vertices are intersections of the boundaries E_p[c_Y] = E_p[c_Z] computed exactly; on a "
               "boundary the sets on either side tie.")
    if never:
        caption += " Never the unique optimum: " + ", ".join(never) + "."
    if any(len(r.sets) > 1 for r in regions):
        caption += " Sets written A = B have identical rows: they tie everywhere, and share their region."
    if not all(r.exact for r in regions):
        caption += (" Some vertex signs could not be decided exactly (a tie was assumed there): those regions are "
                    "drawn approximately.")
    details = [f"{' = '.join(s.label(m) for m in r.sets)}: " + ", ".join(
        "(" + ", ".join(paper_text(x) for x in v) + ")" for v in r.vertices) for r in regions]
    return Picture("ternary", TITLE, caption, lambda: draw(s, regions), s.spec.name,
                   details=["Vertices, exactly (p of each class in class order):"] + details)


def _xy(p) -> tuple[float, float]:
    w = [certified.to_float(x) for x in p]
    return (sum(a * c[0] for a, c in zip(w, CORNERS)), sum(a * c[1] for a, c in zip(w, CORNERS)))


def _colour(scheme, region) -> str:
    return PALETTE[scheme.all_sets.index(region.sets[0]) % len(PALETTE)]


def _name(scheme, region) -> tuple[str, bool]:
    """A set as written ({a, b}): plain text, which needs no typesetting (and is one text, not one per glyph)."""
    return " = ".join(scheme.label(m) for m in region.sets), False


def draw(scheme, regions: list):
    """Draw the exact decision regions on the probability simplex, each set in its colour, labelled where large
    enough."""
    fig, ax = plt.subplots(figsize=ONE_COLUMN)
    handles, labels = [], []
    for region in regions:
        points = [_xy(v) for v in region.vertices]
        colour = _colour(scheme, region)
        patch = plt.Polygon(points, closed=True, facecolor=colour, edgecolor="white", lw=0.7, joinstyle="round")
        ax.add_patch(patch)
        handles.append(patch)
        labels.append(_name(scheme, region))
        if certified.to_float(region.area) >= LABELLED_AREA:
            put(ax.text, *_xy(region.centroid), label=labels[-1], ha="center", va="center", fontsize=6,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
    ax.add_patch(plt.Polygon(CORNERS, closed=True, fill=False, edgecolor="black", lw=0.8))
    for (x, y), name in zip(CORNERS, scheme.classes):
        label = typeset("p(" + literal(name) + ") = 1", f"p({name}) = 1")
        put(ax.text, x, y + (0.035 if y else -0.035), label=label, ha="center", va="bottom" if y else "top",
            fontsize=7)
    legend = ax.legend(handles, [plain for plain, _ in labels], loc="center left", bbox_to_anchor=(1.0, 0.5),
                       frameon=False, handlelength=1.0, handleheight=1.0, title="unique optimum", title_fontsize=6.5)
    legend_math(legend, labels)
    ax.set_xlim(-0.04, 1.04)
    ax.set_ylim(-0.1, CORNERS[2][1] + 0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(TITLE)
    return fig
