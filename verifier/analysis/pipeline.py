"""The pipeline for one spec: file → Spec → Scheme → engine → checker → settings → expectations."""

from __future__ import annotations

import time
from collections.abc import Callable

from verifier import limits
from verifier.analysis.decision import binary_decision
from verifier.analysis.family_route import family_scheme
from verifier.analysis.fit import Expectation, judge, mark_tight_and_vacuous
from verifier.analysis.optimality_route import SMALL_MAX_SETS, optimality_source
from verifier.analysis.power_mean_route import merge_lemmas
from verifier.analysis.result import Analysis
from verifier.analysis.stopped import Progress, stopped_analysis
from verifier.analysis.structured_route import asked_route, beyond_enumeration, merge_structured
from verifier.check.checker import Checker, check_results
from verifier.engines.enumerate import EnumerationEngine
from verifier.engines.vector import VectorEngine
from verifier.errors import SpecError, UsageError
from verifier.formula.cells import CellsError
from verifier.formula.vector import NotVectorised
from verifier.properties import PROPERTIES
from verifier.scheme import Scheme, build_scheme
from verifier.scheme.lazy import build_fast_scheme
from verifier.scheme.orbits import NotSymmetric, build_reduced_scheme
from verifier.spec import Spec, load_spec
from verifier.verdict import PropertyResult

__all__ = ["Analysis", "analyse", "analyse_file", "build"]  # `Analysis` lives in `analysis.result`


def analyse_file(path: str, timeout_ms: int = limits.DEFAULT_TIMEOUT_MS) -> Analysis:
    """Load the spec file and analyse it."""
    return analyse(load_spec(path), timeout_ms)


EXACT_MAX_CLASSES = 12  # cell-by-cell exact evaluation and enumeration: 4095 rows
FAST_MAX_CLASSES = 16  # the fast path's arrays: 65535 rows
OPTIMALITY_MAX_SETS = SMALL_MAX_SETS  # one LP over all other rows per set; beyond, `analysis.optimality_route`
STAGES = limits.PROGRESS_STAGES


def analyse(spec: Spec, timeout_ms: int = limits.DEFAULT_TIMEOUT_MS, classes: tuple[str, ...] | None = None,
            progress: Callable[[str], None] | None = None, exact: bool = False, optimality: bool = True,
            symmetry: bool = False, lemmas: bool = False, time_limit_s: float | None = None,
            structured: bool = False, time_limit_shown: float | None = None) -> Analysis:
    """Numeric schemes go to the fast path (arrays, exact where it matters) or, with `exact` or formulas it
    cannot vectorise, to the cell-by-cell exact engine; symbolic ones to the SMT pipeline. `progress(text)`
    is told each stage (STAGES calls at most), for progress bars. `optimality=False` skips the optimality of
    each set (class sweeps report verdicts only). Beyond what enumeration reaches, or with `symmetry`, a
    scheme proved class-symmetric is checked on one set per size (`scheme.orbits`); a power-mean set cost by
    lemmas and a few sets (`analysis.power_mean_route`); `lemmas` asks for that route at any class count;
    other set costs by z3 over K booleans per set (`analysis.structured_route`; `structured` asks for it).
    `time_limit_s` bounds the analysis (a stop names `time_limit_shown`, if given): what is undecided by then is
    `unknown`, with the reason (`analysis.stopped`); without it, an enclosing bound's stop propagates."""
    progress_state = Progress(progress, classes=classes)
    start = time.perf_counter()
    try:
        with limits.time_limit(time_limit_s, time_limit_shown):
            return _analyse(spec, timeout_ms, classes, progress_state, exact, optimality, symmetry, lemmas, start,
                            structured)
    except limits.STOPS as caught:
        if time_limit_s is None:  # an enclosing bound's stop: its caller says what was cut
            raise limits.stop_of(caught) from None
        return stopped_analysis(spec, progress_state, limits.stop_of(caught), _finish, time.perf_counter() - start)


