"""Resource limits shared by the engines (kept here so numeric runs need not import the solver stack)."""

DEFAULT_TIMEOUT_MS = 20_000  # per solver question (z3, optimisation), overridable with --timeout
