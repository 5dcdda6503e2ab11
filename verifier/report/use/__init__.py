"""What `verify decide` and `verify evaluate` say: the optimal sets and how ties were resolved (`decisions`), each
classifier's scores and a sweep's curves (`scores`), the classifiers x measures table for a console or a paper
(`score_table`), the paired comparisons and the Friedman test (`comparison`), how these results show themselves
in a notebook (`notebook`; the certainty report and the extra statistics as tables, records and data frames:
`result_tables`), and the pictures of an evaluation as files (`figures`). Their pictures (cost curves,
the critical difference diagram) are in `report.figures`.

Owns: the use report's text, JSON, CSV and tables. Decides nothing: every number comes from `using`. May import:
`using` and everything below it, `report.figures`, `report.output` and `report.text`; never `designing` or
`report.design`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.use.abstention import abstention_lines
    from verifier.report.use.comparison import wrapped
    from verifier.report.use.conditions import conditions_json, conditions_lines
    from verifier.report.use.decisions import TIE_RULE, names
    from verifier.report.use.extra_stats import extra_text
    from verifier.report.use.figures import use_figures
    from verifier.report.use.report_files import check_report, write_use_report
    from verifier.report.use.result_tables import (
        ExtraStats,
        certainty_html,
        certainty_pair_records,
        certainty_records,
        data_frame,
        extra_html,
        extra_records,
    )

_FROM = {"TIE_RULE": "decisions", "abstention_lines": "abstention", "check_report": "report_files",
         "conditions_json": "conditions", "conditions_lines": "conditions", "extra_text": "extra_stats",
         "names": "decisions", "use_figures": "figures", "wrapped": "comparison", "write_use_report": "report_files",
         "certainty_html": "result_tables", "certainty_pair_records": "result_tables",
         "certainty_records": "result_tables", "data_frame": "result_tables", "extra_html": "result_tables",
         "extra_records": "result_tables", "ExtraStats": "result_tables"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
