"""What the pictures of one spec draw, computed by the analysis when a picture first asks for it (as
`Analysis.optimality` is), so that `report.figures` only draws: the exact regions of the ternary map
(`simplex_regions`) and the exact verdicts at sample points over two parameters (`spot_verdicts`). `Drawn` is a
base of `Analysis`; a report that shows no picture never pays for either.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verifier.analysis.simplex_regions import SimplexRegion
    from verifier.scheme import Scheme
    from verifier.verdict import PropertyResult, Verdict


class Drawn:
    """The lazily computed numbers of an `Analysis`'s pictures (the analysis supplies `scheme`)."""

    scheme: Scheme

    @cached_property
    def simplex_regions(self) -> list[SimplexRegion]:
        """A numeric three-class scheme's exact decision regions on the probability simplex, made on first use."""
        from verifier.analysis.simplex_regions import simplex_regions

        return simplex_regions(self.scheme)

    def spot_verdicts(self, results: list[PropertyResult], windows: list[tuple[float, float]],
                      points: int) -> dict[tuple, dict[str, Verdict]]:
        """Over two parameters, the verdict of each property of `results` at `points` x `points` rational points
        of the windows (the middles of equal steps), each decided exactly by the enumeration engine on the
        scheme rebuilt there: {(a, b): {property id: verdict}}. A point outside the assumptions, undefined there
        or covering only some sets has no entry. Made once per question (a picture renders in several formats)."""
        key = (tuple(r.property.id for r in results), tuple(map(tuple, windows)), points)
        made = self.__dict__.setdefault("_spot_verdicts", {})
        if key not in made:
            made[key] = _spot_verdicts(self.scheme, results, windows, points)
        return made[key]


def _spot_verdicts(s: Scheme, results, windows, points: int) -> dict[tuple, dict[str, Verdict]]:
    import sympy as sp

    from verifier.engines.enumerate import EnumerationEngine
    from verifier.errors import SpecError
    from verifier.scheme.orbits import partial_only, rebuild_at

    grid = [[sp.nsimplify(lo + (hi - lo) * (k + 0.5) / points, rational=True, tolerance=1e-9) for k in range(points)]
            for lo, hi in windows]
    out = {}
    for a in grid[0]:
        for b in grid[1]:
            try:
                concrete = rebuild_at(s, {s.symbols[0].name: a, s.symbols[1].name: b})
            except SpecError:
                continue  # outside the assumptions, or undefined there: left blank
            if partial_only(concrete):
                continue  # some sets only, at values the symmetry does not cover: no verdict to draw
            engine = EnumerationEngine(concrete)
            out[(a, b)] = {r.property.id: engine.decide(r.property).verdict for r in results}
    return out
