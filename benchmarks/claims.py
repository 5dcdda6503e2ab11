"""Every speed claim the README and docs quote, measured again: claim, measured, verdict.

    python3 benchmarks/claims.py [--only WORD] [--repeat N] [--peer-python PATH]

Each claim names the file it is quoted in and the exact words quoted there; a claim whose words are no longer
in its file is reported as `stale` (the text changed, so this list must follow). Every measurement runs the
command users run: a fresh `verify` process, no cache, on this checkout (`python -m verifier`, imports
included), and reads the CPU time of that process and its children (`resource.getrusage`, the work done,
which a busy machine does not inflate as it does the wall time) beside the wall time. A claim is one of:

- a ratio between two commands measured side by side in this run (JSON against the console; the target is
  the issue's), which holds on any machine;
- an absolute figure of the 2-core machine quoted in the docs, checked to within 25 % of the CPU time here
  (`holds`), or reported as `higher` or `lower` with the measured value, which the quote should then be;
- a route that must be taken (decisions without a matrix at hundreds of classes), read off the JSON record.

Peers (setvaluedprediction, the authors' R code) are measured by their own benchmarks, which need their own
environments: with `--peer-python PATH`, `bench_family_decisions.py` runs; without it, those claims say
`not measured` and how to measure them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 0.25  # an absolute figure holds when the CPU time here is within 25 % of it
JSON_TARGET = 1.5  # issue 65's target for --format json against the console's CPU (not met at 9 and 10 classes)


@dataclass
class Measured:
    wall: float
    cpu: float
    stdout: str
    code: int


def run(argv: list[str], cwd: str = ROOT) -> Measured:
    """A fresh `verify` process: its wall time, the CPU time of it and its children, its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verifier", *argv], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, VERIFY_NO_CACHE="1"), check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"verify {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[:400]}")
    return Measured(wall, cpu, done.stdout, done.returncode)


def median_run(argv: list[str], repeat: int) -> Measured:
    runs = [run(argv) for _ in range(repeat)]
    cpu = statistics.median(r.cpu for r in runs)
    return Measured(statistics.median(r.wall for r in runs), cpu, runs[-1].stdout, runs[-1].code)


@dataclass
class Claim:
    where: str  # the file that quotes it
    quote: str  # the words quoted there, exactly
    measure: Callable[[argparse.Namespace, str], tuple[str, str]]  # (measured, verdict)


def _ordinal(K: int, folder: str) -> str:
    """The paper's ordinal p-discounted scheme (l1 costs, r = 1/2) on K classes, every set a prediction."""
    path = os.path.join(folder, f"ordinal-{K}.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"name: ordinal l1, p-discounted, {K} classes\nclasses: {K}\nparameters:\n  r: {{value: 0.5}}\n"
                     "cost: \"abs(rank(yhat) - rank(y))\"\nset_cost: \"genmean(1 - r, [c(yh, y) for yh in Y])\"\n")
    return path


def absolute(spec: str, quoted: float, kind: str = "cpu"):
    """An absolute figure of the 2-core machine: CPU seconds, or (`kind="wall"`) the median wall time of a quiet
    machine, as the docs' older tables quote."""
    def measure(args, _folder) -> tuple[str, str]:
        m = median_run([spec], args.repeat)
        ratio = (m.cpu if kind == "cpu" else m.wall) / quoted
        verdict = "holds" if abs(ratio - 1) <= TOLERANCE else ("higher" if ratio > 1 else "lower")
        return f"{m.cpu:.2f} s CPU, {m.wall:.2f} s wall: {ratio:.2f}x the quoted {kind} time", verdict
    return measure


def json_ratio(spec_of: Callable[[str], str], label: str, quoted: float, about: bool):
    """--format json against the console, side by side, the CPU of each: at most `quoted` times, or (`about`)
    within 25 % of it."""
    def measure(args, folder) -> tuple[str, str]:
        spec = spec_of(folder)
        console = median_run([spec], args.repeat)
        record = median_run([spec, "--format", "json"], args.repeat)
        ratio = record.cpu / console.cpu
        if about:
            verdict = "holds" if abs(ratio / quoted - 1) <= TOLERANCE else ("higher" if ratio > quoted else "lower")
        else:
            verdict = "holds" if ratio <= quoted else "fails"
        return f"{label}: console {console.cpu:.2f} s, JSON {record.cpu:.2f} s CPU: {ratio:.2f}x", verdict
    return measure


def matrix_free(K: int, family: str, route: str):
    """`verify decide --p-file` on alike costs at K classes: decided on the named route, no matrix built."""
    def measure(args, folder) -> tuple[str, str]:
        spec = os.path.join(folder, f"alike-{K}-{route}.yaml")
        with open(spec, "w", encoding="utf-8") as handle:
            handle.write(f"name: alike costs, {K} classes\nclasses: {K}\ncost: \"0 if yhat == y else 1\"\n"
                         f"set_cost: \"1 - 0.6 / len(Y) if y in Y else 1\"\npredictions: {family}\n")
        rows = os.path.join(folder, f"p-{K}.npy")
        if not os.path.exists(rows):
            np.save(rows, np.random.default_rng(K).dirichlet(np.ones(K), size=1000))
        m = run(["decide", spec, "--p-file", rows, "--format", "json"])
        taken = json.loads(m.stdout).get("route")
        return f"route {taken!r}, 1,000 rows in {m.cpu:.1f} s CPU", "holds" if taken == route else "fails"
    return measure


