"""The style is held by tools, not by review (issue 53): ruff (pycodestyle, pyflakes, import order, a docstring
on every public name, lines of at most 120 characters) over the whole repository, and mypy over the typed face
the package ships (`py.typed`): the API, the verdicts, the errors. Both read their settings from
pyproject.toml, so that `ruff check` and `mypy` at the command line say what these tests say."""

import json
import os
import subprocess
import sys

from conftest import ROOT


def _run(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_ruff_finds_nothing():
    run = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_would_catch_a_missing_docstring_and_a_long_line(tmp_path):
    """Not vacuous: the settings the repository uses flag what they are meant to flag."""
    bad = tmp_path / "verifier" / "bad.py"
    bad.parent.mkdir()
    bad.write_text('"""A module."""\n\n\ndef public():\n    return "' + "x" * 120 + '"\n', encoding="utf-8")
    run = _run("ruff", "check", "--no-cache", "--output-format", "json", "--config",
               os.path.join(ROOT, "pyproject.toml"), str(bad))
    assert run.returncode == 1, run.stdout + run.stderr
    assert {finding["code"] for finding in json.loads(run.stdout)} == {"D103", "E501"}


def test_mypy_finds_nothing_in_the_typed_face(tmp_path):
    run = _run("mypy", "--cache-dir", str(tmp_path / "mypy"), timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    # the API is among the files checked
    assert "verifier/api" in open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
