"""Uncertain operating conditions (Hernández-Orallo, Flach, Ramirez et al., "operating condition uncertainty"):
what a binary classifier costs when the cost parameter it decides with, ĉ, differs from the one it pays, c.
(Not `analysis.conditions`, which is the conditions on a scheme's parameters.)

Owns: the cost lines of a classifier's scores under a two-class spec whose costs are affine in one parameter
(`lines`), the threshold choice methods (score-driven, rate-driven, optimal) as the cost line chosen at each
presumed value (`methods`), the expected cost curve K_v(c) and expected loss L_v under a Beta-distributed ĉ of
certainty γ (`uncertainty`: exact rationals for γ = 0 and γ = ∞, numerical with a stated and checked error
bound otherwise), the same for specs with more sets than two (`sets`), the paper's identities on the data
(`identities`), and the whole evaluation (`evaluation`).

May import: `using.abstention` (the scores reader and the staircase), `using.compare` and everything below
them in `using`, scheme, spec, formula and errors.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.using.operating.evaluation import GRID, Conditions, conditions, conditions_of_rows
    from verifier.using.operating.lines import costs
    from verifier.using.operating.methods import METHODS
    from verifier.using.operating.sets import affine_costs
    from verifier.using.operating.uncertainty import Weight

_FROM = {"Conditions": "evaluation", "GRID": "evaluation", "METHODS": "methods", "Weight": "uncertainty",
         "affine_costs": "sets", "conditions": "evaluation", "conditions_of_rows": "evaluation", "costs": "lines"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
