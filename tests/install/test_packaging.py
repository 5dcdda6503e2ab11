"""The project as a user gets it from a package index: the sdist and the wheel built from a clean copy of the
checkout, the wheel installed into a new virtual environment (no system or user site packages), and `verify`
run on a spec outside the repository, from a directory outside the repository, so that nothing (the spec
schema, package data, the version) can come from the checkout. Also the metadata a package index shows."""

import ast
import os
import pathlib
import re
import shutil
import subprocess
import tarfile
import tomllib
import zipfile
from email.parser import Parser

from conftest import ROOT, SPECS

PYPROJECT = tomllib.loads(pathlib.Path(ROOT, "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
DIST = PROJECT["name"]
# The one place the version is written, read as the build backend reads it (statically, importing nothing).
VERSION = next(ast.literal_eval(node.value) for node in ast.parse(
    pathlib.Path(ROOT, "verifier", "version.py").read_text(encoding="utf-8")).body
    if isinstance(node, ast.Assign) and node.targets[0].id == "__version__")  # type: ignore[attr-defined]


def _wheel_metadata(wheel: pathlib.Path):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        return names, Parser().parsestr(archive.read(info).decode("utf-8")), archive.read(
            info.replace("METADATA", "entry_points.txt")).decode("utf-8")


def test_the_sdist_holds_what_a_rebuild_needs(dists):
    top = f"{DIST.replace('-', '_')}-{VERSION}"
    assert dists["sdist"].name == f"{top}.tar.gz"
    with tarfile.open(dists["sdist"]) as archive:
        names = set(archive.getnames())
        pkg_info = Parser().parsestr(archive.extractfile(f"{top}/PKG-INFO").read().decode("utf-8"))
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "verifier/__init__.py",
                 "verifier/cli/__init__.py", "verifier/version.py", "verifier/py.typed",
                 "verifier/spec/spec.schema.json", "specs/ha.yaml", "docs/verify.md", "docs/ci.md",
                 "verifier_check/__init__.py", "verifier_check/__main__.py", "docs/certificates.md"):
        assert f"{top}/{name}" in names, name
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert not any(n.startswith(f"{top}/tests/") for n in names)  # not shipped half: see MANIFEST.in
    assert (pkg_info["Name"], pkg_info["Version"]) == (DIST, VERSION)


def test_the_wheel_metadata_is_complete(dists):
    names, meta, entry_points = _wheel_metadata(dists["wheel"])
    assert (meta["Name"], meta["Version"]) == (DIST, VERSION)
    assert meta["License-Expression"] == "MIT" and meta.get_all("License-File") == ["LICENSE"]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert {"verifier/py.typed", "verifier/spec/spec.schema.json", "verifier/__init__.py"} <= set(names)
    assert {"verifier_check/__init__.py", "verifier_check/__main__.py"} <= set(names)  # the standalone checker
    assert not any(n.startswith(("tests/", "specs/", "benchmarks/", "docs/")) for n in names)
    assert re.search(r"^verify = verifier\.cli:main$", entry_points, re.M)
    urls = {u.split(",")[0] for u in meta.get_all("Project-URL")}
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= urls
    classifiers = meta.get_all("Classifier")
    for wanted in ("Intended Audience :: Science/Research", "Programming Language :: Python :: 3.11",
                   "Programming Language :: Python :: 3.12", "Typing :: Typed",
                   "Topic :: Scientific/Engineering :: Artificial Intelligence",
                   "Topic :: Scientific/Engineering :: Mathematics"):
        assert wanted in classifiers, wanted
    assert any(c.startswith("Development Status ::") for c in classifiers)
    assert meta["Author"] and meta["Keywords"] and meta["Requires-Python"] == PROJECT["requires-python"]
    assert meta["Description-Content-Type"] == "text/markdown" and "## Set-up on a fresh machine" in meta.get_payload()


def test_the_wheel_works_in_a_fresh_virtual_environment_outside_the_checkout(dists, fresh_install, tmp_path):
    """The wheel installed in the session's fresh environment (its dependencies from the configured index and
    pip's cache, `pip check` satisfied), and a copied spec verified from a directory outside the repository."""
    assert not str(tmp_path).startswith(ROOT)
    fresh_install.need("wheel install", "pip check")
    env, venv = fresh_install.env, fresh_install.venv
    python, verify = str(venv / "bin" / "python"), str(venv / "bin" / "verify")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy2(os.path.join(SPECS, "ha.yaml"), work / "ha.yaml")

    run = subprocess.run([verify, "ha.yaml", "--width", "120"], cwd=work, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode in (0, 1), run.stdout[-2000:] + run.stderr[-3000:]  # a verdict, not a usage error
    assert re.search(r"^\s*property\s.*\sverdict\s", run.stdout, re.M), run.stdout[-3000:]  # the verdict table
    for n in range(1, 11):
        assert re.search(rf"^\s*P{n}\s.*\s(holds|fails|unknown)\s", run.stdout, re.M), f"P{n} has no verdict row"

    where = subprocess.run([python, "-c", "import verifier, sys; print(verifier.__file__); "
                            "print(sys.flags.no_user_site)"], cwd=work, env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    assert where[0].startswith(str(venv)) and "site-packages" in where[0] and where[1] == "1"
    version = subprocess.run([verify, "--version"], cwd=work, env=env, capture_output=True, text=True,
                             check=True).stdout.strip()
    installed = subprocess.run([python, "-c", f"from importlib.metadata import version; print(version({DIST!r}))"],
                               cwd=work, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert version == f"verify {VERSION}" and installed == VERSION == _wheel_metadata(dists["wheel"])[1]["Version"]
    schema = subprocess.run([verify, "schema"], cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert schema.returncode == 0 and '"$schema"' in schema.stdout  # package data, from the wheel


def test_the_version_is_written_once():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "verifier.version.__version__"}
    import verifier

    assert verifier.__version__ == VERSION


def test_licence_and_changelog():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    licence = pathlib.Path(ROOT, "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2026 the verify authors" in licence
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639: the expression only
    changelog = pathlib.Path(ROOT, "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert headings[0] == "Unreleased" and VERSION in headings
    assert set(re.findall(r"^### (\w+)", changelog, re.M)) <= {"Added", "Changed", "Deprecated", "Removed",
                                                               "Fixed", "Security"}


def test_the_distribution_name_is_used_wherever_one_is_named():
    """`verifier` and `verify` are other projects on PyPI: every install hint names this distribution."""
    assert DIST not in ("verifier", "verify")
    hints = []
    for path in [pathlib.Path(ROOT, "README.md"), *sorted(pathlib.Path(ROOT, "docs").glob("*.md")),
                 *pathlib.Path(ROOT, "verifier").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        hints += [(path.name, m) for m in re.findall(r"pip install[^`\"\n]*", text)]
        assert not re.search(r"""(version|metadata|distribution)\(\s*["']verifier["']""", text), path
    named = [(where, h) for where, h in hints if re.search(r"\b(verifier|verify)\[|install '?verifier\b", h)]
    assert not named, named
    assert any(f"'{DIST}[frames]'" in h for _, h in hints) and "frames" in PROJECT["optional-dependencies"]
