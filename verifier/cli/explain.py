"""`verify explain [PROPERTY]`: the ten properties in plain words, or one in full."""

from __future__ import annotations

from typing import TextIO

from verifier.cli import options
from verifier.cli.exit_codes import ExitCode
from verifier.errors import UsageError


def explain_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run `verify explain [PROPERTY]`: print every property in plain words, or one in full; returns the exit status."""
    parser = options.Parser(prog="verify explain", description="State the ten properties in plain words, or one "
                            "in full: its meaning, its formal statement, and how the filtering and choice settings "
                            "judge it (Table VIII).", examples="  verify explain\n  verify explain P4\n  verify "
                            "explain non-dominance", exit_codes="  0  printed\n  2  an unknown property or option")
    parser.add_argument("property", nargs="?", metavar="PROPERTY", help="P1..P10 or a property's name")
    options.add_shared(parser, "width", pipe_width=100)
    try:
        args = parser.parse_args(argv)
        if args.help:
            parser.print_help(file=stdout)
            return ExitCode.OK
        from verifier.properties.explain import explain

        stdout.write(explain(args.property, width=options.output_width(args, stdout, 100)))
    except UsageError as exc:
        print(f"verify explain: usage error: {exc}", file=stderr)
        return ExitCode.INVALID
    return ExitCode.OK
