"""Using a verified scheme, unchanged: decide which set to predict from a precise or imprecise probability
(`decide`, `credal`, `batch`), and score set-valued classifiers against the truth (`data`, `evaluate`,
`compare`, `curves`).

Owns: exact expected costs of sets, decision rules for credal sets, the scores of set predictions and their
comparison, the cost surfaces over two parameters (`surface`), binary classifiers' abstention cost curves
(`abstention/`, Friedel et al.) and their expected loss under uncertain operating conditions (`conditions/`,
Hernández-Orallo et al.), and the readers of what a user hands in (probabilities, intervals, predictions and truth: `data`,
`p_file`, `intervals_file`, `distribution`, with the exact rows they become, `exact_rows`; logits, `logits`,
decided exactly on their softmax by `logit_decide`), which only this
layer reads. May import: `analysis` (the zeros of a difference in a parameter, for `crossings`), engines (exact
expected costs), scheme, spec, formula and errors. Never `designing`, `report`, `api` or `cli`.

The names below load on first use. `decide`, `compare` and `distribution` are also the names of their
modules, so they are imported from those modules: `verifier.using.decide.decide`, `verifier.using.compare.compare`,
`verifier.using.distribution.distribution`.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verifier.using.batch import BatchDecider, BatchDecision, BatchSummary, CredalBatchDecider
    from verifier.using.compare import Comparison, PairComparison, check_pairs, finish
    from verifier.using.credal import CredalDecision, CredalSet
    from verifier.using.credal_batch import CredalRow
    from verifier.using.crossings import Crossing
    from verifier.using.curves import Sweep, parse_sweep, sweep
    from verifier.using.data import (Predictions, frame_predictions, from_arrays, read_datasets, read_predictions,
                                   read_truth)
    from verifier.using.decide import Decision
    from verifier.using.distribution import checked, intervals
    from verifier.using.evaluate import Scores, add_intervals, score
    from verifier.using.friedman import Friedman
    from verifier.using.from_probabilities import ProbabilityPredictions, column_order, predict_sets, rows_from_array
    from verifier.using.intervals_file import IntervalsFile
    from verifier.using.logit_decide import LogitDecider
    from verifier.using.logits import LogitFile, LogitRows, logit_rows, raw_certainty
    from verifier.using.p_file import DistributionFile

_FROM = {"BatchDecider": "batch", "BatchDecision": "batch", "BatchSummary": "batch", "CredalBatchDecider": "batch",
         "Comparison": "compare", "PairComparison": "compare", "check_pairs": "compare", "finish": "compare",
         "CredalDecision": "credal", "CredalSet": "credal", "CredalRow": "credal_batch", "Crossing": "crossings",
         "Sweep": "curves", "parse_sweep": "curves", "sweep": "curves", "Predictions": "data",
         "frame_predictions": "data", "from_arrays": "data", "read_datasets": "data", "read_predictions": "data",
         "read_truth": "data", "Decision": "decide", "checked": "distribution", "intervals": "distribution",
         "Scores": "evaluate", "add_intervals": "evaluate", "score": "evaluate",
         "Friedman": "friedman", "ProbabilityPredictions": "from_probabilities", "column_order": "from_probabilities",
         "predict_sets": "from_probabilities", "rows_from_array": "from_probabilities",
         "IntervalsFile": "intervals_file", "DistributionFile": "p_file", "LogitDecider": "logit_decide",
         "LogitFile": "logits", "LogitRows": "logits", "logit_rows": "logits", "raw_certainty": "logits"}
__all__ = sorted(_FROM)


def __getattr__(name: str):
    """Loaded on first use, as in `verifier.spec`: a name costs its own module only."""
    if name in _FROM:
        import importlib

        return getattr(importlib.import_module(f"verifier.using.{_FROM[name]}"), name)
    raise AttributeError(f"module 'verifier.using' has no attribute {name!r}")
