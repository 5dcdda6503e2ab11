"""The pictures of a check report (the HTML page and `--figures` show the same ones), with what they draw made
outside `report.figures`, which only draws: the analysis computes its own on first use (`analysis.drawn`: the
ternary map's regions, verdicts at sample points), and a one-parameter family's calibration is made here, by
`designing.calibrate`, since the analysis (a lower layer) cannot ask for it. Light on purpose, as
`figures.pictures` is: the solver and matplotlib load only when a picture applies.
"""

from __future__ import annotations


def pictures(analysis) -> tuple[list, list[str]]:
    """The pictures (`figures.Picture`) that apply to this analysis, and notes on what could not be drawn."""
    from verifier.report.figures.pictures import pictures as chosen

    return chosen(analysis, calibration(analysis))


def calibration(analysis):
    """The calibration (`designing.Calibration`) a scheme with one symbolic parameter is drawn from, or None:
    for any other scheme, and for a family that has none (the picture then shows the exact conditions)."""
    s = analysis.scheme
    if not s.symbolic or len(s.symbols) != 1:
        return None
    from verifier.designing.calibrate import calibrate

    try:
        return calibrate(analysis.spec)
    except Exception:  # noqa: BLE001 - no calibration of this family (a SpecError says why); a picture never stops
        return None  # a report