SEVERITY_OPEN = ("name: severity open\nclasses: [none, mild, moderate, severe]\ncost_matrix:\n  none: [0, 1, 2, 3]\n"
                 "  mild: [2, 0, 1, 2]\n  moderate: [4, 2, 0, 1]\n  severe: [6, 4, 2, 0]\n")


def design_cpu(quoted: float):
    """`verify design` of four classes with every set row open (44 cells), for the choice setting: CPU seconds."""
    def measure(args, folder) -> tuple[str, str]:
        spec = os.path.join(folder, "severity-open.yaml")
        with open(spec, "w", encoding="utf-8") as handle:
            handle.write(SEVERITY_OPEN)
        runs = [run(["design", spec, "--setting", "choice"]) for _ in range(args.repeat)]
        cpu = statistics.median(r.cpu for r in runs)
        verdict = "holds" if abs(cpu / quoted - 1) <= TOLERANCE else ("higher" if cpu > quoted else "lower")
        return f"{cpu:.2f} s CPU: {cpu / quoted:.2f}x the quoted {quoted:g} s", verdict
    return measure


def bench_total(script: str, line: str, total: float, slowest: float):
    """A benchmark script's line "... N s in all, at most M s a scheme": both within 25 % of the quoted ones
    (one run: the script takes minutes)."""
    def measure(_args, _folder) -> tuple[str, str]:
        done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", script)], capture_output=True,
                              text=True, check=False)
        found = [x for x in done.stdout.splitlines() if x.startswith(line)]
        if not found:
            return done.stderr.strip()[-300:] or "no such line", "fails"
        numbers = [float(w) for w in found[0].replace(",", "").split() if w.replace(".", "").isdigit()]
        measured_total, measured_max = numbers[-2], numbers[-1]
        ok = all(abs(m / q - 1) <= TOLERANCE or m < q for m, q in ((measured_total, total), (measured_max, slowest)))
        return found[0], "holds" if ok else "higher"
    return measure


def peer(bench: str):
    def measure(args, _folder) -> tuple[str, str]:
        if not args.peer_python:
            return f"needs the peer's environment: python3 benchmarks/{bench} --peer-python PATH", "not measured"
        done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", bench), "--peer-python",
                               args.peer_python], capture_output=True, text=True, check=False)
        return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-300:], "see"
    return measure


CLAIMS = [
    Claim("README.md", "verify specs/large/ordinal-intervals-100.yaml  # 100 ordered classes, intervals: 6.4 s of CPU",
          absolute("specs/large/ordinal-intervals-100.yaml", 6.4)),
    Claim("docs/paper.md", "measured the 100-class intervals' `verify` at 4.8 s wall",
          absolute("specs/large/ordinal-intervals-100.yaml", 4.8, "wall")),
    Claim("docs/paper.md", "measured the K = 9 compact report at 0.84 s wall",
          absolute("specs/ordinal-l1-9.yaml", 0.84, "wall")),
    *[Claim("docs/verify.md", "about the console's CPU up to 6 classes",
            json_ratio(lambda folder, K=K: _ordinal(K, folder), f"K = {K}", JSON_TARGET, False)) for K in (2, 4, 6)],
    Claim("docs/verify.md", "1.4 times at 8", json_ratio(lambda folder: _ordinal(8, folder), "K = 8", 1.4, True)),
    Claim("docs/verify.md", "2.5\n  times at 9", json_ratio(lambda folder: _ordinal(9, folder), "K = 9", 2.5, True)),
    Claim("docs/verify.md", "about 4.3 times at 10",
          json_ratio(lambda folder: _ordinal(10, folder), "K = 10", 4.3, True)),
    *[Claim("docs/verify.md", "from 11 classes on, at most 1.5 times the console's CPU",
            json_ratio(lambda folder, K=K: _ordinal(K, folder), f"K = {K}", JSON_TARGET, False))
      for K in range(11, 17)],
    Claim("docs/verify.md", "about 1.5 times on the 100-class intervals",
          json_ratio(lambda _f: "specs/large/ordinal-intervals-100.yaml", "100-class intervals", 1.5, True)),
    *[Claim("docs/specs.md", "so it reads\nany `{max_size: k}`, hierarchy or intervals family of up to 1,000 classes",
            matrix_free(K, family, route)) for K in (100, 300, 1000)
      for family, route in (("intervals", "intervals"), ("{max_size: 3}", "symmetric"))],
    Claim("docs/decide-evaluate.md", "measured 2.4 and 4.2 times ours for the whole process",
          peer("bench_family_decisions.py")),
    Claim("docs/design.md",
          "Four classes with every set row open (44 cells, the\nchoice setting) take about 3 s of CPU",
          design_cpu(3.0)),
    Claim("docs/how-verdicts-are-decided.md", "0 of 159 pieces undecided, 105 s in all and at most 18 s a scheme",
          bench_total("bench_optimality_conditions.py", "2 parameter(s)", 105, 18)),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="the claims whose file or quote contains this word")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per command (the median)")
    parser.add_argument("--peer-python", help="an interpreter with setvaluedprediction and PyTorch")
    args = parser.parse_args()
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        for claim in CLAIMS:
            if args.only and args.only not in claim.where + claim.quote:
                continue
            with open(os.path.join(ROOT, claim.where), encoding="utf-8") as handle:
                text = handle.read()
            quoted = " ".join(claim.quote.split()) in " ".join(text.split())  # wrapped lines alike
            measured, verdict = claim.measure(args, folder) if quoted else ("(not run)", "stale")
            counts[verdict] = counts.get(verdict, 0) + 1
            print(f"{claim.where}: \"{' '.join(claim.quote.split())}\"\n    measured: {measured}\n    {verdict}",
                  flush=True)
    print(", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
