"""`verify evaluate` at scale, measured (not asserted): many classifiers on few rows, few classifiers on many rows,
and a run cut by `--time-limit`, each in a fresh process.

    python3 benchmarks/bench_evaluate.py [--rows 1000000] [--classifiers 300] [--runs 1] [--tree DIR]

Inputs are generated in a temporary directory (never in the checkout) with fixed seeds, under
`specs/obstacle-discounted.yaml` (3 classes, rational costs):
- `many.csv`: `--classifiers` classifiers (default 300, so 44,850 pairs) on 20 instances, each right with its own
  probability and otherwise predicting one of the seven sets at random;
- `masks.npy` and `truth.npy`: 2 classifiers on `--rows` instances (default 10^6) as (2, N, 3) boolean masks,
  and the same rows as `rows.csv` (true, predicted, classifier) when `--csv` is given (reading 2 x 10^6 CSV
  lines takes about as long as the rest).

Cases: every pair of the many classifiers (`--pairs all`), each against the best (`--pairs best`, the default
beyond 1,000 pairs), the two classifiers on many rows, and every pair under `--time-limit 3` (how many pairs were
done before it, from the JSON `cut`). `--tree DIR` runs another checkout's `verifier` instead (e.g. a worktree of
the commit before the vectorised bootstrap, to time "before"; options it lacks are left out). Each command runs
whole (imports included); the median of `--runs` is printed, with the process' CPU time beside the wall time
(a busy machine stretches the wall time, not the CPU time).
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

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "specs", "obstacle-discounted.yaml")
CLASSES = ["h", "b", "n"]
SETS = [[0], [1], [2], [0, 1], [1, 2], [0, 2], [0, 1, 2]]


def many_csv(folder: str, classifiers: int, rows: int = 20) -> str:
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 3, rows)
    path = os.path.join(folder, "many.csv")
    with open(path, "w") as handle:
        handle.write("true,predicted,classifier\n")
        for c in range(classifiers):
            right, u, other = 0.4 + 0.5 * rng.random(), rng.random(rows), rng.integers(0, 7, rows)
            for i in range(rows):
                guess = [truth[i]] if u[i] < right else SETS[other[i]]
                handle.write(f"{CLASSES[truth[i]]},{'|'.join(CLASSES[k] for k in guess)},clf{c:03d}\n")
    return path


def many_rows(folder: str, rows: int, csv: bool) -> tuple[str, str, str | None]:
    rng = np.random.default_rng(11)
    truth = rng.integers(0, 3, rows)
    masks = np.zeros((2, rows, 3), dtype=bool)
    table = np.array([[k in s for k in range(3)] for s in SETS])
    for c, right in enumerate((0.8, 0.6)):
        hit = rng.random(rows) < right
        masks[c] = table[rng.integers(0, 7, rows)]
        masks[c, hit] = False
        masks[c, hit, truth[hit]] = True
    np.save(os.path.join(folder, "masks.npy"), masks)
    np.save(os.path.join(folder, "truth.npy"), truth)
    text = None
    if csv:
        text = os.path.join(folder, "rows.csv")
        with open(text, "w") as handle:
            handle.write("true,predicted,classifier\n")
            for c in range(2):
                handle.write("".join(f"{CLASSES[t]},{'|'.join(CLASSES[k] for k in np.flatnonzero(m))},c{c}\n"
                                     for t, m in zip(truth.tolist(), masks[c])))
    return os.path.join(folder, "masks.npy"), os.path.join(folder, "truth.npy"), text


def run(tree: str, argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole `python -m verifier ...` run, and its standard output."""
    env = dict(os.environ, PYTHONPATH=tree, VERIFY_NO_CACHE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", *argv], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"verify {' '.join(argv)} exited {done.returncode}: {done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--classifiers", type=int, default=300)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--csv", action="store_true", help="also time the many rows read from a CSV")
    parser.add_argument("--tree", default=ROOT, help="the checkout whose verifier runs (default: this one)")
    args = parser.parse_args()
    help_text = subprocess.run([sys.executable, "-m", "verifier", "evaluate", "--help"], capture_output=True,
                               text=True, env=dict(os.environ, PYTHONPATH=args.tree)).stdout
    pairs = "--pairs" in help_text
    with tempfile.TemporaryDirectory() as folder:
        many = many_csv(folder, args.classifiers)
        masks, truth, rows_csv = many_rows(folder, args.rows, args.csv)
        k = args.classifiers
        cases = [(f"{k} classifiers x 20 rows, every pair ({k * (k - 1) // 2:,})",
                  ["evaluate", SPEC, many, "--format", "json", "--time-limit", "none"] + (["--pairs", "all"] if pairs
                                                                                         else []))]
        if pairs:
            cases.append((f"{k} classifiers x 20 rows, each against the best",
                          ["evaluate", SPEC, many, "--format", "json", "--pairs", "best"]))
        cases.append((f"2 classifiers x {args.rows:,} rows (.npy masks)",
                      ["evaluate", SPEC, masks, "--truth", truth, "--format", "json", "--time-limit", "none"]))
        if rows_csv:
            cases.append((f"2 classifiers x {args.rows:,} rows (CSV)",
                          ["evaluate", SPEC, rows_csv, "--format", "json", "--time-limit", "none"]))
        print(f"tree: {args.tree}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
        for name, argv in cases:
            times = [run(args.tree, argv)[:2] for _ in range(args.runs)]
            wall, cpu = statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)
            print(f"{name:55s} {wall:8.2f} s wall {cpu:8.2f} s CPU")
        if pairs:
            wall, cpu, out = run(args.tree, ["evaluate", SPEC, many, "--format", "json", "--pairs", "all",
                                             "--time-limit", "3"])
            cut = json.loads(out)["cut"]
            done = "every pair" if cut is None else f"{cut['pairs_done']:,} of {cut['pairs_planned']:,} pairs"
            print(f"{'every pair under --time-limit 3 (scores kept)':55s} {wall:8.2f} s wall {cpu:8.2f} s CPU"
                  f"  ({done})")


if __name__ == "__main__":
    main()
