"""Decisions over a restricted family without its matrix, when every class is treated alike.

When c_Y(y) = a_|Y| for y ∈ Y and b_|Y| otherwise (rational), an allowed set's expected cost times the row's
sum S is V_Y = b_n·S + (a_n − b_n)·M_Y, with n = |Y| and M_Y the mass of Y, so a row needs the masses of the
allowed sets only, never their rows of costs:
- `{max_size: k}`: the best set of each size n ≤ k is the n likeliest classes (a_n < b_n), the n least likely
  (a_n > b_n) or any n (a_n = b_n): `symmetric.decide_symmetric` with sizes up to k, a sort per row;
- `{hierarchy: TREE}`: every node's mass in one pass over the tree, children before parents (`family_rows`);
- `intervals`: every interval's mass as a difference of two prefix sums (`family_rows`).
Floats search under a proven bound, integers decide the rows the floats cannot separate, and ties follow the
documented rule (the smallest set, then the first in class order), as on every other route.

That the costs are alike is known two ways. With the family's matrix built (inside the bounds), every cell is
compared exactly (`symmetric_costs`). Without it, by the lemma of `scheme.orbits`: the formulas cannot tell
classes apart, the per-class parameters are one value, and the singleton rows and the costs c(ŷ, y) the
formula reads are alike (checked exactly on the K x K arrays); then the singletons and one set {1..n} per size
n the family allows give a_n and b_n, checked alike too.

Owns: `FamilyRoute`, `alike_route`, `route_for`, `singled_out`. May import: `using.decide.symmetric`,
`using.decide.family_rows`, `using.exact.exact_rows`, `scheme`, `spec`, `formula`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from verifier.formula.vector import NotVectorised
from verifier.scheme import ClassSet, Scheme
from verifier.scheme.lazy import build_fast_scheme, cell_interpreter
from verifier.scheme.orbits import arrays_alike, blind_formulas
from verifier.spec.family import Family
from verifier.using.decide.family_rows import decide_intervals, decide_tree
from verifier.using.decide.symmetric import decide_symmetric, symmetric_costs
from verifier.using.exact import ExactRows

KINDS = ("max_size", "hierarchy", "intervals")  # the families whose structure gives every set's mass cheaply
CELLS_PER_BLOCK = 1 << 21  # rows x classes of floats per block: a few arrays of 16 MB each


@dataclass
class FamilyRoute:
    """A restricted family decided from a, b and the rows' masses: `scheme` holds the classes and labels (the
    family's own scheme, or the singletons and one representative set per size)."""

    scheme: Scheme
    family: Family
    a: list[Fraction]
    b: list[Fraction]

    @property
    def route(self) -> str:
        """The batch route's name in the JSON record."""
        return {"max_size": "symmetric", "hierarchy": "hierarchy", "intervals": "intervals"}[self.family.kind]

    def decide(self, block: ExactRows) -> tuple[list[ClassSet], list[int], int]:
        """(prediction, how many allowed sets tie for the optimum, rows decided in integers), block by block."""
        K = self.scheme.K
        step = max(1, CELLS_PER_BLOCK // max(K, self._width(K)))
        predictions: list[ClassSet] = []
        counts: list[int] = []
        exact = 0
        for start in range(0, len(block), step):
            part = block.rows(start, start + step)
            if self.family.kind == "max_size":
                p, c, e = decide_symmetric(part, self.a, self.b, self.family.max_size)
            elif self.family.kind == "hierarchy":
                p, c, e = decide_tree(part, self.a, self.b, self.family.listed_sets)
            else:
                p, c, e = decide_intervals(part, self.a, self.b)
            predictions += p
            counts += c
            exact += e
        return predictions, counts, exact

    def _width(self, K: int) -> int:
        return K + len(self.family.listed_sets) if self.family.kind == "hierarchy" else K + 1


def route_for(scheme: Scheme) -> FamilyRoute | None:
    """The route for a family scheme already built on arrays, when every one of its cells is alike (compared
    exactly, so no proof is needed)."""
    family = scheme.spec.predictions
    if family.kind not in KINDS or family.unions > 1 or getattr(scheme, "cells", None) is None \
            or scheme.orbits is not None:  # unions of nodes are not a tree: the generic product
        return None
    ab = symmetric_costs(scheme)
    return None if ab is None else FamilyRoute(scheme, family, *ab)


def singled_out(spec) -> bool:
    """A cheap necessary test of alike costs: among a few classes, two singleton cells (or determinate costs) on
    the diagonal, or two off it, are different rationals. True proves the costs single out a class; False proves
    nothing (the representatives are then built and compared exactly)."""
    K = len(spec.classes)
    cells = cell_interpreter(spec)
    probe = sorted({0, 1, K // 2, K - 1})
    readers = [lambda h, y: cells.cell(frozenset((h,)), y)]
    if spec.cost is not None or spec.cost_matrix is not None:
        readers.append(cells.determinate)
    for read in readers:
        for pairs in ([(h, h) for h in probe], [(h, y) for h in probe for y in probe if h != y]):
            values = {read(h, y) for h, y in pairs}
            if len({v for v in values if getattr(v, "is_Rational", False)}) > 1:
                return True
    return False


def alike_route(spec) -> FamilyRoute | None:
    """The route for a numeric spec whose family's matrix is never built (None when the costs are not proved
    alike, or a formula needs the exact builder): the scheme of the singletons and one set per size."""
    family = spec.predictions
    if family.kind not in KINDS or family.unions > 1 or blind_formulas(spec):
        return None
    K = len(spec.classes)
    sizes = sorted({len(m) for m in family.listed_sets}) if family.kind == "hierarchy" else \
        range(2, (family.max_size if family.kind == "max_size" else K) + 1)
    representatives = tuple(tuple(range(n)) for n in sizes if n <= K)
    if singled_out(spec):  # before the representatives' K sets x K classes are built
        return None
    try:
        scheme = build_fast_scheme(replace(spec, predictions=Family("sets", listed_sets=representatives)))
    except NotVectorised:
        return None
    if blind_formulas(spec, scheme) or arrays_alike(scheme.cells):
        return None
    ab = symmetric_costs(scheme)  # the singleton rows and the representatives, compared exactly
    if family.kind == "hierarchy":
        scheme.over_hierarchy = family  # reports name the predicted nodes of the spec's tree
    return None if ab is None else FamilyRoute(scheme, family, *ab)