def _analyse(spec: Spec, timeout_ms: int, classes, state: "Progress", exact: bool, optimality: bool,
             symmetry: bool, lemmas: bool, start: float, structured: bool = False) -> Analysis:
    tell = state.tell
    tell("building the extended matrix")
    scheme = state.scheme = _build(spec, classes, exact, "", symmetry, lemmas, structured, timeout_ms)
    built = time.perf_counter() - start
    symbolic, wanted, optimality = None, optimality, {}
    if scheme.symbolic and scheme.lemma is not None:
        from verifier.analysis.power_mean_symbolic import analyse_power_mean_symbolic

        results, possibility = analyse_power_mean_symbolic(scheme, timeout_ms, _decided_by_lemmas), []
    elif scheme.symbolic:
        from verifier.analysis.symbolic import analyse_symbolic  # the solver stack loads only when needed

        symbolic = analyse_symbolic(scheme, timeout_ms, state)
        results, possibility = symbolic.results, []
    else:
        rate = f"{len(scheme.all_sets) / max(built, 1e-3):,.0f} sets/s"
        try:
            engine, results = _decide_all(scheme, tell, rate, state)
        except CellsError as exc:  # numbers the arrays cannot carry through the analysis: the exact path
            scheme = state.scheme = _build(spec, classes, exact=True, reason=str(exc))
            state.decided.clear()
            engine, results = _decide_all(scheme, tell, rate, state)
        if scheme.lemma is not None:
            results = merge_lemmas(scheme, results)
        elif getattr(scheme, "structured", None) is not None:
            results = merge_structured(scheme, results)
        if isinstance(engine, VectorEngine):  # its derived arrays are not read again: free them before the re-check
            engine.terms.forget()
        tell("re-checking the evidence independently")
        checker = Checker(scheme)  # one set of cell enclosures for every re-check of this scheme
        check_results(scheme, results, checker)
        state.checked = results
        possibility = state.possibility = [engine.possibility[m] for m in scheme.indeterminate_sets]
        if wanted:  # made on first use, by the route that fits the scheme (`analysis.optimality_route`)
            optimality = optimality_source(scheme, possibility, checker) or {}
    return _finish(spec, scheme, results, possibility, symbolic, optimality, start)


def _finish(spec: Spec, scheme: Scheme, results: list[PropertyResult], possibility, symbolic, optimality,
            start: float) -> Analysis:
    """The verdicts judged against the settings and the expectations, and the two-class decision regions."""
    mark_tight_and_vacuous(results, scheme.K)
    analysis = Analysis(spec, scheme, results, possibility, judge(results), symbolic=symbolic,
                        optimality_data=optimality if isinstance(optimality, dict) else None,
                        optimality_source=optimality if callable(optimality) else None)
    analysis.expectations = [Expectation(pid, want, analysis.by_id[pid].verdict.value)
                             for pid, want in spec.expect.items() if pid in analysis.by_id]  # certificate: api
    if scheme.K == 2 and not scheme.symbolic and not scheme.partial:
        analysis.decision = binary_decision(scheme)
    analysis.seconds = time.perf_counter() - start
    return analysis


def _decide_all(scheme: Scheme, tell, rate: str, state: "Progress | None" = None):
    engine = VectorEngine(scheme) if scheme.cells is not None else EnumerationEngine(scheme)
    results = []
    for number, prop in enumerate(PROPERTIES, start=1):
        tell(f"{prop.id} {prop.name}" + (f" ({len(scheme.all_sets):,} sets built at {rate})"
                                          if prop.id == "P1" else ""))
        results.append(engine.decide(prop))
        if isinstance(engine, VectorEngine):  # only the arrays still to be read stay alive
            engine.release(PROPERTIES[number:])
        if state is not None:
            state.decided[prop.id] = results[-1]
    return engine, results


def _decided_by_lemmas(scheme: Scheme) -> list[PropertyResult]:
    """The power-mean route at fixed values: engines on the sets built, the lemmas for the rest, re-checked."""
    _, results = _decide_all(scheme, lambda text: None, "")
    results = merge_lemmas(scheme, results)
    check_results(scheme, results)
    mark_tight_and_vacuous(results, scheme.K)
    return results


def build(spec: Spec) -> Scheme:
    """The scheme of a spec, the way the checker builds it (fast path, exact cells, or one set per size)."""
    return _build(spec, None)


