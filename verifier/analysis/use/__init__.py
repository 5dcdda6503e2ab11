"""Using a verified scheme, unchanged: decide which set to predict from a precise or imprecise probability
(`decide`, `credal`, `batch`), and score set-valued classifiers against the truth (`data`, `evaluate`,
`compare`, `curves`).

Owns: exact expected costs of sets, decision rules for credal sets, the scores of set predictions and their
comparison. May import engines (exact expected costs), scheme, spec, formula and errors; never report or cli.
"""
