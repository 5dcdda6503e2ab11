"""The public entry points: `verify` one spec, `verify_all` specs of a directory, `sweep_classes` over class
counts. The command line is a thin shell over these.

A spec source is a path (`str` or `os.PathLike`), YAML text (a `str` holding a newline or starting with
`{`), or already parsed data (a mapping, as `yaml.safe_load` returns it). An invalid spec raises `SpecError`
(with `.path`, `.key`, `.line`, `.column` and the message the command line prints); a bad argument raises
`UsageError`.
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeGuard, Union

from verifier import limits, numbers
from verifier.analysis.class_sweep import open_range, parse_range, sweep
from verifier.analysis.pipeline import Analysis, analyse
from verifier.analysis.result import DETAILS
from verifier.api import arguments
from verifier.api import cache as result_cache
from verifier.api.paths import spec_paths
from verifier.errors import SpecError, UsageError
from verifier.spec import MAX_CLASSES, Spec, load_spec, spec_from_data, spec_from_text

if TYPE_CHECKING:  # imported where used: `decide` and `evaluate` load this module, never a Report (nor rich)
    from verifier.api.report import ClassSweepReport, EveryKReport, Report

Source = Union[str, "os.PathLike[str]", Mapping, Spec]  # a Spec: read already (what `prepare` holds)


def verify(source: Source, *, classes: int | Sequence[str] | None = None, timeout: float = 20,
           cache: bool = True, cross_check: bool = False, exact: bool = False, symmetry: bool = False,
           lemmas: bool = False, progress: Callable[[str], None] | None = None,
           time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S, detail: str = "full",
           certificate: bool = False) -> Report:
    """Verify Properties 1-10 of one scheme and judge it against the filtering and choice settings.

    `classes`: None for the spec's own classes; an integer K for a formula spec at K classes named "1".."K";
    or a list of class names for a formula spec. `timeout`: seconds per solver question (symbolic
    parameters). `cache`: reuse (and store) a finished result for this exact spec and these options.
    `cross_check`: decide every property a second time by an independent method; disagreements are listed
    in `Report.disagreements` (and such a result is never cached). `exact`: decide a numeric scheme cell by
    cell with the exact engine instead of the fast path (same verdicts, slower; at most 12 classes).
    `symmetry`: check a scheme proved class-symmetric on one set per size even when every set could be
    enumerated (this is automatic beyond 16 classes, 12 with symbolic parameters; up to 64). `lemmas`: decide
    a power-mean set cost (`genmean(E, [c(yh, y) for yh in Y])`) by the power-mean lemmas and a few sets built,
    at any class count (automatic beyond enumeration when the symmetry route does not apply).
    `progress(text)`: told each stage of the analysis (for progress bars). `time_limit`: seconds for the
    whole run (None: no bound): what is not decided and re-checked by then is `unknown` with the reason, and
    what the displays show is made within it too. `detail`: what the run makes for its displays, "summary"
    (verdicts, fit and the first steps to fit: `to_summary`), "text" (also every set's optimality and every
    failing cell: `to_text`, `to_json`, `to_markdown`) or "full" (also the pictures' numbers: `to_html`,
    `figures`, `write`, the notebook display); a display beyond it raises `UsageError`, and no display computes
    anything. `certificate`: also make the certificate (`Report.certificate()`) within the time limit; such a
    result is not cached.
    """
    from verifier.api.report import Report

    timeout_ms = checked_timeout_ms(timeout)
    time_limit = checked_time_limit(time_limit)
    progress = arguments.callback(progress, "progress")
    detail = arguments.choice(detail, "detail", DETAILS)
    certificate = arguments.flag(certificate, "certificate")
    spec, spent = load_in_time(source, time_limit)
    names = _class_names(spec, classes)
    options = result_cache.report_options(spec.path, timeout, time_limit, names, cross_check, exact, symmetry,
                                          lemmas)

    def run() -> Analysis:
        started = time.monotonic() - spent  # one bound for reading, analysing and cross-checking
        bound = None if time_limit is None else max(0.001, time_limit - spent)
        analysis = analyse(spec, timeout_ms, classes=names, progress=progress, exact=exact, symmetry=symmetry,
                           lemmas=lemmas, time_limit_s=bound, time_limit_shown=time_limit)
        if analysis.symbolic is not None and analysis.scheme.symbols and not analysis.stopped:
            from verifier.analysis.symbolic_optimality import symbolic_optimality  # decided when first read

            analysis.optimality_data, analysis.optimality_source = None, partial(symbolic_optimality, analysis.scheme)
        if cross_check:
            from verifier.check.cross_check import cross_check as second_opinion  # loads z3: only when asked

            left = None if time_limit is None else time_limit - (time.monotonic() - started)
            analysis.cross_checks = second_opinion(analysis, timeout_ms, left, time_limit)  # one bound for both
        from verifier.api.completion import complete  # what the displays show: sympy and the solvers, when asked

        deadline = None if time_limit is None else started + time_limit
        return complete(analysis, detail, certificate, deadline, time_limit, progress)

    # a certificate is always made afresh; a result a non-default timeout per question may have shaped is not kept
    fresh_only = certificate or timeout_ms != limits.DEFAULT_TIMEOUT_MS
    key = result_cache.key(spec.content, options) if cache and not fresh_only else None
    entry = result_cache.load(key)
    if _usable(entry, "report"):
        return Report(entry["summary"], None, entry["outputs"], entry["stored_at"], rerun=run,
                      remember=_remember(key, entry["stored_at"]))
    analysis = run()
    disagreements = [f"{spec.path}: {c.property_id} reported {c.first}, but {c.method} gives {c.second}"
                     for c in analysis.cross_checks if c.disagrees]
    # a result cut short by the time bound depends on the machine's speed: it is never reused
    cut = analysis.stopped or analysis.cut_late or any(c.cut for c in analysis.cross_checks)
    remember = _remember(key) if key and not disagreements and not cut else None
    report = Report.of(analysis, disagreements, rerun=run, remember=remember)
    if remember is not None:
        remember(report.summary, {})
    return report


def verify_all(directory: str | os.PathLike, **options) -> list[Report]:
    """`verify` every *.yaml / *.yml spec of a directory, in name order (same options as `verify`)."""
    return [verify(path, **options) for path in spec_paths([arguments.path(directory, "directory", False)])]


def sweep_classes(source: Source, counts: str | Iterable[int], *, timeout: float = 20, cache: bool = True,
                  exact: bool = False, symmetry: bool = False,
                  progress: Callable[[str], None] | None = None,
                  time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> "ClassSweepReport | EveryKReport":
    """A formula spec verified at every class count in `counts` ("2..8" or e.g. range(2, 9)); reports the
    verdicts per K and the smallest K at which each property fails. `progress(text)` is told each K.
    An open range ("2..") decides a scheme that treats every class alike for every K at once
    (`EveryKReport`). `time_limit` bounds each class count's analysis, as in `verify`."""
    from verifier.api.report import ClassSweepReport, EveryKReport

    timeout_ms = checked_timeout_ms(timeout)
    time_limit = checked_time_limit(time_limit)
    progress = arguments.callback(progress, "progress")
    spec, _ = load_in_time(source, time_limit)  # each class count then has the whole bound
    low = open_range(counts) if isinstance(counts, str) else None
    if low is not None:
        from verifier.analysis.every_k import analyse_every_k  # z3: every class count at once

        return EveryKReport.of(spec, analyse_every_k(spec, low, timeout_ms, progress))
    ks = parse_range(counts) if isinstance(counts, str) else _counts(counts)
    options = {"timeout": timeout, "time_limit": time_limit, "counts": ks, "exact": exact, "symmetry": symmetry,
               "rlimit": limits.RLIMIT, "memory": limits.MEMORY_MB, "kind": "sweep", "path": spec.path}
    run = lambda: sweep(spec, ks, timeout_ms, progress, exact=exact, symmetry=symmetry,  # noqa: E731
                        time_limit_s=time_limit)
    key = result_cache.key(spec.content, options) if cache else None
    entry = result_cache.load(key)
    if _usable(entry, "sweep"):
        return ClassSweepReport(entry["summary"], None, entry["outputs"], entry["stored_at"], rerun=run,
                                remember=_remember(key, entry["stored_at"]))
    result = run()
    # a sweep cut by the time limit depends on the machine's speed: never stored (a single spec's is not either)
    remember = _remember(key) if key and not result.stopped else None
    report = ClassSweepReport.of(result, rerun=run, remember=remember)
    if remember is not None:
        remember(report.summary, {})
    return report


