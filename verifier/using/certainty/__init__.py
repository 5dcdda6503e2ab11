"""Certainty and doubt of each decision (Berenbeim et al., `--certainty`), from exact rows.

Owns: each row's pairwise certainty, minimum certainty and doubt cost θ (`rows`), θ correctly rounded on every
row (`doubt`: double words settle the rounding by Ziv's test, python-flint balls the rest), the double-word
inputs of θ (`doubt_inputs`), and a two-class scheme's exact certainty margin (`margin`).

May import: `using.exact`, scheme, formula and errors. Never the readers, deciders or scores of `using`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.certainty.doubt import doubt_costs
    from verifier.using.certainty.doubt_inputs import logit_words, rational_word
    from verifier.using.certainty.margin import two_class_margin
    from verifier.using.certainty.rows import (
        BlockCertainty,
        block_certainty,
        doubt_cost,
        nothing_to_doubt,
        pairwise,
        top_two,
    )

_FROM = {"BlockCertainty": "rows", "block_certainty": "rows", "doubt_cost": "rows", "doubt_costs": "doubt",
         "logit_words": "doubt_inputs", "nothing_to_doubt": "rows", "pairwise": "rows",
         "rational_word": "doubt_inputs", "top_two": "rows", "two_class_margin": "margin"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
