"""The form of a spec's scheme that `decide --p-file` decides rows with and `evaluate` scores and decides with,
chosen in one place, so that whatever `decide` decides `evaluate` can score, and both refuse alike:

1. a restricted family whose costs treat every class alike: decided from the rows' masses, scored from a_n and
   b_n (`family_decide.alike_route`); the family's matrix is never built, so its bounds do not apply;
2. the scheme built as `verify SPEC` builds it (`analysis.pipeline.build`), every set (or the family's) with
   its row: decided as `decide` does (`BatchDecider`), each cell read from its row;
3. a class-symmetric reduced scheme (beyond enumeration; one set per size): costs alike, so decided by a sort
   per row (`symmetric`) and scored from its representatives;
4. a scheme built in part (beyond enumeration, not symmetric: not built at all when a few exact cells show a
   class singled out) or a family beyond its matrix's bounds: given sets are scored cell by cell by the exact
   interpreter (`cell_costs.ListedCosts`); rows of probabilities cannot be decided (every allowed set would need
   its costs), and the refusal says which bound and what works.

A prepared spec (`kept`, what `verifier.prepare` holds) keeps what its routes are built from (the scheme, a
family's masses, a decider's arrays), so that every job on it builds them once, however many batches it decides
or scores.

Owns: `UseRoute`, `use_route`, `beyond`, and what a batch of rows is read from and decided with, whether
probabilities or logits (`RowsSource`, `RowsDecider`). May import: `using`, `analysis`, `spec`, `scheme`, `errors`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, TypeVar

from verifier.analysis.pipeline import FAST_MAX_CLASSES, build
from verifier.api.entry import Source, load
from verifier.api.use.kept import kept
from verifier.api.use.report import unfixed
from verifier.errors import SpecError, UsageError
from verifier.scheme import Scheme
from verifier.scheme.orbits import Orbits
from verifier.spec.family import MAX_FAMILY_SETS, Family, matrix_bound
from verifier.using.decide import BatchDecider, FamilyRoute, alike_route, singled_out
from verifier.using.evaluate import AlikeCosts, CellCosts, ListedCosts, costs_of

if TYPE_CHECKING:
    from collections.abc import Iterator

    from verifier.spec import Spec
    from verifier.using.decide import BatchDecision

Rows = TypeVar("Rows")  # a block of rows: `ExactRows` of probabilities, or `LogitRows`
_RowsOut = TypeVar("_RowsOut", covariant=True)
_RowsIn = TypeVar("_RowsIn", contravariant=True)


class RowsSource(Protocol[_RowsOut]):
    """A file of rows read block by block: `DistributionFile` (blocks of `ExactRows`) or `LogitFile` (`LogitRows`)."""

    @property
    def rescaled(self) -> int:
        """How many rows were rescaled to sum to 1 exactly (the final count once every block is read; logits: 0)."""
        ...

    def blocks(self) -> Iterator[_RowsOut]:
        """The rows, a block at a time."""
        ...


class RowsDecider(Protocol[_RowsIn]):
    """What decides blocks of rows into one `BatchDecision`: `BatchDecider` (probabilities) or `LogitDecider`."""

    @property
    def result(self) -> BatchDecision:
        """The decisions of the rows added so far."""
        ...

    def add(self, rows: _RowsIn) -> None:
        """Decide a block of rows."""
        ...


_NOT_ALIKE = "its costs do not treat every class alike (which would decide any number of classes by a sort per row)"


@dataclass
class UseRoute:
    """How a spec's sets are decided and scored. `scheme`: what names classes and sets (None when only given
    sets' rows are made); `family`: rows decided without the matrix; `refusal`: why rows of probabilities
    cannot be decided here (a complete sentence), None when they can."""

    spec: Spec
    scheme: Scheme | None
    costs: CellCosts
    family: FamilyRoute | None = None
    refusal: Exception | None = None

    @property
    def decides(self) -> bool:
        """Whether rows of probabilities are decided on this route (else `refusal` says why not)."""
        return self.refusal is None

    def deciding_scheme(self) -> Scheme:
        """The scheme rows are decided on (the refusal, where rows cannot be decided)."""
        if self.refusal is not None:
            raise self.refusal
        assert self.scheme is not None  # use_route gives a route without a scheme its refusal
        return self.scheme

    def decider(self) -> BatchDecider:
        """A batch decider on this route (the refusal, where rows cannot be decided); the expected-cost arrays
        (or sorted costs) of a prepared spec's scheme are made once."""
        scheme = self.deciding_scheme()
        return kept(self.spec, ("decider", id(scheme)), lambda: BatchDecider(scheme, family=self.family)).fresh()


