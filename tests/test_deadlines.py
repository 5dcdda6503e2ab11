"""One deadline for everything (issue 37, items 6, 7 and 9), as attacks: `verify design` and `verifier.design()`
under `--time-limit` / `time_limit=`, `--cross-check` under the same bound, and exact numbers that would grow
for minutes. Each test plants the spec, runs the command or call, and checks the outcome, the exit status, what
the output says was cut (or the located message), and that nothing outside its temporary directory changed.
No test asserts a wall-clock duration: a subprocess timeout is only a guard against a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import verifier
from conftest import ROOT
from verifier.errors import SpecError, UsageError

HANG_GUARD_S = 600  # far beyond any outcome below: only a hang reaches it


def _verify(*argv: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT, "VERIFY_NO_CACHE": "1"}
    return subprocess.run([sys.executable, "-m", "verifier", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD_S)


def _tree(folder) -> dict[str, int]:
    return {os.path.relpath(os.path.join(d, n), folder): os.path.getsize(os.path.join(d, n))
            for d, _, names in os.walk(folder) for n in names}


def _checkout() -> dict[str, int]:
    return {**_tree(os.path.join(ROOT, "specs")), **{k: v for k, v in _tree(os.path.join(ROOT, "verifier")).items()
                                                     if not k.endswith(".pyc")}}


@pytest.fixture
def sandbox(tmp_path):
    before = _checkout()
    yield tmp_path
    assert _checkout() == before


# -- item 9: exact numbers are bounded in bits ----------------------------------------------------------------

def _nested(folder, body: str, set_cost: str, name: str = "nested.yaml") -> str:
    lines = ["name: nested powers", "classes: [a, b, c]", "functions:", '  h1(x): "x**2 + 1"']
    lines += [f'  h{i}(x): "{body.format(f"h{i - 1}")}"' for i in range(2, 21)]
    lines += ['cost: "0 if yhat == y else 1"', f'set_cost: "{set_cost}"']
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("body", ["{0}(x)**2", "{0}(x)**3", "{0}(x) * {0}(x)"])
def test_exact_numbers_growing_beyond_the_bound_are_a_located_error(sandbox, body):
    path = _nested(sandbox, body, "1 if h20(1) > 0 else 0")
    before = _tree(sandbox)
    result = _verify(path, cwd=sandbox)
    assert result.returncode == 2 and not result.stdout, result.stderr
    err = result.stderr
    assert "Traceback" not in err
    assert err.startswith(f"{path}:") and "functions.h" in err  # file, key, then the formula text
    assert "the exact numbers grow beyond 200,000 bits" in err and "(text: 'h" in err
    assert "expected exact numbers of at most 200,000 bits" in err
    assert _tree(sandbox) == before


def test_the_bound_is_the_same_in_the_api_and_in_the_exact_engine(sandbox):
    path = _nested(sandbox, "{0}(x) * {0}(x)", "1 if h20(1) > 0 else 0")
    for exact in (False, True):
        with pytest.raises(SpecError) as caught:
            verifier.verify(path, exact=exact, cache=False)
        assert caught.value.key.startswith("functions.h") and "200,000 bits" in str(caught.value)


def test_numbers_below_the_bound_still_decide(sandbox):
    # h20 on the way to 2^(2^19) is refused, h12 (about 2^2048) is an ordinary exact number
    path = _nested(sandbox, "{0}(x) * {0}(x)", "(0 if y in Y else 1) if h12(1) > (2**1000)**2 else 1")
    report = verifier.verify(path, cache=False)
    assert report.verdicts["P3"] == "holds"  # with every cost 1 (the comparison false) P3 would fail
