"""Abstention cost curves (Friedel, Rückert & Kramer): a binary classifier's scores on a validation set, turned
into the best abstention window (l, u) for every false-positive cost μ and abstention cost ν, its exact expected
cost (their Eq. 7), how much it abstains, the volume under the abstention cost curve (VACC), and the difference
between two classifiers.

Owns: the staircase of a classifier's scores (`score_staircase`), the optimal windows and their costs (`windows`), the
exact VACC and its grid bounds (`volume`), the independent O(n)-per-scenario re-check (`recheck`), the reading
of a scores file (`scores_file`) and of scores handed in as arrays, exactly as the file's (`score_arrays`), a
two-class spec's costs mapped to the normal form (`normal_form`) and the
whole evaluation (`curves`). Everything that decides is exact: counts are integers, costs rationals.

May import: `using.compare` and everything below it in `using` (readers of the truth, exact numbers), scheme,
spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.abstention.batch import optimal_windows
    from verifier.using.abstention.curves import (
        TRIVIAL,
        AbstentionCurves,
        ClassifierCurves,
        Difference,
        abstention_curves,
    )
    from verifier.using.abstention.normal_form import SETS, SINGLE, located, scenarios
    from verifier.using.abstention.score_arrays import exact_ranks, scores_from_arrays
    from verifier.using.abstention.score_staircase import Hull, Staircase, staircase
    from verifier.using.abstention.scores_file import Scores, read_scores
    from verifier.using.abstention.volume import Volume
    from verifier.using.abstention.windows import window_cost

_FROM = {"AbstentionCurves": "curves", "ClassifierCurves": "curves", "Difference": "curves",
         "Hull": "score_staircase", "SETS": "normal_form", "SINGLE": "normal_form", "Scores": "scores_file",
         "Staircase": "score_staircase", "TRIVIAL": "curves", "Volume": "volume", "abstention_curves": "curves",
         "located": "normal_form", "optimal_windows": "batch", "read_scores": "scores_file",
         "scenarios": "normal_form", "staircase": "score_staircase", "window_cost": "windows",
         "exact_ranks": "score_arrays", "scores_from_arrays": "score_arrays"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
