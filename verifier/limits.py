"""Resource limits shared by the engines (kept here so numeric runs need not import the solver stack).

Imports nothing from the package; set once per process by the command line (`apply`), and per spec by
`time_limit` (the overall bound on one spec's work).

The overall bound is enforced two ways, because neither suffices alone: an interval timer (SIGALRM, main
thread only) raises `TimeLimitReached` wherever Python code is running when the bound passes, and every solver
question asks `question_ms` for its own time limit, so that a call into z3 (which no Python signal interrupts)
never outlives the bound by more than a moment. `TimeLimitReached` derives from BaseException so that no
`except Exception` on the way can swallow it; the timer also re-fires every second until the bound is honoured.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import sys
import threading
import time

DEFAULT_TIMEOUT_MS = 20_000  # per solver question (z3, optimisation), overridable with --timeout
MAX_TIMEOUT_S = 86_400  # one day per question; z3 takes milliseconds as a 32-bit count (about 49 days)
MAX_DESIGN_CLASSES = 5  # design and calibration: 26 sets of 5 cells (Property 1's witnesses grow fast beyond)
MAX_COMPLETION_CLASSES = 7  # completing open cells (`verify design` without a parameter): 120 sets of 7 cells
PROGRESS_STAGES = 20  # progress calls per run: matrix, ten properties, evidence, settings and what the displays
# show (`api.completion`: up to six parts); a bar's steps
DEFAULT_TIME_LIMIT_S = 600.0  # per spec, overall (--time-limit): generous; a hang is never the answer
STREAMED_FROM_CELLS = 2_000_000  # JSON written as it is made: ~30 B a cell as a cache entry, beyond its 64 MB
# bits of the numerator or denominator of any exact number a formula makes (sums, products, powers), in both
# interpreters: a function squared twenty times would otherwise grow numbers of millions of bits for minutes;
# the bundled specs stay below 3,000 bits (the bound on a cell's value)
MAX_EXACT_BITS = 200_000

RLIMIT: int | None = None  # z3 resource units per question, when the user asks for reproducible limits
# z3 runs about 1.3 million resource units a second on nonlinear questions (measured on the CI machine): a short
# question whose `unknown` shapes what is printed (how a condition is written) is bounded by work, not by time,
# so that the same input prints the same bytes on a loaded or a slower machine; its timeout is only a backstop
UNITS_PER_MS = 1_300
BACKSTOP = 10  # the backstop timeout, as a multiple of the time the work budget takes here


def work_budget(ms: int) -> int:
    """z3 resource units for a question meant to take about `ms` milliseconds here (never past --rlimit)."""
    units = ms * UNITS_PER_MS
    return min(units, RLIMIT) if RLIMIT else units


MEMORY_MB: int | None = None  # the address-space cap in force (a result found under a cap may differ)
DEFAULT_CAP_MB: int | None = None  # the command's own cap (the machine's memory) when --memory is not given;
# unlike MEMORY_MB it leaves results and cache keys alone: a run it does not stop is a run without a cap

_deadline: float | None = None  # time.monotonic() at which the current spec's work must stop
_limit_s: float | None = None
# bounds whose `finally` is running: an alarm handled then is dropped, since a stop raised inside the clean-up
# would skip the rest of it and leave the one-second repeating timer and this module's handler installed, to
# fire later in code that never asked for a bound (seen as a pytest INTERNALERROR from a gc callback)
_ending = 0


class TimeLimitReached(BaseException):
    """The overall time bound of one spec's work has passed (callers turn it into `unknown` or an error)."""

    def __init__(self, seconds: float):
        super().__init__(f"the time limit of {seconds:g} s (--time-limit) was reached")
        self.seconds = seconds


STOPS = (TimeLimitReached, ctypes.ArgumentError)  # ctypes wraps a stop raised while converting a z3 argument


