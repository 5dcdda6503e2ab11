"""Designing schemes (`verify design`): the paper's question "how to determine them?", answered exactly.

Owns: completing an extended matrix for a setting (`complete`: the request from Table VIII, the open cells as
unknowns, each property's own definition as linear conditions, exact optimisation with an explicit margin for
strict inequalities, the freedom left per cell, an irreducible conflict and the least repair when nothing
fits), and calibrating a one-parameter family (`calibrate`, `pieces`), with their feasible regions (`region`).
May import: `analysis` (the pipeline, to verify what it designs; the zeros of a difference in θ, the points of
θ's range and the carrying of a verdict across a piece, which the symbolic pipeline uses too and so live there),
check, engines, scheme, spec, formula, properties. Never `using`, `report`, `api` or `cli`: rendering lives in
`report.design`.

The names below load on first use (the solver behind `complete` loads scipy.optimize). `calibrate` and
`complete` are also the names of their modules, so they are imported from those modules:
`verifier.designing.calibrate.calibrate`, `verifier.designing.complete.complete`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.designing.complete import Completion, DesignCheckFailed
    from verifier.designing.pieces import Calibration, Piece, bounded_by, failing_cover, fit_test
    from verifier.designing.region import Region
    from verifier.designing.request import Request, make_request
    from verifier.designing.solve import Undecided
    from verifier.designing.spec_text import calibrated_text
    from verifier.designing.status import DesignStatus
    from verifier.designing.why_not import MAX_CONFLICTS, Diagnosis

_FROM = {"Completion": "complete", "DesignCheckFailed": "complete", "Calibration": "pieces", "Piece": "pieces",
         "bounded_by": "pieces", "failing_cover": "pieces", "fit_test": "pieces", "Region": "region",
         "Request": "request", "make_request": "request", "Undecided": "solve", "calibrated_text": "spec_text",
         "MAX_CONFLICTS": "why_not", "Diagnosis": "why_not", "DesignStatus": "status"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
