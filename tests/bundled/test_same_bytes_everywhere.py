"""The same spec prints the same bytes on every machine (issue "One truth on every machine", item 1): every
committed report of every bundled spec is what a fresh process prints under another BLAS kernel
(OPENBLAS_CORETYPE=Prescott, the generic x86-64 kernel every such CPU runs; Haswell where the CPU has AVX2)
and another thread count (OPENBLAS_NUM_THREADS 1 and 2). The float search proposes witnesses and bounds;
exact rules (`engines.canonical`, `engines.exact_floor`) pick what is printed, so the kernel's summation order
never reaches the output. The snapshot tests compare the same reports in this process (the machine's own
kernel)."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
SPECS = sorted(p.stem for p in (ROOT / "specs").glob("*.yaml"))
# the specs whose witnesses and margins come from the float search (LPs, certified float bounds)
SEARCHED = ["ordinal-l1-9", "ordinal-intervals-10", "obstacle-p-discounted-averse", "obstacle-hand-filled"]


def _kernels() -> list[dict[str, str]]:
    if platform.machine() not in ("x86_64", "AMD64"):
        return [{"OPENBLAS_NUM_THREADS": "2"}]
    settings = [{"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"},
                {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "2"}]
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    if re.search(r"\bavx2\b", flags):
        settings.append({"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_NUM_THREADS": "2"})
    return settings


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    env.update(extra, VERIFY_NO_CACHE="1", PYTHONHASHSEED="random")
    return env


def _verify(args: list[str], extra: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "verifier", *args], cwd=ROOT, env=_env(extra),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _without_svg(text: str) -> str:
    # matplotlib's SVG bytes may differ across its versions; the pictures' data are compared in test_figures
    return re.sub(r"<svg.*?</svg>", "<svg/>", text, flags=re.S)


@pytest.mark.parametrize("kernel", _kernels(), ids=lambda k: "-".join(f"{v}" for v in k.values()))
def test_every_committed_report_is_what_another_kernel_prints(kernel, tmp_path):
    _verify(["specs", "--report", str(tmp_path), "--format", "json", "--no-cache"], kernel)
    for stem in SPECS:
        for suffix in ("json", "md", "html"):
            new = (tmp_path / f"{stem}.{suffix}").read_text()
            old = (REPORTS / f"{stem}.{suffix}").read_text()
            if suffix == "html":
                new, old = _without_svg(new), _without_svg(old)
            assert new == old, f"reports/{stem}.{suffix} differs under {kernel}"


@pytest.mark.parametrize("kernel", _kernels(), ids=lambda k: "-".join(f"{v}" for v in k.values()))
@pytest.mark.parametrize("stem", SEARCHED)
def test_the_verbose_report_with_searched_witnesses_is_the_same_under_another_kernel(kernel, stem):
    text = _verify([f"specs/{stem}.yaml", "-v", "--width", "120", "--color", "never", "--no-cache"], kernel)
    assert text == (REPORTS / f"{stem}.verbose.txt").read_text(), f"{stem} -v differs under {kernel}"
