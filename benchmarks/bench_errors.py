"""How long an invalid spec waits for its message: a fresh `verify` process per run (interpreter start and
imports included), the median wall time, and the ratio to the 0.2 s target (target / measured; >= 1 met). Also
which heavy libraries the process loaded (none may be: reading and validating a spec loads no solver).

    python3 benchmarks/bench_errors.py [--repeat N]

The runs use compiled bytecode, as an installed package has: a first run writes it into a temporary
PYTHONPYCACHEPREFIX (never into the source tree), and that run is not timed. Each spec below is invalid in a
different place: a YAML syntax error, a bare parameter value, an unknown key, a formula error with a caret.
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
TARGET_S = 0.2
HEAVY = ("sympy", "z3", "scipy", "matplotlib", "numpy", "mpmath", "flint", "rich")
SPECS = {
    "yaml syntax": "name: t\nclasses: [a, b\ncost: '0'\n",
    "bare parameter": "name: t\nclasses: [a, b]\nparameters:\n  d: 0.5\ncost: '0 if yhat == y else 1'\nset_cost: d\n",
    "unknown key": "name: t\nclasses: [a, b]\ncots: '0 if yhat == y else 1'\n",
    "formula": "name: t\nclasses: [a, b]\ncost: '0 if yhat == y else eta'\nset_cost: '1'\n",
}
PROBE = ("import io, sys\nfrom verifier.cli import check\ncode = check([sys.argv[1]], io.StringIO(), io.StringIO())\n"
         "print(code, ' '.join(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[2].split()))))")


def fresh(argv: list[str], repeat: int, env: dict) -> tuple[float, int]:
    """Median wall time and the last exit status of `argv` run with this Python."""
    walls, code = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        code = subprocess.run([sys.executable, *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env).returncode
        walls.append(time.perf_counter() - start)
    return statistics.median(walls), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=os.path.join(tmp, "pycache"), VERIFY_NO_CACHE="1",
                   PYTHONPATH=ROOT + os.pathsep + env.get("PYTHONPATH", ""))
        print(f"{'invalid spec':<16} {'exit':>4} {'median s':>9} {'target/measured':>16}  heavy modules loaded")
        for label, text in SPECS.items():
            path = os.path.join(tmp, label.replace(" ", "-") + ".yaml")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            loaded = subprocess.run([sys.executable, "-c", PROBE, path, " ".join(HEAVY)], cwd=ROOT, env=env,
                                    capture_output=True, text=True).stdout.split(maxsplit=1)  # also warms the bytecode
            fresh(["-m", "verifier", path], 1, env)
            wall, code = fresh(["-m", "verifier", path], args.repeat, env)
            heavy = loaded[1].strip() if len(loaded) > 1 else "none"
            print(f"{label:<16} {code:>4} {wall:>9.3f} {TARGET_S / wall:>16.2f}  {heavy}")
        wall, _ = fresh(["-c", "pass"], args.repeat, env)
        print(f"(the interpreter alone: {wall:.3f} s)")


if __name__ == "__main__":
    main()
