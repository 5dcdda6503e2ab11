"""Restricted prediction families at real class counts, measured as users run them: a fresh `verify` process each
(imports included, no cache), the median wall time of a few runs (and CPU time, user + system: on a shared
machine, the share it got), its peak memory (the child's maximum resident set), and the ratio to each target
(target / measured; >= 1 met).

    python3 benchmarks/bench_families.py [--repeat N] [--only WORD]

(`--only intervals`: the cases whose label contains the word, e.g. the two interval runs.)

- `verify specs/large/ordinal-intervals-100.yaml` (intervals of 100 ordinal classes: 4,950 sets, 505,000 cells), and
  the same with `--format json`: target 10 s;
- Ha-style costs on a balanced hierarchy of 1,000 leaves (10 x 10 x 10): target 30 s;
- 0/1 costs with u65 on `{max_size: 2}` at K = 200 (19,900 pairs, 4 million cells): target 30 s;
- `verify decide` of 10,000 distributions over the 100-class intervals: target 5 s;
- memory: every run under 2 GiB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMORY_TARGET_MB = 2048


def fresh(argv: list[str], repeat: int) -> tuple[float, float, float]:
    walls, cpus, peak = [], [], 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "verifier", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, env=dict(os.environ, VERIFY_NO_CACHE="1"))
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)  # beside the wall time: on a shared machine, its share
        peak = max(peak, usage.ru_maxrss / 1024)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise SystemExit(f"verify {' '.join(argv)} exited {code}: {child.stderr.read().decode()[:300]}")
    return statistics.median(walls), statistics.median(cpus), peak


def hierarchy_spec(path: str) -> None:
    lines = ["name: Ha-style costs on a balanced hierarchy of 1000 leaves", "classes: 1000",
             "parameters: {delta: {value: 0.0004}}", "cost: \"0 if y == yhat else 1 + rank(y) / K\"",
             "set_cost: \"(0 if y in Y else 1 + rank(y) / K) + delta * (len(Y) - 1)\"", "predictions:",
             "  hierarchy:"]
    leaf = 1
    for a in range(10):
        lines.append(f"    g{a}:")
        for b in range(10):
            lines.append(f"      g{a}_{b}: [{', '.join(str(leaf + i) for i in range(10))}]")
            leaf += 10
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def pairs_spec(path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("name: u65 on pairs of 200 classes\nclasses: 200\nfunctions: {g(x): \"-0.6 * x**2 + 1.6 * x\"}\n"
                     "cost: \"0 if y == yhat else 1\"\nset_cost: \"1 - g(1 / len(Y)) if y in Y else 1\"\n"
                     "predictions: {max_size: 2}\n")


def distributions(path: str, K: int = 100, n: int = 10_000) -> None:
    rng = np.random.default_rng(1)
    weights = rng.integers(0, 1000, size=(n, K)).astype(float) ** 3
    counts = np.floor(weights / weights.sum(axis=1, keepdims=True) * 1e6).astype(np.int64)
    counts[:, 0] += 1_000_000 - counts.sum(axis=1)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(",".join(str(i) for i in range(1, K + 1)) + "\n")
        for row in counts:
            handle.write(",".join(f"{x / 1e6:.6f}" for x in row) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="run the cases whose label contains this word")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="verify-families-")
    tree, pairs, rows = (os.path.join(work, name) for name in ("tree.yaml", "pairs.yaml", "p100.csv"))
    hierarchy_spec(tree)
    pairs_spec(pairs)
    distributions(rows)
    cases = [("intervals, K = 100", ["specs/large/ordinal-intervals-100.yaml"], 10.0),
             ("intervals, K = 100, --format json", ["specs/large/ordinal-intervals-100.yaml", "--format", "json"],
              10.0),
             ("hierarchy of 1,000 leaves", [tree], 30.0),
             ("max_size 2, K = 200", [pairs], 30.0),
             ("decide 10,000 rows, intervals K = 100", ["decide", "specs/large/ordinal-intervals-100.yaml", "--p-file",
                                                         rows, "-q"], 5.0)]
    print(f"{'path':40} {'median s':>9} {'cpu s':>6} {'target':>7} {'ratio':>6} {'peak MB':>8} {'ratio':>6}")
    for label, argv, target in [case for case in cases if args.only in case[0]]:
        wall, cpu, peak = fresh(argv, args.repeat)
        print(f"{label:40} {wall:9.2f} {cpu:6.2f} {target:7.1f} {target / wall:6.2f} {peak:8.0f} "
              f"{MEMORY_TARGET_MB / peak:6.2f}")


if __name__ == "__main__":
    main()
