"""A prepared spec deciding many batches against one call on all the rows (issue 66's target: at most 1.2 times
the CPU): `p = verifier.prepare(SPEC)` then `p.decide(P[i:i + BATCH])` for every batch, against
`verifier.decide(SPEC, P)`, both in one fresh process each, so that neither finds the other's route built.

    python3 benchmarks/bench_prepared.py [--batches B] [--batch-rows N] [--spec SPEC]

The issue's setting is 100 batches of 10,000 rows of `specs/large/ordinal-intervals-100.yaml` (10^6 rows,
about 2.5 CPU minutes per side on the 2-core machine); the default is 20 batches, 2 x 10^5 rows.

Measured 2026-12-07 on the 2-core machine, 20 batches of 10,000 Dirichlet rows (seed 1): see the closing note of
issue 66 and CHANGELOG.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "specs", "large", "ordinal-intervals-100.yaml")
TARGET = 1.2


def _child(spec: str, batches: int, rows: int, prepared: bool) -> float:
    code = r'''
import sys, time, numpy as np, verifier
from verifier.api.entry import load
spec, batches, rows, prepared = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
K = len(load(spec).classes)
P = np.random.default_rng(1).dirichlet(np.ones(K), size=batches * rows)  # drawn before the clock starts
start = time.process_time()
if prepared:
    p = verifier.prepare(spec)
    masks = np.vstack([p.decide(P[i:i + rows]).masks for i in range(0, batches * rows, rows)])
else:
    masks = verifier.decide(spec, P).masks
cpu = time.process_time() - start
print(cpu, int(masks.sum()))
'''
    out = subprocess.run([sys.executable, "-c", code, spec, str(batches), str(rows), "1" if prepared else "0"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--batch-rows", type=int, default=10_000)
    parser.add_argument("--spec", default=SPEC)
    args = parser.parse_args()
    one, members = _child(args.spec, args.batches, args.batch_rows, False)
    batched, same = _child(args.spec, args.batches, args.batch_rows, True)
    assert members == same, "the batches decided other sets than the one call"
    ratio = batched / one
    print(f"{args.batches} batches of {args.batch_rows:,} rows of {os.path.relpath(args.spec, ROOT)}: prepared "
          f"{batched:.2f} s, one call {one:.2f} s CPU: {ratio:.2f}x (target {TARGET}x: "
          f"{'met' if ratio <= TARGET else 'not met'})")


if __name__ == "__main__":
    main()
