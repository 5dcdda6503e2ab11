"""The pictures of a check report (the HTML page and `--figures` show the same ones), with what they draw made
outside `report.figures`, which only draws: `make_numbers` makes them while the run is still under its time limit
(`api.completion`), before the analysis is sealed: the ternary map's regions and the verdicts at sample points
(`analysis.drawn`), and a one-parameter family's calibration, by `designing.calibrate`, since the analysis (a
lower layer) cannot ask for it. Light on purpose, as `figures.pictures` is: matplotlib loads only when a picture
is drawn.
"""

from __future__ import annotations


def pictures(analysis) -> tuple[list, list[str]]:
    """The pictures (`figures.Picture`) that apply to this analysis, and notes on what could not be drawn."""
    from verifier.report.figures.pictures import pictures as chosen

    if not make_numbers(analysis):  # the time limit cut the run before
        return [], [f"the pictures were not drawn: {analysis.stopped}"]
    return chosen(analysis, calibration(analysis))


def make_numbers(analysis) -> bool:
    """Make (and keep in the analysis) every number its pictures will draw, without drawing; False when the run
    was cut before it made them (a sealed analysis whose run was not asked for them raises `NotMade`)."""
    return analysis.part("pictures", lambda: _numbers(analysis) or True, "the numbers its pictures draw")


def _numbers(analysis) -> None:
    s = analysis.scheme
    if not s.symbolic and s.K == 3 and not s.partial:
        analysis.simplex_regions  # noqa: B018 - made and kept as the analysis' part
    elif s.symbolic and len(s.symbols) == 1:
        calibration(analysis)
    elif s.symbolic and len(s.symbols) == 2:
        from verifier.report.figures.parameter_window import SPOT_POINTS, spot_question

        question = spot_question(analysis)
        if question is not None:
            analysis.spot_verdicts(*question, SPOT_POINTS)


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
    return analysis.part("calibration", lambda: _calibrated(analysis.spec), "the calibration its picture draws")


def _calibrated(spec):
    from verifier import limits
    from verifier.designing.calibrate import calibrate

    try:
        return calibrate(spec)
    except Exception as exc:  # noqa: BLE001 - no calibration of this family (a SpecError says why): the picture is
        if isinstance(exc, limits.STOPS) and "TimeLimitReached" in str(exc):  # drawn from the exact conditions;
            raise limits.stop_of(exc) from None  # but the run's time limit (inside z3, wrapped) stops the run
        return None
