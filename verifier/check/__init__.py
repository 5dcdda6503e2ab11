"""Independent re-checking of every verdict's evidence (`checker`), and `--cross-check`, which decides each
property a second time by another method (`cross_check`).

Owns: trust. It shares no arithmetic with the engines (Fractions, mpmath intervals and sympy.simplify instead
of python-flint). May import: `engines` (only for the second methods' encodings), `scheme`, `formula`,
`verdict`, `properties`.
"""
