"""`verify design SPEC`: complete an extended matrix for a setting, or calibrate a one-parameter family.

Output: the designed spec, its justification written above it as YAML comments, on standard output; with
`-o OUT` the spec goes to OUT (written safely) and the justification to standard output. `--format json`
prints the whole result as one JSON object. Exit status: 0 designed (or calibrated, or, with two parameters, it
fits somewhere in their plane), 1 no design meets the
firm demands (the reasons are printed) or the time limit came before an answer (what was decided is printed), 2
an invalid spec or usage error.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import TextIO

from verifier.cli import options
from verifier.cli.exit_codes import ExitCode
from verifier.errors import SpecError, UsageError

EXAMPLES = """\
  verify design specs/design/obstacle-open.yaml --setting filtering -o designed.yaml
  verify design specs/design/obstacle-conflict.yaml            # why not, and the least repair
  verify design specs/design/ha-delta.yaml --setting choice    # calibrate a family's parameter"""
EXIT_CODES = """\
  0  designed (or calibrated; with two parameters: the scheme fits somewhere in their plane)
  1  no design meets the firm demands (the reasons are printed), or --time-limit came first \
(what was decided and what was cut are printed)
  2  an invalid spec or option (a message says where)"""


def _parser() -> options.Parser:
    p = options.Parser(prog="verify design", examples=EXAMPLES, exit_codes=EXIT_CODES,
                description="Fill the set rows of an extended cost matrix so that it fits a setting (the paper's "
                            "Table VIII), with the freedom that remains, or say why it cannot be done. With one "
                            "symbolic parameter in 'set_cost': the exact values for which the family fits.")
    p.add_argument("spec", metavar="SPEC", nargs="?")
    p.add_argument("--setting", choices=("filtering", "choice"), default="filtering",
                   help="the setting to design for (the paper's Table VIII; default filtering)")
    p.add_argument("--with", dest="with_", action="append", default=[], metavar="P",
                   help="demand that property P holds (may be repeated)")
    p.add_argument("--without", action="append", default=[], metavar="P", help="demand that property P fails")
    p.add_argument("--free", action="append", default=[], metavar="P",
                   help="no demand on P (a desirable or undesirable property)")
    p.add_argument("--objective", default="closest",
                   help="closest (to --to, default discounted), cautious, bold, 'minimize: EXPR' or "
                        "'maximize: EXPR' with cells written cost('h,b', 'n')")
    p.add_argument("--to", default=None, metavar="SCHEME",
                   help="discounted, p-discounted=R, p-discounted-averse=R, ha=DELTA, or a set_cost formula")
    p.add_argument("--margin", default=None, metavar="M", help="the margin for strict inequalities, e.g. 1/100")
    p.add_argument("-o", "--output", default=None, metavar="OUT", help="write the designed spec to OUT")
    p.add_argument("--no-ranges", action="store_true", help="skip the freedom left in each open cell")
    p.add_argument("--region", action="append", default=[], metavar="SET:CLASS",
                   help="an open cell whose joint freedom with the others named to show, e.g. h,b:n (name 2 or 3; "
                        "by default every open cell when there are 2 or 3)")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="draw the feasible region on each pair of those cells (for a calibration: where each "
                        "property holds and each setting fits, over the parameter) to FILE (.svg, .pdf or .png)")
    options.add_shared(p, "format", "timeout", "time-limit", "width")
    return p


def design_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run `verify design` on argv, print the justification (or why not) or the JSON, write -o and --plot; returns the
    exit status."""
    parser = _parser()
    try:
        args = options.subcommand_args(parser, argv, stdout, "verify design SPEC [--setting filtering|choice] [-o OUT]")
        if args is None:
            return ExitCode.OK
        fmt = options.plot_format(args.plot)
        from verifier.report.output import refuse_overwriting_inputs

        refuse_overwriting_inputs({"-o": args.output, "--plot": args.plot}, [("spec", args.spec)])
        from verifier.api.designer import design

        with _bar(stderr) as step:
            result = design(args.spec, setting=args.setting, with_=args.with_, without=args.without,
                            free=args.free, objective=args.objective, to=args.to, margin=args.margin,
                            timeout=args.timeout, ranges=not args.no_ranges, region=args.region,
                            time_limit=args.time_limit, progress=step)
        from verifier.report.output import write_output

        if args.output and result.ok:
            write_output(args.output, _commented(result))
        if fmt and result.ok:
            picture = result.picture(fmt)
            if not picture:  # NoPicture: nothing to draw
                raise UsageError(f"--plot: {picture.reason}")
            write_output(args.plot, picture, "--plot")
    except UsageError as exc:
        print(f"verify design: usage error: {exc}", file=stderr)
        return ExitCode.INVALID
    except SpecError as exc:
        print(str(exc.located(file=args.spec)), file=stderr)
        return ExitCode.INVALID
    except RecursionError:
        print(f"{args.spec}: invalid spec: the formulas are nested too deeply to evaluate.", file=stderr)
        return ExitCode.INVALID
    except Exception as exc:  # a bug of ours, or a solver that gave up: say so plainly, never a traceback
        from verifier.designing import Undecided

        if isinstance(exc, Undecided):
            print(f"verify design: {args.spec}: z3 gave no answer within the time limit ({exc}); raise --timeout",
                  file=stderr)
            return ExitCode.UNMET
        print(f"verify design: {args.spec}: internal error ({type(exc).__name__}: {exc}); this is a bug in "
              "verify, please report it with the spec.", file=stderr)
        return ExitCode.INVALID
    width = options.output_width(args, stdout, 120)
    if args.format == "json":
        stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    elif args.output and result.ok:
        stdout.write(options.wrap_lines(result.text, width))
        print(f"verify: wrote {args.output}", file=stderr)
    elif result.ok and result.spec_text:
        stdout.write(_commented(result, width))
    else:
        stdout.write(options.wrap_lines(result.text, width))
    if args.plot and result.ok:
        print(f"verify: wrote {args.plot}", file=stderr)
    return ExitCode.OK if result.ok else ExitCode.UNMET


@contextlib.contextmanager
def _bar(stderr: TextIO) -> Iterator[Callable[[str], None] | None]:
    """On a terminal, a transient line on standard error saying which step the design is at and for how long
    (the open cells' ranges take most of the time); elsewhere nothing, and no display library loads."""
    if not (hasattr(stderr, "isatty") and stderr.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(file=stderr, force_terminal=True), transient=True) as bar:
        task = bar.add_task("verify design: reading the spec", total=None)  # the step first: a narrow terminal
        yield lambda text: bar.update(task, description=f"verify design: {text}", refresh=True)


def _commented(result, width: int | None = None) -> str:
    """The designed spec with its justification above it as YAML comments, wrapped at `width` (the written
    file is never wrapped: its lines are the spec's)."""
    header = options.wrap_lines(result.text, width, prefix="# ")
    return header.rstrip("\n") + "\n\n" + result.spec_text
