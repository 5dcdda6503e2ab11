"""Uncertain operating conditions (Hernández-Orallo, Flach, Ramirez et al., "operating condition uncertainty"):
what a binary classifier costs when the cost parameter it decides with, ĉ, differs from the one it pays, c.

Owns: the cost lines of a classifier's scores under a two-class spec whose costs are affine in one parameter
(`lines`), the threshold choice methods (score-driven, rate-driven, optimal) as the cost line chosen at each
presumed value (`methods`), the expected cost curve K_v(c) and expected loss L_v under a Beta-distributed ĉ of
certainty γ (`uncertainty`: exact rationals for γ = 0 and γ = ∞, numerical with a stated and checked error
bound otherwise), the paper's identities on the data (`identities`), and the whole evaluation (`evaluation`).

May import: the rest of `using` (the scores reader and the staircase of `abstention`), scheme, spec, formula
and errors.
"""
