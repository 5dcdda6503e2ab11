"""Operating-condition uncertainty at scale, measured (not asserted), each command in a fresh process, imports
included:

    python3 benchmarks/bench_conditions.py [--rows 10000] [--runs 1]

`verify evaluate examples/operating-conditions/cost-proportion.yaml --scores S --threshold-choice METHOD
--format json` for the score-driven, rate-driven and optimal methods on `--rows` validation rows (default
10,000; one classifier, 4-digit scores, so about 6,000 distinct scores and as many cost lines), with the default
certainties 0, 1, 4, 16 and inf: K_v(c) on 101 points and L_v for each. Target 5 s each. The median of `--runs`
is printed with the process' CPU time beside the wall time (a busy machine stretches the wall time, not the
CPU time).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_abstention import ROOT, scores_csv, timed  # noqa: E402

SPEC = os.path.join(ROOT, "examples", "operating-conditions", "cost-proportion.yaml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = scores_csv(folder, args.rows)
        for method in ("score", "rate", "optimal"):
            wall, cpu, record = timed([SPEC, "--scores", path, "--threshold-choice", method, "--format", "json"],
                                      args.runs)
            losses = record["operating_conditions"]["classifiers"][0]["loss"]
            name = method if method == "optimal" else f"{method}-driven"
            print(f"{args.rows:,} rows, {name:>13}, gammas 0, 1, 4, 16, inf: {wall:.2f} s wall ({cpu:.2f} s CPU), "
                  f"target 5 s: ratio {5 / wall:.2f} (>= 1 met); L(0) = {losses['0']['value']:.5f}, "
                  f"L(inf) = {losses['inf']['value']:.5f}")


if __name__ == "__main__":
    main()
