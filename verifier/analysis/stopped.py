"""An analysis stopped by the overall time bound (`--time-limit`): what was decided and re-checked is kept,
everything else is `unknown` with the reason, never a hang and never an unchecked verdict.

`Progress` is the analysis' running record (the scheme once built, each property as it is decided, the
re-checked verdicts); `stopped_analysis` turns it into an ordinary `Analysis`. A verdict that was decided but
not yet re-checked by the independent checker is re-checked here, within a short grace period of its own, or
dropped.

Owns: the time-limit outcome of one analysis. May import: `check`, `engines` (through the caller), `limits`,
`errors`, `verdict`, `properties`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from verifier import limits
from verifier.check.checker import check_results
from verifier.errors import SpecError
from verifier.properties import PROPERTIES
from verifier.verdict import Evidence, PropertyResult, Verdict

GRACE_S = 30.0  # at most this long to re-check verdicts decided before the bound (capped at a quarter of it)


@dataclass
class Progress:
    """What an analysis has done so far, for progress bars and for a stop at the time bound."""

    listener: Callable[[str], None] | None = None
    stage: str = "starting"
    scheme: object | None = None
    decided: dict[str, PropertyResult] = field(default_factory=dict)  # decided, not yet re-checked
    checked: list[PropertyResult] | None = None  # all ten, re-checked
    possibility: list = field(default_factory=list)
    symbolic: bool = False  # verdicts of the symbolic pipeline ('fails' re-checked in the engine already)
    classes: tuple[str, ...] | None = None  # the class names asked for, when not the spec's own

    def tell(self, text: str) -> None:
        """Record the stage the analysis has reached and tell the listener, if any."""
        self.stage = text
        if self.listener is not None:
            self.listener(text)


def stopped_analysis(spec, state: Progress, stop: limits.TimeLimitReached, finish, seconds: float):
    """The analysis as far as it got. Stopped while the matrix was built, it is a cut run as well (on a quiet or a
    busy machine alike): the classes' own rows, built within a grace period, and every property `unknown` (a
    located SpecError only when not even those rows can be built)."""
    if state.scheme is None:
        state.scheme = _own_rows(spec, state, stop)
    scheme = state.scheme
    reason = f"{stop} {_stage(state.stage)}, before this property was decided"
    kept = state.checked if state.checked is not None else _recheck(scheme, state, stop.seconds)
    by_id = {r.property.id: r for r in kept}
    results = [by_id.get(p.id) or PropertyResult(p, Verdict.UNKNOWN, Evidence("none"), reason=reason)
               for p in PROPERTIES]
    note = f"Stopped: {stop} {_stage(state.stage)}"
    if getattr(scheme, "partial", False) and not scheme.indeterminate_sets:
        note += "; only the classes' own rows were built, no property was decided"
    elif state.checked is not None:
        note += "; the ten verdicts were decided and re-checked before that, the optimality of each set was not"
    else:
        decided = [r.property.id for r in kept]
        note += (f"; {', '.join(decided)} were decided and re-checked before that" if decided else
                 "; no property was decided") + ", the others are unknown"
    scheme.notes.append(note + ". Raise --time-limit to let it finish.")
    analysis = finish(spec, scheme, results, state.possibility if state.checked is not None else [], None, {}, 0.0)
    analysis.stopped = note
    analysis.seconds = seconds
    return analysis


def _own_rows(spec, state: Progress, stop: limits.TimeLimitReached):
    """The scheme of the classes' own rows only (no indeterminate set), for a run stopped while the extended
    matrix was built: what its report can still show (the classes, the determinate costs)."""
    from verifier.scheme import build_scheme

    try:
        with limits.time_limit(min(GRACE_S, max(1.0, stop.seconds / 4))):
            return build_scheme(spec, classes=state.classes, sets=[])
    except (limits.TimeLimitReached, SpecError):
        mark = spec.marks.get("set_cost") or spec.marks.get("classes")
        raise SpecError.at(f"{stop}: building the extended matrix did not finish, nor did its classes' own rows",
                           mark, file=spec.path, key="set_cost" if spec.set_cost is not None else "classes",
                           expected="a larger --time-limit, or formulas that take less work") from None


def _recheck(scheme, state: Progress, limit_s: float) -> list[PropertyResult]:
    """Verdicts decided before the bound, re-checked independently within a grace period; unchecked ones go."""
    decided = [r for r in state.decided.values() if r.verdict is not Verdict.UNKNOWN]
    if not decided:
        return []
    try:
        with limits.time_limit(min(GRACE_S, max(1.0, limit_s / 4))):
            if state.symbolic:  # 'fails' was re-checked by substitution inside the engine; 'holds' needs more
                return [r for r in decided if r.verdict is Verdict.FAILS]
            check_results(scheme, decided)
    except limits.TimeLimitReached:
        return []
    return [r for r in decided if r.verdict is not Verdict.UNKNOWN]


def _stage(text: str) -> str:
    return f"during the stage '{text}'" if text else "at the start"