def stop_of(caught: BaseException) -> TimeLimitReached:
    """The stop behind `caught` (one of STOPS); anything else is raised again as it was."""
    if isinstance(caught, TimeLimitReached):
        return caught
    found = re.search(r"TimeLimitReached: the time limit of ([^ ]+) s", str(caught))
    if found is None:
        raise caught
    return TimeLimitReached(float(found.group(1)))


MMAP_THRESHOLD = 1 << 20  # bytes: blocks from this size on get their own mapping, returned when freed
TRIM_THRESHOLD = 32 << 20  # bytes of free heap kept at its top before the rest is returned to the system


def return_freed_memory() -> None:
    """Give large freed blocks back to the system at once (glibc's malloc; elsewhere nothing changes).

    glibc raises its mapping threshold each time a mapped block is freed (up to 32 MB), after which the fast
    path's temporary arrays come from the heap and stay resident once freed: the 1,000-leaf tree then peaked
    about 120 MB higher. A fixed threshold keeps the resident memory near what is in use.

    Fixing it also fixes the trim threshold at glibc's 128 KB, so that every free at the heap's top gave the
    pages back and the next block's arrays faulted them in again: `decide --p-file` on 10^6 rows took 400,000
    page faults, over a second of system time. Up to `TRIM_THRESHOLD` of free heap is kept instead (measured:
    63,000 faults, 0.3 s, 7 MB more resident)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(ctypes.c_int(-3), ctypes.c_int(MMAP_THRESHOLD))  # -3: M_MMAP_THRESHOLD
    mallopt(ctypes.c_int(-1), ctypes.c_int(TRIM_THRESHOLD))  # -1: M_TRIM_THRESHOLD


def apply(rlimit: int | None = None, memory_mb: int | None = None) -> None:
    """Set the process-wide bounds: z3's resource limit and memory cap, and the address-space limit."""
    global RLIMIT, MEMORY_MB
    RLIMIT = rlimit
    MEMORY_MB = memory_mb
    if memory_mb:
        cap_address_space(memory_mb)
        import z3

        z3.set_param("memory_max_size", max(64, memory_mb // 2))  # z3 answers unknown instead of crashing


def cap_address_space(memory_mb: int) -> None:
    """The address-space limit alone (the command's default cap: no solver is loaded for it)."""
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def default_memory_mb() -> int | None:
    """The command's address-space cap when --memory is not given: this machine's physical memory (an
    out-of-memory is then a message, not the kernel's kill or a swap storm), or a tighter limit already in
    force (`ulimit -v`); None where the platform tells neither. The address space of a normal run is a few
    hundred MB above its resident memory (libraries, thread stacks), far below either."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    if total <= 0:
        return None
    megabytes = total // (1 << 20)
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            megabytes = min(megabytes, soft // (1 << 20))
    except (ImportError, OSError, ValueError):
        pass
    return int(megabytes)


def memory_words() -> str:
    """Which memory limit is in force and how to raise it, for messages."""
    if MEMORY_MB:
        return f"the memory limit --memory {MEMORY_MB} (raise --memory to allow more)"
    if DEFAULT_CAP_MB:
        return (f"the default memory limit of {DEFAULT_CAP_MB:,} MB (this machine's memory, or ulimit -v; "
                "--memory MB sets another)")
    return "the memory available (--memory MB sets a limit)"


def remaining_s() -> float | None:
    """Seconds left before the current bound (None when no bound is in force)."""
    return None if _deadline is None else _deadline - time.monotonic()


def check_time() -> None:
    """Raise TimeLimitReached when the bound has passed (for loops that run without a timer: other threads)."""
    if _deadline is not None and time.monotonic() >= _deadline:
        raise TimeLimitReached(_limit_s or 0.0)


def question_ms(requested_ms: int) -> int:
    """A solver question's time limit: the one asked for, but never past the overall bound."""
    left = remaining_s()
    if left is None:
        return requested_ms
    if left <= 0:
        raise TimeLimitReached(_limit_s or 0.0)
    return max(1, min(requested_ms, int(left * 1000) + 1))


REARM_S = 0.001  # how soon the timer fires again after a stop was dropped inside a finalizer


def _alarm(signum, frame) -> None:
    if _ending:
        return
    if _deadline is not None and time.monotonic() >= _deadline - 0.01:
        caller = _caller_of_z3(frame)
        if caller is None:
            raise TimeLimitReached(_limit_s or 0.0)
        if sys.gettrace() is None:  # raise it at the first line run in the caller, once z3 has returned
            caller.f_trace, caller.f_trace_lines = _stop_here, True
            sys.settrace(_untraced)
        else:  # another tracer (a debugger, coverage) owns tracing: try again soon
            signal.setitimer(signal.ITIMER_REAL, REARM_S, 1.0)


def _caller_of_z3(frame):
    """The frame that called into z3's Python layer when the stop came there, else None. A stop raised
    inside z3's wrappers leaves a Context or an AST half-initialised (its finalizer later fails with
    AttributeError) or surfaces as ctypes.ArgumentError; z3's own time limits (`question_ms`) bound the
    solver calls themselves, so the stop waits for z3 to return."""
    outermost = None
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("z3"):
            outermost = frame
        frame = frame.f_back
    return outermost.f_back if outermost is not None else None


def _untraced(frame, event, arg):
    return None  # tracing is on only so that the caller's frame trace runs; no new frame is traced


def _stop_here(frame, event, arg):
    if event in ("line", "return"):
        frame.f_trace = None
        sys.settrace(None)
        raise TimeLimitReached(_limit_s or 0.0)
    return _stop_here


def _unraisable(hook):
    """sys.unraisablehook that drops a stop raised inside a finalizer (z3's __del__, a weakref callback): Python
    would print it with a traceback and go on. The timer is re-armed to fire again at once, not a second later:
    a stage that ends within that second (building a matrix) would otherwise finish past the bound as if none
    had passed, and the stop would land in a later stage."""
    def quiet(unraisable) -> None:
        if not isinstance(unraisable.exc_value, TimeLimitReached):
            hook(unraisable)
        elif threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, REARM_S, 1.0)

    return quiet


@contextlib.contextmanager
def time_limit(seconds: float | None, shown: float | None = None):
    """Bound the work inside the block to `seconds` (None: no bound). Nested bounds keep the earlier deadline.
    `shown`: the bound a stop names (the whole run's, when `seconds` is only what is left of it)."""
    global _deadline, _limit_s, _ending
    if seconds is None:
        yield
        return
    outer = (_deadline, _limit_s)
    deadline = time.monotonic() + seconds
    if _deadline is None or deadline < _deadline:
        _deadline, _limit_s = deadline, seconds if shown is None else shown
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous, hook = None, sys.unraisablehook
    if timer:
        previous = signal.signal(signal.SIGALRM, _alarm)
        sys.unraisablehook = _unraisable(hook)
        signal.setitimer(signal.ITIMER_REAL, max(0.001, _deadline - time.monotonic()), 1.0)
    try:
        yield
    finally:
        _ending += 1  # first, and with no call before it: no alarm is handled between here and the flag
        try:
            _end_bound(timer, previous, hook, outer)
        finally:
            _ending -= 1


def _end_bound(timer: bool, previous, hook, outer) -> None:
    """Stop this bound's timer and restore what it replaced; re-arm the outer bound's timer if one runs."""
    global _deadline, _limit_s
    if timer:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if sys.gettrace() is _untraced:  # a stop waiting for z3 to return that never came
            sys.settrace(None)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        sys.unraisablehook = hook
    _deadline, _limit_s = outer
    if timer and _deadline is not None:  # an outer bound is still running: re-arm its timer
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, max(0.001, _deadline - time.monotonic()), 1.0)
