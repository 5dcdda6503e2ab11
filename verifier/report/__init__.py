"""Reports of an analysis: evidence in plain words (`words`), the console (`console`, `terminal`,
`text_grid`), JSON (`json_record`), Markdown (`markdown`), HTML (`html`, with `plots`), the report files
(`files`), JUnit for CI (`junit`), and class sweeps (`sweep`).

Owns: what people and CI read. Decides nothing: every number shown comes from the analysis. May import:
`analysis` and everything below it.
"""
