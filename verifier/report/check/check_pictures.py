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


def why_none(analysis, notes: list[str]) -> str:
    """Why a check report has no picture, in one sentence (what the pictures need, and what this scheme is)."""
    s = analysis.scheme
    if notes:
        return "; ".join(notes)
    symbols = len(s.symbols) if s.symbolic else 0
    what = f"{s.K} classes" + (f" and {symbols} symbolic parameters" if symbols else "") + \
        (" and open cells" if getattr(s, "partial", False) else "")
    return ("pictures are drawn for a numeric scheme of two or three classes (the optimal prediction along p, the "
            "ternary map of decision regions) or for one or two symbolic parameters (where each property holds); "
            f"this scheme has {what}")


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
