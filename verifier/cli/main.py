"""The `verify` command, a thin shell over the Python API. `check(argv, stdout, stderr) -> int` is the whole
program, testable in-process. Subcommands: `verify schema` (the spec format's JSON Schema),
`verify explain [P]` (the properties in plain words), `verify design SPEC` (`cli.design`), and `verify decide` /
`verify evaluate` (`cli.use`).

Exit status (DESIGN.md §4): 0 ran and every expectation is met; 1 some expectation is not met (an
`unknown` meets neither `holds` nor `fails`), a `--require`d setting is not fitted, or `--cross-check` found
a disagreement; 2 an invalid spec or a usage error (message, no traceback).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from typing import TextIO

from rich.console import Console
from rich.progress import Progress
from rich.rule import Rule

from verifier.version import __version__

from verifier import limits
from verifier.api import PROGRESS_STAGES as STAGES, spec_paths
from verifier.cli import options
from verifier.cli.run import Outcome, run
from verifier.errors import UsageError
from verifier.report import terminal
from verifier.report.files import prepare_directory
from verifier.report.terminal import DEFAULT_WIDTH

EXIT_OK, EXIT_UNMET, EXIT_INVALID = 0, 1, 2


def _parser() -> options.Parser:
    parser = options.Parser(prog="verify", add_help=False,
                     description="Prove or refute Properties 1-10 of Yang, Destercke & Masson (2017) for cost "
                                 "schemes of set-valued predictions, exactly. `verify schema` prints the JSON "
                                 "Schema of the spec format; `verify explain [P]` states the properties; "
                                 "`verify design SPEC` completes or calibrates a scheme for a setting; `verify decide SPEC` "
                                 "and `verify evaluate SPEC PREDICTIONS` use it.")
    parser.add_argument("paths", nargs="*", metavar="SPEC", help="spec files (*.yaml) or directories of them")
    parser.add_argument("--format", choices=("text", "json", "junit"), default="text", help="output format")
    parser.add_argument("--report", default=None, metavar="DIR",
                        help="also write <stem>.md, .html and .json into the directory DIR")
    parser.add_argument("--require", choices=("filtering", "choice"), action="append", default=[],
                        help="exit 1 unless the scheme fits this setting (Table VIII); may be repeated")
    parser.add_argument("--classes", metavar="LO..HI", default=None,
                        help="check a formula spec at every class count in the range (e.g. 2..8); an open range "
                             "such as 2.. decides a scheme that treats every class alike for every K at once")
    parser.add_argument("--cross-check", action="store_true",
                        help="decide every property a second time by an independent method; exit 1 on disagreement")
    parser.add_argument("--exact", action="store_true",
                        help="decide numeric schemes cell by cell with the exact engine instead of the fast path "
                             "(the same verdicts, slower; at most 12 classes)")
    parser.add_argument("--symmetry", action="store_true",
                        help="check a scheme that treats every class alike on one set per size, even where every "
                             "set could be enumerated (automatic beyond 16 classes, 12 with symbolic parameters)")
    parser.add_argument("--lemmas", action="store_true",
                        help="decide a power-mean set cost (genmean(E, [c(yh, y) for yh in Y])) by lemmas over the "
                             "K x K costs and a few sets, at any class count (automatic beyond enumeration)")
    parser.add_argument("--timeout", type=options.seconds, default=20.0, metavar="SECONDS",
                        help="time limit per solver question for symbolic parameters (default 20)")
    parser.add_argument("--time-limit", type=options.time_limit, default=limits.DEFAULT_TIME_LIMIT_S,
                        metavar="SECONDS", help="overall time bound per spec (default %(default)g; 'none' for no "
                        "bound): what is not decided by then is reported as unknown, with the reason")
    parser.add_argument("--rlimit", type=options.count(1, "resource units", options.MAX_RLIMIT), default=None, metavar="UNITS",
                        help="z3 resource limit per solver question (deterministic, unlike --timeout)")
    parser.add_argument("--memory", type=options.count(options.MIN_MEMORY_MB, "MB", options.MAX_MEMORY_MB), default=None, metavar="MB",
                        help="address-space limit for this process; exceeding it gives no verdict, not a crash")
    parser.add_argument("--no-cache", action="store_true", help="verify afresh even when a cached result exists")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--width", type=options.count(options.MIN_WIDTH, "columns", options.MAX_WIDTH), default=None, help="console width (default: terminal or 120)")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    return parser


def check(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    if argv[:1] == ["schema"] and not os.path.exists("schema"):
        from verifier.spec.schema import schema_text

        stdout.write(schema_text())
        return EXIT_OK
    if argv[:1] == ["explain"] and not os.path.exists("explain"):
        return _explain(argv[1:], stdout, stderr)
    if argv[:1] == ["design"] and not os.path.exists("design"):
        from verifier.cli.design import design_command

        return design_command(argv[1:], stdout, stderr)
    if argv[:1] in (["decide"], ["evaluate"]) and not os.path.exists(argv[0]):
        from verifier.cli.use import use_command

        return use_command(argv[0], argv[1:], stdout, stderr)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.help:
            parser.print_help(file=stdout)
            return EXIT_OK
        if args.version:
            print(f"verify {__version__}", file=stdout)
            return EXIT_OK
        if args.report is not None and (args.report.endswith((".yaml", ".yml")) or
                                        (os.path.exists(args.report) and not os.path.isdir(args.report))):
            raise UsageError(f"--report takes a directory to write into, and {args.report!r} is a file; "
                             "write --report DIR before or after the specs, e.g. verify SPEC --report reports")
        if not args.paths:
            raise UsageError("no spec given; usage: verify SPEC... (files or directories), or verify schema")
        paths = spec_paths(args.paths)
        if args.report is not None:
            prepare_directory(args.report)  # a directory we cannot write into is an error before any work
        if args.classes:
            from verifier.analysis.class_sweep import open_range, parse_range

            if open_range(args.classes) is None:
                parse_range(args.classes)
            if args.format == "junit":
                raise UsageError("--format junit reports one test case per property; use it without --classes")
    except UsageError as exc:
        print(f"verify: usage error: {exc}", file=stderr)
        return EXIT_INVALID
    width, color = _output_style(stdout, args)
    show_progress = not args.quiet and hasattr(stderr, "isatty") and stderr.isatty()

    def work(out: TextIO, err: TextIO) -> int:
        return _report(_run_all(paths, args, out, err, width, color, show_progress), args, out, err)

    if args.memory and hasattr(os, "fork"):
        from verifier.cli.capped import run_capped

        return run_capped(args.memory, args.rlimit, work, stdout, stderr)
    limits.apply(rlimit=args.rlimit, memory_mb=args.memory)
    return work(stdout, stderr)


def _explain(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    from verifier.properties.explain import explain

    if len(argv) > 1 or (argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        print("verify: usage error: verify explain [PROPERTY], e.g. verify explain P4", file=stderr)
        return EXIT_INVALID
    try:
        stdout.write(explain(None if not argv or argv[0] in ("-h", "--help") else argv[0]))
    except UsageError as exc:
        print(f"verify: usage error: {exc}", file=stderr)
        return EXIT_INVALID
    return EXIT_OK


def _output_style(stdout: TextIO, args) -> tuple[int, bool]:
    """Width and colour of the console report: the terminal's, or 120 columns without colour in a pipe."""
    terminal = hasattr(stdout, "isatty") and stdout.isatty()
    color = args.color == "always" or (args.color == "auto" and terminal and "NO_COLOR" not in os.environ)
    width = args.width or (shutil.get_terminal_size((80, 24)).columns if terminal else DEFAULT_WIDTH)
    return width, color


