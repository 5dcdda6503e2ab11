"""The Python API: `verify`, `verify_all`, `sweep_classes`, and the `Report` they return (with the cache of
finished reports); `design` (complete or calibrate a scheme for a setting) and its `DesignReport`; using a
scheme, one entry point per job: `decide` (optimal set predictions), `evaluate` (scores of set-valued
classifiers), `abstention_curves`, `operating_conditions`, `cost_surface` and `certainty`, and their results
(`UseReport`, typed per job: `AbstentionReport`, `ConditionsReport`, `SurfaceReport`, `CertaintyReport`; many
rows decided: `BatchDecisions`); `prepare` (a spec read and its route built once, for many batches).

Owns: turning a spec source into a report, and caching it (`entry`, `report`, `cache`, `paths`, `arguments`);
`design` (`designer`); using a scheme in `api/use/` (`decide`, `evaluate`, `abstention_curves`,
`operating_conditions`, `cost_surface`, `certainty`, their reports, `scorer`, `prepare`). May import
every layer below (analysis, report, check, spec, ...); only `cli` imports it.

Everything loads on first use: checking a spec never pays for the design solver or the statistics stack
(scipy.stats alone takes longer to import than a 9-class check takes to run), and a cached re-run of the
command (`api.cache`) pays for neither the solvers nor sympy.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports
from verifier.limits import PROGRESS_STAGES

if TYPE_CHECKING:
    from verifier.api.designer import DesignReport, design
    from verifier.api.entry import load, sweep_classes, verify, verify_all
    from verifier.api.paths import spec_paths
    from verifier.api.report import ClassSweepReport, Report
    from verifier.api.use import (
        AbstentionReport,
        BatchDecisions,
        CertaintyReport,
        ConditionsReport,
        SurfaceReport,
        UseReport,
        abstention_curves,
        certainty,
        cost_surface,
        decide,
        evaluate,
        operating_conditions,
        prepare,
        scorer,
    )
    from verifier.api.use.prepared import Prepared

_LAZY = {"ClassSweepReport": "verifier.api.report", "Report": "verifier.api.report",
         "load": "verifier.api.entry", "spec_paths": "verifier.api.paths", "sweep_classes": "verifier.api.entry",
         "verify": "verifier.api.entry", "verify_all": "verifier.api.entry",
         "DesignReport": "verifier.api.designer", "design": "verifier.api.designer",
         "UseReport": "verifier.api.use.report", "decide": "verifier.api.use.decisions",
         "evaluate": "verifier.api.use.evaluation", "scorer": "verifier.api.use.set_scorer",
         "abstention_curves": "verifier.api.use.abstention", "operating_conditions": "verifier.api.use.operating",
         "cost_surface": "verifier.api.use.evaluation_surface", "certainty": "verifier.api.use.certainty_report",
         "CertaintyReport": "verifier.api.use.certainty_report", "AbstentionReport": "verifier.api.use.job_reports",
         "ConditionsReport": "verifier.api.use.job_reports", "SurfaceReport": "verifier.api.use.job_reports",
         "BatchDecisions": "verifier.api.use.batch_decisions", "Prepared": "verifier.api.use.prepared",
         "prepare": "verifier.api.use.prepared"}
_NAMES, __getattr__, __dir__ = lazy_exports(__name__, globals(), _LAZY)
__all__ = ["PROGRESS_STAGES", *_NAMES]
