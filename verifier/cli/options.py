"""Checked values for the command's numeric options: a zero, negative, NaN or infinite limit is a usage error
(exit 2) before any work is done, never a hang or a crash later. `Parser`: argparse raising UsageError."""

from __future__ import annotations

import argparse

from verifier import limits, numbers
from verifier.errors import UsageError

MIN_MEMORY_MB = 384  # below this the solver stack cannot load; 384 runs symbolic Ha, 512 every bundled spec
MIN_WIDTH = 40  # narrower consoles cannot show a table
MAX_WIDTH = 1000
MAX_MEMORY_MB = 1 << 22  # 4 TiB: beyond any machine, still a valid address-space limit
MAX_RLIMIT = (1 << 32) - 1  # z3 reads its resource limit as an unsigned 32-bit number


def seconds(text: str) -> float:
    try:
        return numbers.positive_seconds(text, limits.MAX_TIMEOUT_S)
    except numbers.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def time_limit(text: str) -> float | None:
    """--time-limit: seconds for one spec's whole analysis (at most a week), or 'none' for no bound."""
    if text.strip().lower() == "none":
        return None
    try:
        return numbers.positive_seconds(text, 7 * 86_400)
    except numbers.NumberError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or 'none' for no bound)") from None


def fraction_between_0_and_1(text: str) -> float:
    """A level such as 0.95 (exact text, strictly between 0 and 1)."""
    try:
        value = numbers.exact(text)
    except numbers.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number strictly between 0 and 1, got {numbers.shown(text)}")
    return float(value)


def count(minimum: int, what: str, maximum: int):
    def parse(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number of {what}, got {numbers.shown(text)}")
        if len(digits) > len(str(maximum)) or not minimum <= int(digits) <= maximum:
            raise argparse.ArgumentTypeError(f"expected {minimum} to {maximum} {what}, got {numbers.shown(text)}")
        return int(digits)

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
