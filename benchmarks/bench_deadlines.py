"""Deadlines and work bounds, measured (not asserted): how long the tool takes to refuse or stop, in fresh
processes.

    python3 benchmarks/bench_deadlines.py [--runs 3]

- a function cubed twenty times (`h1(x) = x**2 + 1`, `h{i}(x) = h{i-1}(x)**3`, `set_cost: "1 if h20(1) > 0
  else 0"`), and the same with `h{i-1}(x) * h{i-1}(x)`: both end with exit 2 and a located message about
  exact numbers beyond 200,000 bits (before the bound: 24 s and more for the first, 36 s for the second, on
  a busy 2-core machine); target 5 s each, imports included;
- `verify design` on ordinal costs with `min(...) + delta * (len(Y) - 1)` at 10 classes (403 s to finish)
  under `--time-limit 5`: the time from start to the printed stop; target 10 s (the bound plus imports and
  the report of what was decided);
- `verify --cross-check --time-limit 5` on `specs/ordinal-intervals-10.yaml` (minutes to finish): target 10 s.

The median of `--runs` is reported with the target as a ratio (target / measured; >= 1 met).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def nested(folder: str, body: str) -> str:
    lines = ["name: nested", "classes: [a, b, c]", "functions:", '  h1(x): "x**2 + 1"']
    lines += [f'  h{i}(x): "{body.format(f"h{i - 1}")}"' for i in range(2, 21)]
    lines += ['cost: "0 if yhat == y else 1"', 'set_cost: "1 if h20(1) > 0 else 0"']
    path = os.path.join(folder, f"nested-{len(body)}.yaml")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


def ordinal(folder: str, K: int) -> str:
    path = os.path.join(folder, f"ordinal-{K}.yaml")
    with open(path, "w") as handle:
        handle.write(f'name: ordinal\nclasses: {K}\nparameters: {{delta: {{}}}}\nassume: ["delta >= 0"]\n'
                     'cost: "abs(rank(yhat) - rank(y))"\n'
                     'set_cost: "min(c(v, y) for v in Y) + delta * (len(Y) - 1)"\n')
    return path


def timed(argv: list[str], want: int) -> float:
    env = {**os.environ, "PYTHONPATH": ROOT, "VERIFY_NO_CACHE": "1"}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "verifier", *argv], env=env, capture_output=True, text=True,
                            timeout=900)
    elapsed = time.perf_counter() - start
    if result.returncode != want:
        raise SystemExit(f"{argv}: exit {result.returncode}, expected {want}\n{result.stderr[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cases = [
            ("h20 cubed: refused", [nested(folder, "{0}(x)**3")], 2, 5.0),
            ("h20 as h * h: refused", [nested(folder, "{0}(x) * {0}(x)")], 2, 5.0),
            ("design, 10 ordinal classes, --time-limit 5", ["design", ordinal(folder, 10), "--time-limit", "5"], 1,
             10.0),
            ("--cross-check --time-limit 5, 10 interval classes",
             [os.path.join(ROOT, "specs", "ordinal-intervals-10.yaml"), "--cross-check", "--time-limit", "5"], 0,
             10.0),
        ]
        for name, argv, want, target in cases:
            runs = [timed(argv, want) for _ in range(args.runs)]
            median = statistics.median(runs)
            print(f"{name:<52} {median:7.2f} s (target {target:g} s: ratio {target / median:.2f})")


if __name__ == "__main__":
    main()
