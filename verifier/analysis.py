"""The pipeline for one spec: file → Spec → Scheme → engine → checker → settings → expectations."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .checker import check_results
from .decision import BinaryDecision, binary_decision
from .desirability import SettingFit, judge
from .engine_enumerate import EnumerationEngine
from .properties import BY_ID
from .scheme import Scheme, build_scheme
from .spec import Spec, load_spec
from .verdict import PropertyResult, SetPossibility, Verdict


@dataclass
class Expectation:
    property_id: str
    expected: str
    actual: str

    @property
    def met(self) -> bool:
        return self.expected == self.actual


@dataclass
class Analysis:
    spec: Spec
    scheme: Scheme
    results: list[PropertyResult]
    possibility: list[SetPossibility]
    settings: dict[str, SettingFit]
    expectations: list[Expectation] = field(default_factory=list)
    decision: BinaryDecision | None = None
    seconds: float = 0.0

    @property
    def by_id(self) -> dict[str, PropertyResult]:
        return {r.property.id: r for r in self.results}

    @property
    def expectations_met(self) -> bool:
        return all(e.met for e in self.expectations)


def analyse_file(path: str) -> Analysis:
    return analyse(load_spec(path))


def analyse(spec: Spec) -> Analysis:
    start = time.perf_counter()
    scheme = build_scheme(spec)
    engine = EnumerationEngine(scheme)
    results = engine.decide_all()
    check_results(scheme, results)
    _mark_tight_and_vacuous(results)
    possibility = [engine.possibility[m] for m in scheme.indeterminate_sets]
    analysis = Analysis(spec, scheme, results, possibility, judge(results))
    analysis.expectations = [Expectation(pid, want, analysis.by_id[pid].verdict.value)
                             for pid, want in spec.expect.items()]
    if scheme.K == 2:
        analysis.decision = binary_decision(scheme)
    analysis.seconds = time.perf_counter() - start
    return analysis


def _mark_tight_and_vacuous(results: list[PropertyResult]) -> None:
    by_id = {r.property.id: r for r in results}
    for r in results:
        if r.verdict is not Verdict.UNKNOWN and r.evidence.instances == 0:
            r.reason = "vacuous: no instance to check (no class lies outside any indeterminate set)"
    p6, p7 = by_id["P6"], by_id["P7"]
    if p6.verdict is p7.verdict is Verdict.HOLDS and p6.evidence.instances > 0:
        for r in (p6, p7):
            r.tight = True
            r.reason = "tight: c_Y(y) equals the mean of its members' costs for every y outside Y"
    assert set(by_id) == set(BY_ID)
