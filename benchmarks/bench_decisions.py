"""Batch decisions, measured (not asserted): `verify decide --p-file` and `--intervals-file` in fresh processes.

    python3 benchmarks/bench_decisions.py [--runs 3] [--no-bytecode]

Inputs are generated in a temporary directory with fixed seeds:
- u65 (`specs/accuracy-u65.yaml`, Zaffalon's utility-discounted accuracy) at K = 12, and 10,000 float64
  Dirichlet(1) rows as `probs.npy` (and the same rows as CSV text, `repr` of each float);
- u65 at K = 5 and 1,000 interval credal sets (`intervals.csv`): intervals around a Dirichlet point, with every
  tenth row precise (lo = hi) and every tenth a row of equal intervals for every class (all comparisons tie).

Each command runs whole (imports included) in a fresh child process; the median of `--runs` is reported, then
the targets as ratios (target / measured; >= 1 met): 10,000 rows at K = 12 under u65 in 1.5 s, maximality
over the 1,000 sets through `--intervals-file` in 0.8 s. The API is timed in one fresh process too (import,
first call, second call). The other rules are printed for information. Children write their bytecode to a
cache in the temporary directory, warmed by one run first, as an installed package has its `.pyc` files
(`--no-bytecode`: keep the environment's setting, e.g. PYTHONDONTWRITEBYTECODE, and compile every run).
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
TARGETS = {"p-file npy, K = 12, 10,000 rows": 1.5, "intervals-file maximality, K = 5, 1,000 sets": 0.8}
API = """
import sys, time
start = time.perf_counter()
import verifier
imported = time.perf_counter()
verifier.decide(sys.argv[1], intervals_file=sys.argv[2], rule="maximality")
first = time.perf_counter()
verifier.decide(sys.argv[1], intervals_file=sys.argv[2], rule="maximality")
second = time.perf_counter()
print(imported - start, first - imported, second - first, second - start)
"""


def spec(folder: str, K: int) -> str:
    with open(os.path.join(ROOT, "specs", "accuracy-u65.yaml")) as handle:
        data = yaml.safe_load(handle)
    data["classes"] = K
    data.pop("expect", None)  # the bundled expectations are for three classes
    path = os.path.join(folder, f"u65-{K}.yaml")
    with open(path, "w") as handle:
        yaml.safe_dump(data, handle)
    return path


def inputs(folder: str) -> dict[str, str]:
    rng = np.random.default_rng(20261125)
    rows = rng.dirichlet(np.ones(12), size=10_000)
    np.save(os.path.join(folder, "probs.npy"), rows)
    with open(os.path.join(folder, "probs.csv"), "w") as handle:
        handle.write(",".join(str(i) for i in range(1, 13)) + "\n")
        handle.writelines(",".join(repr(float(x)) for x in row) + "\n" for row in rows)
    sets = []
    while len(sets) < 1000:
        if len(sets) % 10 == 0:  # precise: integer hundredths summing to 100
            cuts = np.sort(rng.integers(0, 101, size=4))
            point = np.diff(np.concatenate([[0], cuts, [100]])) / 100
            sets.append([(x, x) for x in point])
        elif len(sets) % 10 == 1:  # the same interval for every class: every comparison ties
            w = rng.integers(0, 20) / 100
            sets.append([(max(0.0, 0.2 - w), 0.2 + w)] * 5)
        else:
            p, w = rng.dirichlet(np.ones(5)), rng.uniform(0, 0.15, size=5)
            lo, hi = np.clip(np.round(p - w, 3), 0, 1), np.clip(np.round(p + w, 3), 0, 1)
            if lo.sum() <= 1 <= hi.sum():
                sets.append(list(zip(lo, hi)))
    with open(os.path.join(folder, "intervals.csv"), "w") as handle:
        handle.write(",".join(f"{c}_{end}" for c in "12345" for end in ("lo", "hi")) + "\n")
        handle.writelines(",".join(f"{a:.3f},{b:.3f}" for a, b in row) + "\n" for row in sets)
    return {"u65-12": spec(folder, 12), "u65-5": spec(folder, 5), **{name: os.path.join(folder, name) for name in
            ("probs.npy", "probs.csv", "intervals.csv")}}


def run(argv: list[str], env: dict[str, str], runs: int) -> tuple[float, str]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=900)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            return float("nan"), (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:100]
    return statistics.median(times), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-bytecode", action="store_true", help="keep the environment's bytecode setting")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = inputs(folder)
        env = dict(os.environ)
        if not args.no_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")
            run(["-m", "verifier", "decide", files["u65-5"], "--p", "1=1"], env, 1)
        decide = ["-m", "verifier", "decide"]
        commands = {
            "p-file npy, K = 12, 10,000 rows": [*decide, files["u65-12"], "--p-file", files["probs.npy"]],
            "p-file csv, K = 12, 10,000 rows": [*decide, files["u65-12"], "--p-file", files["probs.csv"]],
        }
        for rule in ("maximality", "interval-dominance", "gamma-maximin", "e-admissibility"):
            commands[f"intervals-file {rule}, K = 5, 1,000 sets"] = [
                *decide, files["u65-5"], "--intervals-file", files["intervals.csv"], "--rule", rule]
        commands["start-up only (one precise row, K = 5)"] = [*decide, files["u65-5"], "--p", "1=1"]
        measured = {}
        print(f"{'command (whole process, median of ' + str(args.runs) + ')':58} seconds")
        for name, argv in commands.items():
            runs = 1 if "e-admissibility" in name else args.runs
            seconds, out = run(argv, env, runs)
            measured[name] = seconds
            note = "" if seconds == seconds else f"  ({out})"
            print(f"{name:58} {seconds:7.2f}{'  (1 run)' if runs == 1 else ''}{note}")
        seconds, out = run(["-c", API, files["u65-5"], files["intervals.csv"]], env, args.runs)
        if seconds == seconds:
            imported, first, second, total = (float(x) for x in out.split())
            print(f"{'API in one process: maximality, 1,000 sets':58} {total:7.2f}  (import {imported:.2f}, first "
                  f"call {first:.2f} with the lazy imports, second call {second:.3f})")
        print("\ntarget                                               target   measured   ratio (>= 1 met)")
        for name, target in TARGETS.items():
            print(f"{name:52} {target:6.2f} s {measured[name]:8.2f} s {target / measured[name]:7.2f}")


if __name__ == "__main__":
    main()
