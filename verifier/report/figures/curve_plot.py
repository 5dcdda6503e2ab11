"""Mean cost of each classifier as the scheme's parameter sweeps a range (like the paper's Fig. 3), drawn with
matplotlib as SVG (deterministic text) or PNG: each curve with its bootstrap band (a statistical estimate,
shaded), and a dotted vertical line where two curves cross (the exact crossing, or the middle of its certified
enclosure). The points are floats of exact expressions; the picture decides nothing. One column wide, in the
figures' palette, the parameter typeset as the other figures typeset it ($r$ in italics, μ as a Greek letter);
no title drawn (a paper's caption says what it is): `title` goes into the file's metadata only."""

from __future__ import annotations

from verifier.formula import certified
from verifier.report.figures.palette import LINES
from verifier.report.figures.picture import ONE_COLUMN, figure_bytes, plt
from verifier.report.figures.typeset import math, put, symbol


def curve_figure(sweep, title: str, fmt: str) -> bytes:
    """The curves of `sweep` (`using.Sweep`, computed by `verify evaluate --sweep`), as bytes of `fmt`."""
    fig, ax = plt.subplots(figsize=ONE_COLUMN)
    xs = [float(x) for x in sweep.grid]
    for k, curve in enumerate(sweep.curves):
        ys = [float("nan") if v is None else v for v in curve.values]
        line, = ax.plot(xs, ys, marker="o", ms=2.0, lw=1.1, label=curve.name, color=LINES[k % len(LINES)])
        if curve.band:
            low = [float("nan") if b is None else b[0] for b in curve.band]
            high = [float("nan") if b is None else b[1] for b in curve.band]
            ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.15, lw=0)
    flips = sorted({_where(f) for c in sweep.crossings for f in c.flips})
    for x in flips:
        ax.axvline(x, color="0.4", lw=0.7, ls=":")
    put(ax.set_xlabel, label=math(symbol(sweep.parameter), sweep.parameter))
    ax.set_ylabel("mean cost (Eq. 4)")
    ax.grid(True, lw=0.3, alpha=0.5)
    band = f"shaded: {int(round(sweep.level * 100))}% bootstrap band" + ("; dotted: curves cross" if flips else "")
    ax.legend(frameon=False, title=band, title_fontsize=6)
    return figure_bytes(fig, fmt, title)


def _where(flip) -> float:
    if isinstance(flip, tuple):
        return float((flip[0] + flip[1]) / 2)
    return certified.to_float(flip)
