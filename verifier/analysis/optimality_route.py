"""Which route decides every set's optimality (alone / tied / never), and within what time.

- up to 1,023 sets: one LP per set over every other set (`engines.optimality`), re-checked by
  `check.optimality`;
- a class-symmetric scheme checked on one set per size (`all` beyond enumeration, `{max_size: k}`): one
  status per size, on the symmetric segment (`engines.orbit_optimality`, re-checked by
  `check.orbit_optimality`);
- a restricted family of up to 100,000 sets and 2,000,000 cells on the fast path's arrays (intervals,
  hierarchies, listed sets, `{max_size: k}` within the bounds): batch by batch, points built from each set's
  own classes first (`engines.family_witnesses`, one certified product per batch), then dominance, LPs for the
  rest (`engines.family_optimality`), each batch re-checked by `check.optimality_batch` before it counts.
Made on first use (a report that never shows it pays nothing); the large route is bounded by what was left of
the analysis' time limit, and what is not decided and re-checked by then is `unknown`, with the reason.

Owns: `optimality_source`, `why_not_decided`, `CutShort`. May import: `check`, `engines`, `scheme`, `limits`.
"""

from __future__ import annotations

from collections.abc import Callable

from verifier import limits
from verifier.check.checker import Checker
from verifier.check.optimality import check_optimality
from verifier.scheme import Scheme
from verifier.verdict import SetOptimality, SetPossibility

SMALL_MAX_SETS = 2**10 - 1  # one LP over all other rows per set (K <= 10 of every set)
LARGE_MAX_SETS = 100_000  # batch by batch on arrays (the family bound)
# and at most this many cells (sets x classes): a 1,000-leaf tree (2.0 M) takes under 2 minutes and 1.6 GB with
# its analysis; intervals of 215 classes at the family bound (5.0 M) ran past 600 s and 4 GiB (measured with
# benchmarks/bench_family_bounds.py, docs/verify.md)
LARGE_MAX_CELLS = 2_000_000


def optimality_source(scheme: Scheme, possibility: list[SetPossibility],
                      checker: Checker) -> Callable[[], dict] | None:
    """Every set's optimality and its independent re-check, made on first use; None when no route applies
    (`why_not_decided` says why)."""
    hints = {e.members: e.witness for e in possibility if e.witness}
    if scheme.symbolic or (scheme.partial and not _symmetric(scheme)):
        return None
    if _symmetric(scheme):
        def by_orbits() -> dict:
            from verifier.check.orbit_optimality import check_orbit_optimality
            from verifier.engines.orbit_optimality import orbit_optimality

            found = orbit_optimality(scheme)
            check_orbit_optimality(scheme, found, checker)
            return found

        return by_orbits
    if len(scheme.all_sets) <= SMALL_MAX_SETS:
        def small() -> dict:
            from verifier.engines.optimality import analyse_optimality

            found = analyse_optimality(scheme, hints=hints)
            check_optimality(scheme, found, checker)
            return found

        return small
    if scheme.family_restricted and len(scheme.all_sets) <= LARGE_MAX_SETS \
            and len(scheme.all_sets) * scheme.K <= LARGE_MAX_CELLS \
            and getattr(scheme, "cells", None) is not None \
            and getattr(scheme.rows, "index", None) is not None:
        left = limits.remaining_s()
        budget = left if left is not None and left > 0 else limits.DEFAULT_TIME_LIMIT_S
        return lambda: _large(scheme, hints, checker, budget)
    return None


def why_not_decided(scheme: Scheme) -> str:
    """Why a numeric scheme's sets have no `optimal` entry."""
    n = len(scheme.all_sets)
    if n > SMALL_MAX_SETS and not scheme.family_restricted:  # every subset of 11 to 16 classes: the JSON's speed
        return (f"not decided: one LP over every other set for each set, done for up to {SMALL_MAX_SETS:,} sets "
                f"of every subset (and batch by batch for a restricted family); this scheme has {n:,}")
    if n > LARGE_MAX_SETS or n * scheme.K > LARGE_MAX_CELLS:
        return (f"not decided: done for up to {LARGE_MAX_SETS:,} sets and {LARGE_MAX_CELLS:,} cells (batches of "
                "LPs on the fast path's arrays, within the default time limit and 4 GiB), or one status per size "
                f"for a class-symmetric scheme; this scheme has {n:,} sets, {n * scheme.K:,} cells")
    if n > SMALL_MAX_SETS:
        return (f"not decided: beyond {SMALL_MAX_SETS:,} sets, optimality is decided on the fast path's arrays, "
                "and this scheme was built cell by cell (formulas the fast path does not evaluate)")
    return ""


class CutShort(dict):
    """Every set's optimality where the time bound left some `unknown`: it depends on the machine's speed, so
    what is made from it is never reused from the cache."""


def _symmetric(scheme: Scheme) -> bool:
    return scheme.orbits is not None and scheme.orbits.symmetric and not scheme.symbolic


def _large(scheme: Scheme, hints: dict, checker: Checker, budget_s: float) -> dict:
    """Batch by batch, each re-checked before it counts; what the time bound cuts is `unknown`."""
    from verifier.check.optimality_batch import batch_table, check_optimality_batch
    from verifier.engines.family_optimality import FamilyOptimality

    out: dict = {}
    try:
        with limits.time_limit(budget_s):
            engine = FamilyOptimality(scheme, hints)
            table = batch_table(scheme, checker)
            for batch in engine.batches():
                check_optimality_batch(scheme, batch, checker, table)
                out.update(batch)
    except limits.STOPS as caught:
        limits.stop_of(caught)  # anything but a stop is raised again as it was
        reason = (f"not decided: the time left of the analysis' bound (--time-limit), {budget_s:,.1f} s, ran out "
                  f"after {len(out):,} of {len(scheme.all_sets):,} sets")
        out.update({m: SetOptimality(m, "unknown", reason=reason) for m in scheme.all_sets if m not in out})
        return CutShort({m: out[m] for m in scheme.all_sets})
    return {m: out[m] for m in scheme.all_sets}
