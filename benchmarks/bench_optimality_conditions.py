"""Issue 55's acceptance on random schemes: how many pieces of each set's optimality stay undecided (target: at
most 1 in 20), with one parameter (the pieces of its range) and with two (the regions of `optimal.conditions`;
a set whose status is the same everywhere is one piece; a set whose regions are not stated counts as one
undecided piece), and the time per scheme. Random schemes as in the tests: 3 classes, every cell a + b·t
(+ c·s) with small integers, parameters in [0, 1], a fixed seed.

    python3 benchmarks/bench_optimality_conditions.py [SCHEMES_PER_CASE]

Measured 2026-11-28 on the shared 2-core machine, seed 55 (the first line while other sessions loaded it):
    1 parameter,  8 schemes: 5 of 224 pieces undecided (2.2 %), 0 sets unknown; 47 s, at most 11 s a scheme
    1 parameter,  5 schemes: 3 of 119 pieces undecided (2.5 %), 0 sets unknown; 3.4 s, at most 1.3 s a scheme
    2 parameters, 5 schemes: 19 of 46 pieces undecided (41 %), 1 set unknown; 51 s, at most 20 s a scheme
      (91 s, at most 37 s, before the pruning's 300 ms questions: commit f1ac15f)
One parameter meets the issue's bound (at most 1 piece in 20). With two parameters, on these random schemes the
signs of the cost differences change inside [0, 1]^2 and the elimination of p splits into more than 12 sign
cases, or no candidate condition is proved within z3's time.
With the sign cells and named witnesses (analysis/sign_cells.py, analysis/witness_cover.py), same seed, quiet
machine, 2026-11-28 evening:
    2 parameters, 5 schemes: 5 of 68 pieces undecided (7.4 %), 1 set unknown; 111 s, at most 42 s a scheme
Not yet the issue's 1 in 20: near curved boundaries the witness cover's z3 questions run out of work budget, and
one set z3 could not decide at all (sampling shows it never alone, but nothing proves it).
With each set's exact region (p eliminated with up to 64 sign cases) deciding where the witnesses cannot, and
stated itself when no shorter condition is proved equivalent (2026-11-28, late evening, quiet machine):
    1 parameter, 10 schemes: 7 of 280 pieces undecided (2.5 %), 0 sets unknown; 9.5 s, at most 1.8 s a scheme
    2 parameters, 5 schemes: 0 of 76 pieces undecided, 0 sets unknown; 143 s, at most 59 s a scheme
    2 parameters, 10 schemes: 1 of 148 pieces undecided (0.7 %), 0 sets unknown; 1,217 s, at most 348 s a scheme
The issue's bound holds. The time is the cost: on the hardest schemes most of it is nonlinear z3 questions that
run to their time backstop (z3's work budget hardly advances in nlsat).
With the exact decomposition of the plane (analysis/plane_optimality.py, issue 65; no solver, bounded by the
degrees), 2026-12-02, the same seed, one core while the other ran tests:
    1 parameter, 10 schemes: 7 of 280 pieces undecided, 0 sets unknown; 14.4 s in all, at most 2.9 s a scheme
    2 parameters, 10 schemes: 0 of 159 pieces undecided, 0 sets unknown; 215 s in all, at most 32 s a scheme
5.7 times faster than the z3 route's 1,217 s, every piece decided; issue 65 asks for 10 times and 30 s at most.
With the stripes swept (analysis/plane_sweep.py: a stripe's roots ordered from the one before, only the
polynomials vanishing on the section value between them isolated again) and the sets' decompositions sharing
roots on a line and pairs' common zeros (plane_meets.Shared), 2026-12-07, the same seed, quiet machine:
    1 parameter, 10 schemes: 7 of 280 pieces undecided, 0 sets unknown; 10.0 s in all, at most 2.0 s a scheme
    2 parameters, 10 schemes: 0 of 159 pieces undecided, 0 sets unknown; 104.9 s in all, at most 17.9 s a scheme
11.6 times faster than the z3 route's 1,217 s (measured 2026-11-28, not re-run beside it), none over 30 s: the
issue's bound. The patterns found are the same as lifting every stripe in full (the slowest scheme's conditions
byte for byte; tests/analysis/test_plane_decomposition.py compares the two on random polynomials).
"""

from __future__ import annotations

import itertools
import random
import sys
import time

from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.scheme import build_scheme
from verifier.spec import spec_from_data

NAMES = "abc"


def scheme_data(rng: random.Random, parameters: list[str]) -> dict:
    sets = [c for n in (1, 2, 3) for c in itertools.combinations(range(3), n)]

    def cell():
        return " + ".join([str(rng.randint(0, 3)), *[f"{rng.randint(-2, 2)}*{p}" for p in parameters]])

    cells = {Y: [("0" if len(Y) == 1 and Y[0] == y else cell()) for y in range(3)] for Y in sets}
    return {"name": "random", "classes": list(NAMES), "parameters": {p: {} for p in parameters},
            "assume": [f"{p} >= 0" for p in parameters] + [f"{p} <= 1" for p in parameters],
            "cost_matrix": {NAMES[Y[0]]: cells[Y] for Y in sets if len(Y) == 1},
            "set_costs": {",".join(NAMES[i] for i in Y): cells[Y] for Y in sets if len(Y) > 1}}


def pieces(entry) -> tuple[int, int]:
    """(pieces, undecided pieces) of one set's answer."""
    if entry.where is not None:
        return len(entry.where), sum(status == "unknown" for _, _, status in entry.where)
    if entry.conditions:
        return len(entry.conditions), 0
    return 1, int(entry.status == "unknown" or "not stated as a condition" in entry.reason)


def main(count: int) -> None:
    rng = random.Random(55)
    for parameters in (["t"], ["t", "s"]):
        total = undecided = unknown_sets = 0
        seconds = []
        for _ in range(count):
            scheme = build_scheme(spec_from_data(scheme_data(rng, parameters)))
            start = time.perf_counter()
            found = symbolic_optimality(scheme)
            seconds.append(time.perf_counter() - start)
            for entry in found.values():
                n, u = pieces(entry)
                total, undecided = total + n, undecided + u
                unknown_sets += entry.status == "unknown"
        print(f"{len(parameters)} parameter(s), {count} schemes: {undecided} of {total} pieces undecided, "
              f"{unknown_sets} sets unknown; {sum(seconds):.1f} s in all, at most {max(seconds):.1f} s a scheme")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
