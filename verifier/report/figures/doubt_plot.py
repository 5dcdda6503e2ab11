"""The empirical distribution (ECDF) of each classifier's maximum doubt (Berenbeim et al.): one step curve per
classifier on a logarithmic axis (doubt is at least 1), in Okabe & Ito's colour-blind-safe colours with distinct
line styles, one column wide. A tie for the top class is infinite doubt: the curve stops short of 1 by the
share of such rows, as the legend says. The values are floats; the picture decides nothing."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter

from verifier.report.figures.palette import DASHES, LINES
from verifier.report.figures.picture import ONE_COLUMN, figure_bytes, plt


def doubt_figure(curves: list[tuple[str, np.ndarray]], title: str, fmt: str) -> bytes:
    """`curves`: (classifier, its rows' maximum doubt, inf on ties), drawn as ECDFs, as bytes of `fmt`."""
    return figure_bytes(draw_doubt(curves, title), fmt, title)


def draw_doubt(curves: list[tuple[str, np.ndarray]], title: str):
    """Draw the ECDF of each classifier's maximum doubt on a logarithmic axis, from (name, doubts) pairs."""
    fig, ax = plt.subplots(figsize=ONE_COLUMN)
    for k, (name, doubt) in enumerate(curves):
        n = len(doubt)
        finite = np.sort(doubt[np.isfinite(doubt)])
        ties = n - len(finite)
        ys = np.arange(1, len(finite) + 1) / max(n, 1)
        xs = np.concatenate([[1.0], finite]) if len(finite) else np.array([1.0])
        ys = np.concatenate([[0.0], ys]) if len(finite) else np.array([0.0])
        label = f"{name} (n = {n}" + (f"; {ties} tie(s): infinite doubt" if ties else "") + ")"
        ax.step(xs, ys, where="post", lw=1.1, color=LINES[k % len(LINES)], ls=DASHES[k % len(DASHES)],
                label=label)
    ax.set_xscale("log")
    # plain tick labels: mathtext is off for every text of the reports (names from a spec are never parsed)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: ""))
    ax.set_xlim(left=1.0)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("maximum doubt 1 / (p_top − p_second)")
    ax.set_ylabel("share of rows ≤ x")
    ax.set_title(title)
    ax.grid(True, lw=0.3, alpha=0.5)
    ax.legend(frameon=False, loc="lower right")
    return fig
