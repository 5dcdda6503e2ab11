"""Every picture of a report: the one matplotlib set-up, palette, sizes and fonts, and `Picture` (`picture`),
the mathematical labels with every name from a spec escaped (`typeset`), and which pictures a report has
(`pictures`). One module per picture: two-class decision regions (`decision_plot`), the ternary map
(`ternary_plot`), where a property holds over symbolic parameters (`parameter_plot`, `interval_plot`,
`spot_plot`), a design's feasible region (`region_plot`), a sweep's cost curves (`curve_plot`) and the
critical difference diagram (`cd_plot`).

Owns: drawing. Floats only place pixels; nothing drawn feeds a verdict. May import: the results it draws
(`analysis`, `designing`, `using`) and what is below them, and `report.safe_text`; never the reports that show
the pictures (`report.html`, `report.design`, `report.use`, ...: a contract). Some pictures still compute what
they draw (`ternary_plot` the simplex regions, `parameter_plot` a calibration, `spot_plot` verdicts at sample
points), so no contract keeps this package away from `analysis` yet. Writing each picture as its own files is
`report.figure_files`, beside `report.files`, whose writers it uses (`report.files` renders the HTML page that
inlines the pictures, so a figure module importing it would make a cycle).

Nothing here loads matplotlib on import but `picture`: `pictures` stays light, so the report of a scheme with
no picture never loads it.
"""
