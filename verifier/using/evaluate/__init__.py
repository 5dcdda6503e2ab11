"""Scores of set-valued classifiers under a scheme (`verify evaluate`): one classifier at a time.

Owns: the mean cost and the summaries of set predictions (`scores`), the exact cost of each cell met
(`cell_costs`), the percentile bootstrap (`bootstrap`), the mean cost as a parameter sweeps (`curves`) and where
two classifiers' curves cross (`crossings`), cost surfaces over two parameters (`cost_surface`), and certainty
per classifier (`certainty_eval`).

May import: `using.decide`, `using.inputs`, `using.certainty`, `using.exact`, `analysis` (the zeros of a
difference in a parameter), engines, scheme, spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.evaluate.bootstrap import (
        BOOTSTRAP,
        COUNTS_FROM,
        SEED,
        counts_means,
        few_values,
        percentile_intervals,
        resample_means,
    )
    from verifier.using.evaluate.cell_costs import AlikeCosts, CellCosts, ListedCosts, costs_of
    from verifier.using.evaluate.certainty_eval import certainty_of, paired_certainty
    from verifier.using.evaluate.cost_surface import (
        FixedSets,
        Surface,
        SurfaceGrid,
        cheapest,
        lowest,
        parse_sweeps,
        surface,
    )
    from verifier.using.evaluate.crossings import Crossing
    from verifier.using.evaluate.curves import Sweep, cut_short, parse_sweep, sweep
    from verifier.using.evaluate.scores import Scores, add_intervals, row_keys, score

_FROM = {"AlikeCosts": "cell_costs", "BOOTSTRAP": "bootstrap", "COUNTS_FROM": "bootstrap", "CellCosts": "cell_costs",
         "Crossing": "crossings", "FixedSets": "cost_surface", "ListedCosts": "cell_costs", "SEED": "bootstrap",
         "Scores": "scores", "Surface": "cost_surface", "SurfaceGrid": "cost_surface", "Sweep": "curves",
         "add_intervals": "scores", "certainty_of": "certainty_eval", "cheapest": "cost_surface",
         "costs_of": "cell_costs", "counts_means": "bootstrap", "cut_short": "curves", "few_values": "bootstrap",
         "lowest": "cost_surface", "paired_certainty": "certainty_eval", "parse_sweep": "curves",
         "parse_sweeps": "cost_surface", "percentile_intervals": "bootstrap", "resample_means": "bootstrap",
         "row_keys": "scores", "score": "scores", "surface": "cost_surface", "sweep": "curves"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
