"""A classifier's abstention maps over two swept parameters, as in Friedel et al.'s Figs. 3 and 4: its least
expected cost, its abstention rate and the lower and upper thresholds l and u of its optimal window (viridis,
colour-blind safe; grey where a threshold is at -inf or +inf or the scenario is outside the assumptions), each
with a labelled colour bar, Lemma 1's line (dashed, beyond it no window abstains) explained in the figure's own
legend, and the classifier named once, above the panels.

Layouts: `column` (four panels stacked, one column wide), `grid` (2 x 2, compact: one column wide) and `row`
(four side by side: two columns wide). Compared classifiers share one colour scale per panel (`colour_scales`),
so that the same colour is the same value in every classifier's figure; l and u share one, being thresholds on
the same scores. The values are floats of exact ones; the maps decide nothing.
"""

from __future__ import annotations

import numpy as np
from matplotlib import patheffects
from matplotlib.patches import Patch

from verifier.report.figures.palette import LAYOUTS, MISSING, ONE_COLUMN_WIDTH, TWO_COLUMN_WIDTH
from verifier.report.figures.picture import plt
from verifier.report.figures.typeset import math, put, symbol

PANELS = (("cost", "least expected cost"), ("rate", "abstention rate"), ("lower", "lower threshold l"),
          ("upper", "upper threshold u"))
GRIDS = dict(zip(LAYOUTS, ((4, 1), (2, 2), (1, 4))))  # rows, columns of panels: column, grid, row
PANEL_ASPECT = {"column": 0.55, "grid": 0.92, "row": 1.0}  # a panel's height over its column's width
HEADER = 0.55  # inches above and below the panels: the classifier's name and the legend
BAR_WIDTH = 0.13  # inches: a colour bar's width at most
MAX_HEIGHT = 9.0  # inches: a page's text height, about; a wide column layout gets wider panels, not taller
LEMMA_LABEL = "Lemma 1: beyond this line no window abstains"
NOTHING = {"cost": "no scenario", "rate": "no scenario", "lower": "l = ±∞\neverywhere", "upper": "u = ±∞\neverywhere"}
MISSING_LABEL = "no value: threshold at ±∞, or outside the assumptions"
# white dashes edged in black: seen on viridis's dark and light ends alike, and in the legend on white
LEMMA_STYLE = {"colors": "white", "linewidths": 0.8, "linestyles": "dashed"}
LEMMA_EDGE = [patheffects.Stroke(linewidth=1.8, foreground="black"), patheffects.Normal()]


def map_size(layout: str, width: float | None) -> tuple[float, float]:
    """The figure's size in inches: `width` (default one column, two for `row`), its height from the layout."""
    rows, cols = GRIDS[layout]
    width = width or (TWO_COLUMN_WIDTH if layout == "row" else ONE_COLUMN_WIDTH)
    return width, min(rows * PANEL_ASPECT[layout] * width / cols + HEADER, MAX_HEIGHT)


def values(curves, c, what: str) -> np.ndarray:
    """One panel's values, per scenario, as floats (nan where there is none)."""
    out = []
    for s, w in enumerate(c.windows):
        if w is None:
            out.append(np.nan)
        elif what == "cost":
            out.append(float(c.costs[s]))
        elif what == "rate":
            out.append(w.abstained / c.n)
        else:
            end = c.thresholds[s][0 if what == "lower" else 1]
            out.append(np.nan if isinstance(end, str) else float(end))
    return np.array(out)


def colour_scales(curves, classifiers) -> dict[str, tuple[float, float]]:
    """One (low, high) per panel over all `classifiers`, l and u together: the shared colour scales."""
    scales = {}
    for what, _ in PANELS:
        finite = [v for c in classifiers for v in values(curves, c, what) if np.isfinite(v)]
        scales[what] = (min(finite), max(finite)) if finite else (0.0, 1.0)
    both = scales["lower"] + scales["upper"]
    scales["lower"] = scales["upper"] = (min(both), max(both))
    return scales


