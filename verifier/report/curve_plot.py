"""Mean cost of each classifier as the scheme's parameter sweeps a range (like the paper's Fig. 3), drawn with
matplotlib as SVG (deterministic text) or PNG. The points are floats of exact expressions; the picture decides
nothing."""

from __future__ import annotations


from verifier.analysis.use.curves import Sweep
from verifier.report.figures import figure_bytes, plt


def curve_figure(sweep: Sweep, title: str, fmt: str) -> bytes:
    fig, ax = plt.subplots(figsize=(6, 3.6))
    xs = [float(x) for x in sweep.grid]
    for curve in sweep.curves:
        ys = [float("nan") if v is None else v for v in curve.values]
        ax.plot(xs, ys, marker="o", ms=2.5, lw=1.2, label=curve.name)
    ax.set_xlabel(sweep.parameter)
    ax.set_ylabel("mean cost (Eq. 4)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, lw=0.3, alpha=0.5)
    ax.legend(fontsize=7, frameon=False)
    return figure_bytes(fig, fmt)
