"""The `verify` command: argument parsing, progress, exit status, and the subcommands `schema` and `explain`.

Owns: nothing but the command line; every result comes from the Python API (`verifier.api`). May import
every layer (it is the top of the pipeline); nothing imports it.
"""

from verifier.cli.main import check, main

__all__ = ["check", "main"]
