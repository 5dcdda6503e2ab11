"""Checked values for the command's numeric options: a zero, negative, NaN or infinite limit is a usage error
(exit 2) before any work is done, never a hang or a crash later. `Parser`: argparse raising UsageError."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import textwrap

from verifier import limits, numbers
from verifier.errors import UsageError, did_you_mean

MIN_MEMORY_MB = 384  # below this the solver stack cannot load; 384 runs symbolic Ha, 512 every bundled spec
MIN_WIDTH = 40  # narrower consoles cannot show a table
MAX_WIDTH = 1000
MAX_MEMORY_MB = 1 << 22  # 4 TiB: beyond any machine, still a valid address-space limit
MAX_RLIMIT = (1 << 32) - 1  # z3 reads its resource limit as an unsigned 32-bit number


def seconds(text: str) -> float:
    """An argparse type: seconds as a positive number up to the longest timeout allowed."""
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


def non_negative_number(text: str) -> float:
    """A number at least 0, such as a region of practical equivalence (exact text, finite)."""
    try:
        value = numbers.exact(text)
    except numbers.NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number at least 0, got {numbers.shown(text)}")
    return float(value)


def count(minimum: int, what: str, maximum: int):
    """An argparse type for a whole number of `what` from `minimum` to `maximum`."""
    def parse(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number of {what}, got {numbers.shown(text)}")
        if len(digits) > len(str(maximum)) or not minimum <= int(digits) <= maximum:
            raise argparse.ArgumentTypeError(f"expected {minimum} to {maximum} {what}, got {numbers.shown(text)}")
        return int(digits)

    return parse


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of printing and exiting (the commands stay testable), keeps the
    description and the examples as written, and answers a misspelled option or choice with "did you mean"."""

    def __init__(self, *args, examples: str = "", exit_codes: str = "", **kwargs):
        epilog = "\n\n".join(part for part in (("examples:\n" + examples) if examples else "",
                                                 ("exit status:\n" + exit_codes) if exit_codes else "") if part)
        super().__init__(*args, add_help=False, epilog=epilog or None,
                         formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
        self.add_argument("-h", "--help", action="store_true", help="show this help and exit")

    def format_help(self) -> str:
        """The help with the description and the epilog (written as lines) wrapped at the help's width, as
        argparse wraps the options: nothing runs past the terminal's edge or splits a word."""
        width = max(shutil.get_terminal_size().columns - 2, 40)  # what argparse's own formatter uses
        kept = self.description, self.epilog
        self.description = wrap_lines(self.description, width) if self.description else self.description
        self.epilog = wrap_lines(self.epilog, width) if self.epilog else self.epilog
        try:
            return super().format_help()
        finally:
            self.description, self.epilog = kept

    def error(self, message: str):
        """Raise the usage error, with a suggestion for a mistyped option (argparse would exit)."""
        raise UsageError(message + self._suggestion(message))

    def _suggestion(self, message: str) -> str:
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown:
            word = unknown.group(1).split("=", 1)[0]
            return did_you_mean(word, [o for a in self._actions for o in a.option_strings]) if word.startswith("-") \
                else ""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            return did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        return ""


SHARED = ("format", "width", "quiet", "color", "report", "timeout", "no-cache", "time-limit")


def add_shared(parser: Parser, *names: str, formats: tuple[str, ...] = ("text", "json"),
               timeout_default: float = 20.0, pipe_width: int | None = 120) -> None:
    """The options every subcommand spells and explains the same way (the subset that makes sense for it)."""
    for name in names:
        if name not in SHARED:
            raise ValueError(name)
    if "format" in names:
        parser.add_argument("--format", choices=formats, default=formats[0],
                            help=f"output format: {', '.join(formats)} (default {formats[0]})")
    if "width" in names:
        parser.add_argument("--width", type=count(MIN_WIDTH, "columns", MAX_WIDTH), default=None,
                            help="console width in columns (default: the terminal's, or in a pipe COLUMNS when set, "
                            + (f"else {pipe_width})" if pipe_width else "else lines are not wrapped)"))
    if "quiet" in names:
        parser.add_argument("--quiet", "-q", action="store_true",
                            help="no progress bars and no summaries on stderr (files written and errors are still "
                                 "reported)")
    if "color" in names:
        parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                            help="colour the console output (default auto: in a terminal, unless NO_COLOR is set)")
    if "report" in names:
        parser.add_argument("--report", default=None, metavar="DIR",
                            help="also write <stem>.md, .html and .json into the directory DIR")
    if "timeout" in names:
        parser.add_argument("--timeout", type=seconds, default=timeout_default, metavar="SECONDS",
                            help=f"time limit per solver question (default {timeout_default:g})")
    if "time-limit" in names:
        parser.add_argument("--time-limit", type=time_limit, default=limits.DEFAULT_TIME_LIMIT_S, metavar="SECONDS",
                            help=f"overall time bound (default {limits.DEFAULT_TIME_LIMIT_S:g}; 'none' for no "
                                 "bound)")
    if "no-cache" in names:
        parser.add_argument("--no-cache", action="store_true", help="compute afresh even when a cached result exists")


