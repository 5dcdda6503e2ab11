"""`python -m verifier`: the `verify` command (`verifier.cli.main`), its exit status the process's."""

from verifier.cli import main

raise SystemExit(main())
