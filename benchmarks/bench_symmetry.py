"""Beyond enumeration, measured (not asserted): the symmetry and power-mean routes at many classes.

    python3 benchmarks/bench_symmetry.py [--classes 16,32,40,48,64] [--families u65,ha,ordinal]

- ha: `specs/ha.yaml` (symbolic delta, per-class symbolic eta; z3 proofs over the representatives), --symmetry;
- u65: `specs/accuracy-u65.yaml` (numeric 0/1 costs, utility-discounted accuracy), --symmetry;
- ordinal: `specs/ordinal-l1-9.yaml` grown to K classes (c_i(j) = |i - j|, p-discounted with r = 1/2: only
  symmetric under reversal), --lemmas: the power-mean route.

Each measurement is a fresh child process (imports included) running `verify --symmetry --format json`; the table gives
wall time, peak resident memory and the verdicts, then the target as a ratio (>= 1 met). Target (2-core
machine): Ha with symbolic delta and eta at K = 64 and the ordinal p-discounted scheme at K = 40 under 60 s; then
`verify --classes 2..` (every class count at once) on the bundled 0/1 schemes, target under 10 s each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = {"ha": ("ha.yaml", "--symmetry"), "u65": ("accuracy-u65.yaml", "--symmetry"),
            "ordinal": ("ordinal-l1-9.yaml", "--lemmas")}
TARGETS = {("ha", 64): 60.0, ("ordinal", 40): 60.0}  # seconds
EVERY_K = ["accuracy-u65.yaml", "accuracy-u80.yaml", "accuracy-f1.yaml", "accuracy-f2.yaml"]


def measure(family: str, K: int) -> dict:
    name, route = FAMILIES[family]
    with open(os.path.join(ROOT, "specs", name)) as handle:
        data = yaml.safe_load(handle)
    data["classes"] = K
    data.pop("expect", None)  # the bundled expectations are for three classes
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as handle:
        yaml.safe_dump(data, handle)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "verifier", handle.name, route, "--no-cache", "--format", "json"],
                              capture_output=True, text=True, cwd=ROOT, timeout=900)
    finally:
        os.unlink(handle.name)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if done.returncode not in (0, 1):
        return {"error": (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:100]}
    record = json.loads(done.stdout)
    verdicts = "".join({"holds": "H", "fails": "F", "unknown": "?"}[record["properties"][f"P{i}"]["verdict"]]
                       for i in range(1, 11))
    return {"seconds": seconds, "peak_mb": peak, "verdicts": verdicts}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", default="16,32,40,48,64")
    parser.add_argument("--families", default="u65,ha,ordinal")
    args = parser.parse_args()
    print(f"{'family':8} {'K':>3} {'seconds':>8} {'peak MB':>8}  P1..P10")
    seen = {}
    for family in args.families.split(","):
        for K in [int(k) for k in args.classes.split(",")]:
            row = seen[(family, K)] = measure(family, K)
            if "error" in row:
                print(f"{family:8} {K:>3} {row['error']}", flush=True)
            else:
                print(f"{family:8} {K:>3} {row['seconds']:>8.2f} {row['peak_mb']:>8.0f}  {row['verdicts']}", flush=True)
    for (family, K), target in TARGETS.items():
        row = seen.get((family, K))
        if row and "error" not in row:
            print(f"\n{family}: K = {K} {row['seconds']:.1f} s, target {target:.0f} s: ratio "
                  f"{target / row['seconds']:.2f}")
    print(f"\n{'every K >= 2':28} {'seconds':>8}  target 10 s")
    for name in EVERY_K:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "verifier", os.path.join("specs", name), "--classes", "2..",
                               "--no-cache", "--format", "json"], capture_output=True, text=True, cwd=ROOT)
        seconds = time.perf_counter() - start
        state = "ok" if done.returncode == 0 else f"exit {done.returncode}"
        print(f"{name:28} {seconds:>8.2f}  ratio {10 / seconds:.2f} ({state})")


if __name__ == "__main__":
    main()
