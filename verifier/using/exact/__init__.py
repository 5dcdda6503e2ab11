"""Exact numbers for many rows at once: what the readers, the deciders and the certainty share.

Owns: rows of distributions held exactly as integers with floats beside them (`exact_rows`), exact row sums of
float64 blocks (`binary_sums`), double-word arithmetic on arrays (`double_word`), correctly rounded ratios of a
row's own doubles (`exact_ratio`) and the mean of doubles rounded once (`float_mean`).

May import: formula, errors and numbers (below `using`); nothing else of `using` (this is its lowest floor).
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.exact.binary_sums import CHECK, RESCALED, fast_binary_rows
    from verifier.using.exact.exact_ratio import rounded_ratios
    from verifier.using.exact.exact_rows import (
        TINY,
        ExactRows,
        IntervalRows,
        U,
        binary_rows,
        decimal_row,
        interval_block,
        interval_rows,
        rational_rows,
    )
    from verifier.using.exact.float_mean import exact_mean

_FROM = {"CHECK": "binary_sums", "ExactRows": "exact_rows", "IntervalRows": "exact_rows", "RESCALED": "binary_sums",
         "TINY": "exact_rows", "U": "exact_rows", "binary_rows": "exact_rows", "decimal_row": "exact_rows",
         "exact_mean": "float_mean", "fast_binary_rows": "binary_sums", "interval_block": "exact_rows",
         "interval_rows": "exact_rows", "rational_rows": "exact_rows", "rounded_ratios": "exact_ratio"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
