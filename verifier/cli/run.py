"""One spec's run for the `verify` command, over the Python API: what to print, which files were written, and
what decides the exit status. Errors become one paragraph for stderr, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier import limits
from verifier.api import sweep_classes, verify
from verifier.errors import SpecError, UsageError


@dataclass
class Outcome:
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
        message = f"{path}: the memory limit was exceeded; no verdict (raise --memory to allow more)."
        return Outcome(path, {"spec": path, "error": message}, error=message)
    except RecursionError:
        message = f"{path}: invalid spec: the formulas are nested too deeply to evaluate."
        return Outcome(path, {"spec": path, "error": message}, error=message)
    except Exception as exc:  # a bug of ours: say so plainly, never as a traceback
        if isinstance(exc, SystemError) and limits.MEMORY_MB:
            # a native library (gmpy, z3, flint) whose allocation fails under the cap may return an error
            # without setting one, which Python reports as SystemError: that is the cap, not a bug
            message = (f"{path}: a native library failed under the memory limit --memory {limits.MEMORY_MB} "
                       f"({exc}); no verdict (raise --memory to allow more).")
        else:
            message = (f"{path}: internal error while verifying ({type(exc).__name__}: {exc}); "
                       "this is a bug in verify, please report it with the spec.")
        return Outcome(path, {"spec": path, "error": message}, error=message)


def _run(path: str, args, width: int, color: bool, taken, step, text: str) -> Outcome:
    use_cache = not (args.no_cache or args.report)  # report files are always made afresh
    if args.classes and args.lemmas:
        raise UsageError("--lemmas decides one class count; it does not combine with --classes")
    if args.classes:
        report = sweep_classes(path, args.classes, timeout=args.timeout, cache=use_cache, exact=args.exact,
                               symmetry=args.symmetry, progress=step, time_limit=args.time_limit)
    else:
        report = verify(path, timeout=args.timeout, cache=use_cache, cross_check=args.cross_check,
                        exact=args.exact, symmetry=args.symmetry, lemmas=args.lemmas, progress=step,
                        time_limit=args.time_limit)
    outcome = Outcome(path, {}, expectations_met=report.expectations_met, cached_at=report.cached_at,
                      fits=getattr(report, "fits", {}), disagreements=list(report.summary["disagreements"]),
                      summary=dict(report.summary))
    if args.report and not args.classes:
        outcome.written = report.write(args.report, taken)
    # the JSON record prints every exact cell (seconds for 511 irrational rows): only when it is wanted
    outcome.record = report.to_json() if args.format in ("json", "junit") or args.classes else \
        {"spec": path, "name": report.name}
    if args.format == "text" and (text != "none" or args.classes):
        outcome.text = report.to_summary(width, color) if text == "compact" and hasattr(report, "to_summary") \
            else report.to_text(width, color)
    return outcome
