"""What each quantifier of a property ranges over, for every engine: the scheme's indeterminate sets for Y, and
for y, y′ the classes of the quantifier's domain at the bound set, one per symmetry orbit where the scheme is
proved class-symmetric and the reduction is sound for that quantifier (`scheme.orbits`).
"""

from __future__ import annotations

from verifier.properties import Property
from verifier.scheme import Scheme


def domain(scheme: Scheme, prop: Property, index: int, binding: dict) -> list:
    """The values the property's quantifier at `index` ranges over, given the variables bound so far: the indeterminate
    sets for Y, else the classes of its domain at the bound Y (one per symmetry orbit where that is sound)."""
    q = prop.quantifiers[index]
    if q.var == "Y":
        return scheme.indeterminate_sets
    orbits = scheme.orbits
    reduce = orbits is not None and orbits.reducible(tuple(k.kind for k in prop.quantifiers), index)
    return scheme.classes_for(q.domain, binding["Y"], binding.get("y") if q.var == "y2" else None, reduce)
