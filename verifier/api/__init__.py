"""The Python API: `verify`, `verify_all`, `sweep_classes`, and the `Report` they return (with the cache of
finished reports); `design` (complete or calibrate a scheme for a setting) and its `DesignReport`; `decide` and `evaluate` (use a
scheme: optimal set predictions, scores of set-valued classifiers) and their `UseReport`.

Owns: turning a spec source into a report, and caching it. May import every layer below (analysis, report,
check, spec, ...); only `cli` imports it.
"""

from verifier.analysis.pipeline import STAGES as PROGRESS_STAGES
from verifier.api.design import DesignReport, design
from verifier.api.report import ClassSweepReport, Report
from verifier.api.use import UseReport, decide, evaluate
from verifier.api.verify import load, spec_paths, sweep_classes, verify, verify_all

__all__ = ["PROGRESS_STAGES", "ClassSweepReport", "DesignReport", "Report", "UseReport", "decide", "design", "evaluate",
           "load", "spec_paths", "sweep_classes", "verify", "verify_all"]
