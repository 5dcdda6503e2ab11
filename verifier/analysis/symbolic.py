"""The pipeline for schemes with symbolic parameters: SMT verdicts, regions, and spot checks.

Every `fails` was re-checked by substitution inside the engine; every `holds` (an unsat answer) is also
spot-checked here at a few admissible values by the exact numeric engine, an independent method: a
disagreement turns the verdict into `unknown`, loudly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from verifier.analysis.plane_optimality import plane_possibility
from verifier.analysis.regions import region
from verifier.check.checker import check_results
from verifier.engines import obligations
from verifier.engines.enumerate import EnumerationEngine
from verifier.engines.interval import IntervalEngine
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import SpecError
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES, Possible, QuantifierKind
from verifier.scheme import Scheme
from verifier.scheme.orbits import partial_only, rebuild_at
from verifier.verdict import Evidence, PropertyResult, Truth, Verdict

SPOT_CHECKS = 3


@dataclass
class SymbolicPossibility:
    """Definition 4 for one set over all admissible values: always, never, or for some values."""

    members: frozenset[int]
    possible_at: dict[str, sp.Expr] | None = None  # an admissible value where the set is possible
    impossible_at: dict[str, sp.Expr] | None = None  # ... and one where it is impossible
    undecided: str = ""
    sampled: bool = False  # statuses from exact checks at sampled values only (no proof over all values)

    @property
    def status(self) -> str:
        """The set's possibility over the admissible values, in words: always, never, depends, where sampled, or
        undecided."""
        if self.undecided:
            return "undecided"
        if self.possible_at and self.impossible_at:
            return "depends"
        if self.sampled:
            return "possible where sampled" if self.possible_at else "impossible where sampled"
        return "always possible" if self.possible_at else "never possible"


@dataclass
class SymbolicAnalysis:
    """The symbolic pipeline's outcome: the verdicts, each set's possibility over the admissible values, whether any
    value is admissible, and the values spot-checked."""

    results: list[PropertyResult]
    possibility: list[SymbolicPossibility] = field(default_factory=list)
    admissible: bool | None = True
    samples: list[dict[str, sp.Expr]] = field(default_factory=list)


def analyse_symbolic(scheme: Scheme, timeout_ms: int, progress=None) -> SymbolicAnalysis:
    """`progress` (an `analysis.stopped.Progress`), when given, records each verdict as it is decided."""
    engine = SmtEngine(scheme, check_results, timeout_ms)
    if progress is not None:
        progress.symbolic = True
    admissible, why = engine.admissible()
    if admissible is not True:
        reason = why + ("; every property would hold vacuously, so none is reported as holding"
                        if admissible is False else "")
        results = [PropertyResult(p, Verdict.UNKNOWN, Evidence("none"), reason=reason) for p in PROPERTIES]
        return SymbolicAnalysis(results, admissible=admissible)
    unsettled = engine.check_defined()
    if unsettled:
        undefined = IntervalEngine(engine).undefined_somewhere(unsettled)
        if undefined:
            reason = (f"could not establish that every formula is defined for every admissible value "
                      f"({undefined}); no verdict is given where a formula may be undefined")
            results = [PropertyResult(p, Verdict.UNKNOWN, Evidence("none"), reason=reason) for p in PROPERTIES]
            return SymbolicAnalysis(results, admissible=True)
    results, intervals = [], None
    for prop in PROPERTIES:
        if progress is not None:
            progress.tell(f"{prop.id} {prop.name}")
        result = engine.decide(prop)
        if result.unsupported:  # beyond the SMT encoding: certified interval branch-and-bound
            intervals = intervals or IntervalEngine(engine)
            result = intervals.decide(prop)
        results.append(result)
        if progress is not None:
            progress.decided[prop.id] = result
    samples = _samples(engine)
    for result in results:
        if result.verdict is Verdict.HOLDS:
            result.checked, result.check_note = _spot_check(scheme, result, samples)
            if result.checked is None:
                result.verdict = Verdict.UNKNOWN
                result.reason = result.check_note
                result.checked = False
        elif result.verdict is Verdict.FAILS and scheme.orbits is not None and scheme.orbits.moves_parameters:
            # representatives with per-class parameters: where it holds is only sound at values equal across
            # classes, and no region is derived (it would name the representative classes)
            result.holds_at = engine.where_it_holds_symmetric(result.property)
        elif result.verdict is Verdict.FAILS:
            found, result.holds_nowhere = engine.where_it_holds(result.property)
            result.holds_at = found or _holds_at_a_point(engine, result)
            derived = _region(engine, result.property) if result.holds_at is not None else None
            if derived is not None:
                result.region, result.region_formula = derived
    return SymbolicAnalysis(results, _possibility(engine), True, samples)


def _region(engine: SmtEngine, prop) -> tuple[str, sp.Basic] | None:
    """Where the property holds: for Property 1 over two parameters, exactly from the plane's decomposition
    (`analysis.plane_optimality`, no solver); otherwise, or beyond that route, by eliminating p with z3."""
    if isinstance(prop.atom, Possible) and len(engine.scheme.symbols) == 2:
        found = plane_possibility(engine.scheme)
        if found is not None:
            return found
    return region(engine, prop)


def _holds_at_a_point(engine: SmtEngine, result: PropertyResult) -> dict[str, sp.Expr] | None:
    """Beyond the SMT encoding: an exact check at the interval engine's grid points."""
    intervals = IntervalEngine(engine)
    if intervals.box is None:
        return None
    for values in intervals._points():
        try:
            concrete = rebuild_at(engine.scheme, values)
        except SpecError:
            continue
        if EnumerationEngine(concrete).decide(result.property).verdict is Verdict.HOLDS:
            return values
    return None


