"""The `verify` command, a thin shell over the Python API. `check(argv, stdout, stderr) -> int` is the whole
program, testable in-process. Subcommands: `verify schema` (the spec format's JSON Schema),
`verify explain [P]` (the properties in plain words), `verify design SPEC`, `verify decide SPEC` and `verify evaluate
SPEC ...`, one module each (`cli.schema`, `cli.explain`, `cli.design`, `cli.decide`, `cli.evaluate`); `verify check
CERT` runs the standalone checker (`verifier_check`).

Exit status (DESIGN.md §4): 0 ran and every expectation is met; 1 some expectation is not met (an
`unknown` meets neither `holds` nor `fails`), a `--require`d setting is not fitted, or `--cross-check` found
a disagreement; 2 an invalid spec or a usage error (message, no traceback).
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
from typing import TextIO

from verifier import limits
from verifier.cli import options
from verifier.cli.exit_codes import ExitCode
from verifier.errors import UsageError, did_you_mean
from verifier.version import __version__

# Only what parsing needs is imported here: --help, --version, explain and schema answer without loading the
# solvers (sympy, z3) or rich; the work loads them when there is a spec to verify.
DEFAULT_WIDTH = 120  # verifier.report.text.terminal.DEFAULT_WIDTH, repeated so that parsing does not load rich


EXAMPLES = """\
  verify specs/ha.yaml                       the verdicts, the fit to each setting and what to change
  verify -v specs/ha.yaml                    ... with the matrix, the full evidence and the witnesses
  verify specs/ --format markdown            one table of every spec (e.g. >> "$GITHUB_STEP_SUMMARY")
  verify specs/ha.yaml --report reports      also write reports/ha.md, .html and .json
  verify --classes 2.. specs/accuracy-u65.yaml   every class count at once
  verify explain P4 | verify schema | verify design SPEC | verify decide SPEC | verify evaluate SPEC FILE"""

EXIT_CODES = """\
  0  every spec ran and met its expect: block (and every --require)
  1  an expectation is not met, a --require'd setting is not fitted, or --cross-check disagrees
  2  an invalid spec, option or input (a message says where; never a traceback)"""


def _parser() -> options.Parser:
    parser = options.Parser(prog="verify", examples=EXAMPLES, exit_codes=EXIT_CODES,
                            description="Prove or refute Properties 1-10 of Yang, Destercke & Masson (2017) for cost "
                                        "schemes of set-valued "
                                        "predictions, exactly, and judge each scheme against the "
                                        "filtering and choice settings (Table VIII).\nSubcommands: schema, explain, "
                                        "check, design, decide, evaluate (verify SUBCOMMAND -h).")
    parser.add_argument("paths", nargs="*", metavar="SPEC", help="spec files (*.yaml) or directories of them")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="the full report: matrix, possibility of every set, full evidence, notation")
    options.add_shared(parser, "format", formats=("text", "json", "junit", "markdown"))
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
    parser.add_argument("--rlimit", type=options.count(1, "resource units", options.MAX_RLIMIT), default=None,
                        metavar="UNITS", help="z3 resource limit per solver question (deterministic, unlike "
                                              "--timeout)")
    parser.add_argument("--memory", type=options.count(options.MIN_MEMORY_MB, "MB", options.MAX_MEMORY_MB),
                        default=None, metavar="MB",
                        help="address-space limit for this process; exceeding it gives no verdict, not a crash")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    options.add_shared(parser, "report", "timeout", "time-limit", "no-cache", "quiet", "color", "width")
    parser.add_argument("--certificate", default=None, metavar="FILE",
                        help="also write the spec's certificate (docs/certificates.md) to FILE, for verify check FILE "
                             "or python3 -S path/to/verifier_check FILE")
    parser.add_argument("--figures", default=None, metavar="DIR",
                        help="also write each picture of the report as <stem>-<picture>.svg and .pdf into DIR "
                             "(one column wide, for a paper)")
    return parser


SUBCOMMANDS = ("schema", "explain", "check", "design", "decide", "evaluate")
_SUBCOMMAND = {"schema": ("schema", "schema_command"), "explain": ("explain", "explain_command"),
               "check": ("certificate_check", "check_command"),  # the standalone checker, stdlib only
               "design": ("design", "design_command"), "decide": ("decide", "decide_command"),
               "evaluate": ("evaluate", "evaluate_command")}
NO_SPEC = ("no spec given; usage: verify SPEC... (spec files or directories of them), or verify SUBCOMMAND, "
           "one of " + ", ".join(SUBCOMMANDS) + " (verify SUBCOMMAND -h for its options, verify -h for "
           "everything)")


def check(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the `verify` command line on argv: dispatch a subcommand, or verify the specs and report them; returns the
    exit status."""
    # a subcommand's name is always the subcommand, even where a file or folder of that name exists (a CI
    # repository's check/ folder must not turn `verify check CERT` into a check of specs): such a spec is ./check
    if argv[:1] == ["help"]:  # `verify help [SUBCOMMAND]` is the help
        return check([*(argv[1:2] if argv[1:2] and argv[1] in SUBCOMMANDS else []), "--help"], stdout, stderr)
    hint = _mistyped_subcommand(argv[0]) if argv else ""
    if hint:
        print(f"verify: usage error: {argv[0]!r} is neither a subcommand nor a spec file{hint} (subcommands: "
              f"{', '.join(SUBCOMMANDS)})", file=stderr)
        return ExitCode.INVALID
    if argv[:1] and argv[0] in SUBCOMMANDS:
        import importlib

        module, function = _SUBCOMMAND[argv[0]]
        return getattr(importlib.import_module(f"verifier.cli.{module}"), function)(argv[1:], stdout, stderr)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.help:
            parser.print_help(file=stdout)
            return ExitCode.OK
        if args.version:
            print(f"verify {__version__}", file=stdout)
            return ExitCode.OK
        if args.report is not None and (args.report.endswith((".yaml", ".yml")) or
                                        (os.path.exists(args.report) and not os.path.isdir(args.report))):
            raise UsageError(f"--report takes a directory to write into, and {args.report!r} is a file; "
                             "write --report DIR before or after the specs, e.g. verify SPEC --report reports")
        if not args.paths:
            raise UsageError(NO_SPEC)
        from verifier.api.paths import spec_paths  # light: the solvers load only when there is work for them

        paths = spec_paths(args.paths)
        if args.report is not None or args.figures is not None:
            from verifier.report.output import refuse_reports_over_inputs

            # before any directory is made or any work done: no report or figure file may be one of the specs
            refuse_reports_over_inputs(paths, args.report, args.figures, [("spec", p) for p in paths],
                                       [("--certificate", args.certificate)] if args.certificate else [])
        if args.certificate is not None:
            from verifier.report.output import refuse_overwriting_inputs

            if len(paths) != 1 or args.classes:
                raise UsageError(f"--certificate {args.certificate!r}: a certificate is one spec's, at one class "
                                 f"count; give one spec (got {len(paths)}) and no --classes")
            refuse_overwriting_inputs([("--certificate", args.certificate)], [("spec", p) for p in paths])
            folder = os.path.dirname(args.certificate) or "."
            made = {os.path.realpath(d) for d in (args.report, args.figures) if d is not None}  # made below
            if os.path.isdir(args.certificate) or not (os.path.isdir(folder) or os.path.realpath(folder) in made):
                raise UsageError(f"--certificate {args.certificate!r}: " + ("a directory; give a file name" if
                                 os.path.isdir(args.certificate) else f"the directory {folder!r} does not exist"))
        if args.report is not None:
            from verifier.report.output import prepare_directory

            prepare_directory(args.report)  # a directory we cannot write into is an error before any work
        if args.figures is not None:
            from verifier.report.output import prepare_directory

            if args.figures.endswith((".yaml", ".yml")):
                raise UsageError(f"--figures takes a directory to write into, not the spec {args.figures!r}")
            prepare_directory(args.figures, "--figures")  # a file there is refused; the directory is created
        if args.classes:
            from verifier.analysis.class_sweep import open_range, parse_range

            if open_range(args.classes) is None:
                parse_range(args.classes)
            if args.format in ("junit", "markdown"):
                raise UsageError(f"--format {args.format} reports properties of one class count; use it without "
                                 "--classes")
    except UsageError as exc:
        print(f"verify: usage error: {exc}", file=stderr)
        return ExitCode.INVALID
    width, color = _output_style(stdout, args)
    show_progress = not args.quiet and hasattr(stderr, "isatty") and stderr.isatty()

    def work(out: TextIO, err: TextIO) -> int:
        from verifier.cli.outcomes import report_all, run_all

        return report_all(run_all(paths, args, out, err, width, color, show_progress), args, out, err, width,
                          color)

    memory, default = args.memory, False
    if memory is None and _COMMAND[0]:  # the command itself (not an in-process call) is capped by default
        memory = limits.default_memory_mb()
        default = memory is not None
    if memory and hasattr(os, "fork"):
        from verifier.cli.capped import run_capped

        return run_capped(memory, args.rlimit, work, stdout, stderr, default)
    limits.apply(rlimit=args.rlimit, memory_mb=args.memory)
    return work(stdout, stderr)


