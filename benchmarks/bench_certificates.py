"""Certificates of the bundled specs (issue 63): the time to write one (`Report.certificate()`, CPU seconds after
the analysis), its size, and the CPU time of the standalone checker on it (`python3 -S -B verifier_check CERT`, a
fresh process), beside the figures of the version 1 format, measured on the same 2-core machine on 2026-12-02 at
commit 57a63a9 (the matrix carried, every verdict over parameters `not covered`). The target of the issue: the
checker re-checks `ordinal-l1-9`'s certificate in under 2x what it took (ratio = 2 x before / now; >= 1 met).

    python3 benchmarks/bench_certificates.py [SPEC ...]

Measured on 2026-12-02 (quiet machine): ordinal-l1-9 re-checked in 2.9 s of CPU (3.17 s before: ratio 2.2, met),
its certificate 208 KB (2.9 MB before), written in 1.8 s (2.4 s); every bundled spec 0 not covered (ha.yaml 5,
ordinal-l1-40 6 before; ordinal-intervals-100 refused before, now 4.6 KB checked in 0.33 s by the lemmas);
writing takes longer where verdicts over parameters now carry proofs (ha 0.003 s to 0.23 s, the multipliers
found by z3).
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# version 1 (commit 57a63a9): write CPU s, bytes, check CPU s, the checker's count
BEFORE = {
    "abellan-masegosa": (0.035, 9469, 0.04, "13 checked, 0 refuted, 0 not covered"),
    "accuracy-f1": (0.002, 3402, 0.04, "13 checked, 0 refuted, 0 not covered"),
    "accuracy-f2": (0.002, 3402, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "accuracy-u65-pairs": (0.004, 9411, 0.04, "13 checked, 0 refuted, 0 not covered"),
    "accuracy-u65": (0.001, 3418, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "accuracy-u80": (0.001, 3409, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "ha-delta-eta": (0.007, 8920, 0.03, "11 checked, 0 refuted, 4 not covered"),
    "ha-delta": (0.008, 7884, 0.03, "11 checked, 0 refuted, 4 not covered"),
    "friedel-abstention-symbolic": (0.003, 5761, 0.03, "11 checked, 0 refuted, 3 not covered"),
    "friedel-abstention": (0.001, 2147, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "ha-numeric": (0.003, 3520, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "ha": (0.003, 6519, 0.03, "7 checked, 0 refuted, 5 not covered"),
    "hierarchy-animals": (0.003, 6946, 0.04, "12 checked, 0 refuted, 0 not covered"),
    "obstacle-discounted": (0.016, 5221, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "obstacle-hand-filled": (0.002, 3574, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "obstacle-p-discounted-averse": (0.005, 4249, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "obstacle-p-discounted-cautious": (0.003, 3559, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "ordinal-intervals-10": (0.072, 293866, 0.23, "13 checked, 0 refuted, 0 not covered"),
    "ordinal-l1-40": (0.071, 187380, 0.09, "5 checked, 0 refuted, 6 not covered"),
    "ordinal-l1-9": (2.369, 2883079, 3.17, "13 checked, 0 refuted, 0 not covered"),
    "p-discounted-symbolic": (0.015, 11445, 0.04, "13 checked, 0 refuted, 4 not covered"),
    "table-vi": (0.001, 2090, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "table-vii": (0.001, 2183, 0.03, "13 checked, 0 refuted, 0 not covered"),
    "ordinal-intervals-100": (None, None, None, "refused: 505,000 cells, beyond the 100,000 a certificate carried"),
}


def measure(path: str) -> tuple[float, int, float, str]:
    """(write CPU s, bytes, check CPU s, the checker's count) for one spec, from the repository root."""
    sys.path.insert(0, ROOT)
    import verifier

    report = verifier.verify(path, cache=False)
    began = time.process_time()
    cert = report.certificate()
    took = time.process_time() - began
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        handle.write(json.dumps(cert, indent=1) + "\n")
    try:
        run = subprocess.run(["/usr/bin/time", "-f", "%U %S", sys.executable, "-S", "-B",
                              os.path.join(ROOT, "verifier_check"), handle.name], capture_output=True, text=True)
        user, system = map(float, run.stderr.split()[-2:])
        return took, os.path.getsize(handle.name), user + system, run.stdout.strip().splitlines()[-1].split(": ", 1)[1]
    finally:
        os.unlink(handle.name)


def main(names: list[str]) -> None:
    os.chdir(ROOT)
    paths = [p for p in sorted(glob.glob("specs/*.yaml") + glob.glob("specs/large/*.yaml") +
                               glob.glob("specs/design/ha-*.yaml")) if not names or
             os.path.basename(p)[:-5] in names]
    print(f"{'spec':32} {'write s':>8} {'before':>7} {'bytes':>9} {'before':>9} {'check s':>8} {'before':>7}  count")
    for path in paths:
        name = os.path.basename(path)[:-5]
        write, size, check, count = measure(path)
        w0, s0, c0, count0 = BEFORE.get(name, (None, None, None, "?"))
        print(f"{name:32} {write:8.3f} {w0 if w0 is not None else '-':>7} {size:9,} {s0 or '-':>9} {check:8.2f} "
              f"{c0 if c0 is not None else '-':>7}  {count} (before: {count0})")
        if name == "ordinal-l1-9":
            print(f"  target: re-checked in under 2x before: ratio {2 * c0 / check:.2f} (>= 1 met)")


if __name__ == "__main__":
    main(sys.argv[1:])
