"""SMT (z3): the symbolic engine that decides each property for every admissible parameter value (`engine`,
`SmtEngine`), and the translation of exact sympy formulas to nonlinear real arithmetic that it and others use
(`translate`, `Translator`: margins for design, the every-K engine, `--cross-check`).

Owns: the z3 encodings. May import what `engines` may, and `engines.obligations`. Loads z3: import it only on
the routes that need it.
"""