def _build(spec: Spec, classes: tuple[str, ...] | None, exact: bool = False, reason: str = "", symmetry: bool = False,
           lemmas: bool = False, structured: bool = False, timeout_ms: int = limits.DEFAULT_TIMEOUT_MS) -> Scheme:
    """Class-symmetric schemes beyond enumeration (or with `symmetry`) as one set per size; numeric schemes as
    arrays (the fast path) when every formula vectorises; otherwise cell by cell, which is exact and slow, so
    limited to EXACT_MAX_CLASSES."""
    names = classes or spec.classes
    numeric = all(p.value is not None for p in spec.parameters.values())
    enumerable = FAST_MAX_CLASSES if numeric and not exact and not reason else EXACT_MAX_CLASSES
    not_symmetric = ""
    if spec.predictions.restricted:  # the family's own sets are enumerated, however many classes
        return family_scheme(spec, classes, exact, reason, "--lemmas" if lemmas else "--structured" if structured
                             else "--symmetry" if symmetry else "")
    if lemmas or structured:  # a route asked for by name: UsageError when it does not apply
        return asked_route(spec, classes, lemmas, timeout_ms)
    if symmetry or len(names) > enumerable:
        try:
            return build_reduced_scheme(spec, classes)
        except NotSymmetric as exc:
            not_symmetric = str(exc)
        if len(names) > enumerable:
            found = beyond_enumeration(spec, classes, timeout_ms, not exact and not reason)  # not cell by cell
            if not isinstance(found, str):
                return found
            raise _too_many(spec, "classes", f"{len(names):,} classes are beyond enumeration ({enumerable:,} classes "
                            f"for this spec); the symmetry route does not apply ({not_symmetric}), nor {found}",
                            f"at most {enumerable:,} classes, a scheme that treats every class alike, a power-mean "
                            "set cost, or one of sums, means, min and max over the members (see "
                            "docs/how-verdicts-are-decided.md, 'Beyond enumeration')")
    try:
        scheme = _enumerated(spec, classes, exact, reason)
    except SpecError:
        if symmetry or len(names) <= EXACT_MAX_CLASSES:
            raise
        try:  # formulas the fast path cannot evaluate, beyond cell-by-cell reach: the symmetry route if it applies
            return build_reduced_scheme(spec, classes)
        except NotSymmetric:
            pass
        raise
    if not_symmetric:
        scheme.notes.append(f"The symmetry route was asked for but does not apply ({not_symmetric}); every set "
                            "was enumerated instead.")
    return scheme


def _enumerated(spec: Spec, classes: tuple[str, ...] | None, exact: bool, reason: str) -> Scheme:
    names = classes or spec.classes
    if reason and len(names) > EXACT_MAX_CLASSES:
        raise _too_many(spec, "classes", f"this spec needs cell-by-cell exact work ({reason}), which is limited "
                        f"to {EXACT_MAX_CLASSES:,} classes; it has {len(names)}",
                        f"at most {EXACT_MAX_CLASSES:,} classes for such numbers")
    if exact and len(names) > EXACT_MAX_CLASSES:
        raise UsageError(f"the cell-by-cell exact engine is limited to {EXACT_MAX_CLASSES:,} classes; "
                         f"{spec.path} has {len(names)}")
    if not exact and all(p.value is not None for p in spec.parameters.values()):
        try:
            return build_fast_scheme(spec, classes)
        except NotVectorised as exc:
            if len(names) > EXACT_MAX_CLASSES:
                raise _too_many(spec, "set_cost" if spec.set_cost is not None else "cost",
                                f"this spec needs cell-by-cell exact evaluation ({exc}), which is limited to "
                                f"{EXACT_MAX_CLASSES:,} classes; it has {len(names)}",
                                f"at most {EXACT_MAX_CLASSES:,} classes, or formulas the fast path evaluates (see "
                                "docs/how-verdicts-are-decided.md, 'Beyond enumeration')") from None
    elif len(names) > EXACT_MAX_CLASSES:
        raise _too_many(spec, "parameters", f"symbolic parameters are verified by enumerating every set, limited "
                        f"to {EXACT_MAX_CLASSES:,} classes; this spec has {len(names)}",
                        f"at most {EXACT_MAX_CLASSES:,} classes with symbolic parameters, or fixed values")
    return build_scheme(spec, classes=classes)


def _too_many(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key) or spec.marks.get("classes")
    return SpecError.at(message, mark, file=spec.path, key=key, expected=expected)
