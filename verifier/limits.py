"""Resource limits shared by the engines (kept here so numeric runs need not import the solver stack).

Imports nothing from the package; set once per process by the command line (`apply`)."""

DEFAULT_TIMEOUT_MS = 20_000  # per solver question (z3, optimisation), overridable with --timeout

RLIMIT: int | None = None  # z3 resource units per question, when the user asks for reproducible limits
MEMORY_MB: int | None = None  # the address-space cap in force (a result found under a cap may differ)


def apply(rlimit: int | None = None, memory_mb: int | None = None) -> None:
    """Set the process-wide bounds: z3's resource limit and memory cap, and the address-space limit."""
    global RLIMIT, MEMORY_MB
    RLIMIT = rlimit
    MEMORY_MB = memory_mb
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        import z3

        z3.set_param("memory_max_size", max(64, memory_mb // 2))  # z3 answers unknown instead of crashing
