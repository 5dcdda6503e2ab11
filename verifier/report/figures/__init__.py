"""Every picture of a report: the one palette (Okabe & Ito's colours, markers, dashes, a paper's column widths:
`palette`), the one matplotlib set-up, sizes and fonts, and `Picture` (`picture`), the mathematical labels with
every name from a spec escaped (`typeset`), and which pictures a report has (`pictures`). One module per picture:
two-class decision regions (`decision_plot`), the ternary map (`ternary_plot`), where a property holds over
symbolic parameters (`parameter_plot`, `interval_plot`, `spot_plot`), a design's feasible region
(`region_plot`), a sweep's cost curves (`curve_plot`), cost surfaces (`surface_plot`), abstention maps and
differential maps (`abstention_maps`, `abstention_plot`), cost curves and losses under uncertain operating
conditions (`conditions_plot`), the doubt ECDF (`doubt_plot`) and the critical difference diagram (`cd_plot`).

Owns: drawing, and only drawing. Floats only place pixels; nothing drawn feeds a verdict. May import:
`formula`, `verdict`, `properties` (for notation and labels) and `report.safe_text`; never what computes the
results it draws (`analysis`, `designing`, `using`, `engines`, `scheme`: a contract), nor the reports that show
the pictures (`report.html`, `report.design`, `report.use`, ...: a contract). The results come computed: an
`Analysis` makes its pictures' numbers on first use (`Analysis.simplex_regions` for `ternary_plot`,
`Analysis.spot_verdicts` for `spot_plot`, in `analysis.drawn`), `report.check_pictures` passes a one-parameter
family's calibration (`designing.calibrate`) to `pictures`, and `verify design` and `verify evaluate` pass their
regions, calibrations, sweeps and rankings. Writing each picture as its own files is
`report.figure_files`, beside `report.files`, whose writers it uses (`report.files` renders the HTML page that
inlines the pictures, so a figure module importing it would make a cycle).

Nothing here loads matplotlib on import but `picture`: `pictures` stays light, so the report of a scheme with
no picture never loads it.
"""
