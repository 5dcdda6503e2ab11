"""Reports: what people and CI read. At the top, the check report of one spec and the writers every report
shares: evidence in plain words (`words`, exact values printed by `sympy_text`), the console (`console`,
`compact`, `brief`, `terminal`, `text_grid`), JSON (`json_record`), Markdown (`markdown`, `safe_text`), HTML
(`html`, with the pictures that apply, chosen with their calibration by `check_pictures`), the report files
(`files`, `paths`) and the figure files (`figure_files`), JUnit for CI (`junit`), many specs at a glance
(`summary_table`), class sweeps (`sweep`, `every_k`), and the notebook pieces every result uses (`notebook`).
Below it, one subpackage per job: `figures` (every picture), `design` (what `verify design` says) and `use`
(what `verify decide` and `verify evaluate` say).

Owns: what people and CI read. Decides nothing: every number shown comes from the analysis, the design or the
use. May import: `designing`, `using`, `analysis` and everything below them.
"""
