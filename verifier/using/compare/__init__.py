"""Comparing set-valued classifiers statistically (`verify evaluate` with several classifiers or data sets).

Owns: the comparison on one data set, pair by pair, and its driver (`comparison`), pairs compared in chunks
(`pairs`), the Wilcoxon signed-rank test row by row (`signed_ranks`), two classifiers over several data sets
(`over_datasets`), Friedman's test and its ranks (`friedman`), all pairwise comparisons after it (`all_pairs`),
and the optional extra statistics (`posthoc`, `bayes_over_datasets`).

May import: `using.evaluate` and everything below it in `using`, scheme, spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.compare.comparison import (
        CI_METHOD,
        NAMED,
        SIGN_TEST,
        Comparison,
        PairComparison,
        check_pairs,
        compare,
        finish,
        holm,
    )
    from verifier.using.compare.friedman import Friedman, ranks
    from verifier.using.compare.over_datasets import DatasetPair
    from verifier.using.compare.posthoc import bayes_pairs, extra_statistics
    from verifier.using.compare.signed_ranks import wilcoxon_rows

_FROM = {"CI_METHOD": "comparison", "Comparison": "comparison", "DatasetPair": "over_datasets",
         "Friedman": "friedman", "NAMED": "comparison", "PairComparison": "comparison", "SIGN_TEST": "comparison",
         "bayes_pairs": "posthoc", "check_pairs": "comparison", "compare": "comparison",
         "extra_statistics": "posthoc", "finish": "comparison", "holm": "comparison", "ranks": "friedman",
         "wilcoxon_rows": "signed_ranks"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