def _samples(engine: SmtEngine) -> list[dict[str, sp.Expr]]:
    """A few distinct admissible parameter values (solver models), for spot checks and reports."""
    found, blocked = [], []
    for _ in range(SPOT_CHECKS):
        answer, model, _ = engine.solve(extra=blocked)
        if answer != z3.sat:
            break
        values = engine.parameters_of(model)
        found.append(values)
        t = engine.translator
        differ = [t.var(k) != t.real(v) for k, v in values.items() if v.is_Rational]
        blocked.append(z3.Or(differ) if differ else z3.BoolVal(False, engine.ctx))
    return found


def _spot_check(scheme: Scheme, result: PropertyResult, samples) -> tuple[bool | None, str]:
    for values in samples:
        try:
            concrete = rebuild_at(scheme, values)
        except SpecError:  # not computable exactly at this value (e.g. a huge power): no sample there
            continue
        numeric = EnumerationEngine(concrete).decide(result.property)
        if partial_only(concrete) and result.property.quantifiers[0].kind == QuantifierKind.EXISTS:
            continue  # a "some set" property on some sets only: a failure there proves nothing
        if numeric.verdict is Verdict.FAILS:
            return None, (f"the solver proved it, but the exact engine finds it failing at {values}: "
                          "the two methods disagree, so no verdict is given")
    how = "proved by the z3 solver" if result.reason.startswith("z3") else result.reason
    agree = f"{len(samples)} sampled admissible value" + ("s" if len(samples) != 1 else "")
    return True, f"{how}; the exact engine agrees at {agree}"


def _possibility(engine: SmtEngine) -> list[SymbolicPossibility]:
    out = []
    for members in engine.scheme.indeterminate_sets:
        entry = SymbolicPossibility(members)
        try:
            for attr, build in (("possible_at", obligations.possible), ("impossible_at", obligations.impossible)):
                formula, _ = build(engine.scheme, members)
                answer, model, reason = engine.solve(engine.translator.boolean(formula))
                if answer == z3.sat:
                    setattr(entry, attr, engine.parameters_of(model))
                elif answer == z3.unknown:
                    entry.undecided = reason or "solver gave no answer"
        except Unsupported:
            entry = SymbolicPossibility(members, sampled=True)
        out.append(entry)
    if any(e.sampled for e in out):
        _sample_possibility(engine, [e for e in out if e.sampled])
    return out


def _sample_possibility(engine: SmtEngine, entries: list[SymbolicPossibility]) -> None:
    """Where z3 cannot express the costs: exact LP verdicts at the interval engine's grid of values."""
    intervals = IntervalEngine(engine)
    if intervals.box is None:
        for e in entries:
            e.undecided = "the costs are beyond the SMT encoding and the parameters are unbounded"
        return
    for values in intervals._points():
        try:
            concrete = rebuild_at(engine.scheme, values)
        except SpecError:
            continue
        table = EnumerationEngine(concrete).possibility
        for e in entries:
            status = table[e.members].status
            if status is Truth.TRUE and e.possible_at is None:
                e.possible_at = values
            elif status is Truth.FALSE and e.impossible_at is None:
                e.impossible_at = values
