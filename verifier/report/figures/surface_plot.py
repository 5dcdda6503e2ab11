"""Heat maps of a cost surface (`verify evaluate --probabilities ... --sweep A --sweep B --plot FILE`): one row
per measure (mean cost, indeterminacy rate, average set size), one column per classifier, the first swept
parameter across and the second up; a sequential colour-blind-safe scale (viridis) with one colour bar per row,
shared by the classifiers so that their maps compare; points left out (outside the assumptions, or a cost
undefined) in light grey. The colours are floats of exact values; the picture decides nothing."""

from __future__ import annotations

import numpy as np

from verifier.formula import certified
from verifier.report.figures.picture import ONE_COLUMN, figure_bytes, plt
from verifier.report.figures.typeset import literal, math, put, symbol

MEASURES = (("mean_cost", "mean cost (Eq. 4)"), ("rate", "indeterminacy rate"), ("size", "average set size"))
ROW_HEIGHT = 1.45  # inches per measure
EXTRA_COLUMN = 1.9  # inches per classifier beyond the first


def _array(values) -> np.ndarray:
    """values[i][j] (first parameter i, second j) as floats, transposed for imshow (rows: second parameter)."""
    return np.array([[np.nan if v is None else (float(v) if not hasattr(v, "free_symbols") else
                                               certified.to_float(v)) for v in row] for row in values]).T


def surface_figure(s, title: str, fmt: str) -> bytes:
    """The heat maps of a computed surface (`using.evaluate.cost_surface.Surface`: its parameters, grids and
    per-classifier grids of exact values) as SVG (deterministic text), PDF or PNG bytes."""
    count = max(1, len(s.classifiers))
    width = ONE_COLUMN[0] + EXTRA_COLUMN * (count - 1)
    fig, axes = plt.subplots(len(MEASURES), count, figsize=(width, ROW_HEIGHT * len(MEASURES) + 0.5),
                             squeeze=False, sharex=True, sharey=True, constrained_layout=True)
    (a, b), (ga, gb) = s.parameters, s.grids
    extent = _extent([float(x) for x in ga], [float(y) for y in gb])
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.88")  # left-out points in light grey
    for row, (key, label) in enumerate(MEASURES):
        arrays = [_array(getattr(g, key)) for g in s.classifiers]
        finite = np.concatenate([x[np.isfinite(x)] for x in arrays]) if arrays else np.array([])
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        high = high if high > low else low + 1e-9  # a constant map still gets a scale
        image = None
        for col, (g, data) in enumerate(zip(s.classifiers, arrays)):
            ax = axes[row][col]
            image = ax.imshow(np.ma.masked_invalid(data), origin="lower", extent=extent, aspect="auto",
                              cmap=cmap, vmin=low, vmax=high, interpolation="nearest")
            if row == 0:
                put(ax.set_title, label=math(literal(g.name), g.name), fontsize=7)
            if row == len(MEASURES) - 1:
                put(ax.set_xlabel, label=math(symbol(a), a))
            if col == 0:
                put(ax.set_ylabel, label=math(symbol(b), b))
        if image is not None:
            bar = fig.colorbar(image, ax=list(axes[row]), shrink=0.95, pad=0.02)
            bar.set_label(label, fontsize=6.5)
            bar.ax.tick_params(labelsize=6)
    return figure_bytes(fig, fmt, title)


def _extent(xs: list[float], ys: list[float]) -> list[float]:
    """Each grid point at the centre of its cell (the grids are evenly spaced)."""
    dx = (xs[-1] - xs[0]) / (len(xs) - 1) / 2 if len(xs) > 1 else 0.5
    dy = (ys[-1] - ys[0]) / (len(ys) - 1) / 2 if len(ys) > 1 else 0.5
    return [xs[0] - dx, xs[-1] + dx, ys[0] - dy, ys[-1] + dy]
