"""One spec's run for the `verify` command, over the Python API: what to print, which files were written, and
what decides the exit status. Errors become one paragraph for stderr, never a traceback."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

from verifier import limits
from verifier.api import cache
from verifier.errors import SpecError, UsageError


@dataclass
class Outcome:
    """One spec's run: its JSON record and console report, or the error, what it met and fitted, and the files
    written."""
    path: str
    record: dict  # the JSON report (or {"spec", "error"})
    text: str = ""  # the console report
    error: str = ""  # one paragraph for stderr: the spec is invalid (exit 2)
    expectations_met: bool = True
    fits: dict = field(default_factory=dict)  # setting -> True / False / None
    disagreements: list[str] = field(default_factory=list)
    cached_at: str | None = None
    written: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)  # the report's summary: verdicts, one line of why, fits
    notes: list[str] = field(default_factory=list)  # for stderr, e.g. why --figures wrote nothing for this spec


def run(path: str, args, width: int, color: bool, taken: set[str] | None = None, step=None,
        text: str = "full") -> Outcome:
    """Verify one spec as the command line asks (`args`); `step(text)` reports progress inside long runs;
    `text`: the console report to make, "full", "compact", or "none" (a directory's one line per spec)."""
    try:
        return _run(path, args, width, color, taken, step, text)
    except SpecError as exc:
        message = str(exc.located(file=path))
        return Outcome(path, {"spec": path, "error": message}, error=message)
    except UsageError as exc:
        return Outcome(path, {"spec": path, "error": str(exc)}, error=f"verify: usage error: {exc}")
    except MemoryError:
        message = f"{path}: {limits.memory_words()} was exceeded; no verdict."
        return Outcome(path, {"spec": path, "error": message}, error=message)
    except RecursionError:
        message = f"{path}: invalid spec: the formulas are nested too deeply to evaluate."
        return Outcome(path, {"spec": path, "error": message}, error=message)
    except Exception as exc:  # a bug of ours: say so plainly, never as a traceback
        if isinstance(exc, SystemError) and (limits.MEMORY_MB or limits.DEFAULT_CAP_MB):
            # a native library (gmpy, z3, flint) whose allocation fails under the cap may return an error
            # without setting one, which Python reports as SystemError: that is the cap, not a bug
            message = f"{path}: a native library failed under {limits.memory_words()} ({exc}); no verdict."
        else:
            message = (f"{path}: internal error while verifying ({type(exc).__name__}: {exc}); "
                       "this is a bug in verify, please report it with the spec.")
        return Outcome(path, {"spec": path, "error": message}, error=message)


def _run(path: str, args, width: int, color: bool, taken, step, text: str) -> Outcome:
    # report files and certificates are always made afresh
    use_cache = not (args.no_cache or args.report or getattr(args, "certificate", None))
    limit = None if args.time_limit is None else float(args.time_limit)
    began = time.monotonic()
    with _reading(path, limit):  # one deadline from the first byte read: the cache's look at the YAML counts
        if use_cache and not args.classes and not getattr(args, "figures", None):  # figures need the analysis
            hit = _cached(path, args, width, color, text)
            if hit is not None:
                return hit
        from verifier.spec.reader import load_spec  # reading and validating load no solver: a bad spec is told at once

        spec = load_spec(path)
    from verifier.api import sweep_classes, verify  # the solvers load only when there is work for them
    if args.classes and args.lemmas:
        raise UsageError("--lemmas decides one class count; it does not combine with --classes")
    spec.read_seconds = time.monotonic() - began  # one deadline: the analysis has what reading left of it
    if args.classes:
        report = sweep_classes(path, args.classes, timeout=args.timeout, cache=use_cache, exact=args.exact,
                               symmetry=args.symmetry, progress=step, time_limit=args.time_limit)
    else:
        report = verify(spec, timeout=args.timeout, cache=use_cache, cross_check=args.cross_check,
                        exact=args.exact, symmetry=args.symmetry, lemmas=args.lemmas, progress=step,
                        time_limit=args.time_limit, detail=_detail(args, text),
                        certificate=bool(getattr(args, "certificate", None)))
    outcome = Outcome(path, {}, expectations_met=report.expectations_met, cached_at=report.cached_at,
                      fits=getattr(report, "fits", {}), disagreements=list(report.summary["disagreements"]),
                      summary=dict(report.summary))
    if args.report and not args.classes:
        outcome.written = report.write(args.report, taken)
    if getattr(args, "certificate", None) and hasattr(report, "certificate"):
        import json

        import verifier_check
        from verifier.report.output import write_output

        made = report.analysis.certificate_data
        if made is None:  # the time limit cut the run first (its report says so), or the spec cannot be certified
            refused = report.analysis.parts.get("certificate refused")
            if refused:
                raise UsageError(refused)
            outcome.notes.append(f"verify: no certificate written for {path}: the time limit cut the run first")
        else:
            document = json.dumps(made, indent=1) + "\n"
            if len(document) > verifier_check.MAX_BYTES:  # never a file the checker refuses to read
                raise UsageError(f"--certificate: the certificate of {path} takes {len(document):,} bytes, more "
                                 f"than the {verifier_check.MAX_BYTES:,} the checker reads")
            write_output(args.certificate, document, "--certificate")
            outcome.written.append(args.certificate)
    if getattr(args, "figures", None) and not args.classes and hasattr(report, "figures"):
        figures = report.figures(args.figures, taken=taken)
        outcome.written += list(figures.values())
        if not figures:  # say so, rather than leave an empty directory unexplained
            outcome.notes.append(f"verify: no figures for {path}: {getattr(figures, 'reason', '') or 'none apply'}")
    # the JSON record prints every exact cell (seconds for 511 irrational rows): only when it is wanted
    streamed = report.json_streamed() if args.format == "json" and not args.classes else None
    if streamed is not None:
        outcome.record = streamed  # millions of cells: written as it is made
    else:
        outcome.record = report.to_json() if args.format in ("json", "junit") or args.classes else \
            {"spec": path, "name": report.name}
    if args.format == "text" and (text != "none" or args.classes):
        outcome.text = report.to_summary(width, color) if text == "compact" and hasattr(report, "to_summary") \
            else report.to_text(width, color)
    return outcome


def _detail(args, text: str) -> str:
    """What the run makes for what this command prints or writes (`analysis.result.DETAILS`)."""
    if args.report or getattr(args, "figures", None):
        return "full"  # the HTML page and the figures draw pictures
    if args.format in ("json", "junit") or (args.format == "text" and text == "full"):
        return "text"
    return "summary"


@contextlib.contextmanager
def _reading(path: str, limit: float | None):
    """Reading the spec (and the cache's look at it) within the run's time limit: a located error past it."""
    if limit is None:
        yield
        return
    try:
        with limits.time_limit(limit):
            yield
    except limits.STOPS as caught:
        limits.stop_of(caught)  # anything but a stop is raised again as it was
        raise SpecError(f"reading the spec took longer than the time limit of {limit:g} s (--time-limit)",
                        file=path, expected="a smaller spec, or a larger --time-limit") from None


def _cached(path: str, args, width: int, color: bool, text: str) -> Outcome | None:
    """A cached result that already holds every output this run prints, read without the solvers or sympy
    (a re-run of an unchanged spec); None sends the run down the ordinary path."""
    time_limit = None if args.time_limit is None else float(args.time_limit)
    options = cache.report_options(path, args.timeout, time_limit, None, args.cross_check, args.exact,
                                   args.symmetry, args.lemmas)
    entry = cache.entry_for_file(path, options)
    if entry is None:
        return None
    summary, outputs = entry["summary"], entry["outputs"]
    wanted = {"json": "json", "junit": "json", "markdown": None,
              "text": None if text == "none" else f"{'summary' if text == 'compact' else 'text'}:{width}:{color}"}
    needed = wanted[args.format]
    if needed is not None and needed not in outputs:
        return None
    outcome = Outcome(path, {"spec": path, "name": summary["name"]}, expectations_met=summary["expectations_met"],
                      cached_at=entry["stored_at"], fits=dict(summary["fits"]),
                      disagreements=list(summary["disagreements"]), summary=dict(summary))
    if args.format in ("json", "junit"):
        outcome.record = dict(outputs["json"])
    elif args.format == "text" and needed is not None:
        outcome.text = outputs[needed]
    return outcome
