"""The extended cost matrix of a spec: one row per non-empty set, for every true class.

Owns: the `Scheme` (exact symbolic entries, parameters, assumptions, side conditions; `exact`), and for
numeric schemes the same matrix as arrays (`cells`: exact rationals where rational, certified enclosures
elsewhere) with rows made exact only when something reads them (`lazy`); for class-symmetric schemes, the
proof of symmetry and the rows of one set per size (`orbits`). May import: `spec`, `formula`,
`errors`; the engines read it, it knows nothing of them.
"""

from verifier.scheme.exact import ClassSet, Scheme, build_scheme

__all__ = ["ClassSet", "Scheme", "build_scheme"]
