"""The power-mean route: verdicts for c_Y(y) = M_p(c_ŷ(y) : ŷ ∈ Y) at any class count, without listing sets.

The scheme is built for the singletons and a handful of sets: those the lemmas name as breaking a property,
and those a float search finds worth trying (P1, P8, P9). The ordinary engines decide every property on those
exact rows, which settles what a set there can settle (a counterexample to a "for every set" property, a
witness of a "some set" one). The rest comes from `engines.power_mean.lemmas`: a property the lemmas prove is
`holds` (or, for P1 and P9, `fails` everywhere) with the lemma and its premises as evidence; what neither
settles is `unknown`, saying so. With few classes (EVERY_SET_MAX_CLASSES) every indeterminate set is built
instead (the lemmas leave P1, or P8 and P9, open at every exponent): the ordinary exact engines then decide
what no lemma settles by exhaustion ("decided on every indeterminate set"), and the checker confirms that no
set is missing.

Owns: `PowerMeanRoute`, `NotPowerMean`, `build_power_mean_scheme`, `merge_lemmas`. May import: `spec`,
`formula`, `scheme`, `engines`, `verdict`, `properties`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from verifier.engines.power_mean.lemmas import NotDecided, PowerMeanLemmas
from verifier.engines.power_mean.search import sets_worth_building
from verifier.errors import DoesNotApply
from verifier.formula import certified
from verifier.formula.evaluate import Evaluator
from verifier.formula.power_mean import power_mean_form
from verifier.formula.values import Vocabulary
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES, QuantifierKind
from verifier.scheme import Scheme, build_scheme
from verifier.spec.model import Spec
from verifier.verdict import Evidence, PropertyResult, Verdict

EVERY_SET_MAX_CLASSES = 6  # up to 57 indeterminate sets: all of them are built, and decide what lemmas do not


class NotPowerMean(DoesNotApply):
    """The route does not apply; the message says why."""


@dataclass
class PowerMeanRoute:
    """How the power-mean route decided a scheme: the class count, the exponent p, the set-cost formula as written, the
    lemmas (None for a symbolic exponent) and whether every indeterminate set was built."""

    K: int
    exponent: sp.Expr
    written: str  # the set-cost formula
    lemmas: PowerMeanLemmas | None  # None with a symbolic exponent (decided case by case)
    every_set: bool = False  # every indeterminate set is built: what the lemmas leave open is decided on all

    def describe(self) -> str:
        """The route in words, for the reports."""
        sets = 2 ** self.K - self.K - 1
        listed = (f"all {sets:,} indeterminate sets are built: a property no lemma settles is decided on every "
                  "indeterminate set, exactly, like any enumerated scheme; otherwise each property is a condition "
                  if self.every_set else
                  f"the {sets:,} indeterminate sets are not listed: each property is a condition ")
        return (f"by the power-mean lemmas (the set cost {self.written} is the power mean M_p of the members' costs, "
                f"p = {self.exponent}), {listed}"
                + ("(for each case of p: p < 0, p = 0, 0 < p < 1, p = 1, p > 1, at an admissible value in it) "
                   if self.exponent.free_symbols else "") +
                f"on p and on the {self.K} x {self.K} determinate costs, checked exactly (the singleton rows are the "
                "costs the formula reads, and are >= 0 where p != 1)"
                + ("" if self.every_set else "; the sets that break a property, or may witness one, are built and "
                   "checked like any other"))


def build_power_mean_scheme(spec: Spec, classes: tuple[str, ...] | None = None,
                            values: dict[str, sp.Expr] | None = None) -> Scheme:
    """The singletons and the sets worth building, with `scheme.lemma` set; NotPowerMean when it does not apply.
    With a symbolic exponent, only the singletons: the exponent's cases are decided at fixed values
    (`analysis.power_mean_symbolic`); `values` fixes the parameters."""
    if classes is not None:
        spec = replace(spec, classes=classes)
    if spec.set_costs:
        raise NotPowerMean("the spec gives explicit rows in 'set_costs'")
    if spec.set_cost is None or (spec.cost is None and spec.cost_matrix is None):
        raise NotPowerMean("it needs a 'set_cost' formula over the determinate costs ('cost' or 'cost_matrix')")
    if any(param.value is None and param.per_class for param in spec.parameters.values()) and not values:
        raise NotPowerMean("a symbolic per-class parameter would make the determinate costs symbolic")
    per_class = {name for name, param in spec.parameters.items() if param.per_class}
    form, why = power_mean_form(spec.set_cost, spec.functions, per_class)
    if form is None:
        raise NotPowerMean(why)
    base = build_scheme(spec, values=values, sets=[])
    p = Evaluator(Vocabulary(base.classes, base.parameters, spec.functions)).number(form.exponent, {})
    K = base.K
    det = [[base.given[(h, y)] for y in range(K)] for h in range(K)]
    if any(v.free_symbols for row in det for v in row):
        raise NotPowerMean("the determinate costs depend on parameters; only the exponent may")
    if p.free_symbols:  # decided by cases of p, each at fixed values
        base.lemma = PowerMeanRoute(K, p, form.written, None)
        base.notes.append(base.lemma.describe()[0].upper() + base.lemma.describe()[1:] + ".")
        return base
    for h in range(K):
        for y in range(K):
            if certified.compare(base.det(h, y), det[h][y]).value != 0:
                raise NotPowerMean(f"the singleton row c_{base.classes[h]}({base.classes[y]}) = {base.det(h, y)} is "
                                   f"not the cost c({base.classes[h]}, {base.classes[y]}) = {det[h][y]} "
                                   "the formula reads")
    try:
        lemmas = PowerMeanLemmas(p, det)
    except NotDecided as exc:
        raise NotPowerMean(str(exc)) from None
    every_set = K <= EVERY_SET_MAX_CLASSES
    sets = _every_indeterminate_set(K) if every_set else _sets_to_build(lemmas, p, det)
    scheme = build_scheme(spec, values=values, sets=sets)
    scheme.lemma = PowerMeanRoute(K, p, form.written, lemmas, every_set)
    scheme.notes.append(scheme.lemma.describe()[0].upper() + scheme.lemma.describe()[1:] + ".")
    return scheme


def _every_indeterminate_set(K: int) -> list[frozenset[int]]:
    return [frozenset(c) for n in range(2, K + 1) for c in combinations(range(K), n)]


def _sets_to_build(lemmas: PowerMeanLemmas, p: sp.Expr, det) -> list[frozenset[int]]:
    wanted = [frozenset((0, 1))]
    for prop in PROPERTIES:
        wanted += lemmas.failing_sets(prop.id)
    searches = {prop.id: lemmas.search(prop.id) for prop in PROPERTIES}
    if any(searches.values()):
        floats = np.array([[certified.to_float(v) for v in row] for row in det])
        found = sets_worth_building(certified.to_float(p), floats)
        for kind in searches.values():
            wanted += found[kind] if kind else []
    unique = sorted(set(wanted), key=lambda s: (len(s), sorted(s)))
    return unique


def merge_lemmas(scheme: Scheme, results: list[PropertyResult]) -> list[PropertyResult]:
    """The engines' results on the built sets, completed by the lemmas: what a built set settles stands; the
    lemmas prove the rest; when every indeterminate set is built, the engines' verdict on them stands (an
    exhaustive check); otherwise it is unknown."""
    route: PowerMeanRoute = scheme.lemma
    every = route.every_set and len(scheme.indeterminate_sets) == 2 ** scheme.K - scheme.K - 1
    out = []
    for result in results:
        prop = result.property
        universal = prop.quantifiers[0].kind == QuantifierKind.FORALL
        settled = result.verdict is (Verdict.FAILS if universal else Verdict.HOLDS)
        proof = route.lemmas.proof(prop.id)
        if settled:
            if proof is not None:  # the lemmas and an exact instance disagree: a bug, never a verdict
                raise AssertionError(f"{prop.id}: the {proof.name} lemma contradicts an exact instance")
            out.append(result)
            continue
        if proof is not None:
            verdict = Verdict.HOLDS if universal else Verdict.FAILS
            evidence = Evidence("lemma", possibility=result.evidence.possibility, lemma=proof)
            out.append(PropertyResult(prop, verdict, evidence, reason=f"by the {proof.name} lemma: {proof.statement}"))
            continue
        built = len(scheme.indeterminate_sets)
        if every:  # exhaustion: the ordinary verdict over every indeterminate set, with its own evidence
            said = ("decided on every indeterminate set" if result.verdict is not Verdict.UNKNOWN else
                    "not decided even on every indeterminate set")
            result.reason = (f"{said}: no lemma settles it, so all {built} were built (K = {scheme.K})"
                             + (f"; {result.reason}" if result.reason else ""))
            out.append(result)
            continue
        why = route.lemmas.undecided(prop.id)
        out.append(PropertyResult(prop, Verdict.UNKNOWN, Evidence("none", possibility=result.evidence.possibility),
                                  reason=f"undecided beyond enumeration: {why}, and none of the {built:,} sets built "
                                         f"(the most promising of the pairs and triples) settles it"))
    return out
