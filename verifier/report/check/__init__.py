"""The check report of one spec (`verify SPEC`): what it says in every format.

Owns: evidence in plain words (`words`), the two facts about each set (`set_facts`), the rows Markdown and HTML
share (`tables`), one line per verdict (`brief`), the default console report (`compact`) and the full one
(`console`), Markdown (`markdown`), the HTML page with the pictures that apply (`html`, chosen with their
calibration by `check_pictures`), JSON (`json_record`, its matrix in `json_matrix`), JUnit for CI (`junit`),
many specs at a glance (`summary_table`) and class sweeps (`sweep`, `every_k`).

May import: `report.figures`, `report.text`, `designing` (a one-parameter family's calibration, for
`check_pictures`), `analysis` and everything below it. Never `report.output`, `report.design` or `report.use`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.check.check_pictures import pictures, why_none
    from verifier.report.check.html import SCOPED_CSS, page
    from verifier.report.check.json_record import to_json
    from verifier.report.check.junit import to_junit

_FROM = {"SCOPED_CSS": "html", "page": "html", "pictures": "check_pictures", "to_json": "json_record",
         "to_junit": "junit", "why_none": "check_pictures"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
