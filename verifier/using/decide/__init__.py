"""Optimal set predictions (`verify decide`): the set of least expected cost for a precise distribution, for a
credal set, and for many rows at once.

Owns: one precise distribution's optimal sets and their exact expected costs (`precise`), credal sets and the
rules that decide with them (`credal`, `credal_batch`), batch decisions (`batch`), the routes for schemes that
treat every class alike (`symmetric`) and for restricted families (`family_decide`, `family_rows`), decisions
on logits' softmax (`logit_decide`, `logit_exact`, `logit_symmetric`), and a classifier's probabilities turned
into set predictions (`from_probabilities`).

May import: `using.inputs`, `using.certainty`, `using.exact`, engines, scheme, spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.decide.batch import BatchDecider, BatchDecision, BatchSummary, CredalBatchDecider
    from verifier.using.decide.credal import CredalDecision, CredalSet
    from verifier.using.decide.credal_batch import CredalRow
    from verifier.using.decide.family_decide import FamilyRoute, alike_route, singled_out
    from verifier.using.decide.from_probabilities import (
        ProbabilityPredictions,
        array_rows,
        column_order,
        predict_sets,
        rows_from_array,
    )
    from verifier.using.decide.logit_decide import LogitDecider
    from verifier.using.decide.precise import Decision, decide

_FROM = {"BatchDecider": "batch", "BatchDecision": "batch", "BatchSummary": "batch", "CredalBatchDecider": "batch",
         "CredalDecision": "credal", "CredalRow": "credal_batch", "CredalSet": "credal", "Decision": "precise",
         "FamilyRoute": "family_decide", "LogitDecider": "logit_decide",
         "ProbabilityPredictions": "from_probabilities", "alike_route": "family_decide",
         "column_order": "from_probabilities", "decide": "precise", "predict_sets": "from_probabilities",
         "rows_from_array": "from_probabilities", "array_rows": "from_probabilities", "singled_out": "family_decide"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
