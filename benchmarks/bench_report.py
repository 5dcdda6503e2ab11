"""Speed targets, measured (not asserted): prints times, cells per second and the ratio to each target.

    python3 benchmarks/bench_report.py [--repeat N]

Targets (issue 2): the whole report of the 9-class ordinal p-discounted scheme (511 sets x 9 classes,
irrational entries) in under 2 s on the 2-core machine, as a fresh `verify` process (imports included).
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
    # (spec, target seconds for the whole text report in a fresh process)
    ("specs/ordinal-l1-9.yaml", 2.0),
    ("specs/ha.yaml", 2.0),
]


def fresh_process(spec: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "verifier", spec], cwd=ROOT, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def in_process(spec: str) -> dict[str, float]:
    sys.path.insert(0, ROOT)
    from rich.console import Console

    from verifier.analysis import analyse_file
    from verifier.report_console import render

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
    print(f"{'spec':34} {'median s':>9} {'best s':>8} {'target':>7} {'ratio':>6} {'cells/s':>9}  in-process")
    for spec, target in TARGETS:
        times = [fresh_process(spec) for _ in range(args.repeat)]
        inner = in_process(spec)
        median = statistics.median(times)
        print(f"{spec:34} {median:9.3f} {min(times):8.3f} {target:7.1f} {median / target:6.2f} "
              f"{inner['cells'] / median:9.0f}  analysis {inner['analysis']:.3f} s, render {inner['render']:.3f} s")
    print("ratio = median / target; below 1.00 meets the target")


if __name__ == "__main__":
    main()