def load(source: Source | Spec, open_cells: bool = False) -> Spec:
    """A validated spec from a path, YAML text or parsed data, or the `Spec` given, read already (raises
    SpecError). `open_cells`: null cells in `set_costs` are left open (for `design`)."""
    if isinstance(source, Spec):
        return source
    if isinstance(source, os.PathLike):
        return load_spec(os.fspath(source), open_cells)
    if isinstance(source, Mapping):
        return spec_from_data(dict(source), open_cells=open_cells)
    if isinstance(source, str):
        if "\n" in source or source.lstrip().startswith("{"):
            return spec_from_text(source, open_cells=open_cells)
        return load_spec(source, open_cells)
    raise UsageError(f"a spec is a path, YAML text or a mapping, not a {type(source).__name__}")


def load_in_time(source: Source | Spec, seconds: float | None, open_cells: bool = False) -> tuple[Spec, float]:
    """The spec, read within the overall bound (one deadline covers reading and analysing), and the seconds
    reading took. Reading past the bound is a SpecError naming it."""
    if seconds is None:
        return load(source, open_cells), 0.0
    if isinstance(source, Spec):  # read already (by the command line, within the same bound)
        return source, source.read_seconds
    start = time.monotonic()
    try:
        with limits.time_limit(seconds):
            spec = load(source, open_cells)
    except limits.STOPS as caught:
        limits.stop_of(caught)  # anything but a stop is raised again as it was
        named = isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source)
        raise SpecError(f"reading the spec took longer than the time limit of {seconds:g} s (--time-limit)",
                        file=os.fspath(source) if named else "<text>",  # type: ignore[arg-type]  # named: a path
                        expected="a smaller spec, or a larger --time-limit (time_limit=)") from None
    return spec, time.monotonic() - start


