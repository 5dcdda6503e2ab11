"""Operating-condition uncertainty drawn as the paper's Figs. 3-4, one column wide (or `width` inches): a
classifier's expected cost curves K(θ) for each certainty γ on one figure, named by the classifier and its
threshold choice, one colour per γ from the figures' Okabe-Ito palette (γ = 0, complete uncertainty, also
dashed), the parameter's symbol the same on both axes; and the expected loss L of every classifier against γ on
the scale γ/(1 + γ), which shows γ = 0 to ∞ in a finite width (∞ at its right end, marked), as points only: L is
computed at those γ alone, so no line suggests values in between. Floats of exact values where they are exact;
the pictures decide nothing."""

from __future__ import annotations

from verifier.report.figures.palette import ONE_COLUMN_WIDTH, line_style
from verifier.report.figures.picture import Picture, file_part, plt
from verifier.report.figures.typeset import math, put, symbol

METHODS = {"score": "score-driven thresholds", "rate": "rate-driven thresholds", "optimal": "optimal thresholds"}
LABEL_GAP = 0.2  # inches: two γ tick labels closer than this keep only the larger γ's


def _file(c) -> str:
    return file_part(c.name) + (f"-in-{file_part(c.dataset)}" if c.dataset is not None else "")


def _gamma(g) -> str:
    return "∞" if g is None else f"{g:g}"


def certainty_scale(g) -> float:
    """γ on the axis: γ/(1 + γ), so that 0 is 0, 1 is 1/2 and ∞ is 1."""
    return 1.0 if g is None else g / (1 + g)


def pictures(result, grid, document: str = "", *, width: float | None = None) -> list[Picture]:
    """The pictures of operating-condition uncertainty: each classifier's cost curves, then every classifier's loss by
    certainty."""
    out = [Picture(f"cost-curves-{_file(c)}", c.label,
                   f"{c.label} ({METHODS.get(result.method, result.method)}): expected cost K({result.parameter}) "
                   f"at each true value of {result.parameter}, for each certainty gamma of the presumed value "
                   "(gamma = 0: complete uncertainty, dashed; inf: complete certainty).",
                   lambda c=c: draw_curves(result, c, grid, width), document)
           for c in result.classifiers]
    out.append(Picture("loss-by-certainty", "expected loss by certainty",
                       "Expected loss L of each classifier at each certainty gamma computed, on the scale "
                       "gamma/(1 + gamma) (inf, complete certainty, at the right end); points only, as L is known "
                       "at those gamma alone.", lambda: draw_losses(result, width), document))
    return out


def draw_curves(result, c, grid, width: float | None = None):
    """Draw one classifier's expected cost curves K(θ), one per certainty γ, over the grid."""
    fig, ax = plt.subplots(figsize=(width or ONE_COLUMN_WIDTH, 2.6), layout="constrained")
    x = [float(v) for v in grid]
    theta = symbol(result.parameter)
    for k, g in enumerate(result.gammas):
        values, _ = c.curves[g]
        style = line_style(k)
        ax.plot(x, [float(v) for v in values], label=f"γ = {_gamma(g)}", color=style["color"],
                lw=1.2 if g is None else 1.0, ls="--" if g == 0 else style["ls"])
    put(ax.set_xlabel, label=math(theta, result.parameter))
    put(ax.set_ylabel, label=math(f"\\text{{expected cost }}K({theta})", f"expected cost K({result.parameter})"))
    # above the axes, in rows of five under the classifier's name: a legend inside would sit on some curves
    fig.legend(loc="outside upper center", ncol=min(len(result.gammas), 5), frameon=False, fontsize=6,
               handlelength=1.8, columnspacing=1.0, title=f"{c.label}, {METHODS.get(result.method, result.method)}",
               title_fontsize=8)
    ax.grid(True, lw=0.3, alpha=0.5)
    return fig


def draw_losses(result, width: float | None = None):
    """Draw each classifier's expected loss L at each certainty γ computed, on the scale γ/(1 + γ)."""
    width = width or ONE_COLUMN_WIDTH
    fig, ax = plt.subplots(figsize=(width, 2.4), layout="constrained")
    positions = [certainty_scale(g) for g in result.gammas]
    for k, c in enumerate(result.classifiers):
        style = line_style(k)
        ax.plot(positions, [c.losses[g].value for g in result.gammas], ls="none", marker=style["marker"], ms=4,
                mew=1.0, mfc="none", color=style["color"], label=c.label)  # hollow: two equal losses both show
    ax.set_xlim(-0.04, 1.04)
    ticks = _ticks(result.gammas, width)
    ax.set_xticks([certainty_scale(g) for g in ticks], [_gamma(g) for g in ticks])
    ax.set_xticks(positions, minor=True)  # every γ computed has its tick, labelled or not
    if None in result.gammas:  # ∞ is a point of the axis, not a far-away value: marked at its end
        ax.axvline(1.0, color="0.55", lw=0.6, ls=":")
    ax.set_xlabel("certainty γ of the presumed value (scale γ/(1 + γ))")
    ax.set_ylabel("expected loss L")
    fig.legend(loc="outside upper center", ncol=min(len(result.classifiers), 3), frameon=False, fontsize=6,
               handletextpad=0.3, columnspacing=1.2)  # above the axes: inside, it would cover some points
    ax.grid(True, axis="y", lw=0.3, alpha=0.5)
    return fig


def _ticks(gammas, width: float) -> list:
    """The γ to label, from ∞ down: one closer than `LABEL_GAP` to a label placed is left unlabelled."""
    inches = 0.8 * width  # about the axes' share of the figure's width
    placed: list = []
    for g in sorted(gammas, key=lambda g: -certainty_scale(g)):
        if all(abs(certainty_scale(g) - certainty_scale(p)) * inches / 1.08 >= LABEL_GAP for p in placed):
            placed.append(g)
    return sorted(placed, key=certainty_scale)
