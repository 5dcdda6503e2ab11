"""Which sets can be optimal, beyond 1,023 sets (issue 41, item 4): the time and peak memory of every set's
alone / tied / never, re-check included, in a fresh process per case (`verify SPEC --format json`, whose JSON
holds it; the analysis alone is timed first with the compact report, which does not compute it).

    python3 benchmarks/bench_optimality.py [CASE ...]

Cases: intervals-100 (specs/large/ordinal-intervals-100.yaml: 5,050 sets of 100 classes, irrational cells,
batch by batch), max5-1000 (u65 capped at 5 classes of 1,000, by symmetry: one status per size), tree-1000 (a
binary hierarchy of 1,000 leaves: 1,999 sets of 1,000 classes). Prints each case's seconds for the compact
report and for the JSON, the JSON's peak memory, and the counts of alone / tied / never / unknown.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_family_bounds import tree  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
U65 = ('name: u65 capped\nclasses: 1000\ncost: "0 if yhat == y else 1"\n'
       'set_cost: "1 - (-0.6 * (1 / len(Y)) ** 2 + 1.6 / len(Y)) if y in Y else 1"\npredictions: {max_size: 5}\n')
CASES = {"intervals-100": None, "max5-1000": U65, "tree-1000": tree(1000)}


def run(path: str, *options: str) -> tuple[float, str, float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", path, "--no-cache", *options], cwd=ROOT,
                          capture_output=True, text=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return time.perf_counter() - start, done.stdout, peak


def main() -> None:
    names = sys.argv[1:] or list(CASES)
    print(f"{'case':14} {'compact s':>10} {'json s':>8} {'peak MB':>8}  counts")
    for name in names:
        text = CASES[name]
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(ROOT, "specs", "large", "ordinal-intervals-100.yaml")
            if text is not None:
                path = os.path.join(folder, f"{name}.yaml")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
            compact, _, _ = run(path)
            full, out, peak = run(path, "--format", "json")
        counts = Counter(e["status"] for e in json.loads(out)["optimality"]) if out else {}
        print(f"{name:14} {compact:10.1f} {full:8.1f} {peak:8.0f}  {dict(counts)}")


if __name__ == "__main__":
    main()
