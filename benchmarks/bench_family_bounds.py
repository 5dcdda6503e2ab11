"""Restricted families at the cell bound (`family.MAX_FAMILY_CELLS`): what the default --time-limit (600 s) and
a 4 GiB machine must finish. Each case is `verify SPEC --format json --no-cache` in a fresh process: its wall
time, CPU time and peak resident memory (the work runs in the command's capped child; the peak is the
largest process's), against the targets 600 s and 4 GiB (target / measured; >= 1 met), and the memory per cell
above a small spec's peak (the interpreter and its libraries) against the target of about 100 bytes a cell
(issue 41). docs/specs.md states the figures measured with it; on 2026-11-27 (a 2-core machine shared with other
agents) every measured case met 600 s and 4 GiB, and the bytes a cell were 98 (intervals-215), 72 (pairs-200),
96 (max3-60) and 104 (tree-1000), about the aim of 100 (they were 131, 108, 133 and 167 that morning).

    python3 benchmarks/bench_family_bounds.py [CASE ...]

Cases: intervals-200 (20,100 sets, 4.0 M cells), intervals-215 (23,220 sets, 5.0 M cells: the bound),
tree-1000 (a binary hierarchy of 1,000 leaves: 1,999 sets, 2.0 M cells), max3-60 ({max_size: 3} of 60
classes: 36,050 sets, 2.2 M cells), pairs-200 ({max_size: 2} of 200: 4.0 M cells), sets-45 (100,000 listed
sets of 45 classes, 4.5 M cells).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_inputs import many_sets  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_TARGET_S, MEMORY_TARGET_MB, CELL_TARGET_BYTES = 600.0, 4096.0, 100.0
CELLS = {"intervals-200": 4_020_000, "intervals-215": 4_992_300, "tree-1000": 1_999_000, "max3-60": 2_163_000,
         "pairs-200": 4_020_000, "sets-45": 4_500_000}


def intervals(K: int) -> str:
    return (f"name: ordinal intervals {K}\nclasses: {K}\nparameters:\n  r: {{value: 0.5}}\n"
            'cost: "abs(rank(yhat) - rank(y))"\nset_cost: "genmean(1 - r, [c(yh, y) for yh in Y])"\n'
            "predictions: intervals\nsetting: choice\n")


def tree(leaves: int) -> str:
    def build(lo: int, hi: int) -> str:  # classes lo..hi-1 as a balanced binary tree of flow lists
        if hi - lo == 1:
            return str(lo + 1)
        mid = (lo + hi) // 2
        return f"[{build(lo, mid)}, {build(mid, hi)}]"
    return "\n".join([f"name: binary tree {leaves}", f"classes: {leaves}", "parameters: {delta: {value: 0.0004}}",
                      'cost: "0 if y == yhat else 1 + rank(y) / K"',
                      'set_cost: "(0 if y in Y else 1 + rank(y) / K) + delta * (len(Y) - 1)"', "predictions:",
                      "  hierarchy:", "    " + build(0, leaves)]) + "\n"


CASES = {
    "intervals-200": lambda: intervals(200),
    "intervals-215": lambda: intervals(215),
    "tree-1000": lambda: tree(1000),
    "max3-60": lambda: ('name: max3\nclasses: 60\ncost: "abs(rank(yhat) - rank(y))"\n'
                        'set_cost: "genmean(0.5, [c(yh, y) for yh in Y])"\npredictions: {max_size: 3}\n'),
    "pairs-200": lambda: ('name: u65 pairs\nclasses: 200\nfunctions: {g(x): "-0.6 * x**2 + 1.6 * x"}\n'
                          'cost: "0 if y == yhat else 1"\nset_cost: "1 - g(1 / len(Y)) if y in Y else 1"\n'
                          "predictions: {max_size: 2}\n"),
    "sets-45": None,
}


def _run(path: str) -> tuple[float, float, float, int]:
    """Wall and CPU seconds, peak MB and exit status of `verify PATH --format json` in a fresh process."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "verifier", path, "--format", "json", "--no-cache"], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status))


def main() -> None:
    names = sys.argv[1:] or list(CASES)
    work = tempfile.mkdtemp(prefix="verify-bounds-")
    base = _run(os.path.join(ROOT, "specs", "hierarchy-animals.yaml"))[2]  # the interpreter and its libraries
    print(f"base peak {base:.0f} MB (a small spec)")
    print(f"{'case':16} {'wall s':>8} {'cpu s':>8} {'ratio':>6} {'peak MB':>8} {'ratio':>6} {'B/cell':>7} {'ratio':>6} "
          f"{'exit':>5}")
    for name in names:
        path = os.path.join(work, f"{name}.yaml")
        if CASES[name] is None:
            many_sets(path)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(CASES[name]())
        wall, cpu, peak, code = _run(path)
        per_cell = (peak - base) * 2**20 / CELLS[name]
        print(f"{name:16} {wall:8.1f} {cpu:8.1f} {TIME_TARGET_S / wall:6.2f} {peak:8.0f} "
              f"{MEMORY_TARGET_MB / peak:6.2f} {per_cell:7.0f} {CELL_TARGET_BYTES / per_cell:6.2f} {code:5d}")


if __name__ == "__main__":
    main()
