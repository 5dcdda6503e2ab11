"""sympy is imported on first use (`verifier.lazy_sympy`): a batch of decisions over numeric costs never imports
it, while every symbolic path still finds it, and a kept-whole power mean still pickles by name."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = str(Path(__file__).resolve().parents[2])
U65 = ("name: u65\nclasses: 10\ncost: \"0 if y == yhat else 1\"\n"
       "functions: {g(x): \"-0.6 * x**2 + 1.6 * x\"}\nset_cost: \"1 - g(1 / len(Y)) if y in Y else 1\"\n")
PROBE = ("import runpy, sys\nsys.argv = ['verify', *sys.argv[1:]]\ntry:\n    runpy.run_module('verifier', "
         "run_name='__main__')\nexcept SystemExit as stop:\n    code = stop.code\n"
         "sys.stderr.write(f'exit={code} sympy={\"sympy\" in sys.modules}\\n')\n")


def _in_a_fresh_interpreter(tmp_path, *argv: str) -> str:
    """`verify ARGV` in a new Python process (sympy imported or not is per process): its exit status and
    whether sympy was imported, as the probe's last line."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=ROOT, VERIFY_NO_CACHE="1"))
    return done.stderr.strip().splitlines()[-1]


def test_a_batch_of_numeric_decisions_never_imports_sympy(tmp_path):
    (tmp_path / "u65.yaml").write_text(U65, encoding="utf-8")
    np.save(tmp_path / "p.npy", np.random.default_rng(0).dirichlet(np.ones(10), size=50))
    assert _in_a_fresh_interpreter(tmp_path, "decide", "u65.yaml", "--p-file", "p.npy", "--certainty") == \
        "exit=0 sympy=False"


def test_the_proxy_imports_on_first_read_and_keeps_what_it_read():
    from verifier.lazy_sympy import LazyModule

    proxy = LazyModule("fractions")
    assert "Fraction" not in vars(proxy)
    assert proxy.Fraction(1, 3) * 3 == 1
    assert "Fraction" in vars(proxy)  # the next read is a plain attribute read
    try:
        proxy.no_such_name
    except AttributeError:
        pass
    else:
        raise AssertionError("a missing attribute must raise AttributeError")


def test_a_power_mean_kept_whole_pickles_by_name():
    import sympy as sp

    from verifier.formula.genmean import GenMean, genmean, genmean_class

    mean = genmean(sp.Symbol("p"), (sp.Integer(1), sp.Integer(2)))
    assert type(mean) is GenMean is genmean_class()
    again = pickle.loads(pickle.dumps(mean))
    assert again == mean and type(again) is GenMean


def test_modules_read_sympy_through_the_proxy():
    """`import sympy as sp` at a module's top would import sympy with the module, whatever path runs: every
    module reads it through `verifier.lazy_sympy` (a few import printer classes from sympy to subclass them;
    none of those is on a decision path)."""
    import ast

    direct = []
    for path in sorted(Path(ROOT, "verifier").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Import) and any(a.name == "sympy" for a in node.names):
                direct.append(str(path.relative_to(ROOT)))
    assert direct == []