def _run_all(paths: list[str], args, stdout: TextIO, stderr: TextIO, width: int, color: bool,
             show_progress: bool) -> list[Outcome]:
    taken: set[str] = set()  # report file names used in this run: two specs never share one
    outcomes = []
    console = Console(file=stderr, force_terminal=show_progress or None)
    with Progress(console=console, transient=True, disable=not show_progress) as progress:
        task = progress.add_task("verifying", total=len(paths) * STAGES)
        for index, path in enumerate(paths):
            name = os.path.basename(path)
            progress.update(task, completed=index * STAGES, description=f"verifying {name}")
            outcome = run(path, args, width, color, taken, step=_stepper(progress, task, name, index))
            outcomes.append(outcome)
            if show_progress:
                progress.stop()  # the bar is cleared (transient) before anything is printed, then resumed
            if args.format == "text" and not outcome.error:  # stream reports as they finish
                if len(outcomes) > 1:
                    terminal.console(stdout, width, color).print(Rule())
                if outcome.cached_at:
                    print(f"(cached result from {outcome.cached_at} for this exact spec, options and verify "
                          f"{__version__}; --no-cache to verify afresh)", file=stdout)
                stdout.write(outcome.text)
            if outcome.error:
                print(outcome.error, file=stderr)
            if outcome.written:
                print("verify: wrote " + ", ".join(outcome.written), file=stderr)
            progress.update(task, completed=(index + 1) * STAGES)
            if show_progress and index + 1 < len(paths):
                progress.start()
    return outcomes


