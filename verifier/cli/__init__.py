"""The `verify` command: argument parsing, progress, exit status, and the subcommands `schema` and `explain`;
its one `ExitCode`.

Owns: nothing but the command line; every result comes from the Python API (`verifier.api`). May import
every layer (it is the top of the pipeline); nothing imports it.
"""

from verifier.cli.exit_codes import ExitCode
from verifier.cli.main import check, main

__all__ = ["ExitCode", "check", "main"]
