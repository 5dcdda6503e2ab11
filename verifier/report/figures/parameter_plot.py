"""Where a property holds over two symbolic parameters, drawn from the exact condition the report states
(`PropertyResult.region_formula`): one figure per property, the region where the condition holds shaded, each
boundary curve of the condition (an atom lhs = rhs, solved for a parameter where sympy can) traced as the zero
contour of lhs - rhs on a fine grid, values outside the assumptions greyed, the axes named with the parameters
(typeset) and a legend. Floats only trace the exact curves; nothing drawn decides anything.

`symbolic_pictures` chooses the pictures of a symbolic scheme: this for two parameters (and, for the properties
with no exact condition, the exact verdicts at sample points of `spot_plot`); for one, the intervals of
`interval_plot` (a calibration when the family allows one, else the exact conditions solved for it). The
calibration and the verdicts at sample points come computed (`report.check.check_pictures`, `Analysis.spot_verdicts`).
"""

from __future__ import annotations

import numpy as np

from verifier.lazy_sympy import sympy as sp
from verifier.report.figures.palette import BLACK, BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, SKY_BLUE, VERMILION
from verifier.report.figures.parameter_window import evaluate, margin, spot_question, window
from verifier.report.figures.picture import ONE_COLUMN, Picture, plt
from verifier.report.figures.typeset import expression_label, legend_math, math, put, symbol

GRID = 241  # samples per axis: the zero contour of a smooth difference is traced well within a pixel
HOLDS, OUTSIDE = BLUISH_GREEN, "#bbbbbb"
LINES = [VERMILION, BLUE, REDDISH_PURPLE, ORANGE, SKY_BLUE, BLACK]  # the boundaries: `palette`'s, green left to HOLDS
STYLES = ["-", "--", "-.", ":"]


def symbolic_pictures(analysis, calibration=None) -> tuple[list[Picture], list[str]]:
    """The pictures of a scheme with one or two symbolic parameters, and notes on what is not drawn; one
    parameter is drawn from its `calibration` (made by `designing.calibrate`) when given, else from the exact
    conditions."""
    s = analysis.scheme
    if len(s.symbols) == 1:
        from verifier.report.figures.interval_plot import calibration_picture, formula_picture

        if calibration is not None:
            picture = calibration_picture(calibration, analysis.spec.name)
        else:
            picture = formula_picture(analysis)
        return ([picture] if picture else []), []
    spots = spot_question(analysis)
    unstated = spots[0] if spots else []
    pictures = [region_picture(analysis, r) for r in analysis.results if r.region_formula is not None
                and r.region_formula not in (sp.true, sp.false) and all(r is not u for u in unstated)]
    if spots:
        from verifier.report.figures.spot_plot import spot_picture

        pictures.append(spot_picture(analysis, *spots))
    return pictures, []


def region_picture(analysis, result) -> Picture:
    """The picture of where one property holds over two parameters, from its exact region."""
    p = result.property
    caption = (f"Where {p.id} ({p.name}) holds over {', '.join(x.name for x in analysis.scheme.symbols)}: "
               f"exactly when {result.region}. The boundary curves are traced from this exact condition; "
               "grey, if any: outside the assumptions.")
    return Picture(f"region-{p.id}", f"{p.id} {p.name}: where it holds", caption,
                   lambda: draw(analysis, result), analysis.spec.name)


def _atoms(formula) -> list:
    seen = []
    for atom in sp.preorder_traversal(formula, keys=True):  # a fixed order: Boolean args follow the hash seed
        if isinstance(atom, sp.core.relational.Relational) and not any(atom == other for other in seen):
            seen.append(atom)
    return seen


def _curve_label(atom, x, y) -> tuple[str, bool]:
    """lhs = rhs, solved for the vertical parameter (else the horizontal one) when sympy gives one solution."""
    equation = sp.Eq(atom.lhs, atom.rhs, evaluate=False)
    for unknown in (y, x):
        if unknown in atom.free_symbols:
            try:
                solutions = sp.solve(atom.lhs - atom.rhs, unknown)
            except (NotImplementedError, ValueError, TypeError):
                continue
            if len(solutions) == 1:
                equation = sp.Eq(unknown, solutions[0], evaluate=False)
                break
    return expression_label(equation)


def _simplified(ax, filled) -> None:
    """Filled contours with the collinear grid points of their edges removed (as lines are, by matplotlib's
    path simplification in display space): the same shape, a fraction of the SVG."""
    to_display = ax.transData
    paths = [to_display.inverted().transform_path(to_display.transform_path(p).cleaned(simplify=True))
             for p in filled.get_paths()]
    filled.set_paths(paths)


def draw(analysis, result):
    """Draw the region where the property holds over the two parameters, its boundary curves, and grey outside the
    assumptions."""
    s = analysis.scheme
    x, y = s.symbols
    (x0, x1), (y0, y1) = window(analysis, x), window(analysis, y)
    grid = np.meshgrid(np.linspace(x0, x1, GRID), np.linspace(y0, y1, GRID))
    names = [x, y]
    assumed = sp.And(*[c for c, _ in s.assumptions]) if s.assumptions else sp.true
    admissible = margin(assumed, names, grid)
    holds = np.minimum(margin(result.region_formula, names, grid), admissible)
    fig, ax = plt.subplots(figsize=ONE_COLUMN)
    handles, labels = [], []
    fig.subplots_adjust(left=0.14, right=0.64, bottom=0.16, top=0.9)  # the legend to the right, in the column
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    if np.any(holds > 0):
        _simplified(ax, ax.contourf(*grid, holds, levels=[0, np.inf], colors=[HOLDS], alpha=0.35))
        handles.append(plt.Rectangle((0, 0), 1, 1, fc=HOLDS, alpha=0.35))
        labels.append((f"{result.property.id} holds", False))
    if np.any(admissible < 0):
        _simplified(ax, ax.contourf(*grid, admissible, levels=[-np.inf, 0], colors=[OUTSIDE], alpha=0.6))
        handles.append(plt.Rectangle((0, 0), 1, 1, fc=OUTSIDE, alpha=0.6))
        labels.append(("outside the assumptions", False))
    for index, atom in enumerate(_atoms(result.region_formula)):
        values = evaluate(atom.lhs - atom.rhs, names, grid)
        finite = values[np.isfinite(values)]
        if finite.size == 0 or finite.min() > 0 or finite.max() < 0:
            continue  # this boundary does not cross the window
        colour, style = LINES[index % len(LINES)], STYLES[index // len(LINES) % len(STYLES)]
        ax.contour(*grid, values, levels=[0], colors=[colour], linewidths=1.0, linestyles=[style])
        handles.append(plt.Line2D([], [], color=colour, lw=1.0, ls=style))
        labels.append(_curve_label(atom, x, y))
    put(ax.set_xlabel, label=math(symbol(x.name), x.name))
    put(ax.set_ylabel, label=math(symbol(y.name), y.name))
    ax.tick_params(labelsize=6.5)
    legend = ax.legend(handles, [text for text, _ in labels], loc="upper left", bbox_to_anchor=(1.02, 1.0),
                       frameon=False, handlelength=1.6, borderaxespad=0)
    legend_math(legend, labels)
    ax.set_title(f"{result.property.id} {result.property.name}: where it holds")
    return fig