def use_route(source: Source | Spec, what: str, logits: bool = False) -> UseRoute:
    """The route for `source` (every parameter fixed). `what` names the command in a refusal; `logits`: the
    rows will be logits, decided on the built scheme only (`LogitDecider` refuses what it cannot enumerate)."""
    spec = load(source)
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    if symbolic:
        raise unfixed(spec, symbolic, what)
    K = len(spec.classes)
    family = spec.predictions
    if family.restricted and not logits:
        alike = kept(spec, ("alike",), lambda: alike_route(spec))
        if alike is not None:
            return UseRoute(spec, alike.scheme, AlikeCosts(K, alike.a, alike.b), alike)
    if not family.restricted and K > FAST_MAX_CLASSES and singled_out(spec):  # partial at best: not built
        return UseRoute(spec, None, ListedCosts(spec), refusal=beyond(spec, what, _NOT_ALIKE, None))
    bound = matrix_bound(family, K) if family.restricted else None
    try:
        scheme = kept(spec, ("built",), lambda: build(spec))
    except (SpecError, UsageError) as refused:
        if bound is None:
            raise
        return UseRoute(spec, None, ListedCosts(spec), refusal=refused)  # given sets: their own rows
    orbits, costs = scheme.orbits, costs_of(scheme)
    if orbits is None and not scheme.partial:
        return UseRoute(spec, scheme, costs)
    if isinstance(costs, AlikeCosts):
        rational = all(getattr(v, "is_Rational", False) for v in costs.a + costs.b)
        if rational and not logits:
            assert isinstance(orbits, Orbits)  # costs_of gives AlikeCosts for a class-symmetric scheme's orbits only
            a, b = ([Fraction(int(v.p), int(v.q)) for v in values] for values in (costs.a, costs.b))
            alike = FamilyRoute(scheme, Family("max_size", max_size=orbits.largest), a, b)
            return UseRoute(spec, scheme, costs, alike)
        why = "logits are decided by comparing every set on their softmax" if logits else \
            "its costs are not all rational"
        return UseRoute(spec, scheme, costs, refusal=beyond(spec, what, f"its costs treat every class alike, but {why}",
                                                             "give probabilities instead" if logits else None))
    return UseRoute(spec, scheme, costs, refusal=beyond(spec, what, _NOT_ALIKE, None))


def beyond(spec: Spec, what: str, why: str, instead: str | None) -> UsageError:
    """The refusal to decide rows of a scheme beyond enumeration (a usage error whose message is one sentence):
    the bound, why no other route applies, and what works (`instead` first, when there is a better way)."""
    K = len(spec.classes)
    family = spec.predictions
    sets = f"{2 ** K - 1:,} sets" if not family.restricted else f"{family.count(K) + K:,} allowed sets"
    works = [instead] if instead else []
    if not family.restricted:
        works.append(f"restrict its predictions to a family (predictions: intervals, {{max_size: k}} or a "
                     f"hierarchy, of at most {MAX_FAMILY_SETS:,} sets) to decide among those")
    works.append("score set predictions made elsewhere with verify evaluate SPEC PREDICTIONS, which reads the "
                 "costs of the predicted sets only")
    return UsageError(f"{what} decides each row's optimal set by comparing every allowed set; {spec.path} has {K} "
                      f"classes ({sets}), beyond the {FAST_MAX_CLASSES:,} classes whose sets are enumerated, and "
                      f"{why}; " + "; or ".join(works) + ".")
