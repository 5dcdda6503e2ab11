"""Certainty and doubt of each decision, measured (not asserted): `verify decide --p-file --certainty` in a fresh
process, whole (imports included).

    python3 benchmarks/bench_certainty.py [--runs 3] [--rows 1000000]

Inputs are generated in a temporary directory with a fixed seed: u65 (`specs/accuracy-u65.yaml`, Zaffalon's
utility-discounted accuracy, three classes as shipped) rewritten for K = 10 classes there, and `--rows` float64
Dirichlet(1) rows as `probs.npy`. The CSV goes to a file in the temporary directory. The median of `--runs` is
reported with the target as a ratio (target / measured; >= 1 met): 10^6 rows at K = 10 with --certainty in 4 s
(issue 40). The same command without --certainty is printed for information.
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
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_S = 4.0


def spec(folder: str, K: int) -> str:
    with open(os.path.join(ROOT, "specs", "accuracy-u65.yaml")) as handle:
        data = yaml.safe_load(handle)
    data["classes"] = K
    data.pop("expect", None)  # the bundled expectations are for three classes
    path = os.path.join(folder, f"u65-{K}.yaml")
    with open(path, "w") as handle:
        yaml.safe_dump(data, handle)
    return path


def timed(argv: list[str], out: str, env: dict) -> float:
    start = time.perf_counter()
    with open(out, "w") as handle:
        done = subprocess.run(argv, stdout=handle, stderr=subprocess.PIPE, env=env, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = spec(folder, 10)
        rows = np.random.default_rng(20261126).dirichlet(np.ones(10), size=args.rows)
        np.save(os.path.join(folder, "probs.npy"), rows)
        env = dict(os.environ, PYTHONPATH=ROOT, PYTHONPYCACHEPREFIX=os.path.join(folder, "pycache"),
                   VERIFY_NO_CACHE="1")
        base = [sys.executable, "-m", "verifier", "decide", path, "--p-file", os.path.join(folder, "probs.npy")]
        out = os.path.join(folder, "out.csv")
        timed(base + ["--certainty"], out, env)  # warm the bytecode cache, as an installed package has it
        with_c = statistics.median(timed(base + ["--certainty"], out, env) for _ in range(args.runs))
        without = statistics.median(timed(base, out, env) for _ in range(args.runs))
        print(f"decide --p-file --certainty, K = 10, {args.rows:,} rows: {with_c:.2f} s "
              f"(target {TARGET_S} s: ratio {TARGET_S / with_c:.2f})")
        print(f"decide --p-file without --certainty (for information): {without:.2f} s")


if __name__ == "__main__":
    main()
