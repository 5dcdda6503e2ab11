"""Abstention cost curves (Friedel, Rückert & Kramer): a binary classifier's scores on a validation set, turned
into the best abstention window (l, u) for every false-positive cost μ and abstention cost ν, its exact expected
cost (their Eq. 7), how much it abstains, the volume under the abstention cost curve (VACC), and the difference
between two classifiers.

Owns: the staircase of a classifier's scores (`staircase`), the optimal windows and their costs (`windows`), the
exact VACC and its grid bounds (`volume`), the independent O(n)-per-scenario re-check (`recheck`), the reading
of a scores file (`scores_file`), a two-class spec's costs mapped to the normal form (`normal_form`) and the
whole evaluation (`curves`). Everything that decides is exact: counts are integers, costs rationals.

May import: the rest of `using` (readers of the truth, exact numbers), scheme, spec, formula and errors.
"""
