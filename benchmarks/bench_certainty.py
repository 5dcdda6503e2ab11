"""Certainty and doubt of each decision, measured (not asserted): `verify decide --p-file --certainty` in a fresh
process, whole (imports included).

    python3 benchmarks/bench_certainty.py [--runs 3] [--rows 1000000]

Inputs are generated in a temporary directory with a fixed seed: u65 (`specs/accuracy-u65.yaml`, Zaffalon's
utility-discounted accuracy, three classes as shipped) rewritten for K = 10 classes there, and `--rows` float64
Dirichlet(1) rows as `probs.npy`. The CSV goes to a file in the temporary directory. The median of `--runs` is
reported with the target as a ratio (target / measured wall time; >= 1 met): 10^6 rows at K = 10 with
--certainty in 4 s (issue 40). The child's CPU time (user + system) and the load average are printed beside it:
on a loaded machine the wall time says little. The same command without --certainty is printed for
information. Then `decide --p-file --logits` on `--logit-rows` rows of standard normal logits (float64, K = 10,
the same u65), decided exactly on their softmax by the sorted route: target 10^5 rows in 3 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_S = 4.0
LOGIT_TARGET_S = 3.0  # 10^5 rows of logits at K = 10 (issue 40, the sorted route)


def spec(folder: str, K: int) -> str:
    with open(os.path.join(ROOT, "specs", "accuracy-u65.yaml")) as handle:
        data = yaml.safe_load(handle)
    data["classes"] = K
    data.pop("expect", None)  # the bundled expectations are for three classes
    path = os.path.join(folder, f"u65-{K}.yaml")
    with open(path, "w") as handle:
        yaml.safe_dump(data, handle)
    return path


CPU: list[float] = []  # the child's user + system seconds, run by run (a loaded machine inflates wall time)


def timed(argv: list[str], out: str, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "w") as handle:
        # cwd: the temporary folder, so that `python -m verifier` imports ROOT's package, not one in the caller's cwd
        done = subprocess.run(argv, stdout=handle, stderr=subprocess.PIPE, env=env, text=True,
                              cwd=os.path.dirname(out))
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--logit-rows", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = spec(folder, 10)
        rows = np.random.default_rng(20261126).dirichlet(np.ones(10), size=args.rows)
        np.save(os.path.join(folder, "probs.npy"), rows)
        env = dict(os.environ, PYTHONPATH=ROOT, PYTHONPYCACHEPREFIX=os.path.join(folder, "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the warm-up run writes the bytecode the timed runs read
        base = [sys.executable, "-m", "verifier", "decide", path, "--p-file", os.path.join(folder, "probs.npy")]
        out = os.path.join(folder, "out.csv")
        timed(base + ["--certainty"], out, env)  # warm the bytecode (and the verified spec's) cache, as a user has
        CPU.clear()
        with_c = statistics.median(timed(base + ["--certainty"], out, env) for _ in range(args.runs))
        cpu_c = statistics.median(CPU)
        CPU.clear()
        without = statistics.median(timed(base, out, env) for _ in range(args.runs))
        cpu = statistics.median(CPU)
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"decide --p-file --certainty, K = 10, {args.rows:,} rows: {with_c:.2f} s wall, {cpu_c:.2f} s CPU "
              f"(target {TARGET_S} s: ratio {TARGET_S / with_c:.2f})")
        print(f"decide --p-file without --certainty (for information): {without:.2f} s wall, {cpu:.2f} s CPU")
        logits = np.random.default_rng(20261127).normal(size=(args.logit_rows, 10))
        np.save(os.path.join(folder, "logits.npy"), logits)
        argv = base[:-1] + [os.path.join(folder, "logits.npy"), "--logits"]
        CPU.clear()
        wall = statistics.median(timed(argv, out, env) for _ in range(args.runs))
        print(f"decide --p-file --logits, K = 10, {args.logit_rows:,} rows: {wall:.2f} s wall, "
              f"{statistics.median(CPU):.2f} s CPU (target {LOGIT_TARGET_S} s: ratio {LOGIT_TARGET_S / wall:.2f})")


if __name__ == "__main__":
    main()
