"""Using a verified scheme, unchanged: one subpackage per job, in layers (lowest first, an import-linter
contract in pyproject.toml):

    operating     uncertain operating conditions of binary classifiers (Hernández-Orallo et al.)
    abstention    abstention cost curves, VACC and differential costs (Friedel et al.)
    compare       classifiers compared statistically, on one data set or over several
    evaluate      scores of set-valued classifiers, parameter sweeps, cost surfaces, certainty per classifier
    decide        optimal set predictions: precise, credal, batch, on logits, restricted families
    inputs        what a user hands in: predictions and truth, probabilities, intervals, logits, CSV and .npy
    certainty     certainty and doubt of each decision, a two-class scheme's certainty margin (Berenbeim et al.)
    exact         exact rows and the exact-number helpers the others share

Owns: exact expected costs of sets, decision rules for credal sets, the scores of set predictions and their
comparison, binary classifiers' abstention cost curves and their expected loss under uncertain operating
conditions, and the readers of what a user hands in, which only this layer reads. May import: `analysis` (the
zeros of a difference in a parameter, for `evaluate.crossings`), engines (exact expected costs), scheme, spec,
formula and errors. Never `designing`, `report`, `api` or `cli`.

The names below load on first use, each from its subpackage's face (`verifier.using.decide`, ...), which
exports what the rest of the package uses; callers outside `using` import from those faces, never from the
modules behind them. `decide` and `compare` are the names of subpackages, so their functions are imported
from them: `from verifier.using.decide import decide`, `from verifier.using.compare import compare`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.compare import Comparison, Friedman, PairComparison, check_pairs, finish
    from verifier.using.decide import (
        BatchDecider,
        BatchDecision,
        BatchSummary,
        CredalBatchDecider,
        CredalDecision,
        CredalRow,
        CredalSet,
        Decision,
        LogitDecider,
        ProbabilityPredictions,
        array_rows,
        column_order,
        predict_sets,
        rows_from_array,
    )
    from verifier.using.evaluate import Crossing, Scores, Sweep, add_intervals, parse_sweep, score, sweep
    from verifier.using.inputs import (
        DistributionFile,
        IntervalsFile,
        LogitFile,
        LogitRows,
        Predictions,
        checked,
        frame_predictions,
        from_arrays,
        intervals,
        logit_rows,
        raw_certainty,
        read_datasets,
        read_predictions,
        read_truth,
    )

_FROM = {"BatchDecider": "decide", "BatchDecision": "decide", "BatchSummary": "decide", "Comparison": "compare",
         "array_rows": "decide", "CredalBatchDecider": "decide",
         "CredalDecision": "decide", "CredalRow": "decide", "CredalSet": "decide",
         "Crossing": "evaluate", "Decision": "decide", "DistributionFile": "inputs", "Friedman": "compare",
         "IntervalsFile": "inputs", "LogitDecider": "decide", "LogitFile": "inputs", "LogitRows": "inputs",
         "PairComparison": "compare", "Predictions": "inputs", "ProbabilityPredictions": "decide",
         "Scores": "evaluate", "Sweep": "evaluate", "add_intervals": "evaluate", "check_pairs": "compare",
         "checked": "inputs", "column_order": "decide", "finish": "compare", "frame_predictions": "inputs",
         "from_arrays": "inputs", "intervals": "inputs", "logit_rows": "inputs", "parse_sweep": "evaluate",
         "predict_sets": "decide", "raw_certainty": "inputs", "read_datasets": "inputs", "read_predictions": "inputs",
         "read_truth": "inputs", "rows_from_array": "decide", "score": "evaluate", "sweep": "evaluate"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