def _mistyped_subcommand(word: str) -> str:
    """"; did you mean 'evaluate'?" when the first argument is no file and reads as a misspelled subcommand
    (it is then not taken for a spec, and the arguments after it are not verified)."""
    if word in SUBCOMMANDS or word.startswith("-") or word.endswith((".yaml", ".yml")) or os.sep in word or \
            os.path.exists(word):
        return ""
    return did_you_mean(word, SUBCOMMANDS)


_COMMAND = [False]  # set by main(): the `verify` command runs its work under a default memory cap


def _output_style(stdout: TextIO, args) -> tuple[int, bool]:
    """Width and colour of the console report: the terminal's, or in a pipe COLUMNS when it is set (as
    `shutil.get_terminal_size` reads it), else 120 columns, without colour."""
    terminal = hasattr(stdout, "isatty") and stdout.isatty()
    color = args.color == "always" or (args.color == "auto" and terminal and "NO_COLOR" not in os.environ)
    width = args.width or (shutil.get_terminal_size((80, 24)).columns if terminal
                           else options.columns_variable() or DEFAULT_WIDTH)
    return width, color


def main() -> int:
    """The `verify` console script: run the command line on sys.argv under the memory and collector settings, with an
    interrupt, a closed pipe or a bug ending in a sentence and an exit status, never a traceback."""
    # A run makes hundreds of thousands of sympy objects: with Python's default thresholds (a young collection
    # every 700 allocations) the cycle collector took 0.08 s of a 0.9 s 9-class report. Young collections
    # every 20,000 allocations halve that; a full one every 200,000 (70,000 by default) keeps the peak of a
    # 16-class run at the default's 970 MB (one every 2,000,000 made it 1.3 GB).
    gc.set_threshold(20_000, 10, 1)
    limits.return_freed_memory()
    _COMMAND[0] = True
    # a closed standard stream (`verify spec >&-`) is None here: write into nothing, keep the exit status
    stdout = sys.stdout if sys.stdout is not None else open(os.devnull, "w", encoding="utf-8")
    stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w", encoding="utf-8")
    try:
        return check(sys.argv[1:], stdout, stderr)
    except KeyboardInterrupt:
        print("verify: interrupted", file=stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK
    except MemoryError:  # e.g. while loading the solver stack under a tight --memory
        print("verify: the memory limit was exceeded before a verdict; raise --memory", file=stderr)
        return ExitCode.INVALID
    except Exception as exc:  # the last guard: a bug of ours is a plain sentence and exit 2, never a traceback
        print(f"verify: internal error ({type(exc).__name__}: {str(exc)[:300]}); this is a bug in verify, please "
              "report it with the command line and the spec.", file=stderr)
        return ExitCode.INVALID
