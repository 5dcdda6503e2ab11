"""Speed targets, measured (not asserted): prints times, cells per second and the ratio to each target.

    python3 benchmarks/bench_report.py [--repeat N]

Targets, each a fresh `verify` process on the 2-core machine (imports included):
- issue 2: the whole report of the 9-class ordinal p-discounted scheme (511 sets x 9 classes, irrational
  entries) in under 2 s;
- issue 3: Ha's rule with symbolic delta and eta at K = 6 (57 indeterminate sets, 7 parameters) in under 10 s.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = [
    # (spec, extra arguments, target seconds for the whole text report in a fresh process)
    ("specs/ordinal-l1-9.yaml", [], 2.0),
    ("specs/ha.yaml", ["--classes", "6"], 10.0),
    ("specs/ha.yaml", [], 2.0),
]


def fresh_process(spec: str, extra: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", spec, "--no-cache", *extra], cwd=ROOT, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in (0, 1):
        raise SystemExit(f"verify {spec} {' '.join(extra)} exited {done.returncode}")
    return time.perf_counter() - start


def in_process(spec: str) -> dict[str, float]:
    sys.path.insert(0, ROOT)
    from rich.console import Console

    from verifier.analysis.pipeline import analyse_file
    from verifier.report.check.console import render

    start = time.perf_counter()
    analysis = analyse_file(os.path.join(ROOT, spec))
    analysed = time.perf_counter()
    render(analysis, Console(file=io.StringIO(), width=120, no_color=True))
    rendered = time.perf_counter()
    cells = len(analysis.scheme.all_sets) * analysis.scheme.K
    return {"analysis": analysed - start, "render": rendered - analysed, "cells": cells}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'spec':40} {'median s':>9} {'best s':>8} {'target':>7} {'ratio':>6}  details")
    for spec, extra, target in TARGETS:
        times = [fresh_process(spec, extra) for _ in range(args.repeat)]
        median = statistics.median(times)
        label = f"{spec} {' '.join(extra)}".strip()
        detail = ""
        if not extra:
            inner = in_process(spec)
            detail = (f"{inner['cells'] / median:.0f} cells/s; in-process analysis {inner['analysis']:.3f} s, "
                      f"render {inner['render']:.3f} s")
        print(f"{label:40} {median:9.3f} {min(times):8.3f} {target:7.1f} {median / target:6.2f}  {detail}")
    print("ratio = median / target; below 1.00 meets the target")


if __name__ == "__main__":
    main()
