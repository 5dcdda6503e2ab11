"""The exact engine: decide each property by enumerating its quantifiers over the scheme's sets and classes.

It interprets the definitions in `properties` (quantifier prefix + atom) with Kleene logic; `possible(Y)`
atoms read the certified LP analysis. Every outcome keeps the binding and the evaluated sides, which become
the evidence that the checker re-checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.engines.domains import domain
from verifier.engines.possibility import analyse_possibility
from verifier.engines.terms import TermValues
from verifier.properties import PROPERTIES, Both, Compare, Implies, Possible, Property, Quantifier, QuantifierKind
from verifier.scheme import Scheme
from verifier.verdict import Binding, Comparison, Evidence, PropertyResult, SetPossibility, Truth, Verdict

MAX_DETAILS = 64  # comparisons kept for a failed inner "exists" (P2's evidence)


@dataclass
class Outcome:
    """A walk's result: its truth, the deciding binding, the comparisons evaluated there, and how many instances were
    walked."""

    truth: Truth
    binding: Binding | None = None
    comparisons: list[Comparison] = field(default_factory=list)
    instances: int = 0


class EnumerationEngine:
    """The exact engine: decides each property by enumerating its quantifiers over the scheme's sets and classes, with
    exact comparisons and Kleene logic."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self.terms = TermValues(scheme)
        self._possibility: dict[frozenset[int], SetPossibility] | None = None

    @property
    def possibility(self) -> dict[frozenset[int], SetPossibility]:
        """Definition 4 for every indeterminate set (the certified LP analysis), made on first use."""
        if self._possibility is None:
            self._possibility = analyse_possibility(self.scheme)
        return self._possibility

    def decide_all(self) -> list[PropertyResult]:
        """The verdicts of the ten properties, in order."""
        return [self.decide(p) for p in PROPERTIES]

    def decide(self, prop: Property) -> PropertyResult:
        """Decide one property by the exact walk of its quantifiers."""
        return self.result(prop, self._walk(prop, prop.quantifiers, {}, top=True))

    def walk_at(self, prop: Property, members: frozenset[int]) -> Outcome:
        """The exact walk of the quantifiers below Y, at one set (the fast path's evidence)."""
        if isinstance(prop.atom, Possible):
            return self._atom(prop, {"Y": members})
        return self._walk(prop, prop.quantifiers[1:], {"Y": members})

    def atom_at(self, prop: Property, members: frozenset[int], y: int | None, y2: int | None) -> Outcome:
        """One instance, decided exactly (what the fast path asks when enclosures cannot decide)."""
        binding = {"Y": members}
        if y is not None:
            binding["y"] = y
        if y2 is not None:
            binding["y2"] = y2
        return self._atom(prop, binding)

    def result(self, prop: Property, outcome: Outcome) -> PropertyResult:
        """The verdict and its evidence for a walk's outcome: the witness or counterexample where the outcome decides
        the first quantifier, else the exhaustive record (P1: the possibility analysis)."""
        verdict = Verdict.of(outcome.truth)
        existential = prop.quantifiers[0].kind == QuantifierKind.EXISTS
        if isinstance(prop.atom, Possible):
            evidence = self._possibility_evidence(outcome)
        elif (verdict is Verdict.HOLDS) == existential and verdict is not Verdict.UNKNOWN:
            kind = "witness" if existential else "counterexample"
            evidence = Evidence(kind, outcome.binding, outcome.comparisons, instances=outcome.instances)
        else:
            evidence = Evidence("exhaustive", outcome.binding, outcome.comparisons, instances=outcome.instances)
        return PropertyResult(prop, verdict, evidence, reason=_reason(outcome))

    # -- quantifiers ------------------------------------------------------------------------------------------
    def _walk(self, prop: Property, quants: tuple[Quantifier, ...], binding: dict, top: bool = False) -> Outcome:
        if not quants:
            return self._atom(prop, binding)
        q, rest = quants[0], quants[1:]
        universal = q.kind == QuantifierKind.FORALL
        first_unknown: Outcome | None = None
        details: list[Comparison] = []
        count = 0
        for value in domain(self.scheme, prop, len(prop.quantifiers) - len(quants), binding):
            child = self._walk(prop, rest, {**binding, q.var: value})
            count += child.instances
            if child.truth is (Truth.FALSE if universal else Truth.TRUE):
                child.instances = count
                return child
            if child.truth is Truth.UNKNOWN and first_unknown is None:
                first_unknown = child
            if not universal and len(details) < MAX_DETAILS:
                details.extend(child.comparisons)
        if first_unknown is not None:
            first_unknown.instances = count
            return first_unknown
        truth = Truth.TRUE if universal else Truth.FALSE
        here = _binding(binding) if binding else None
        # a failed inner "exists" (e.g. P2 at one Y) is a counterexample made of all its comparisons
        return Outcome(truth, here, details if (not universal and not top) else [], count)

    # -- atoms ------------------------------------------------------------------------------------------------
    def _atom(self, prop: Property, binding: dict) -> Outcome:
        b = _binding(binding)
        atom = prop.atom
        if isinstance(atom, Possible):
            result = self.possibility[b.members]
            return Outcome(result.status, b, [], 1)
        if isinstance(atom, Compare):
            comparison = self.terms.compare(atom, b)
            return Outcome(comparison.truth, b, [comparison], 1)
        if isinstance(atom, Implies):
            premise = self.terms.compare(atom.premise, b)
            if premise.truth is Truth.FALSE:
                return Outcome(Truth.TRUE, b, [premise], 1)
            conclusion = self.terms.compare(atom.conclusion, b)
            truth = conclusion.truth if premise.truth is Truth.TRUE else (
                Truth.TRUE if conclusion.truth is Truth.TRUE else Truth.UNKNOWN)
            return Outcome(truth, b, [premise, conclusion], 1)
        if isinstance(atom, Both):
            first = self.terms.compare(atom.first, b)
            if first.truth is Truth.FALSE:
                return Outcome(Truth.FALSE, b, [first], 1)
            second = self.terms.compare(atom.second, b)
            return Outcome(first.truth & second.truth, b, [first, second], 1)
        raise TypeError(f"no interpretation for atom {atom!r}")

    def _possibility_evidence(self, outcome: Outcome) -> Evidence:
        table = [self.possibility[m] for m in self.scheme.indeterminate_sets]
        kind = {Truth.TRUE: "witness", Truth.FALSE: "certificates"}.get(outcome.truth, "exhaustive")
        return Evidence(kind, outcome.binding, [], possibility=table, instances=len(table))


def _binding(binding: dict) -> Binding:
    return Binding(binding["Y"], binding.get("y"), binding.get("y2"))


def _reason(outcome: Outcome) -> str:
    if outcome.truth is not Truth.UNKNOWN:
        return ""
    for comparison in outcome.comparisons:
        if comparison.truth is Truth.UNKNOWN and comparison.reason:
            return comparison.reason
    return "some instance could not be decided exactly"
