"""`verify schema`: the JSON Schema of the spec format, for editors."""

from __future__ import annotations

from typing import TextIO

from verifier.cli import options
from verifier.cli.exit_codes import ExitCode
from verifier.errors import UsageError


def schema_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run `verify schema`: print the JSON Schema of the spec format; returns the exit status."""
    parser = options.Parser(prog="verify schema", description="Print the JSON Schema of the spec format (for "
                            "editors: yaml-language-server, VS Code).", examples="  verify schema > spec.schema.json",
                            exit_codes="  0  printed\n  2  a usage error")
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"verify schema: usage error: {exc}", file=stderr)
        return ExitCode.INVALID
    if args.help:
        parser.print_help(file=stdout)
        return ExitCode.OK
    from verifier.spec.schema import schema_text

    stdout.write(schema_text())
    return ExitCode.OK
