"""The cache never serves another program's result (issue "One truth on every machine", item 5): its key
holds a hash of the package's own files and the versions of the libraries that decide, not only
`__version__` (0.1.0 for every change in the CHANGELOG)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import verifier
from verifier.api import cache

from conftest import SPECS

ROOT = Path(__file__).resolve().parents[2]
HA = str(ROOT / "specs" / "ha.yaml")


def _fingerprint(package_parent: Path) -> str:
    code = "from verifier.api import cache; print(cache.code_fingerprint())"
    done = subprocess.run([sys.executable, "-c", code], cwd=package_parent, capture_output=True, text=True,
                          env={"PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_another_checkout_with_one_changed_line_has_another_fingerprint(tmp_path):
    for name in ("a", "b"):
        shutil.copytree(ROOT / "verifier", tmp_path / name / "verifier",
                        ignore=shutil.ignore_patterns("__pycache__"))
    module = tmp_path / "b" / "verifier" / "engines" / "canonical.py"
    module.write_text(module.read_text() + "\n# one more line\n")
    a, b = _fingerprint(tmp_path / "a"), _fingerprint(tmp_path / "b")
    assert a != b
    # the same files elsewhere are the same code: the place of the checkout is not part of it
    assert _fingerprint(tmp_path / "a") == a == cache.code_fingerprint()


def test_a_changed_standalone_checker_changes_the_fingerprint(tmp_path):
    """Issue 64: the checker decides `expect: {certificate: checks}`, so it is part of the code the key hashes."""
    for name in ("a", "b"):
        for package in ("verifier", "verifier_check"):
            shutil.copytree(ROOT / package, tmp_path / name / package, ignore=shutil.ignore_patterns("__pycache__"))
    module = tmp_path / "b" / "verifier_check" / "one_matrix.py"
    module.write_text(module.read_text() + "\n# one more line\n")
    assert _fingerprint(tmp_path / "a") != _fingerprint(tmp_path / "b")


def test_a_report_cached_by_other_code_or_other_libraries_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    assert verifier.verify(HA, detail="summary").cached_at is None
    assert verifier.verify(HA, detail="summary").cached_at is not None  # the same code and libraries: served
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "another checkout")
    assert verifier.verify(HA, detail="summary").cached_at is None
    monkeypatch.setattr(cache, "library_versions", lambda: {"z3-solver": "0.0"})
    assert verifier.verify(HA, detail="summary").cached_at is None


def test_the_key_names_every_deciding_library():
    versions = cache.library_versions()
    assert {"z3-solver", "highspy", "python-flint", "sympy", "numpy"} <= set(versions)
    assert all(versions[name] for name in ("z3-solver", "highspy", "python-flint", "sympy", "numpy"))


# Found by an adversarial review of issue 11's reports (formerly in test_review_regressions.py).
def test_a_cached_report_names_the_file_it_was_asked_for(tmp_path):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "first.yaml")
    (tmp_path / "sub").mkdir()
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "sub" / "second.yaml")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VERIFY_NO_CACHE": "", "VERIFY_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("first.yaml", "sub/second.yaml"):
        done = subprocess.run([sys.executable, "-m", "verifier", name, "--format", "json"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert json.loads(done.stdout)["spec"] == name


def test_a_class_sweep_cut_by_the_time_limit_is_never_stored_and_says_it_was_cut(tmp_path, monkeypatch):
    """Issue 64, item 3: a --classes sweep cut by --time-limit was stored and served (13 `unknown` cells where
    the uncut sweep has none), and its text did not say it was cut."""
    from verifier.analysis import class_sweep

    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    real = class_sweep.analyse

    def cut_at_three(spec, *args, **kwargs):  # the time limit reached at K = 3, whatever this machine's speed
        analysis = real(spec, *args, **kwargs)
        if len(kwargs["classes"]) == 3:
            analysis.stopped = "Stopped: the time limit of 1 s (--time-limit) was reached"
        return analysis

    monkeypatch.setattr(class_sweep, "analyse", cut_at_three)
    spec = str(ROOT / "specs" / "accuracy-u65.yaml")
    first = verifier.sweep_classes(spec, "2..4", time_limit=1)
    assert first.cached_at is None and "Stopped early at K = 3: Stopped: the time limit" in first.to_text(120)
    assert list(first.to_json()["stopped"]) == ["3"]
    assert verifier.sweep_classes(spec, "2..4", time_limit=1).cached_at is None  # never stored, so never served
    monkeypatch.setattr(class_sweep, "analyse", real)
    assert verifier.sweep_classes(spec, "2..4", time_limit=1).cached_at is None
    assert verifier.sweep_classes(spec, "2..4", time_limit=1).cached_at is not None  # an uncut sweep is
