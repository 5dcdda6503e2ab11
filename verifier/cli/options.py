"""Checked values for the command's numeric options: a zero, negative, NaN or infinite limit is a usage error
(exit 2) before any work is done, never a hang or a crash later. `Parser`: argparse raising UsageError."""

from __future__ import annotations

import argparse
import math

from verifier.errors import UsageError

MIN_MEMORY_MB = 384  # below this the solver stack cannot load; 384 runs symbolic Ha, 512 every bundled spec
MIN_WIDTH = 40  # narrower consoles cannot show a table


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text!r}")
    return value


def count(minimum: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number of {what}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected at least {minimum} {what}, got {text!r}")
        return value

    return parse


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of printing and exiting (the commands stay testable)."""

    def error(self, message: str):
        raise UsageError(message)


def subcommand_args(parser: "Parser", argv: list[str], stdout, usage: str):
    """Parsed arguments of a subcommand taking a SPEC, or None when --help was printed (UsageError otherwise)."""
    args = parser.parse_args(argv)
    if args.help:
        parser.print_help(file=stdout)
        return None
    if not args.spec:
        raise UsageError(f"no spec given; usage: {usage}")
    return args


def plot_format(path: str | None) -> str | None:
    """'svg' or 'png' from a --plot file name (None without one)."""
    if path is None:
        return None
    fmt = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if fmt not in ("svg", "png"):
        raise UsageError(f"--plot {path!r}: the file name must end in .svg or .png")
    return fmt
