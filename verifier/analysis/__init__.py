"""One spec's analysis, orchestrated: the pipeline spec → scheme → engines → checker → fit (`pipeline`), the
symbolic pipeline with regions and spot checks (`symbolic`, `regions`), two-class decision regions
(`decision`), the fit to the filtering and choice settings (`fit`), and class sweeps (`class_sweep`).

Owns: the `Analysis` that every report renders. May import: `check`, `engines` and everything below them;
never `report`, `api` or `cli`.
"""
