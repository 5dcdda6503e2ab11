"""Reports of an analysis: evidence in plain words (`words`, exact values printed by `sympy_text`), the
console (`console`, `terminal`, `text_grid`), JSON (`json_record`), Markdown (`markdown`), HTML (`html`, with
the `pictures` that apply, drawn by `plots`), the report files (`files`), JUnit for CI (`junit`), and class
sweeps (`sweep`).

Owns: what people and CI read. Decides nothing: every number shown comes from the analysis. May import:
`analysis` and everything below it.
"""
