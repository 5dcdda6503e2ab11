"""Abstention cost curves at scale, measured (not asserted), each command in a fresh process, imports included:

    python3 benchmarks/bench_abstention.py [--rows 100000] [--runs 1]

- `verify evaluate specs/friedel-abstention-symbolic.yaml --scores S --sweep mu=0:1:101 --sweep nu=0:1:101
  --format json` on `--rows` validation rows (default 100,000; one classifier, 4-digit scores): target 5 s;
- the same on 2,000 rows, where VACC must come out exact: target 10 s;
- the windows of a 21 x 21 grid on 300 rows by the tool's algorithm against a direct search over every window
  at every scenario (O(grid x n^2), the naive algorithm of Friedel et al.), in this process: the ratio of times.

Scores are generated in a temporary directory with a fixed seed (logistic scores of a classifier whose margin
shifts by 1.5 on the positives). The median of `--runs` is printed with the process' CPU time beside the wall
time (a busy machine stretches the wall time, not the CPU time), and the ratio to each target.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "specs", "friedel-abstention-symbolic.yaml")
GRID = ["--sweep", "mu=0:1:101", "--sweep", "nu=0:1:101"]


def scores_csv(folder: str, rows: int, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    truth = rng.random(rows) < 0.4
    scores = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.5 * truth - 0.7)))
    path = os.path.join(folder, f"scores-{rows}.csv")
    with open(path, "w") as handle:
        handle.write("classifier,true\n")
        handle.write("\n".join(f"{s:.4f},{'P' if t else 'N'}" for s, t in zip(scores, truth)) + "\n")
    return path


def timed(argv: list[str], runs: int) -> tuple[float, float, dict]:
    walls, cpus, record = [], [], {}
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "verifier", "evaluate", *argv], capture_output=True, text=True,
                              cwd=ROOT)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"verify failed ({done.returncode}): {done.stderr}")
        record = json.loads(done.stdout)
    return statistics.median(walls), statistics.median(cpus), record


def direct(stairs, scenarios):
    """Every window at every scenario: the O(grid x n^2) search."""
    from verifier.using.abstention import window_cost

    return [min((window_cost(stairs, i, j, mu, nu), stairs.counted(j) - stairs.counted(i), i, j)
                for i in range(stairs.k + 1) for j in range(i, stairs.k + 1)) for mu, nu in scenarios]


def against_direct(folder: str) -> None:
    sys.path.insert(0, ROOT)
    from verifier.using.abstention import Hull, optimal_windows, staircase

    rng = np.random.default_rng(5)
    truth = rng.random(300) < 0.4
    scores = np.round(rng.normal(size=300) + 1.2 * truth, 2)
    ranks = np.unique(scores, return_inverse=True)[1]
    stairs = staircase(ranks, truth, lambda r: Fraction(r))
    scenarios = [(Fraction(a, 20), Fraction(b, 20)) for a in range(21) for b in range(21)]
    start = time.perf_counter()
    ours = optimal_windows(stairs, Hull(stairs), scenarios)
    fast = time.perf_counter() - start
    start = time.perf_counter()
    naive = direct(stairs, scenarios)
    slow = time.perf_counter() - start
    same = all((w.cost, w.abstained, w.low, w.high) == b for w, b in zip(ours, naive))
    print(f"21 x 21 grid, 300 rows ({stairs.k} distinct scores): ours {fast * 1000:.1f} ms, direct O(grid x n^2) "
          f"{slow:.2f} s: {slow / fast:,.0f}x faster; same windows: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for rows, target, what in ((args.rows, 5.0, "101 x 101 grid"), (2000, 10.0, "101 x 101 grid, exact VACC")):
            path = scores_csv(folder, rows)
            wall, cpu, record = timed([SPEC, "--scores", path, *GRID, "--format", "json"], args.runs)
            vacc = record["abstention"]["classifiers"][0]["vacc"]
            kind = "exact" if vacc["exact"] else f"bounded ({vacc['method']})"
            print(f"{rows:>7,} rows, {what}: {wall:.2f} s wall ({cpu:.2f} s CPU), target {target:.0f} s: "
                  f"ratio {wall / target:.2f}; VACC {vacc['low_float']:.5f} {kind}")
        against_direct(folder)


if __name__ == "__main__":
    main()
