"""A stop that comes while z3's Python layer runs waits for z3 to return (issue 51: z3's `AstRef.__del__` raised
PytestUnraisableExceptionWarning in test_design_large).

Raised inside z3's wrappers, the stop left a Context or an AST half-initialised, whose finalizer failed with
AttributeError at a later garbage collection, or it surfaced as ctypes.ArgumentError instead of the stop. Now it
is raised at the first line of the caller once z3 returns: always TimeLimitReached, and nothing unraisable.
"""

from __future__ import annotations

import gc
import sys

import pytest
import z3

from verifier import limits


def _build(ctx, names):
    xs = [z3.Real(name, ctx) for name in names]
    return z3.simplify(z3.Sum(xs) + xs[0] * xs[1] <= 3)  # the stop may come here: on the return event


@pytest.mark.parametrize("through_return", [False, True])
def test_the_stop_waits_for_z3_and_leaves_nothing_half_built(through_return):
    unraisable, hook = [], sys.unraisablehook
    names = [f"x{k}" for k in range(50)]
    sys.unraisablehook = unraisable.append
    try:
        for _ in range(40):
            with pytest.raises(limits.TimeLimitReached):
                with limits.time_limit(0.002):
                    ctx = z3.Context()
                    xs = [z3.Real(name, ctx) for name in names]
                    while True:
                        if through_return:
                            _build(ctx, names)
                        else:
                            z3.simplify(z3.Sum(xs) + xs[0] * xs[1] <= 3)
            assert sys.gettrace() is None  # the one-shot trace is gone with the stop
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert [repr(u.exc_value) for u in unraisable] == []


def test_a_stop_outside_z3_is_raised_at_once():
    with pytest.raises(limits.TimeLimitReached):
        with limits.time_limit(0.002):
            while True:
                sum(range(100))


def test_an_alarm_during_the_clean_up_is_dropped_and_the_clean_up_completes(monkeypatch):
    """A SIGALRM handled while a bound ends (its `finally`) must not raise there: that skipped the rest of the
    clean-up and left the repeating timer and the handler installed, to stop pytest itself later (an
    INTERNALERROR seen once in the suite). The alarm is simulated at the first call of the clean-up."""
    import signal

    real = signal.setitimer
    fired = []

    def alarm_first(which, seconds, interval=0.0):
        if seconds == 0 and not fired:
            fired.append(True)
            limits._alarm(signal.SIGALRM, sys._getframe())  # as if the deadline's signal were handled here
        return real(which, seconds, interval)

    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(limits.TimeLimitReached):
        with limits.time_limit(0.002):
            monkeypatch.setattr(signal, "setitimer", alarm_first)
            while True:
                sum(range(100))
    monkeypatch.undo()
    assert fired and signal.getsignal(signal.SIGALRM) == before and limits.remaining_s() is None
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
