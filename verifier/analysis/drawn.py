"""What the pictures of one spec draw, made by the run (`api.completion`, within its time limit) before the
analysis is sealed, so that `report.figures` only draws: the exact regions of the ternary map (`simplex_regions`)
and the exact verdicts at sample points over two parameters (`spot_verdicts`). `Drawn` is a base of `Analysis`
(`analysis.result`), which keeps each as a named part; a run whose displays show no picture never pays for either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.analysis.simplex_regions import SimplexRegion
    from verifier.scheme import Scheme
    from verifier.verdict import PropertyResult, Verdict


class Drawn:
    """The numbers of an `Analysis`'s pictures (the analysis supplies `scheme` and `part`)."""

    scheme: Scheme
    part: Callable[[Any, Callable[[], Any], str], Any]

    @property
    def simplex_regions(self) -> list[SimplexRegion]:
        """A numeric three-class scheme's exact decision regions on the probability simplex, made once."""
        from verifier.analysis.simplex_regions import simplex_regions

        return self.part("simplex", lambda: simplex_regions(self.scheme), "the ternary map's decision regions")

    def spot_verdicts(self, results: list[PropertyResult], windows: list[tuple[float, float]],
                      points: int) -> dict[tuple, dict[str, Verdict]]:
        """Over two parameters, the verdict of each property of `results` at `points` x `points` rational points
        of the windows (the middles of equal steps), each decided exactly by the enumeration engine on the
        scheme rebuilt there: {(a, b): {property id: verdict}}. A point outside the assumptions, undefined there
        or covering only some sets has no entry. Made once per question (a picture renders in several formats)."""
        key = ("spots", tuple(r.property.id for r in results), tuple(map(tuple, windows)), points)
        return self.part(key, lambda: _spot_verdicts(self.scheme, results, windows, points),
                         "the verdicts at sample points of the parameters")


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
