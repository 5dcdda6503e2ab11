"""Abstention cost curves drawn as in Friedel et al.'s Fig. 3 and 4, one column wide: for a classifier, maps of
its least expected cost, its abstention rate and its lower and upper thresholds over the two swept parameters
(viridis, colour-blind safe, each with a colour bar; grey where a threshold is at -inf or +inf, or a scenario is
outside the assumptions), with Lemma 1's line ν = μ/(1+μ) beyond which no window abstains; for two classifiers,
the differential map (first minus second, a diverging scale centred on 0, the line where they are equal). With
one swept parameter, curves instead. The values are floats of exact ones; the pictures decide nothing.
"""

from __future__ import annotations

import numpy as np

from verifier.report.figures.picture import Picture, file_part, plt
from verifier.report.figures.typeset import literal, math, put, symbol

MISSING = "#d9d9d9"  # a threshold at -inf or +inf, or a scenario outside the assumptions
PANELS = (("cost", "least expected cost"), ("rate", "abstention rate"), ("lower", "lower threshold l"),
          ("upper", "upper threshold u"))


def _file(name: str, dataset: str | None) -> str:
    return file_part(name) + (f"-in-{file_part(dataset)}" if dataset is not None else "")


def pictures(curves, document: str = "") -> list[Picture]:
    """A picture per classifier (its maps or curves), then one per pair (the differential cost)."""
    out = []
    for c in curves.classifiers:
        name = c.name + (f" ({c.dataset})" if c.dataset else "")
        out.append(Picture(f"abstention-{_file(c.name, c.dataset)}", name,
                           f"{name}: least expected cost, abstention rate and thresholds of the optimal abstention "
                           "window at each scenario; dashed: Lemma 1's line nu = mu/(1 + mu), beyond which no "
                           "window abstains.", lambda c=c: draw_maps(curves, c), document))
    for d in curves.differences:
        name = f"{d.first.name} - {d.second.name}" + (f" ({d.first.dataset})" if d.first.dataset else "")
        out.append(Picture(f"difference-{file_part(d.first.name)}-{_file(d.second.name, d.first.dataset)}", name,
                           f"Expected cost of {d.first.name} minus that of {d.second.name}: below 0 (purple) "
                           f"{d.first.name} is cheaper; the solid line is where they are equal.",
                           lambda d=d: draw_difference(curves, d), document))
    return out


def _values(curves, c, what: str) -> np.ndarray:
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


def _axes_labels(ax, curves, y: bool = True) -> None:
    put(ax.set_xlabel, label=math(symbol(curves.parameters[0]), curves.parameters[0]))
    if y and len(curves.parameters) > 1:
        put(ax.set_ylabel, label=math(symbol(curves.parameters[1]), curves.parameters[1]))


def _lemma_line(ax, curves, x, y, colour: str = "white") -> None:
    """ν_N - μ (1 - ν_P) = 0 in the normal form (ν(1 + μ) = μ with one abstention cost), over the spec's axes (a
    contour of exact values, drawn as floats)."""
    z = np.array([np.nan if s.mu is None else float(s.nu_n - s.mu * (1 - s.nu)) for s in curves.scenarios])
    z = z.reshape(len(x), len(y)).T
    if np.nanmin(z) < 0 < np.nanmax(z):
        ax.contour(x, y, z, levels=[0], colors=colour, linewidths=0.8, linestyles="dashed")


def draw_maps(curves, c):
    if len(curves.parameters) == 1:
        return _draw_curves(curves, c)
    x = np.array([float(v) for v in curves.grids[0]])
    y = np.array([float(v) for v in curves.grids[1]])
    fig, axes = plt.subplots(len(PANELS), 1, figsize=(3.5, 2.3 * len(PANELS)), sharex=True)
    cmap = plt.get_cmap("viridis").with_extremes(bad=MISSING)
    for ax, (what, label) in zip(axes, PANELS):
        z = _values(curves, c, what).reshape(len(x), len(y)).T
        mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(z), cmap=cmap, shading="nearest", rasterized=True)
        fig.colorbar(mesh, ax=ax, fraction=0.05, pad=0.03)
        _lemma_line(ax, curves, x, y)
        ax.set_title(label)
        _axes_labels(ax, curves)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    axes[0].set_title(f"{c.name}: {PANELS[0][1]}")
    fig.tight_layout()
    return fig


def _draw_curves(curves, c):
    x = np.array([float(v) for v in curves.grids[0]])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(3.5, 4.2), sharex=True)
    mine = [other for other in curves.classifiers if other.dataset == c.dataset]
    for other in mine:
        style = dict(ls="--", color="0.4") if other.name == "trivial" else {}
        top.plot(x, _values(curves, other, "cost"), lw=1.1, label=other.name, **style)
        bottom.plot(x, _values(curves, other, "rate"), lw=1.1, label=other.name, **style)
    top.set_ylabel("least expected cost")
    bottom.set_ylabel("abstention rate")
    _axes_labels(bottom, curves)
    top.legend(frameon=False)
    for ax in (top, bottom):
        ax.grid(True, lw=0.3, alpha=0.5)
    fig.tight_layout()
    return fig


def draw_difference(curves, d):
    values = np.array([np.nan if v is None else float(v) for v in d.values])
    if len(curves.parameters) == 1:
        fig, ax = plt.subplots(figsize=(3.5, 2.4))
        x = np.array([float(v) for v in curves.grids[0]])
        ax.plot(x, values, lw=1.1, color="#5e3c99")
        ax.axhline(0, color="0.3", lw=0.6)
        _axes_labels(ax, curves)
        put(ax.set_ylabel, label=(f"cost of {d.first.name} - {d.second.name}", False))
        fig.tight_layout()
        return fig
    from matplotlib.colors import TwoSlopeNorm

    x = np.array([float(v) for v in curves.grids[0]])
    y = np.array([float(v) for v in curves.grids[1]])
    z = values.reshape(len(x), len(y)).T
    bound = float(np.nanmax(np.abs(z))) if np.isfinite(z).any() else 0.0
    bound = bound or 1.0
    fig, ax = plt.subplots(figsize=(3.5, 2.8))
    cmap = plt.get_cmap("PuOr_r").with_extremes(bad=MISSING)
    mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(z), cmap=cmap, norm=TwoSlopeNorm(0, -bound, bound),
                         shading="nearest", rasterized=True)
    bar = fig.colorbar(mesh, ax=ax, fraction=0.05, pad=0.03)
    put(bar.set_label, label=math(f"{literal(d.first.name)} - {literal(d.second.name)}",
                                  f"{d.first.name} - {d.second.name}"))
    if np.nanmin(z) < 0 < np.nanmax(z):
        ax.contour(x, y, z, levels=[0], colors="black", linewidths=0.8)
    _lemma_line(ax, curves, x, y, "0.35")
    _axes_labels(ax, curves)
    fig.tight_layout()
    return fig
