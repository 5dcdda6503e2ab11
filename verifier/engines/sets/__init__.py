"""Formulas over a symbolic set, decided for every set at once: a set as K booleans with its lists and their
aggregates as z3 terms (`lists`, `encoding`), and each property's negation asked once per set size
(`boolean`, `BooleanSetQueries`).

Owns: the set encodings of the structured route. May import what `engines` may. Loads z3.
"""
