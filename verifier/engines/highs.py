"""A HiGHS solver that prints nothing: HiGHS 1.16 writes its banner to file descriptor 1 when the object is
made, before any option can be set, which would corrupt `verify --format json` on standard output."""

from __future__ import annotations

import os
import sys

import highspy


def quiet_highs() -> highspy.Highs:
    """A HiGHS solver with its output turned off, its banner kept off standard output while it is made."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no usable standard output (closed): nothing to protect
        solver = highspy.Highs()
        solver.setOptionValue("output_flag", False)
        return solver
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 1)
            solver = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    solver.setOptionValue("output_flag", False)
    return solver
