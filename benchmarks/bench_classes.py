"""Class scaling, measured (not asserted): the tool and a plain exact sympy reference (`reference.py`), in the
same run and the same process tree, on two formula families at K classes:

- ordinal: c_i(j) = |i - j|, sets by the generalized mean with exponent 1 - r, r = 1/2 (Eq. 14; irrational);
- ha: Ha's rule, a miss costs eta(y) = 1 + rank(y) (ranks from 0), every extra class delta = 1/5 (rational).

    python3 benchmarks/bench_classes.py [--reference-up-to 12] [--tool-up-to 16] [--families ordinal,ha]

Each measurement is a fresh child process (imports included) that reports its wall time and peak resident
memory. The table gives both, the reference/tool ratio and the tool's cells per second (2^K - 1 sets x K
classes), and whether the two agree on P1-P10; then the start-up time of a process that only loads the command,
and each target as a ratio (>= 1 met). Targets (2-core machine): K = 9 at least 20x faster than the reference;
K = 12 under 5 s; K = 16 under 60 s and 2 GiB.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))

SPECS = {
    "ordinal": """\
name: ordinal l1, p-discounted r = 1/2
classes: 4
parameters:
  r: {value: 0.5}
cost: "abs(rank(yhat) - rank(y))"
set_cost: "genmean(1 - r, [c(yh, y) for yh in Y])"
""",
    "ha": """\
name: Ha's rule, eta(y) = 1 + rank(y), delta = 1/5
classes: 4
functions:
  eta(z): "1 + rank(z)"
cost: "0 if yhat == y else eta(y)"
set_cost: "(0 if y in Y else eta(y)) + 1/5 * (len(Y) - 1)"
""",
}


def one(kind: str, family: str, K: int) -> dict:
    """Run one measurement in this (child) process; print and return its record."""
    start = time.perf_counter()
    if kind == "reference":
        sys.path.insert(0, HERE)
        import reference

        verdicts = {pid: "holds" if ok else "fails" for pid, ok in reference.run(family, K).items()}
    else:
        sys.path.insert(0, ROOT)
        import io

        from verifier.cli import check

        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as handle:
            handle.write(SPECS[family])
        out, err = io.StringIO(), io.StringIO()
        try:
            code = check([handle.name, "--classes", str(K), "--no-cache", "--format", "json"], out, err)
        finally:
            os.unlink(handle.name)
        if code not in (0, 1):
            return {"error": err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else f"exit {code}"}
        record = json.loads(out.getvalue())
        verdicts = record["verdicts"][str(K)]
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak_mb, "verdicts": verdicts}


def measure(kind: str, family: str, K: int, timeout: float) -> dict:
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, __file__, "--one", kind, family, str(K)], capture_output=True,
                              text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:80]}
    record = json.loads(done.stdout.strip().splitlines()[-1])
    record["wall"] = time.perf_counter() - start  # the child's whole life: interpreter start and imports too
    return record


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference-up-to", type=int, default=12)
    parser.add_argument("--tool-up-to", type=int, default=16)
    parser.add_argument("--families", default="ordinal,ha")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per measurement")
    parser.add_argument("--one", nargs=3, metavar=("KIND", "FAMILY", "K"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, family, K = args.one
        print(json.dumps(one(kind, family, int(K))))
        return
    print(f"{'family':8} {'K':>3} {'cells':>8} {'tool s':>8} {'tool MB':>8} {'ref s':>8} {'ref MB':>7} "
          f"{'ref/tool':>8} {'cells/s':>9}  verdicts")
    seen: dict[tuple[str, int], tuple[dict, dict | None]] = {}
    for family in args.families.split(","):
        for K in range(4, args.tool_up_to + 1):
            cells = (2 ** K - 1) * K
            tool = measure("tool", family, K, args.timeout)
            ref = measure("reference", family, K, args.timeout) if K <= args.reference_up_to else None
            seen[(family, K)] = (tool, ref)
            print(_row(family, K, cells, tool, ref), flush=True)
    _targets(seen, args.families.split(","))


def _startup() -> float:
    """A fresh process that only loads the command (what every measurement above pays before any work)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import verifier.cli"], cwd=ROOT, check=True)
    return time.perf_counter() - start


def _targets(seen: dict, families: list[str]) -> None:
    """The issue's targets as ratios (>= 1 means met)."""
    print(f"\nstartup (python -c 'import verifier.cli'): {_startup():.2f} s")
    for family in families:
        tool, ref = seen.get((family, 9), ({}, None))
        if ref and "error" not in ref and "error" not in tool:
            ratio = ref["wall"] / tool["wall"]
            print(f"{family}: K = 9 speed-up {ratio:.1f}x, target 20x: ratio {ratio / 20:.2f}")
        tool, _ = seen.get((family, 12), ({}, None))
        if tool and "error" not in tool:
            print(f"{family}: K = 12 {tool['wall']:.2f} s, target 5 s: ratio {5 / tool['wall']:.2f}")
        tool, _ = seen.get((family, 16), ({}, None))
        if tool and "error" not in tool:
            print(f"{family}: K = 16 {tool['wall']:.2f} s and {tool['peak_mb']:.0f} MB, targets 60 s and 2048 MB: "
                  f"ratios {60 / tool['wall']:.2f} and {2048 / tool['peak_mb']:.2f}")


def _row(family: str, K: int, cells: int, tool: dict, ref: dict | None) -> str:
    def cell(record, key, fmt):
        width = int(fmt.split(".")[0])
        return "-".rjust(width) if record is None or "error" in record else format(record[key], fmt)

    ratio = (f"{ref['wall'] / tool['wall']:.2f}" if ref and tool and "error" not in ref and "error" not in tool
             else "-")
    rate = f"{cells / tool['wall']:.0f}" if "error" not in tool else "-"
    if "error" in tool:
        agree = f"tool: {tool['error'].removeprefix('verify: ')}"
    elif ref is None or "error" in ref:
        agree = "" if ref is None else f"reference: {ref['error']}"
    else:
        differ = sorted(p for p in ref["verdicts"] if tool["verdicts"].get(p) != ref["verdicts"][p])
        agree = "agree" if not differ else "DIFFER on " + ", ".join(differ)
    return (f"{family:8} {K:3d} {cells:8d} {cell(tool, 'wall', '8.2f')} {cell(tool, 'peak_mb', '8.0f')} "
            f"{cell(ref, 'wall', '8.2f')} {cell(ref, 'peak_mb', '7.0f')} {ratio:>8} {rate:>9}  {agree}")


if __name__ == "__main__":
    main()
