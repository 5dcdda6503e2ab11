"""The exit status of `verify` and its subcommands, defined once (DESIGN.md §4)."""

from enum import IntEnum


class ExitCode(IntEnum):
    """What the command's exit status says; an `int`, so that `sys.exit(code)` and `code == 0` work as before."""

    OK = 0  # it ran, and every expectation (an `expect:` block, each --require) is met
    UNMET = 1  # an expectation is not met, a --require'd setting is not fitted, or --cross-check disagrees
    INVALID = 2  # an invalid spec, option or input (a message says where; never a traceback), or a limit hit
    INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports a command it interrupted
