"""The `verify` command. `check(argv, stdout, stderr) -> int` is the whole program, testable in-process.

Exit status (DESIGN.md §4): 0 ran and every expectation is met; 1 some expectation is not met (an
`unknown` meets neither `holds` nor `fails`); 2 an invalid spec or a usage error (message, no traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TextIO

from rich.console import Console
from rich.rule import Rule

from . import __version__
from . import class_sweep, limits
from .cross_check import cross_check
from .analysis import Analysis, analyse_file
from .errors import SpecError, UsageError
from .report_console import render
from .report_json import to_json
from .spec import load_spec

EXIT_OK, EXIT_UNMET, EXIT_INVALID = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print and exit; we want a testable exception
        raise UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(prog="verify", add_help=False,
                     description="Prove or refute Properties 1-10 of Yang, Destercke & Masson (2017) for cost "
                                 "schemes of set-valued predictions, exactly.")
    parser.add_argument("paths", nargs="*", metavar="SPEC", help="spec files (*.yaml) or directories of them")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="report format")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--width", type=int, default=None, help="console width (default: terminal or 120)")
    parser.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                        help="time limit per solver question for symbolic parameters (default 20)")
    parser.add_argument("--classes", metavar="LO..HI", default=None,
                        help="check a formula spec at every class count in the range (e.g. 2..8)")
    parser.add_argument("--cross-check", action="store_true",
                        help="decide every property a second time by an independent method; exit 1 on disagreement")
    parser.add_argument("--rlimit", type=int, default=None, metavar="UNITS",
                        help="z3 resource limit per solver question (deterministic, unlike --timeout)")
    parser.add_argument("--memory", type=int, default=None, metavar="MB",
                        help="address-space limit for this process; exceeding it gives no verdict, not a crash")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    return parser


def expand(paths: list[str]) -> list[str]:
    """Files as given; directories become their *.yaml / *.yml files in sorted order."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(os.path.join(path, name) for name in os.listdir(path)
                           if name.endswith((".yaml", ".yml")) and os.path.isfile(os.path.join(path, name)))
            if not found:
                raise UsageError(f"{path}: the directory holds no *.yaml spec")
            out += found
        else:
            out.append(path)
    return out


def check(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.help:
            parser.print_help(file=stdout)
            return EXIT_OK
        if args.version:
            print(f"verify {__version__}", file=stdout)
            return EXIT_OK
        if not args.paths:
            raise UsageError("no spec given; usage: verify SPEC... (files or directories)")
        paths = expand(args.paths)
    except UsageError as exc:
        print(f"verify: usage error: {exc}", file=stderr)
        return EXIT_INVALID

    analyses: list[Analysis] = []
    records: list[dict] = []
    invalid = False
    console = _console(stdout, args)
    timeout_ms = int(args.timeout * 1000)
    limits.apply(rlimit=args.rlimit, memory_mb=args.memory)
    disagreements: list[str] = []
    try:
        counts = class_sweep.parse_range(args.classes) if args.classes else None
    except UsageError as exc:
        print(f"verify: usage error: {exc}", file=stderr)
        return EXIT_INVALID
    for index, path in enumerate(paths):
        try:
            if counts is not None:
                result = class_sweep.sweep(load_spec(path), counts, timeout_ms)
                if args.format == "json":
                    records.append(class_sweep.to_json(result))
                else:
                    class_sweep.render(result, console)
                continue
            analysis = analyse_file(path, timeout_ms=timeout_ms)
            if args.cross_check:
                analysis.cross_checks = cross_check(analysis, timeout_ms)
                for c in analysis.cross_checks:
                    if c.disagrees:
                        disagreements.append(f"{path}: {c.property_id} reported {c.first}, but {c.method} "
                                             f"gives {c.second}")
            record = to_json(analysis) if args.format == "json" else None
            if args.format == "text":
                if index:
                    console.print(Rule())
                render(analysis, console)
        except SpecError as exc:
            invalid = True
            print(str(exc.located(file=path)), file=stderr)
            records.append({"spec": path, "error": str(exc)})
            continue
        except UsageError as exc:
            invalid = True
            print(f"verify: usage error: {exc}", file=stderr)
            records.append({"spec": path, "error": str(exc)})
            continue
        except MemoryError:
            invalid = True
            message = f"{path}: the memory limit was exceeded; no verdict (raise --memory to allow more)."
            print(message, file=stderr)
            records.append({"spec": path, "error": message})
            continue
        except RecursionError:
            invalid = True
            message = f"{path}: invalid spec: the formulas are nested too deeply to evaluate."
            print(message, file=stderr)
            records.append({"spec": path, "error": message})
            continue
        except Exception as exc:  # a bug of ours: say so plainly, never as a traceback
            invalid = True
            message = (f"{path}: internal error while verifying ({type(exc).__name__}: {exc}); "
                       "this is a bug in verify, please report it with the spec.")
            print(message, file=stderr)
            records.append({"spec": path, "error": message})
            continue
        analyses.append(analysis)
        if record is not None:
            records.append(record)
    if args.format == "json":
        payload = records[0] if len(records) == 1 else records
        json.dump(payload, stdout, indent=2, ensure_ascii=False)
        stdout.write("\n")
    elif len(paths) > 1:
        _summary(console, analyses, len(paths) - len(analyses))
    for line in disagreements:
        print(f"verify: CROSS-CHECK DISAGREEMENT: {line}", file=stderr)
    if invalid:
        return EXIT_INVALID
    if disagreements:
        return EXIT_UNMET
    return EXIT_OK if all(a.expectations_met for a in analyses) else EXIT_UNMET


def _console(stdout: TextIO, args) -> Console:
    terminal = hasattr(stdout, "isatty") and stdout.isatty()
    color = args.color == "always" or (args.color == "auto" and terminal and "NO_COLOR" not in os.environ)
    return Console(file=stdout, width=args.width or (None if terminal else 120), force_terminal=color,
                   no_color=not color, color_system="auto" if color else None, highlight=False,
                   emoji=False, soft_wrap=False)


def _summary(console: Console, analyses: list[Analysis], invalid: int) -> None:
    unmet = [a for a in analyses if not a.expectations_met]
    console.print(Rule("summary"))
    console.print(f"{len(analyses)} spec(s) verified, {invalid} invalid, "
                  f"{len(unmet)} with unmet expectations")
    for a in unmet:
        broken = ", ".join(f"{e.property_id} expected {e.expected}, got {e.actual}"
                           for e in a.expectations if not e.met)
        console.print(f"  {a.spec.path}: {broken}")


def main() -> int:
    try:
        return check(sys.argv[1:], sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        print("verify: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
