"""`verify --classes 2..8 SPEC`: the same formula spec checked at every class count in a range.

Classes are named "1".."K" at each count. Only specs written with formulas qualify: a cost matrix or explicit
set rows fix the number of classes. The report gives the verdicts per K and, per property, the smallest K at
which it first fails (with that K's counterexample).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from verifier.analysis.pipeline import Analysis, analyse
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.spec import MAX_CLASSES, Spec
from verifier.verdict import Verdict

_DIGITS = 6  # a class count has at most this many digits (int() of 5,000 digits raises, and is meaningless)


@dataclass
class Sweep:
    """A formula spec's analyses at every class count of a range, by K."""

    spec: Spec
    counts: list[int]
    analyses: dict[int, Analysis] = field(default_factory=dict)

    @property
    def stopped(self) -> dict[int, str]:
        """{class count: why its analysis stopped early} (the time limit cut it: its `unknown`s are the machine's
        speed, never a finished result to cache)."""
        return {k: a.stopped for k, a in self.analyses.items() if a.stopped}

    def first_failure(self, pid: str) -> int | None:
        """The smallest class count at which the property fails, or None when it fails at none."""
        return next((k for k in self.counts if self.analyses[k].by_id[pid].verdict is Verdict.FAILS), None)


def open_range(text: str) -> int | None:
    """"2.." (every class count from 2 on) -> 2; anything else -> None."""
    match = re.fullmatch(r"\s*([0-9]+)\s*\.\.\s*", text)
    if match is None:
        return None
    if len(match.group(1)) > _DIGITS or int(match.group(1)) < 2:
        raise UsageError(f"--classes needs a first class count from 2 to {MAX_CLASSES}, got {shown(text)}")
    return int(match.group(1))


def parse_range(text: str) -> list[int]:
    """The class counts of a --classes range ('2..8', '2-8' or '5'), each between 2 and MAX_CLASSES; a UsageError
    otherwise."""
    match = re.fullmatch(r"\s*([0-9]+)\s*(?:\.\.|-)\s*([0-9]+)\s*", text) or re.fullmatch(r"\s*([0-9]+)\s*", text)
    if not match:
        raise UsageError(f"--classes expects a range such as 2..8, or 2.. for every class count, got {shown(text)}")
    if any(len(g) > _DIGITS for g in match.groups()):
        raise UsageError(f"--classes needs 2 <= low <= high <= {MAX_CLASSES}, got {shown(text)}")
    low = int(match.group(1))
    high = int(match.group(2)) if match.lastindex == 2 else low
    if not 2 <= low <= high <= MAX_CLASSES:
        raise UsageError(f"--classes needs 2 <= low <= high <= {MAX_CLASSES}, got {shown(text)}")
    return list(range(low, high + 1))


def sweep(spec: Spec, counts: list[int], timeout_ms: int, step=None, exact: bool = False,
          symmetry: bool = False, time_limit_s: float | None = None) -> Sweep:
    """`step(description)`, when given, is told before each class count (for progress bars)."""
    if spec.cost_matrix is not None or spec.set_costs:
        raise UsageError(f"{spec.path}: --classes needs a spec written with formulas ('cost' and 'set_cost'); "
                         "a cost matrix or explicit set rows fix the number of classes")
    result = Sweep(spec, counts)
    for k in counts:
        if step is not None:
            step(f"{spec.name[:40]}: K = {k}")
        result.analyses[k] = analyse(spec, timeout_ms, classes=tuple(str(i) for i in range(1, k + 1)),
                                     exact=exact, optimality=False, symmetry=symmetry,  # a sweep reports verdicts only
                                     time_limit_s=time_limit_s)
    return result
