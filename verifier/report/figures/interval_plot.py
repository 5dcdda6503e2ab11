"""Where each property holds over one parameter, as intervals on the parameter's axis: one row per property
(and one per setting), every piece coloured by its verdict as the other figures colour verdicts (holds: a thick
green bar, fails: a thinner vermilion one, undecided: grey dots; a setting's row the same for fits / does not
fit), a filled circle at an included end and a hollow one at an excluded end of each run where it holds.

The runs come exact from a calibration made by the caller (`designing.calibrate`: every verdict decided by the
checker at an exact value) or, when there is none, from a property's exact region condition
(`PropertyResult.region_formula`, solved for the parameter by sympy); the breakpoints are labelled with their
exact values. Floats place pixels.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES, Level
from verifier.properties.settings import TABLE_VIII
from verifier.report.figures.palette import BLUISH_GREEN, VERMILION
from verifier.report.figures.picture import Picture, plt
from verifier.report.figures.typeset import exact_ticks, math, put, symbol
from verifier.verdict import Verdict

TITLE = "Where each property holds and each setting fits"
HOLDS = BLUISH_GREEN  # the verdict colours of every figure (spot_plot's marks): holds, fails, undecided
FAILS = VERMILION
VERDICT_COLOURS = {"holds": (HOLDS, "holds / fits"), "fails": (FAILS, "fails / does not fit")}
UNDECIDED = ("#999999", "undecided")


def _float(x) -> float | None:
    if x is None:
        return None
    if isinstance(x, Fraction):
        return float(x)
    if isinstance(x, int):
        x = sp.Integer(x)
    if not isinstance(x, sp.Basic):  # ends are exact numbers the calibration made, never text
        raise TypeError(f"a calibration end must be an exact number, not {type(x).__name__}")
    return certified.to_float(x)


def calibration_picture(cal, document: str) -> Picture:
    """The calibration of a one-parameter family: every property's runs and every setting's fit (the
    calibration's own tests, `Calibration.fits`)."""
    fits = cal.fits

    def pieces(verdict):
        """Every admissible piece, coloured by `verdict(verdicts)` there ("holds", "fails" or None: undecided)."""
        return [(p, VERDICT_COLOURS.get(verdict(p.verdicts) if p.verdicts is not None else None, UNDECIDED))
                for p in cal.pieces if p.admissible]

    def fit(setting, test):
        """fits: "holds"; a necessary property fails: "fails"; else (one is undecided) None."""
        necessary = [pid for pid, level in TABLE_VIII[setting].items() if level == Level.N]
        return lambda v: ("holds" if test(v) else "fails" if any(v[pid] == Verdict.FAILS for pid in necessary)
                          else None)

    rows = []
    for prop in PROPERTIES:
        rows.append((f"{prop.id} {prop.name}", cal.where(lambda v, pid=prop.id: v[pid] == Verdict.HOLDS),
                     pieces(lambda v, pid=prop.id: v[pid] if v[pid] in (Verdict.HOLDS, Verdict.FAILS) else None)))
    for setting, test in fits.items():
        rows.append((f"{setting} fits", cal.where(test), pieces(fit(setting, test))))
    ends = [cal.pieces[0].low, cal.pieces[-1].high] if cal.pieces else []  # the admissible range
    caption = (f"Where each property holds and the scheme fits each setting, over {cal.parameter}: exact runs "
               f"(every verdict decided by the checker at an exact value of {cal.parameter}; a filled circle is an "
               "included end, a hollow one an excluded end of a run where it holds), coloured by verdict: holds or "
               "fits, fails or does not fit, undecided.")
    return Picture("calibration", TITLE, caption, lambda: draw(rows, cal.parameter, ends, True), document)


def formula_picture(analysis) -> Picture | None:
    """One parameter without a calibration: each property's exact region condition, solved for it."""
    s = analysis.scheme
    theta = s.symbols[0]
    admissible = sp.S.Reals
    for condition, _ in s.assumptions:
        if condition.free_symbols <= {theta}:
            admissible = admissible.intersect(_solved(condition, theta) or sp.S.Reals)
    rows = []
    for r in analysis.results:
        formula = r.region_formula
        if formula is None or formula in (sp.true, sp.false) or not formula.free_symbols <= {theta}:
            continue
        solved = _solved(formula, theta)
        if solved is None:
            continue
        runs = [_run(i) for i in _intervals(solved.intersect(admissible))]
        rows.append((f"{r.property.id} {r.property.name}", runs,
                     [((lo, hi), (HOLDS, "holds")) for lo, hi, *_ in runs]))
    if not rows:
        return None
    ends = [e for _, runs, _ in rows for run in runs for e in run[:2]]
    ends += [_end(admissible, "inf"), _end(admissible, "sup")]
    caption = (f"Where each property holds over {theta.name}, from its exact region condition (solved for "
               f"{theta.name}; a filled circle is an included end, a hollow one an excluded end).")
    return Picture("regions", "Where each property holds", caption,
                   lambda: draw(rows, theta.name, ends, False), s.spec.name)


def _solved(condition, theta):
    try:
        return condition.as_set() if not isinstance(condition, sp.Set) else condition
    except (NotImplementedError, TypeError, ValueError):
        return None


def _end(interval_set, which: str):
    value = getattr(interval_set, which, None)
    return value if value is not None and value.is_finite else None


def _intervals(solved) -> list:
    if isinstance(solved, sp.Union):
        return [i for part in solved.args for i in _intervals(part)]
    if isinstance(solved, sp.FiniteSet):
        return [sp.Interval(x, x) for x in solved]
    return [solved] if isinstance(solved, sp.Interval) else []


def _run(i: sp.Interval) -> tuple:
    low = i.start if i.start.is_finite else None
    high = i.end if i.end.is_finite else None
    return low, high, low is not None and not i.left_open, high is not None and not i.right_open


def draw(rows, parameter: str, ends, fit_legend: bool):
    """Draw the rows (label, runs, pieces) as coloured intervals on the parameter's axis, over a window around the
    finite ends; a legend for settings' fit when `fit_legend`."""
    finite = sorted({v for v in (_float(e) for e in ends) if v is not None})
    low, high = (finite[0], finite[-1]) if finite else (0.0, 1.0)
    pad = (high - low) * 0.06 or 0.5
    window = (low - pad, high + pad)
    fig, ax = plt.subplots(figsize=(3.5, 0.9 + 0.17 * len(rows)))
    fig.subplots_adjust(left=0.44, right=0.97)  # the row labels inside the column's width
    used = {}
    for index, (label, runs, pieces) in enumerate(rows):
        y = len(rows) - 1 - index
        for a, b, colour in _merged(pieces, window):
            if a == b:  # a single value: a dot of its colour
                ax.plot([a], [y], marker="o", ms=3.4, color=colour, mew=0, zorder=3)
            elif colour == UNDECIDED[0]:  # no verdict there (an enclosed zero, or the checker left it unknown)
                ax.plot([a, b], [y, y], color=colour, lw=1.2, ls=(0, (1, 1)), zorder=2)
            else:  # fails thinner than holds: the two read apart in grey print too
                ax.plot([a, b], [y, y], color=colour, lw=3.4 if colour == HOLDS else 1.6, solid_capstyle="butt",
                        zorder=2)
        used.update((meaning, colour) for _, (colour, meaning) in pieces)
        for lo, hi, lo_in, hi_in in runs:
            for end, included in ((lo, lo_in), (hi, hi_in)):
                if end is not None:
                    x = _float(end)
                    ax.plot([x], [y], marker="o", ms=3.6, mec="black", mew=0.6, zorder=4,
                            mfc=HOLDS if included else "white")
        ax.text(window[0] - (window[1] - window[0]) * 0.02, y, label, ha="right", va="center", fontsize=6)
        if not runs and not pieces:
            ax.text((window[0] + window[1]) / 2, y, "nowhere", ha="center", va="center", fontsize=5.5, color="0.45")
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(*window)
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    run_ends = [e for _, runs, _ in reversed(rows) for run in runs for e in run[:2] if e is not None]  # fits first
    lines = exact_ticks(ax, run_ends + [e for e in ends if e is not None], window, _float, rows=2)
    ax.grid(True, axis="x", lw=0.3, alpha=0.5)
    put(ax.set_xlabel, label=math(symbol(parameter), parameter), labelpad=1)
    if fit_legend and used:
        order = [m for _, m in list(VERDICT_COLOURS.values()) + [UNDECIDED] if m in used]
        handles = [plt.Line2D([], [], color=used[m], lw=3.4 if used[m] == HOLDS else 1.6) if m != UNDECIDED[1] else
                   plt.Line2D([], [], color=UNDECIDED[0], lw=1.2, ls=(0, (1, 1))) for m in order]
        below = (0.42 + 0.1 * (lines - 1)) / (0.77 * (0.9 + 0.17 * len(rows)))  # under the axis label, in axes units
        ax.legend(handles, order, loc="upper center", bbox_to_anchor=(0.3, -below),
                  ncol=len(order), frameon=False, handlelength=1.0, columnspacing=0.8, handletextpad=0.4)
    fig.suptitle(TITLE if fit_legend else "Where each property holds", fontsize=8, x=0.5)
    return fig


def _merged(pieces, window) -> list[tuple[float, float, str]]:
    """Consecutive pieces of one colour joined into one bar (a value between two of its pieces included)."""
    out: list[list] = []
    for piece, (colour, _) in pieces:
        lo, hi = (piece.low, piece.high) if hasattr(piece, "low") else piece
        a = window[0] if lo is None else _float(lo)
        b = window[1] if hi is None else _float(hi)
        if out and out[-1][2] == colour and out[-1][1] == a:
            out[-1][1] = b
        else:
            out.append([a, b, colour])
    return [tuple(segment) for segment in out]
