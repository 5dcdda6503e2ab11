"""Every picture of a report: the one palette (Okabe & Ito's colours, markers, dashes, a paper's column widths:
`palette`), the one matplotlib set-up, sizes and fonts, and `Picture` (`picture`), the mathematical labels with
every name from a spec escaped (`typeset`), and which pictures a report has (`pictures`). One module per picture:
two-class decision regions (`decision_plot`), the ternary map (`ternary_plot`), where a property holds over
symbolic parameters (`parameter_plot`, `interval_plot`, `spot_plot`), a design's feasible region (`region_plot`),
a sweep's cost curves (`curve_plot`), cost surfaces (`surface_plot`), abstention maps and differential maps
(`abstention_maps`, `abstention_plot`), baycomp's own plots of the Bayesian comparisons (`bayes_figures`), cost
curves and losses under uncertain operating conditions (`conditions_plot`), the doubt ECDF (`doubt_plot`) and the
critical difference diagram (`cd_plot`).

Owns: drawing, and only drawing. Floats only place pixels; nothing drawn feeds a verdict. May import: `formula`,
`verdict`, `properties` (for notation and labels) and `report.text`; never what computes the results it draws
(`analysis`, `designing`, `using`, `engines`, `scheme`: a contract), nor the reports that show the pictures
(`report.check`, `report.output`, `report.design`, `report.use`: a contract). The results come computed: an
`Analysis` makes its pictures' numbers on first use (`Analysis.simplex_regions` for `ternary_plot`,
`Analysis.spot_verdicts` for `spot_plot`, in `analysis.drawn`), `report.check.check_pictures` passes a one-
parameter family's calibration (`designing.calibrate`) to `pictures`, and `verify design` and `verify evaluate`
pass their regions, calibrations, sweeps and rankings. Writing each picture as its own files is
`report.output.figure_files`, beside `report.output.files`, whose writers it uses (`files` renders the HTML page
that inlines the pictures, so a figure module importing it would make a cycle).

Nothing here loads matplotlib on import but `picture`: `pictures` stays light, so the report of a scheme with no
picture never loads it.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.figures.bayes_figures import bayes_pictures
    from verifier.report.figures.cd_plot import cd_figure
    from verifier.report.figures.curve_plot import curve_figure
    from verifier.report.figures.doubt_plot import doubt_figure
    from verifier.report.figures.interval_plot import calibration_picture
    from verifier.report.figures.palette import LAYOUTS, MAX_WIDTH, MIN_WIDTH
    from verifier.report.figures.picture import inline_svg
    from verifier.report.figures.surface_plot import surface_figure

_FROM = {"LAYOUTS": "palette", "MAX_WIDTH": "palette", "MIN_WIDTH": "palette", "bayes_pictures": "bayes_figures",
         "calibration_picture": "interval_plot", "cd_figure": "cd_plot", "curve_figure": "curve_plot",
         "doubt_figure": "doubt_plot", "inline_svg": "picture", "surface_figure": "surface_plot"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
