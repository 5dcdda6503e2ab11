"""The engines that decide the properties on a scheme: exact enumeration (`enumerate`, with `terms` and
`possibility`, Definition 4 by LP with exact certificates), and for symbolic parameters the proof
obligations (`obligations`), SMT (`smt`, `smt_translate`) and certified interval branch-and-bound
(`interval`). Every engine reads the property definitions of `properties`; none keeps its own copy.

Owns: verdicts with their evidence. May import: `scheme`, `spec`, `formula`, `verdict`, `properties`,
`errors`, `limits`. The independent checker is above this layer and is handed in where an engine needs a
re-check (`SmtEngine(recheck=...)`).
"""
