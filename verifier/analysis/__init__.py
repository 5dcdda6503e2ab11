"""One spec's analysis, orchestrated: the pipeline spec → scheme → engines → checker → fit (`pipeline`), the
symbolic pipeline with regions and spot checks (`symbolic`, `regions`, `symbolic_optimality`, with each set's
status as conditions on the parameters: `optimality_conditions`, `simplex_elimination`, and with two
parameters `sign_cells`, `sign_factors`, `sign_formulas`, proved by the named witnesses of `witness_cover`), two-class
decision regions (`decision`), what the pictures draw, made on first use (`drawn`: the regions on the simplex
of `simplex_regions`, exact verdicts at sample points), the fit to the filtering and choice settings (`fit`),
and class sweeps (`class_sweep`). A symbolic parameter θ's tools live here because the symbolic pipeline uses
them, and the layers above (`designing`, `using`) share them from here: where a difference in θ is zero
(`zeros`, `exp_sums`, with the end lemmas `vanishing_exponent` and `end_zero`), the points of θ's range
(`parameter_range`), and a verdict carried across a piece of it (`carry`, `central_witness`).

Owns: the `Analysis` that every report renders. May import: `check`, `engines` and everything below them;
never `designing`, `using`, `report`, `api` or `cli`.
"""
