"""The formula language of spec files: parsing with a whitelist (`parse`; `scope` checks the names a formula may
use, `diagnostics` says where an error is, with a caret, and what a syntax error most likely means), exact
interpretation over sympy numbers (`evaluate`, `values`), its functions (`builtins`, `arith`, `genmean`), and
certified signs of exact numbers (`enclose` for python-flint balls, `certified` for signs and ties).

Owns: every arithmetic decision on exact numbers (nothing else compares two costs). May import: `errors` only.
Nothing here ever runs spec text: formulas are `ast` trees walked by our own interpreter.
"""
