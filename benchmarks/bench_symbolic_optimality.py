"""Which sets can be optimal under parameters (issue 55): the time of `verify SPEC --format json` (which holds
every set's status across the parameters and, for one parameter, its pieces) in a fresh process per case, and
the counts of statuses and of undecided pieces. Target: each bundled symbolic spec within twice its time before
issue 55 (measured below on the quiet 2-core machine), the issue's one-parameter example in seconds.

    python3 benchmarks/bench_symbolic_optimality.py [CASE ...]

Measured on the quiet 2-core machine, 2026-11-28, before issue 55 (commit 3c32f23) and after:
    ha                            0.7 s, no set decided       ->  0.8 s, 7 alone
    friedel-abstention-symbolic   0.8 s, no set decided       ->  0.7 s, 3 alone
    p-discounted-symbolic         1.1 s, 4 pieces undecided   ->  1.0 s, the same (costs beyond polynomials)
    issue-example                 1.8 s, 630 of 645 pieces undecided, one set unknown
                                                              ->  4.7 s, 2 of 105 pieces undecided, every set
With each set's status as conditions on two or more parameters (same day, same machine, quiet again: the
unchanged p-discounted case took its 1.1 s above):
    ha                            1.6 s, 7 alone; {a, b, c}: alone where delta < eta[a]·eta[b]·eta[c]/(…), tied
                                  on it, never above
    friedel-abstention-symbolic   1.0 s, 3 alone; {P, N}: alone where nu < mu/(mu + 1), tied on it, never above
    p-discounted-symbolic         1.1 s, unchanged: 4 pieces (0 < r < 1 for the four indeterminate sets)
                                  undecided: r in an exponent, beyond z3, and the witness at r = 1/2 stops
                                  carrying at a zero known only within an enclosure
Evening, same machine, quiet, after the end lemmas near a vanishing exponent and the sign cells:
    ha                            1.6 s, 7 alone (unchanged: 4 parameters, the elimination of p decides)
    friedel-abstention-symbolic   1.1 s, 3 alone; P10's region now stated too (mu ≥ nu and nu ≤ 1)
    p-discounted-symbolic         1.6 s, every piece decided: the four indeterminate sets alone for 0 < r < 1
Late evening, quiet, after least_point proposed with HiGHS directly (scipy.optimize's import was 0.25 s):
    ha                            1.4 s (2.0x its 0.7 s before issue 55), 7 alone
    friedel-abstention-symbolic   0.9 s, 3 alone
    p-discounted-symbolic         1.4 s, every piece decided
    issue-example                 5.2 s, 2 of 105 pieces undecided
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ISSUE = """name: issue 55 example
classes: [a, b, c, d]
parameters: {t: {}}
assume: ["t >= 0", "t <= 1/2"]
cost_matrix: {a: [0, 1, 1, 1], b: [1, 0, t, 1], c: [1, 1, 0, 1], d: [1, 1, 1, 0]}
set_cost: "sum([c(yh, y) for yh in Y]) if len(Y) == 1 else (t * (len(Y) - 1) if y in Y else 1)"
"""
CASES = {"ha": "specs/ha.yaml", "friedel-abstention-symbolic": "specs/friedel-abstention-symbolic.yaml",
         "p-discounted-symbolic": "specs/p-discounted-symbolic.yaml", "issue-example": ISSUE}


def main(names: list[str]) -> None:
    for name in names or list(CASES):
        spec = CASES[name]
        with tempfile.TemporaryDirectory() as folder:
            if not spec.endswith(".yaml"):
                path = os.path.join(folder, "spec.yaml")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(spec)
                spec = path
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "verifier", spec, "--format", "json", "--no-cache"],
                                  cwd=ROOT, capture_output=True, text=True)
            seconds = time.perf_counter() - start
        record = json.loads(done.stdout)
        statuses = Counter(e["status"] for e in record["optimality"])
        pieces = Counter(p["status"] for e in record["optimality"] for p in e.get("where", []))
        print(f"{name}: {seconds:.1f} s; sets {dict(statuses)}; pieces {dict(pieces)}")


if __name__ == "__main__":
    main(sys.argv[1:])
