"""Beyond enumeration and beyond five classes, measured as users run them: a fresh `verify` process each
(imports included), the median of a few runs, and the ratio to each target (target / measured; >= 1 met).

    python3 benchmarks/bench_beyond.py [--repeat N]

- `verify design specs/design/ordinal-7-open.yaml --setting choice`: a 7-class ordinal problem with every set
  row open (840 cells), target 60 s;
- `verify` on Ha's rule with miss cost 1 + rank(y) and delta = 1/5 (tests/engines/structured/ha-eta-rank.yaml) at
  K = 24 and K = 40, decided by the boolean-set encoding, target 60 s each;
- `verify design` calibrating r of ordinal l1 costs with p-discounted sets (0 <= r <= 1) at K = 10 (target
  10 s) and K = 40 (target 30 s), through the power-mean lemmas; and Ha's delta (unit miss costs, 0 <= delta
  <= 2) at K = 10 (target 30 s, the issue names no figure), Properties 2-10 listed and Property 1 carried.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fresh(argv: list[str], repeat: int) -> float:
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "verifier", *argv], cwd=ROOT, capture_output=True,
                              env=dict(os.environ, VERIFY_NO_CACHE="1"))
        if done.returncode not in (0, 1):
            raise SystemExit(f"verify {' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[:300]}")
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="verify-beyond-")
    with open(os.path.join(ROOT, "tests", "engines", "structured", "ha-eta-rank.yaml"), encoding="utf-8") as handle:
        text = handle.read()
    rows = [("design, 7 ordinal classes all open", ["design", "specs/design/ordinal-7-open.yaml", "--setting",
                                                     "choice"], 60.0)]
    for K in (24, 40):
        path = os.path.join(work, f"ha-eta-rank-{K}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(re.sub(r"(?m)^classes: .*$", f"classes: {K}", re.sub(r"(?ms)^expect:.*?(?=^\S|\Z)", "",
                                                                                 text)))
        rows.append((f"Ha eta = 1 + rank(y), K = {K}", [path], 60.0))
    calibrated = {"ordinal": ("name: ordinal p-discounted\nclasses: {K}\nparameters:\n  r: {{}}\n"
                              "assume: [\"r >= 0\", \"r <= 1\"]\ncost: \"abs(rank(yhat) - rank(y))\"\n"
                              "set_cost: \"genmean(1 - r, [c(yh, y) for yh in Y])\"\n"),
                  "ha": ("name: Ha delta\nclasses: {K}\nparameters:\n  delta: {{}}\n"
                         "assume: [\"delta >= 0\", \"delta <= 2\"]\ncost: \"0 if yhat == y else 1\"\n"
                         "set_cost: \"(0 if y in Y else 1) + delta * (len(Y) - 1)\"\n")}
    for name, K, target in (("ordinal", 10, 10.0), ("ordinal", 40, 30.0), ("ha", 10, 30.0)):
        path = os.path.join(work, f"calibrate-{name}-{K}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(calibrated[name].format(K=K))
        rows.append((f"design: calibrate {name}, K = {K}", ["design", path, "--setting", "choice"], target))
    print(f"{'path':38} {'median s':>9} {'target':>7} {'ratio':>6}")
    for label, argv, target in rows:
        wall = fresh(argv, args.repeat)
        print(f"{label:38} {wall:9.2f} {target:7.1f} {target / wall:6.2f}")


if __name__ == "__main__":
    main()
