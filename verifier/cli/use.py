"""What `verify decide` (`cli.decide`) and `verify evaluate` (`cli.evaluate`) share: reading the arguments, turning
a usage error, an invalid spec or a bug of ours into one message and exit 2, and printing the result (text, JSON,
a batch's CSV on standard output and its summary on standard error, a paper's table).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from verifier.cli import options
from verifier.cli.exit_codes import ExitCode
from verifier.errors import SpecError, UsageError


def use_command(command: str, parser: options.Parser, work: Callable, argv: list[str], stdout: TextIO,
                stderr: TextIO) -> int:
    """Run `verify decide` or `verify evaluate`: `work(args, stderr)` returns the result, the extra statistics
    and the ranks table (both None for decide); the output and the exit status are the same for both."""
    args, extra, ranks_text = None, None, None
    try:
        args = options.subcommand_args(parser, argv, stdout, parser.format_usage().strip())
        if args is None:
            return ExitCode.OK
        result, extra, ranks_text = work(args, stderr)
    except UsageError as exc:
        print(f"verify {command}: usage error: {exc}", file=stderr)
        return ExitCode.INVALID
    except SpecError as exc:
        print(str(exc.located(file=args.spec if args else None)), file=stderr)
        return ExitCode.INVALID
    except Exception as exc:  # a bug of ours: say so plainly, never a traceback
        print(f"verify {command}: internal error ({type(exc).__name__}: {exc}); this is a bug in verify, please "
              "report it with the spec and the input.", file=stderr)
        return ExitCode.INVALID
    cut = result.record.get("cut") if command == "evaluate" else None
    if ranks_text is not None:
        stdout.write(ranks_text)
    elif getattr(args, "table", None):
        stdout.write(result.table(args.table))
    elif args.format == "json":  # decide: a batch row on one line
        record = result.to_json() if not extra else {**result.to_json(), "extra_stats": extra}
        stdout.write((options.json_text(record) if command == "decide" else
                      json.dumps(record, indent=2, ensure_ascii=False)) + "\n")
    else:
        # decide wraps at 120 in a pipe; evaluate's text is not wrapped there unless --width or COLUMNS says so
        width = options.output_width(args, stdout, 120 if command == "decide" else None)
        batch = bool(getattr(result, "summary_text", ""))  # a batch: the CSV alone on stdout, never wrapped
        if batch and not extra and hasattr(result, "write_text"):
            result.write_text(stdout)  # block by block: a million lines are never one text
        else:
            text = result.shown(getattr(args, "verbose", False), args.quiet) if command == "evaluate" else result.text
            if extra:
                text += "\n".join(extra_lines(extra, args.alpha)) + "\n"
            stdout.write(text if batch else options.wrap_lines(text, width))
        if batch and not args.quiet:
            stderr.write(options.wrap_lines(result.summary_text, width))
    if cut and (args.table or ranks_text is not None or not args.quiet):  # after a long output: say it
        print(f"verify evaluate: stopped: {cut['text']}", file=stderr)
    return ExitCode.OK


def extra_lines(extra: dict, alpha: float) -> list[str]:
    """The lines of --extra-stats."""
    from verifier.report.use import extra_text

    return extra_text(extra, alpha)