def subcommand_args(parser: "Parser", argv: list[str], stdout, usage: str):
    """Parsed arguments of a subcommand taking a SPEC, or None when --help was printed (UsageError otherwise)."""
    args = parser.parse_args(argv)
    if args.help:
        parser.print_help(file=stdout)
        return None
    if not args.spec:
        raise UsageError(f"no spec given; usage: {usage}")
    return args


def output_width(args, stdout, pipe_default: int | None) -> int | None:
    """The width to wrap prose at: --width, else the terminal's, else in a pipe the COLUMNS environment variable
    when it is set (as `shutil.get_terminal_size` reads it), else `pipe_default` (None: do not wrap)."""
    if getattr(args, "width", None):
        return args.width
    if hasattr(stdout, "isatty") and stdout.isatty():
        return shutil.get_terminal_size((80, 24)).columns
    return columns_variable() or pipe_default


def columns_variable() -> int | None:
    """COLUMNS as `shutil.get_terminal_size` reads it (a positive integer; anything else is ignored), held within
    the widths --width allows; None when it is not set."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        return None
    return min(max(columns, MIN_WIDTH), MAX_WIDTH) if columns > 0 else None


def wrap_lines(text: str, width: int | None, prefix: str = "") -> str:
    """Each line of `text` longer than `width` (with `prefix` in front) wrapped at spaces, never inside a word,
    continued two columns further in; shorter lines, and everything when `width` is None, stay as they are."""
    out = []
    for line in text.splitlines():
        lead = line[:len(line) - len(line.lstrip())]
        column = re.match(r"\s*\S.*?\s{2,}(?=\S)", line)  # a two-column line continues in its second column
        more = " " * len(column.group(0)) if column and width and len(column.group(0)) <= width - 24 else lead + "  "
        if width is None or len(prefix + line) <= width or not line.strip():
            out.append((prefix + line).rstrip())
            continue
        out.extend((prefix + part).rstrip() for part in textwrap.wrap(
            line.lstrip(), max(width - len(prefix), 20), initial_indent=lead, subsequent_indent=more,
            break_long_words=False, break_on_hyphens=False))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def plot_format(path: str | None) -> str | None:
    """'svg' or 'png' from a --plot file name (None without one)."""
    if path is None:
        return None
    fmt = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if fmt not in ("svg", "pdf", "png"):
        raise UsageError(f"--plot {path!r}: the file name must end in .svg, .pdf or .png")
    return fmt


def json_text(value, width: int = 100) -> str:
    """JSON as `json.dumps(indent=2)` writes it, except that a list or an object whose items are scalars (or
    lists of scalars) stays on one line when it fits in `width`: a batch row ["h", "b"] is one line, not four."""
    import json

    def flat(v) -> bool:
        return not isinstance(v, (list, dict)) or (isinstance(v, list) and
                                                   not any(isinstance(x, (list, dict)) for x in v))

    def dump(v, depth: int) -> str:
        pad, inner = "  " * depth, "  " * (depth + 1)
        items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if items is None or not v:
            return json.dumps(v, ensure_ascii=False)
        if all(flat(x) for x in items):
            line = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
            if len(pad) + len(line) <= width:
                return line
            if isinstance(v, list) and not any(isinstance(x, list) for x in v):  # scalars: packed as a paragraph
                lines, row = [], ""
                for text in (json.dumps(x, ensure_ascii=False) for x in v):
                    if row and len(inner) + len(row) + len(text) + 2 > width:
                        lines.append(row + ",")
                        row = ""
                    row = f"{row}, {text}" if row else text
                return "[\n" + "\n".join(inner + r for r in lines + [row]) + "\n" + pad + "]"
        if isinstance(v, dict):
            body = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {dump(x, depth + 1)}" for k, x in v.items()]
            return "{\n" + ",\n".join(body) + "\n" + pad + "}"
        return "[\n" + ",\n".join(inner + dump(x, depth + 1) for x in v) + "\n" + pad + "]"

    return dump(value, 0)
