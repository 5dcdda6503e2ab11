"""The paths users take, measured as they run them: a fresh `verify` process each time (imports included),
the median of a few runs, the peak memory, and the ratio to each target (target / measured; >= 1 met).

    python3 benchmarks/bench_user_paths.py [--repeat N] [--quick]

Paths: `verify SPEC` (the compact console), `-v` (the full report), `--format json`, `--report DIR`,
`verify specs/` (a directory), a cached re-run of an unchanged spec, and `--help`, `--version`, `explain`,
`schema`. Schemes: ordinal l1 costs with p-discounted sets (r = 1/2) at K = 9, 12 and 16, generated into a
temporary directory. The class sweep (`--classes`) is measured in full by bench_classes.py; here its K = 9
run is timed beside the full K = 9 paths, each of which should take at most twice as long. Batch and credal
decisions are measured by bench_decisions.py. Targets are the issue's, for a quiet 2-core machine.
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
SPEC = """name: Ordinal l1 costs on {K} classes, p-discounted (r = 1/2)
classes: {K}
parameters:
  r: {{value: 0.5}}
cost: "abs(rank(yhat) - rank(y))"
set_cost: "genmean(1 - r, [c(yh, y) for yh in Y])"
setting: choice
"""
WRAP = ("import resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "wall = time.perf_counter() - start\n"
        "print(done.returncode, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def measure(argv: list[str], env: dict, repeat: int) -> tuple[float, float]:
    """(median wall seconds, peak MB) of a fresh process running `verify ARGV`."""
    walls, peak = [], 0.0
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", WRAP, sys.executable, "-m", "verifier", *argv], cwd=ROOT,
                             env=env, capture_output=True, text=True, check=True).stdout.split()
        code, wall, rss = int(out[0]), float(out[1]), int(out[2])
        if code not in (0, 1):
            raise SystemExit(f"verify {' '.join(argv)} exited {code}")
        walls.append(wall)
        peak = max(peak, rss / 1024)
    return statistics.median(walls), peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="skip K = 16 (minutes)")
    args = parser.parse_args()
    # as an installed tool runs: its modules' bytecode cached (pip compiles on install; an editable install
    # compiles on first import unless PYTHONDONTWRITEBYTECODE is set, as on some CI machines)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "verifier")], check=True,
                   capture_output=True)
    work = tempfile.mkdtemp(prefix="verify-bench-")
    env = dict(os.environ, VERIFY_CACHE_DIR=os.path.join(work, "cache"), PYTHONHASHSEED="0")
    specs = {}
    for K in (9, 12) + (() if args.quick else (16,)):
        specs[K] = os.path.join(work, f"ordinal-{K}.yaml")
        with open(specs[K], "w", encoding="utf-8") as handle:
            handle.write(SPEC.format(K=K))
    rows = [  # (label, argv, target seconds or None, memory target MB or None)
        ("verify --help", ["--help"], 0.3, None),
        ("verify --version", ["--version"], 0.3, None),
        ("verify explain P4", ["explain", "P4"], 0.3, None),
        ("verify schema", ["schema"], 0.3, None),
        ("K=9 verify SPEC (compact)", [specs[9], "--no-cache"], 0.6, None),
        ("K=9 verify -v SPEC", [specs[9], "--no-cache", "-v"], None, None),
        ("K=9 --format json", [specs[9], "--no-cache", "--format", "json"], None, None),
        ("K=9 --report DIR", [specs[9], "--no-cache", "--report", os.path.join(work, "reports-9")], None, None),
        ("K=12 verify SPEC (compact)", [specs[12], "--no-cache"], None, None),
        ("K=12 --format json", [specs[12], "--no-cache", "--format", "json"], 2.0, None),
        ("K=12 --report DIR", [specs[12], "--no-cache", "--report", os.path.join(work, "reports")], 2.0, None),
        ("verify specs/ (bundled)", [os.path.join(ROOT, "specs"), "--no-cache"], None, None),
    ]
    if 16 in specs:
        rows.append(("K=16 --format json", [specs[16], "--no-cache", "--format", "json"], 20.0, 2048.0))
    print(f"{'path':34} {'median s':>9} {'peak MB':>8} {'target':>7} {'ratio':>6}")
    walls = {}
    for label, argv, target, memory in rows:
        wall, peak = measure(argv, env, args.repeat)
        walls[label] = wall
        _row(label, wall, peak, target, memory)
    # the last target: no user path more than twice as slow as the path the benchmark used to measure,
    # the class sweep (`--classes 9`, verdicts only), timed here in the same run
    sweep, _ = measure(["--classes", "9", specs[9], "--no-cache", "--format", "json"], env, args.repeat)
    print(f"K=9 class sweep (--classes 9): {sweep:.2f} s; each full K=9 path against twice that:")
    for label in ("K=9 verify SPEC (compact)", "K=9 verify -v SPEC", "K=9 --format json", "K=9 --report DIR"):
        print(f"  {label:32} {walls[label] / sweep:5.2f}x the sweep  ratio {2 * sweep / walls[label]:.2f}")
    subprocess.run([sys.executable, "-m", "verifier", specs[9]], cwd=ROOT, env=env, capture_output=True)  # fill
    wall, peak = measure([specs[9]], env, args.repeat)
    _row("K=9 cached re-run", wall, peak, 0.25, None)
    start = time.perf_counter()
    print(f"(measured in {work}; whole run {time.perf_counter() - start:.0f} s after the table)")


def _row(label: str, wall: float, peak: float, target: float | None, memory: float | None) -> None:
    ratio = "" if target is None else f"{target / wall:.2f}"
    extra = "" if memory is None else f"  memory target {memory:.0f} MB: ratio {memory / peak:.2f}"
    print(f"{label:34} {wall:9.2f} {peak:8.0f} {'' if target is None else f'{target:.2f}':>7} {ratio:>6}{extra}")


if __name__ == "__main__":
    main()
