"""The engines that decide the properties on a scheme: the fast path for numeric schemes (`vector`), exact
enumeration (`enumerate`, with `terms` and `possibility`, Definition 4 by LP with exact certificates), the
optimality of each set (`optimality`), and for symbolic parameters the proof obligations (`obligations`), SMT
(`smt`: the engine and the translation to z3) and certified interval branch-and-bound (`interval`); the
power-mean lemmas (`power_mean`), set encodings for formulas over a symbolic set (`sets`), class symmetry
(`automorphisms`). Every engine reads the property definitions of `properties`; none keeps its own copy.

Owns: verdicts with their evidence. May import: `scheme`, `spec`, `formula`, `verdict`, `properties`,
`errors`, `limits`. The independent checker is above this layer and is handed in where an engine needs a
re-check (`SmtEngine(recheck=...)`).
"""
