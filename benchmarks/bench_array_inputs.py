"""Probabilities from Python against the same rows from a `.npy` file (issue 66's target: at most 1.2 times the
file's CPU per row): `verifier.evaluate(spec, y_true=, probabilities=ARRAY)` and `verifier.evaluate(spec,
probabilities=FILE.npy, truth=FILE.npy)`, one process, each the median CPU of `--repeat` calls after one call
that loads the spec and its route.

    python3 benchmarks/bench_array_inputs.py [--rows N] [--repeat R]

Measured 2026-12-07 on the quiet 2-core machine, 200,000 rows of `specs/ordinal-intervals-10.yaml` (Dirichlet
rows, seed 1): the array 1.51 s, the file 1.23 s, 1.23 times; before the array was read by the file's exact path
(one Fraction per value), 20.9 s against 1.10 s, 19 times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

import verifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "specs", "ordinal-intervals-10.yaml")
TARGET = 1.2


def cpu_of(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(10), size=args.rows)
    y = rng.integers(0, 10, args.rows)
    with tempfile.TemporaryDirectory() as folder:
        files = {"probabilities": os.path.join(folder, "classifier.npy"), "truth": os.path.join(folder, "truth.npy")}
        np.save(files["probabilities"], P)
        np.save(files["truth"], y)
        verifier.evaluate(SPEC, **files)  # the spec and its route, loaded once
        array = cpu_of(lambda: verifier.evaluate(SPEC, y_true=y, probabilities=P), args.repeat)
        file = cpu_of(lambda: verifier.evaluate(SPEC, **files), args.repeat)
    ratio = array / file
    print(f"{args.rows:,} rows of 10 classes: array {array:.2f} s, .npy {file:.2f} s CPU: {ratio:.2f}x "
          f"(target {TARGET}x: {'met' if ratio <= TARGET else 'not met'})")


if __name__ == "__main__":
    main()
