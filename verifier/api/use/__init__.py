"""The Python API of using a verified scheme, one entry point per job: `decide`, `evaluate` (set-valued
classifiers' scores), `abstention_curves`, `operating_conditions`, `cost_surface` and `certainty`, the `UseReport`
they return (typed per job: `AbstentionReport`, `ConditionsReport`, `SurfaceReport`; `CertaintyReport`), and
`scorer` (the scheme as a scikit-learn scorer).

Owns: what `decide` (`decisions`, with one row of logits: `logit_row`; certainty and doubt: `certainty_report`)
and `evaluate` (`evaluation`, what it has done so far: `evaluation_run`; a classifier's probabilities turned into
sets: `probabilities`; cost surfaces: `evaluation_surface`; abstention cost curves: `abstention`; uncertain
operating conditions: `operating`; each job's typed result: `job_reports`; what the entry points hand their
internals, one request per job: `requests`) return (`report`: `UseReport`; many rows decided: `batch_decisions`),
a spec prepared once for many batches (`prepared`, what it keeps: `kept`), the one form of the scheme they decide and
score with (`route`), and `scorer` (`set_scorer`). Everything loads on first use: checking a spec never loads
this package.

May import: `api`'s check entry points (`entry`, `arguments`), `report`, `using` and everything below them.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.api.use.abstention import abstention_curves
    from verifier.api.use.batch_decisions import BatchDecisions
    from verifier.api.use.certainty_report import CertaintyReport, certainty
    from verifier.api.use.decisions import decide
    from verifier.api.use.evaluation import evaluate
    from verifier.api.use.evaluation_surface import cost_surface
    from verifier.api.use.job_reports import AbstentionReport, ConditionsReport, SurfaceReport
    from verifier.api.use.operating import operating_conditions
    from verifier.api.use.prepared import Prepared, prepare
    from verifier.api.use.report import BatchReport, UseReport
    from verifier.api.use.set_scorer import scorer

_FROM = {"AbstentionReport": "job_reports", "BatchDecisions": "batch_decisions", "Prepared": "prepared",
         "prepare": "prepared", "BatchReport": "report", "CertaintyReport": "certainty_report",
         "ConditionsReport": "job_reports", "SurfaceReport": "job_reports", "UseReport": "report",
         "abstention_curves": "abstention", "certainty": "certainty_report", "cost_surface": "evaluation_surface",
         "decide": "decisions", "evaluate": "evaluation", "operating_conditions": "operating",
         "scorer": "set_scorer"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
