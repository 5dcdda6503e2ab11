"""The README's two set-up commands stay true, and .ci/run runs the README's test command; the README stands alone,
the architecture page maps every layer, and the Python API page's example runs (tests/repository/test_docs.py
checks the links and commands of every page)."""

import os
import re
import subprocess
import sys

from conftest import ROOT


def _readme_commands() -> list[str]:
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text.split("## Set-up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_readme_has_exactly_two_setup_commands():
    commands = _readme_commands()
    assert len(commands) == 2
    assert "verify specs/" in commands[0] and "pip install" in commands[0]
    assert "pytest" in commands[1] and "pip install" in commands[1]


def test_ci_runs_the_readme_test_command():
    """.ci/run reads the command out of the README (so the two cannot drift) and runs it in a temporary venv."""
    ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    assert "readme_command.py test" in ci and "mktemp -d" in ci and 'eval "${command//.venv/' in ci
    printed = subprocess.run([sys.executable, os.path.join(ROOT, ".ci", "readme_command.py"), "test"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert printed == _readme_commands()[1]
    assert printed.startswith("python3 -m venv .venv && ") and ".venv/bin/python -m pytest" in printed


def test_readme_main_command_names_a_bundled_spec():
    spec = re.search(r"verify (specs/\S+)", _readme_commands()[0]).group(1)
    assert os.path.isfile(os.path.join(ROOT, spec))


def test_readme_stands_alone_and_maps_every_layer():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    assert "../shared" not in text and "DESIGN.md" not in text
    assert "(docs/architecture.md)" in text  # the map moved out of the README; the README links it
    architecture = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    assert "../shared" not in architecture and "DESIGN.md" not in architecture
    for layer in ("cli/", "api/", "report/", "analysis/", "check/", "engines/", "scheme/", "spec/", "formula/",
                  "properties/"):
        assert f"`{layer}`" in architecture, layer
    for name in os.listdir(os.path.join(ROOT, "verifier")):
        if os.path.isdir(os.path.join(ROOT, "verifier", name)) and not name.startswith("__"):
            assert f"`{name}/`" in architecture, f"verifier/{name} is missing from docs/architecture.md's map"


def test_readme_python_example_runs(tmp_path, monkeypatch):
    """The Python API page's first example (it was the README's; the README links the page)."""
    assert "(docs/python-api.md)" in open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    text = open(os.path.join(ROOT, "docs", "python-api.md"), encoding="utf-8").read()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(ROOT)
    code = code.replace('report.write("reports")', f'report.write({str(tmp_path)!r})')
    scope: dict = {}
    exec(compile(code, "docs/python-api.md", "exec"), scope)  # our own documentation, not spec text
    assert scope["report"].verdicts["P3"] == "fails"
    assert sorted(os.listdir(tmp_path)) == ["ha-numeric.html", "ha-numeric.json", "ha-numeric.md"]
