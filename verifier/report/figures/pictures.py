"""Which pictures a report has: for two numeric classes the optimal prediction along p(y2) (`decision_plot`),
for three the ternary map of exact decision regions (`ternary_plot`), for one or two symbolic parameters where
each property holds (`parameter_plot`). Light on purpose: matplotlib (0.3 s to import) loads only when a picture
applies, so the report of a 9-class scheme, which has none, never pays for it.
"""

from __future__ import annotations


def pictures(analysis, calibration=None) -> tuple[list, list[str]]:
    """The pictures (`figures.Picture`) that apply to this analysis, and notes on what could not be drawn; a
    scheme with one symbolic parameter is drawn from its `calibration` (`designing.Calibration`) when it has one.
    What the pictures draw comes computed (`report.check.check_pictures` passes the calibration)."""
    s = analysis.scheme
    if not s.symbolic and s.K == 2 and analysis.decision is not None:
        from verifier.report.figures.decision_plot import decision_picture

        return [decision_picture(analysis)], []
    if not s.symbolic and s.K == 3 and not s.partial:
        from verifier.report.figures.ternary_plot import ternary_picture

        return [ternary_picture(analysis)], []
    if s.symbolic and len(s.symbols) in (1, 2):
        from verifier.report.figures.parameter_plot import symbolic_pictures

        return symbolic_pictures(analysis, calibration)
    return [], []
