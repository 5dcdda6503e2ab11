"""Operating-condition uncertainty drawn as the paper's Figs. 3-4, one column wide: a classifier's expected cost
curves K_v(c) for each certainty γ on one figure (solid: complete certainty, dashed: complete uncertainty, the
others by a colour-blind-safe sequential scale), and the expected loss L_v of every classifier against γ. Floats
of exact values where they are exact; the pictures decide nothing."""

from __future__ import annotations

from verifier.report.figures.picture import Picture, file_part, plt
from verifier.report.figures.typeset import math, put, symbol


def _file(c) -> str:
    return file_part(c.name) + (f"-in-{file_part(c.dataset)}" if c.dataset is not None else "")


def _gamma(g) -> str:
    return "∞" if g is None else f"{g:g}"


def pictures(result, grid, document: str = "") -> list[Picture]:
    out = [Picture(f"cost-curves-{_file(c)}", c.label,
                   f"{c.label}: expected cost K(c) at each true value of {result.parameter}, for each certainty "
                   "gamma of the presumed value.", lambda c=c: draw_curves(result, c, grid), document)
           for c in result.classifiers]
    out.append(Picture("loss-by-certainty", "expected loss by certainty",
                       "Expected loss L of each classifier against the certainty gamma (inf: complete certainty).",
                       lambda: draw_losses(result), document))
    return out


def draw_curves(result, c, grid):
    fig, ax = plt.subplots(figsize=(3.5, 2.6))
    x = [float(v) for v in grid]
    finite = [g for g in result.gammas if g not in (0, None)]
    colours = plt.get_cmap("viridis")
    for g in result.gammas:
        values, _ = c.curves[g]
        y = [float(v) for v in values]
        if g is None:
            style = dict(color="black", lw=1.2, ls="-")
        elif g == 0:
            style = dict(color="black", lw=1.0, ls="--")
        else:
            style = dict(color=colours(0.15 + 0.7 * finite.index(g) / max(1, len(finite) - 1)), lw=1.0)
        ax.plot(x, y, label=f"γ = {_gamma(g)}", **style)
    put(ax.set_xlabel, label=math(symbol(result.parameter), result.parameter))
    ax.set_ylabel("expected cost K(c)")
    ax.legend(frameon=False, fontsize=6)
    ax.grid(True, lw=0.3, alpha=0.5)
    fig.tight_layout()
    return fig


def draw_losses(result):
    fig, ax = plt.subplots(figsize=(3.5, 2.4))
    positions = list(range(len(result.gammas)))
    for c in result.classifiers:
        ax.plot(positions, [c.losses[g].value for g in result.gammas], marker="o", ms=3, lw=1.0, label=c.label)
    ax.set_xticks(positions, [_gamma(g) for g in result.gammas])
    ax.set_xlabel("certainty γ of the presumed value")
    ax.set_ylabel("expected loss L")
    ax.legend(frameon=False, fontsize=6)
    ax.grid(True, lw=0.3, alpha=0.5)
    fig.tight_layout()
    return fig