def axes_labels(ax, curves, y: bool = True) -> None:
    """Name the axes of a map with the swept parameters (the y axis only when `y` and there are two)."""
    put(ax.set_xlabel, label=math(symbol(curves.parameters[0]), curves.parameters[0]))
    if y and len(curves.parameters) > 1:
        put(ax.set_ylabel, label=math(symbol(curves.parameters[1]), curves.parameters[1]))


def lemma_line(ax, curves, x, y) -> bool:
    """ν_N - μ (1 - ν_P) = 0 in the normal form (ν(1 + μ) = μ with one abstention cost), over the spec's axes (a
    contour of exact values, drawn as floats); whether it crosses the window drawn."""
    z = np.array([np.nan if s.mu is None else float(s.nu_n - s.mu * (1 - s.nu)) for s in curves.scenarios])
    z = z.reshape(len(x), len(y)).T
    if not np.nanmin(z) < 0 < np.nanmax(z):
        return False
    ax.contour(x, y, z, levels=[0], **LEMMA_STYLE).set(path_effects=LEMMA_EDGE)
    return True


def lemma_handle():
    """The legend's handle for Lemma 1's line: a thin dashed white line with a dark edge."""
    return plt.Line2D([], [], color="white", lw=0.8, ls="--", path_effects=LEMMA_EDGE)


def draw_maps(curves, c, *, layout: str = "column", width: float | None = None,
              scales: dict[str, tuple[float, float]] | None = None):
    """The four maps of classifier `c`; `scales`: the colour scales shared with the classifiers it is compared
    with (`colour_scales`), else its own."""
    x = np.array([float(v) for v in curves.grids[0]])
    y = np.array([float(v) for v in curves.grids[1]])
    rows, cols = GRIDS[layout]
    fig, axes = plt.subplots(rows, cols, figsize=map_size(layout, width), sharex=True, sharey=True,
                             layout="constrained", squeeze=False)
    cmap = plt.get_cmap("viridis").with_extremes(bad=MISSING)
    bar_share = min(0.08, BAR_WIDTH * cols / fig.get_figwidth())  # as thin at two columns as at one
    lemma = missing = False
    for ax, (what, label) in zip(axes.flat, PANELS):
        z = values(curves, c, what).reshape(len(x), len(y)).T
        low, high = (scales or {}).get(what, (None, None))
        mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(z), cmap=cmap, vmin=low, vmax=high, shading="nearest",
                             rasterized=True)
        bar = fig.colorbar(mesh, ax=ax, fraction=bar_share, pad=0.02, aspect=40)  # as tall as its panel
        bar.set_label(label, fontsize=7, labelpad=2)
        bar.ax.tick_params(labelsize=6)
        if not np.isfinite(z).any():  # a scale of nothing: no ticks, and the panel says why it is grey
            bar.set_ticks([])
            ax.text(0.5, 0.72, NOTHING[what], transform=ax.transAxes, ha="center", va="center", fontsize=6,
                    color="0.25")
        lemma = lemma_line(ax, curves, x, y) or lemma
        missing = missing or bool(np.isnan(z).any())
        axes_labels(ax, curves)
        ax.tick_params(labelsize=6.5)
        ax.label_outer()  # shared axes: the labels on the outer panels only
    fig.suptitle(c.label, fontsize=8)  # plain text: mathtext is off for every text from the data
    handles = ([(lemma_handle(), LEMMA_LABEL)] if lemma else []) + \
        ([(Patch(facecolor=MISSING, edgecolor="none"), MISSING_LABEL)] if missing else [])
    if handles:
        fig.legend([h for h, _ in handles], [t for _, t in handles], loc="outside lower center", frameon=False,
                   fontsize=6, ncol=1 if layout != "row" else len(handles), handlelength=2.2)
    return fig
