"""The structured route: verdicts for a set cost written with sums, means, min and max over the members,
`y in Y` and `len(Y)`, at any class count, by encoding a set as K booleans (`engines.sets.encoding`) and asking
z3 each property's negation once per set size (`engines.sets.boolean`).

The questions come first: a property z3 proves (unsat at every size) needs no set; a model names a set, and
that set is built, with the singletons and {first two classes}, by the ordinary builder. The ordinary engines
then decide every property on those exact rows, so a failure (or P1's and P9's witness) is a concrete set,
checked like any other; `merge_structured` completes the rest from the proofs. A model the exact check does not
confirm, or a proof an exact instance contradicts, gives `unknown` with that reason, never a verdict; so does a
size z3 leaves undecided. The proofs' evidence is a lemma whose re-check (`check.structured`) re-evaluates the
encoding against the builder's exact rows.

It applies to numeric specs with a `set_cost` formula (no explicit rows, no symbolic parameters) whose every
set-dependent part the encoding expresses; otherwise `NotStructured` says what stops it.

Beyond enumeration, when the symmetry route does not apply, `beyond_enumeration` tries the power-mean route
first (its lemmas need no solver), then this one; `asked_route` builds the route asked for by name.

Owns: `StructuredRoute`, `NotStructured`, `build_structured_scheme`, `merge_structured`, `asked_route`,
`beyond_enumeration`. May import: `spec`, `scheme`, `engines` (inside the builder: z3 loads only here),
`analysis.power_mean_route`, `check.structured` (the lemma's name), `verdict`, `properties`, `limits`, `errors`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction

from verifier.analysis.power_mean_route import NotPowerMean, build_power_mean_scheme
from verifier.check.structured import STRUCTURED_LEMMA
from verifier.errors import DoesNotApply, UsageError
from verifier.lazy_sympy import sympy as sp
from verifier.limits import DEFAULT_TIMEOUT_MS
from verifier.properties import PROPERTIES, QuantifierKind
from verifier.scheme import Scheme, build_scheme
from verifier.spec.model import Spec
from verifier.verdict import Evidence, LemmaProof, PropertyResult, Verdict


class NotStructured(DoesNotApply):
    """The route does not apply; the message says why."""


@dataclass
class StructuredRoute:
    """How the boolean-set encoding decided a scheme: each property's z3 outcome, the set-cost terms and the singleton
    costs the questions used (for the checker), and the time taken."""

    K: int
    written: str  # the set-cost formula
    outcomes: dict  # property id -> engines.sets.boolean.QueryOutcome
    terms: list = field(repr=False)  # c_Y(y) per class y, z3 terms over `b` and `n` (the checker re-evaluates them)
    b: list = field(repr=False)
    n: object = field(repr=False)
    singletons: list = field(repr=False)  # the K x K singleton costs the questions used, exact Fractions
    seconds: float = 0.0

    def describe(self) -> str:
        """The route in words, for the reports."""
        sets = 2 ** self.K - self.K - 1
        asked = sum(o.questions for o in self.outcomes.values())
        return (f"By the boolean-set encoding: each of the {sets:,} indeterminate sets is {self.K} booleans "
                f"(\"class i is in Y\"), the set cost {self.written} is an exact z3 term over them (rational "
                "arithmetic, If for conditions, min and max), and each property's negation is one z3 question per "
                f"set size 2..{self.K} ({asked} questions, {self.seconds:.1f} s): unsat at every size proves it for "
                "every set; a model names a set, which is built and checked exactly like any other. Only the "
                "singletons and those sets are built")


def asked_route(spec: Spec, classes: tuple[str, ...] | None, lemmas: bool, timeout_ms: int) -> Scheme:
    """The power-mean route (`lemmas`) or this one, at any class count; UsageError saying why it does not apply."""
    try:
        return build_power_mean_scheme(spec, classes) if lemmas else build_structured_scheme(spec, classes, timeout_ms)
    except DoesNotApply as exc:  # NotPowerMean or NotStructured
        route = "the power-mean route (--lemmas)" if lemmas else "the boolean-set encoding (structured=True)"
        raise UsageError(f"{spec.path}: {route} does not apply: {exc}") from None


def beyond_enumeration(spec: Spec, classes: tuple[str, ...] | None, timeout_ms: int,
                       structured: bool = True) -> Scheme | str:
    """The power-mean route, else this one (unless `structured` is False: `--exact` asks for the cell-by-cell
    engine, which no solver route replaces); else why neither applies (a clause to follow "nor")."""
    try:
        return build_power_mean_scheme(spec, classes)
    except NotPowerMean as exc:
        not_power_mean = str(exc)
    if not structured:
        return f"the power-mean route ({not_power_mean})"
    try:
        return build_structured_scheme(spec, classes, timeout_ms)
    except NotStructured as exc:
        return f"the power-mean route ({not_power_mean}), nor the boolean-set encoding ({exc})"


def build_structured_scheme(spec: Spec, classes: tuple[str, ...] | None = None,
                            timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Scheme:
    """The singletons and the sets the questions name, with `scheme.structured` set; NotStructured when the
    route does not apply."""
    if classes is not None:
        spec = replace(spec, classes=classes)
    if spec.set_costs:
        raise NotStructured("the spec gives explicit rows in 'set_costs', which no formula over the set describes")
    if spec.set_cost is None:
        raise NotStructured("it needs a 'set_cost' formula to encode")
    if any(param.value is None for param in spec.parameters.values()):
        raise NotStructured("it needs fixed parameter values (the encoding's numbers are exact rationals)")
    start = time.perf_counter()
    base = build_scheme(spec, sets=[])
    singletons = [[_fraction(base.det(h, y), base, h, y) for y in range(base.K)] for h in range(base.K)]
    from verifier.engines.sets.boolean import BooleanSetQueries  # z3 loads with this route only
    from verifier.engines.sets.encoding import NotEncodable, SetCostEncoding

    try:
        encoding = SetCostEncoding(base)
        terms = encoding.encode_all()
    except NotEncodable as exc:
        raise NotStructured(f"the boolean-set encoding cannot express the set cost: {exc}") from None
    queries = BooleanSetQueries(encoding, singletons, timeout_ms)
    outcomes = {prop.id: queries.decide(prop) for prop in PROPERTIES}
    wanted = [frozenset((0, 1))] + [o.members for o in outcomes.values() if o.members is not None]
    scheme = build_scheme(spec, sets=sorted(set(wanted), key=lambda s: (len(s), sorted(s))))
    route = StructuredRoute(base.K, spec.set_cost.source, outcomes, terms, encoding.b, encoding.n, singletons,
                            time.perf_counter() - start)
    scheme.structured = route  # read with getattr: the Scheme declares no field for this route
    scheme.notes.append(route.describe() + ".")
    return scheme


def _fraction(value: sp.Expr, scheme: Scheme, h: int, y: int) -> Fraction:
    if not value.is_Rational:
        raise NotStructured(f"the singleton cost c_{scheme.classes[h]}({scheme.classes[y]}) = {value} is irrational; "
                            "the encoding is exact over rationals only")
    return Fraction(int(value.p), int(value.q))


def merge_structured(scheme: Scheme, results: list[PropertyResult]) -> list[PropertyResult]:
    """The engines' results on the built sets, completed by the questions: a counterexample or witness on a built
    set stands; a proof covers every set; a disagreement or an undecided size is `unknown`, with the reason."""
    route: StructuredRoute = scheme.structured
    out = []
    for result in results:
        prop = result.property
        universal = prop.quantifiers[0].kind == QuantifierKind.FORALL
        settled = result.verdict is (Verdict.FAILS if universal else Verdict.HOLDS)
        outcome = route.outcomes[prop.id]
        possibility = result.evidence.possibility
        if settled and outcome.status != "proved":
            out.append(result)
            continue
        if settled:  # z3 found no such set, yet an exact instance shows one: a fault, never a verdict
            found = scheme.label(result.evidence.binding.members)
            out.append(_unknown(prop, possibility, "the boolean-set encoding and an exact instance disagree (z3 "
                                f"found no set, the exact check finds {found}); no verdict"))
            continue
        if outcome.status == "proved":
            verdict = Verdict.HOLDS if universal else Verdict.FAILS
            proof = LemmaProof(STRUCTURED_LEMMA, _statement(prop, route, outcome, universal), (), sp.Symbol("n/a"))
            out.append(PropertyResult(prop, verdict, Evidence("lemma", possibility=possibility, lemma=proof),
                                      reason=f"by the {STRUCTURED_LEMMA}: {proof.statement}"))
        elif outcome.status == "found":
            out.append(_unknown(prop, possibility, f"z3's model names the set {scheme.label(outcome.members)}, but the "
                                "exact check of that set does not confirm it (an encoding fault or an undecided "
                                "comparison); no verdict"))
        else:
            out.append(_unknown(prop, possibility, f"undecided by the boolean-set encoding: {outcome.reason}"))
    return out


def _statement(prop, route: StructuredRoute, outcome, universal: bool) -> str:
    what = "violates it" if universal else "satisfies it"
    return (f"z3 answers unsat: no set of 2 to {route.K} classes {what}, the set being {route.K} booleans and its cost "
            f"an exact term over them ({outcome.questions} questions, one per size, {outcome.seconds:.2f} s)")


def _unknown(prop, possibility, reason: str) -> PropertyResult:
    return PropertyResult(prop, Verdict.UNKNOWN, Evidence("none", possibility=possibility), reason=reason)
