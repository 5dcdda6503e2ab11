"""The fast path for numeric schemes: every property decided over the matrix as arrays (`decide`, with the
terms in `terms`), Definition 4 by uniform witnesses and certificates before any LP (`possibility`).

Exact where it matters: arrays are exact rationals or certified enclosures; whatever they cannot decide goes
to the exact engine one instance at a time, and the evidence is the exact engine's.

Owns: the array decisions of every property for numeric schemes. May import: what `engines` may, and
`engines.enumerate` / `engines.possibility` for the exact instances.
"""

from verifier.engines.vector.decide import VectorEngine

__all__ = ["VectorEngine"]
