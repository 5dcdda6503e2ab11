"""Abstention cost curves drawn as in Friedel et al.'s Fig. 3 and 4: for a classifier, the maps of its least
expected cost, its abstention rate and its thresholds over the two swept parameters (`abstention_maps`: labelled
colour bars, Lemma 1's line explained in a legend, a column, 2 x 2 or row layout, one colour scale shared by the
classifiers compared); for two classifiers, the differential map (first minus second, a diverging scale centred on
0, the line where they are equal). With one swept parameter, curves instead, in the figures' palette. The values
are floats of exact ones; the pictures decide nothing.
"""

from __future__ import annotations

import numpy as np

from verifier.report.figures.abstention_maps import (
    LEMMA_LABEL,
    MISSING,
    axes_labels,
    colour_scales,
    draw_maps,
    lemma_handle,
    lemma_line,
    values,
)
from verifier.report.figures.palette import BLUE, ONE_COLUMN_WIDTH, line_style
from verifier.report.figures.picture import Picture, file_part, plt

TRIVIAL = "trivial"  # the baseline every data set has: drawn on its own colour scale, never shared


def _file(name: str, dataset: str | None) -> str:
    return file_part(name) + (f"-in-{file_part(dataset)}" if dataset is not None else "")


def pictures(curves, document: str = "", *, layout: str = "column", width: float | None = None,
             shared_scales: bool = True) -> list[Picture]:
    """A picture per classifier (its maps, `layout` 'column', 'grid' or 'row', `width` inches; or its curves),
    then one per pair (the differential cost). With `shared_scales`, the classifiers compared on one data set
    share colour scales (else each map has its own)."""
    out = []
    for c in curves.classifiers:
        name = c.name + (f" ({c.dataset})" if c.dataset else "")
        shared = _compared(curves, c) if shared_scales else [c]
        scales = colour_scales(curves, shared) if len(curves.parameters) > 1 and len(shared) > 1 else None
        scale = (f" Colour scales shared with {', '.join(o.name for o in shared if o is not c)}." if scales else "")
        out.append(Picture(f"abstention-{_file(c.name, c.dataset)}", name,
                           f"{name}: least expected cost, abstention rate and thresholds of the optimal abstention "
                           "window at each scenario; dashed: Lemma 1's line nu = mu/(1 + mu), beyond which no "
                           "window abstains." + scale,
                           lambda c=c, scales=scales: draw_maps(curves, c, layout=layout, width=width, scales=scales)
                           if len(curves.parameters) > 1 else _draw_curves(curves, c, width), document))
    for d in curves.differences:
        name = f"{d.first.name} - {d.second.name}" + (f" ({d.first.dataset})" if d.first.dataset else "")
        out.append(Picture(f"difference-{file_part(d.first.name)}-{_file(d.second.name, d.first.dataset)}", name,
                           f"Expected cost of {d.first.name} minus that of {d.second.name}: below 0 (purple) "
                           f"{d.first.name} is cheaper; the solid line is where they are equal.",
                           lambda d=d: draw_difference(curves, d, width), document))
    return out


def _compared(curves, c) -> list:
    """The classifiers `c` is compared with on its data set (itself included), the trivial baseline apart."""
    if c.name == TRIVIAL:
        return [c]
    return [o for o in curves.classifiers if o.dataset == c.dataset and o.name != TRIVIAL]


def _draw_curves(curves, c, width: float | None = None):
    x = np.array([float(v) for v in curves.grids[0]])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(width or ONE_COLUMN_WIDTH, 4.2), sharex=True,
                                      layout="constrained")
    mine = [other for other in curves.classifiers if other.dataset == c.dataset]
    for k, other in enumerate(mine):
        style = dict(ls="--", color="0.4") if other.name == TRIVIAL else {"color": line_style(k)["color"],
                                                                         "ls": line_style(k)["ls"]}
        top.plot(x, values(curves, other, "cost"), lw=1.1, label=other.name, **style)
        bottom.plot(x, values(curves, other, "rate"), lw=1.1, label=other.name, **style)
    top.set_ylabel("least expected cost")
    bottom.set_ylabel("abstention rate")
    axes_labels(bottom, curves)
    top.legend(frameon=False)
    for ax in (top, bottom):
        ax.grid(True, lw=0.3, alpha=0.5)
    return fig


def draw_difference(curves, d, width: float | None = None):
    """Draw the differential picture of two classifiers (first minus second): a curve over one parameter, or a diverging
    map over two."""
    differences = np.array([np.nan if v is None else float(v) for v in d.values])
    difference = f"cost of {d.first.name} − {d.second.name}"
    x = np.array([float(v) for v in curves.grids[0]])
    if len(curves.parameters) == 1:
        fig, ax = plt.subplots(figsize=(width or ONE_COLUMN_WIDTH, 2.4), layout="constrained")
        ax.plot(x, differences, lw=1.1, color=BLUE)
        ax.axhline(0, color="0.3", lw=0.6)
        axes_labels(ax, curves)
        ax.set_ylabel(difference)
        return fig
    from matplotlib.colors import TwoSlopeNorm

    y = np.array([float(v) for v in curves.grids[1]])
    z = differences.reshape(len(x), len(y)).T
    bound = float(np.nanmax(np.abs(z))) if np.isfinite(z).any() else 0.0
    bound = bound or 1.0
    width = width or ONE_COLUMN_WIDTH
    fig, ax = plt.subplots(figsize=(width, 0.8 * width), layout="constrained")
    cmap = plt.get_cmap("PuOr_r").with_extremes(bad=MISSING)
    mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(z), cmap=cmap, norm=TwoSlopeNorm(0, -bound, bound),
                         shading="nearest", rasterized=True)
    bar = fig.colorbar(mesh, ax=ax, fraction=0.06, pad=0.02)
    bar.set_label(difference, fontsize=7)  # plain text: names from the data are never parsed as mathtext
    bar.ax.tick_params(labelsize=6)
    handles = []
    if np.nanmin(z) < 0 < np.nanmax(z):
        ax.contour(x, y, z, levels=[0], colors="black", linewidths=0.8)
        handles.append((plt.Line2D([], [], color="black", lw=0.8), "equal costs"))
    if lemma_line(ax, curves, x, y):
        handles.append((lemma_handle(), LEMMA_LABEL))
    axes_labels(ax, curves)
    fig.suptitle(d.first.name + " - " + d.second.name + (f" ({d.first.dataset})" if d.first.dataset else ""),
                 fontsize=8)
    if handles:
        fig.legend([h for h, _ in handles], [t for _, t in handles], loc="outside lower center", frameon=False,
                   fontsize=6, ncol=1, handlelength=2.2)
    return fig
