"""What `verify design` says: the designed spec with its justification, and JSON (`words`), and, when no
matrix meets the firm demands, the conflicts, a correction and the least change (`why_not`). Its pictures
(calibrations, feasible regions) are in `report.figures`.

Owns: the design report's text and JSON. Decides nothing: every number comes from `designing`. May import:
`designing` and everything below it; never `using` or `report.use`.
"""
