"""Decisions over restricted families at the size of real label spaces (issue 41, item 2), measured as users run
them: a fresh `verify decide SPEC --p-file FILE` process each (imports included, no cache), the median wall time
of a few runs and its peak memory (the child's maximum resident set).

    python3 benchmarks/bench_family_decisions.py [--repeat N] [--rows N] [--generic]

- `{max_size: 5}` at K = 1,000 (8.3 trillion allowed sets, far beyond the family bounds: the matrix is never
  built), u65 costs, 10,000 rows;
- a 1,000-leaf hierarchy (10 x 10 x 10, 111 nodes), u65 costs, 10,000 rows (one pass over the tree per row);
- `--generic`: the decisions alone, in process, and the same hierarchy through the family's whole 1,111 x 1,000
  matrix (the route before);
- setvaluedprediction (Mortier et al.; module `svp`) side by side on the same rows when it is importable and
  its API is recognised; otherwise the run says it was skipped. It is not a dependency and is not vendored.

Every run checks the answer: the `{max_size: 5}` predictions are compared with a plain float re-computation of
the same rule (the best set of each size is the likeliest classes), and both families' routes are named.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
U65 = "functions: {g(x): \"-0.6 * x**2 + 1.6 * x\"}\ncost: \"0 if y == yhat else 1\"\n" \
      "set_cost: \"1 - g(1 / len(Y)) if y in Y else 1\"\n"


def fresh(argv: list[str], repeat: int) -> tuple[float, float, str]:
    """Median wall time, peak resident memory (MB) and the standard output of `verify ARGV`, each run fresh."""
    walls, peak, out = [], 0.0, ""
    for _ in range(repeat):
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            start = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-m", "verifier", *argv], cwd=ROOT, stdout=stdout,
                                     stderr=stderr, env=dict(os.environ, VERIFY_NO_CACHE="1", PYTHONPATH=ROOT))
            _, status, usage = os.wait4(child.pid, 0)
            walls.append(time.perf_counter() - start)
            peak = max(peak, usage.ru_maxrss / 1024)
            stdout.seek(0)
            stderr.seek(0)
            out = stdout.read().decode()
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"verify {' '.join(argv)} failed: {stderr.read().decode()[:400]}")
    return statistics.median(walls), peak, out


def max_size_spec(path: str, K: int, k: int) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"name: u65 on sets of at most {k} of {K} classes\nclasses: {K}\n{U65}"
                     f"predictions: {{max_size: {k}}}\n")


def hierarchy_spec(path: str) -> None:
    lines = ["name: u65 on a balanced hierarchy of 1000 leaves", "classes: 1000", U65.rstrip("\n"), "predictions:",
             "  hierarchy:"]
    leaf = 1
    for a in range(10):
        lines.append(f"    g{a}:")
        for b in range(10):
            lines.append(f"      g{a}_{b}: [{', '.join(str(leaf + i) for i in range(10))}]")
            leaf += 10
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def rows(path: str, K: int, n: int) -> np.ndarray:
    """Peaked rows, as a trained classifier's: a Dirichlet with small concentration (a few likely classes)."""
    P = np.random.default_rng(1).dirichlet(np.full(K, 0.05), size=n)
    np.save(path, P)
    return P


def expected_max_size(P: np.ndarray, k: int) -> list[list[int]]:
    """The same rule in floats: the best of the top-n sets, n = 1..k, u65 (1-based class names)."""
    g = lambda x: -0.6 * x * x + 1.6 * x  # noqa: E731
    out = []
    for p in P:
        order = np.argsort(-p, kind="stable")
        mass = np.cumsum(p[order])[:k]
        values = [1 - g(1 / n) * mass[n - 1] for n in range(1, k + 1)]
        best = int(np.argmin(values)) + 1
        out.append(sorted(int(c) + 1 for c in order[:best]))
    return out


def peer(P: np.ndarray, k: int) -> tuple[str, float | None]:
    """setvaluedprediction's size-capped prediction on the same rows, when importable; else why it was skipped."""
    if importlib.util.find_spec("svp") is None:
        return "skipped: setvaluedprediction (module svp) is not importable here", None
    try:
        from svp.multiclass import SVPClassifier  # noqa: F401 - the peer predicts from a fitted model
    except Exception as exc:  # noqa: BLE001 - any failure means no side-by-side run, said in the output
        return f"skipped: setvaluedprediction is installed but its API was not recognised ({exc})", None
    return ("skipped: setvaluedprediction predicts from its own fitted model, not from given rows; wire its "
            "size-capped search here to compare on the same rows"), None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--generic", action="store_true", help="also time the hierarchy through its whole matrix")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        P = rows(os.path.join(tmp, "p.npy"), 1000, args.rows)
        top5, tree = os.path.join(tmp, "top5.yaml"), os.path.join(tmp, "tree.yaml")
        max_size_spec(top5, 1000, 5)
        hierarchy_spec(tree)
        for name, spec in (("{max_size: 5}, K = 1,000", top5), ("1,000-leaf hierarchy", tree)):
            wall, peak, out = fresh(["decide", spec, "--p-file", os.path.join(tmp, "p.npy"), "--format", "json"],
                                    args.repeat)
            record = json.loads(out)
            if spec == top5:
                assert [sorted(int(c) for c in p) for p in record["predictions"]] == expected_max_size(P, 5)
            print(f"{name}: {args.rows:,} rows in {wall:.2f} s (median of {args.repeat}), peak {peak:,.0f} MB, "
                  f"route {record['route']}, {record['rows_decided_exactly_one_by_one']} rows decided in integers")
        said, seconds = peer(P, 5)
        print(f"setvaluedprediction: {said}" if seconds is None else f"setvaluedprediction: {seconds:.2f} s")
        if args.generic:
            in_process(P, top5, tree)


def in_process(P: np.ndarray, top5: str, tree: str) -> None:
    """The decisions alone (rows read, no imports, no output), by the routes without the matrix and, for the
    hierarchy, by the generic product over the family's whole 1,111 x 1,000 matrix (the route before)."""
    sys.path.insert(0, ROOT)
    from verifier.analysis.pipeline import build
    from verifier.api.entry import load
    from verifier.using.batch import _vectorised
    from verifier.using.binary_sums import fast_binary_rows
    from verifier.using.family_decide import alike_route

    blocks = [fast_binary_rows(P[s:s + 1000])[0] for s in range(0, len(P), 1000)]
    for name, spec in (("{max_size: 5}", top5), ("hierarchy", tree)):
        start = time.perf_counter()
        route = alike_route(load(spec))
        made = time.perf_counter()
        for block in blocks:
            route.decide(block)
        print(f"in process, {name}: the route in {made - start:.2f} s, {len(P):,} rows in "
              f"{time.perf_counter() - made:.2f} s")
    scheme = build(load(tree))
    start = time.perf_counter()
    for block in blocks:
        _vectorised(scheme, block)
    print(f"in process, hierarchy by the generic product over its matrix: {len(P):,} rows in "
          f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
