"""One spec's run for the `verify` command: analysis (or the cache), cross-check, report files, and what the
command needs to print and to decide its exit status."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from rich.console import Console

from . import cache, class_sweep
from .analysis import analyse_file
from .cross_check import cross_check
from .errors import SpecError, UsageError
from .report_console import render
from .report_files import write_reports
from .report_json import to_json
from .spec import load_spec


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


def run(path: str, args, console_for, step=None) -> Outcome:
    """Verify one spec. `console_for(buffer)` makes a console that renders into `buffer`; `step(text)`
    reports progress inside long runs."""
    options = {"timeout": args.timeout, "rlimit": args.rlimit, "cross_check": args.cross_check,
               "classes": args.classes, "format": args.format, "width": args.width, "color": args.color}
    cache_key = None if (args.no_cache or args.report) else cache.key(path, options)
    hit = cache.load(cache_key)
    if hit is not None:
        return Outcome(path, hit["record"], hit["text"], expectations_met=hit["met"], fits=hit["fits"],
                       cached_at=hit["stored_at"])
    try:
        outcome = _fresh(path, args, console_for, step)
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
        message = (f"{path}: internal error while verifying ({type(exc).__name__}: {exc}); "
                   "this is a bug in verify, please report it with the spec.")
        return Outcome(path, {"spec": path, "error": message}, error=message)
    if not outcome.disagreements:
        cache.store(cache_key, {"record": outcome.record, "text": outcome.text, "met": outcome.expectations_met,
                                "fits": outcome.fits})
    return outcome


def _fresh(path: str, args, console_for, step=None) -> Outcome:
    buffer = io.StringIO()
    console: Console = console_for(buffer)
    timeout_ms = int(args.timeout * 1000)
    if args.classes:
        result = class_sweep.sweep(load_spec(path), class_sweep.parse_range(args.classes), timeout_ms, step)
        if args.format == "text":
            class_sweep.render(result, console)
        return Outcome(path, class_sweep.to_json(result), buffer.getvalue())
    analysis = analyse_file(path, timeout_ms=timeout_ms)
    outcome = Outcome(path, {}, expectations_met=analysis.expectations_met,
                      fits={name: fit.fits for name, fit in analysis.settings.items()})
    if args.cross_check:
        analysis.cross_checks = cross_check(analysis, timeout_ms)
        outcome.disagreements = [f"{path}: {c.property_id} reported {c.first}, but {c.method} gives {c.second}"
                                 for c in analysis.cross_checks if c.disagrees]
    if args.report:
        outcome.written = write_reports(analysis, args.report)
    # the JSON record prints every exact cell (seconds for 511 irrational rows): only when it is wanted
    outcome.record = to_json(analysis) if args.format in ("json", "junit") else {"spec": path, "name": analysis.spec.name}
    if args.format == "text":
        render(analysis, console)
        outcome.text = buffer.getvalue()
    return outcome