def _usable(entry: dict | None, kind: str) -> TypeGuard[dict]:
    return result_cache.usable(entry, kind)


def _remember(key: str | None, stored_at: str | None = None):
    """Store (summary, outputs) under `key`, keeping the first time stamp so that a cached result keeps saying
    when it was computed."""
    stamp = [stored_at]

    def remember(summary: dict, outputs: dict) -> None:
        stamp[0] = result_cache.store(key, summary, outputs, stamp[0]) or stamp[0]

    return remember


def checked_timeout_ms(timeout: float) -> int:
    """Seconds per solver question (an API argument) as z3's milliseconds, or a UsageError."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
            or not 0 < timeout <= limits.MAX_TIMEOUT_S:
        raise UsageError(f"the timeout must be a number of seconds above 0 and at most {limits.MAX_TIMEOUT_S}, "
                         f"got {numbers.shown(timeout)}")
    return max(1, int(timeout * 1000))


def checked_time_limit(seconds: float | None) -> float | None:
    """The overall bound per spec (an API argument): None, or seconds above 0 and at most a week."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or not 0 < seconds <= MAX_TIME_LIMIT_S:
        raise UsageError(f"the time limit must be None or a number of seconds above 0 and at most "
                         f"{MAX_TIME_LIMIT_S}, got {numbers.shown(seconds)}")
    return float(seconds)


MAX_TIME_LIMIT_S = 7 * 86_400


def _class_names(spec: Spec, classes) -> tuple[str, ...] | None:
    if classes is None:
        return None
    if spec.cost_matrix is not None or spec.set_costs:
        raise UsageError(f"{spec.path}: choosing the classes needs a spec written with formulas ('cost' and "
                         "'set_cost'); a cost matrix or explicit set rows fix the number of classes")
    if isinstance(classes, int) and not isinstance(classes, bool):
        if not 2 <= classes <= MAX_CLASSES:
            raise UsageError(f"classes must be between 2 and {MAX_CLASSES}, got {numbers.shown(classes)}")
        return tuple(str(i) for i in range(1, classes + 1))
    if isinstance(classes, str) or not isinstance(classes, Sequence):
        raise UsageError(f"classes is a count or a list of class names, not {numbers.shown(classes)}")
    if len(classes) > MAX_CLASSES or not all(isinstance(c, str) for c in classes):
        raise UsageError(f"classes needs 2 to {MAX_CLASSES} distinct names (strings), got {numbers.shown(classes)}")
    names = tuple(classes)
    if not 2 <= len(names) <= MAX_CLASSES or len(set(names)) != len(names) \
            or not all(re.fullmatch(r"[^,\s'\"]+( [^,\s'\"]+)*", n) for n in names):
        raise UsageError(f"classes needs 2 to {MAX_CLASSES} distinct names without commas or quotes, "
                         f"got {list(names)}")
    return names


def _counts(counts: Iterable[int]) -> list[int]:
    if not isinstance(counts, (range, Sequence, set, frozenset)) or isinstance(counts, (str, bytes)) \
            or len(counts) > MAX_CLASSES:
        raise UsageError(f"class counts are '2..8' or up to {MAX_CLASSES} integers, got {numbers.shown(counts)}")
    ks = list(counts)
    if not ks or any(isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= MAX_CLASSES for k in ks):
        raise UsageError(f"class counts must be integers from 2 to {MAX_CLASSES}, got {numbers.shown(ks)}")
    return sorted(set(ks))