def _stepper(progress: Progress, task, name: str, index: int):
    """Each stage moves the bar a little within this spec's share (never past it)."""
    done = [0]

    def step(text: str) -> None:
        done[0] = min(done[0] + 1, STAGES - 1)
        progress.update(task, completed=index * STAGES + done[0], description=f"verifying {name}: {text}",
                        refresh=True)  # stages can be quicker than the bar's own refresh: show each one

    return step


def _report(outcomes: list[Outcome], args, stdout: TextIO, stderr: TextIO) -> int:
    records = []
    for o in outcomes:
        record = dict(o.record)
        if o.cached_at:
            record["cached"] = {"stored_at": o.cached_at, "verify_version": __version__}
        records.append(record)
    if args.format == "json":
        stdout.write(json.dumps(records[0] if len(records) == 1 else records, indent=2, ensure_ascii=False) + "\n")
    elif args.format == "junit":
        from verifier.report.junit import to_junit

        stdout.write(to_junit(records))
    unfit = [f"{o.path} does not fit the {s} setting" for o in outcomes if not o.error
             for s in args.require if o.fits.get(s) is not True]
    if args.format == "text" and len(outcomes) > 1:
        valid = [o for o in outcomes if not o.error]
        unmet = [o.path for o in valid if not o.expectations_met]
        print(f"{len(valid)} spec(s) verified, {len(outcomes) - len(valid)} invalid, {len(unmet)} with unmet "
              f"expectations" + "".join(f"\n  {p}: expectations not met" for p in unmet), file=stdout)
    for line in unfit:
        print(f"verify: required setting not fitted: {line}", file=stderr)
    disagreements = [d for o in outcomes for d in o.disagreements]
    for line in disagreements:
        print(f"verify: CROSS-CHECK DISAGREEMENT: {line}", file=stderr)
    if any(o.error for o in outcomes):
        return EXIT_INVALID
    if disagreements or unfit or not all(o.expectations_met for o in outcomes):
        return EXIT_UNMET
    return EXIT_OK


def main() -> int:
    # a closed standard stream (`verify spec >&-`) is None here: write into nothing, keep the exit status
    stdout = sys.stdout if sys.stdout is not None else open(os.devnull, "w", encoding="utf-8")
    stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w", encoding="utf-8")
    try:
        return check(sys.argv[1:], stdout, stderr)
    except KeyboardInterrupt:
        print("verify: interrupted", file=stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except MemoryError:  # e.g. while loading the solver stack under a tight --memory
        print("verify: the memory limit was exceeded before a verdict; raise --memory", file=stderr)
        return EXIT_INVALID
    except Exception as exc:  # the last guard: a bug of ours is a plain sentence and exit 2, never a traceback
        print(f"verify: internal error ({type(exc).__name__}: {str(exc)[:300]}); this is a bug in verify, please "
              "report it with the command line and the spec.", file=stderr)
        return EXIT_INVALID
