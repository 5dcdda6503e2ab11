"""The two-parameter design map: each exactly decided grid point of the admissible window coloured by whether
the scheme fits the setting there (fits: bluish green, fits with warnings: sky blue, does not fit: vermilion,
undecided: grey, outside the assumptions: light grey), with one legend entry per status drawn. The exact
conditions behind it are in the caption and the design report. Floats place pixels only.
"""

from __future__ import annotations

import numpy as np

from verifier.report.figures.palette import BLUISH_GREEN, DASHES, MISSING, ONE_COLUMN_WIDTH, SKY_BLUE, VERMILION
from verifier.report.figures.picture import Picture, plt

COLOURS = {"fits": BLUISH_GREEN, "fits with warnings": SKY_BLUE, "does not fit": VERMILION,
           "undecided": "#999999", "inadmissible": MISSING}
TITLE = "Where the scheme fits the setting"


def plane_picture(plane, document: str) -> Picture:
    """The picture of the design map: where in the plane the scheme fits the setting."""
    x, y = plane.parameters
    caption = (f"Where in the ({x}, {y}) plane the scheme fits the {plane.setting} setting, each point of the grid "
               "decided exactly from the properties' exact regions: fits, fits with warnings (a desirable property "
               "fails or an undesirable one holds), does not fit, undecided, outside the assumptions.")
    return Picture("design-map", f"{TITLE}: {plane.setting}", caption, lambda: _draw(plane), document)


def _draw(plane):
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    statuses = list(COLOURS)
    codes = np.array([[statuses.index(s) for s in row] for row in plane.grid])
    (x0, x1), (y0, y1) = plane.window
    fig, ax = plt.subplots(figsize=(ONE_COLUMN_WIDTH, ONE_COLUMN_WIDTH * 0.9))
    ax.imshow(codes, origin="lower", extent=(float(x0), float(x1), float(y0), float(y1)), aspect="auto",
              cmap=ListedColormap(list(COLOURS.values())), vmin=-0.5, vmax=len(statuses) - 0.5,
              interpolation="nearest")
    x, y = plane.parameters
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{plane.setting} setting")
    used = [s for s in statuses if any(s in row for row in plane.grid)]
    handles = [Patch(facecolor=COLOURS[s], edgecolor="black", linewidth=0.4, label=s) for s in used]
    handles += _boundaries(ax, plane)
    ax.set_xlim(float(x0), float(x1))
    ax.set_ylim(float(y0), float(y1))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2, frameon=False)
    fig.tight_layout()
    return fig


def _boundaries(ax, plane) -> list:
    """Each boundary relation of the properties whose verdict changes in the plane, drawn as its zero line (a
    relation shared by several properties once, named by all of them): where the exact conditions change."""
    from matplotlib.lines import Line2D

    from verifier.lazy_sympy import sympy as sp

    (x0, x1), (y0, y1) = plane.window
    xs, ys = np.meshgrid(np.linspace(float(x0), float(x1), 241), np.linspace(float(y0), float(y1), 241))
    symbols = {s.name: s for pid in plane.boundaries for s in plane.holds_where[pid].free_symbols}
    if any(name not in symbols for name in plane.parameters):
        symbols.update({name: sp.Symbol(name) for name in plane.parameters if name not in symbols})
    x, y = (symbols[name] for name in plane.parameters)
    names: dict = {}
    for pid in plane.boundaries:
        for atom in plane.holds_where[pid].atoms(sp.core.relational.Relational):
            if not (isinstance(atom.lhs, sp.Expr) and isinstance(atom.rhs, sp.Expr)):
                continue  # a relation between conditions, not a line
            for factor in sp.factor_list(sp.together(atom.lhs - atom.rhs).as_numer_denom()[0])[1]:
                line = sp.expand(factor[0])
                if line.free_symbols and line.free_symbols <= {x, y}:
                    key = line if not sp.Poly(line, x, y).LC() < 0 else sp.expand(-line)
                    names.setdefault(key, []).append(pid)
    handles = []
    for k, (difference, pids) in enumerate(names.items()):
        f = sp.lambdify([x, y], difference, "numpy")
        with np.errstate(all="ignore"):
            values = np.broadcast_to(np.asarray(f(xs, ys), dtype=float), xs.shape)
        if not np.isfinite(values).any() or values.min() > 0 or values.max() < 0:
            continue
        style = DASHES[k % len(DASHES)]
        ax.contour(xs, ys, values, levels=[0], colors="black", linewidths=0.9, linestyles=style)
        solved = sp.solve(difference, x) if difference.has(x) else []
        relation = f"{x} = {solved[0]}" if len(solved) == 1 else f"{difference} = 0"
        label = ", ".join(dict.fromkeys(pids)) + f": {relation}"
        handles.append(Line2D([], [], color="black", lw=0.9, ls=style, label=label))
    return handles
