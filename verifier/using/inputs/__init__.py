"""What a user hands in, read strictly and exactly: the only readers of user files in `using`.

Owns: CSV files read strictly (`csv_text`), `.npy` files bounded before allocation (`npy`), set predictions
and the truth (`data`), probabilities, intervals and vertices typed on the command line (`probabilities`),
files of distributions (`p_file`) and of probability intervals (`intervals_file`), and rows of logits with
their raw certainty and doubt (`logits`).

May import: `using.certainty` (the raw certainty of logits), `using.exact`, scheme, spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.inputs.csv_text import csv_rows, excerpt, regular_file
    from verifier.using.inputs.data import (
        DATASET_COLUMNS,
        TRUE_COLUMNS,
        Predictions,
        frame_predictions,
        from_arrays,
        labels,
        read_datasets,
        read_predictions,
        read_truth,
    )
    from verifier.using.inputs.intervals_file import IntervalsFile
    from verifier.using.inputs.logits import LogitFile, LogitRows, logit_row, logit_rows, raw_certainty, raw_pairwise
    from verifier.using.inputs.npy import MAX_ELEMENTS
    from verifier.using.inputs.p_file import DistributionFile
    from verifier.using.inputs.probabilities import (
        ROW_TOLERANCE,
        checked,
        distribution,
        exact_number,
        intervals,
        total_text,
    )

_FROM = {"DATASET_COLUMNS": "data", "DistributionFile": "p_file", "IntervalsFile": "intervals_file",
         "LogitFile": "logits", "LogitRows": "logits", "MAX_ELEMENTS": "npy", "Predictions": "data",
         "ROW_TOLERANCE": "probabilities", "TRUE_COLUMNS": "data", "checked": "probabilities", "csv_rows": "csv_text",
         "distribution": "probabilities", "exact_number": "probabilities", "excerpt": "csv_text",
         "frame_predictions": "data", "from_arrays": "data", "intervals": "probabilities", "labels": "data",
         "logit_row": "logits", "logit_rows": "logits", "raw_certainty": "logits", "raw_pairwise": "logits",
         "read_datasets": "data", "read_predictions": "data", "read_truth": "data", "regular_file": "csv_text",
         "total_text": "probabilities"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
