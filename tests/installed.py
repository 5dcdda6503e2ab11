"""The one fresh install of a test session, shared by every install test (tests/install/): the sdist and the wheel
built once from a clean copy of the checkout, and one new virtual environment (no system or user site packages) in
which the README's set-up commands install the project with its dependencies, after which the wheel replaces the
editable install (without its dependencies, which are the same, then `pip check` that they satisfy the wheel's
metadata). Dependencies are installed once per session, not once per test. The fixtures are pulled into
tests/conftest.py."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def copy_checkout(dest: pathlib.Path) -> None:
    """The checkout's files as git sees them (tracked, and new files that are not ignored) copied to `dest`:
    nothing built, installed or cached in the working tree comes along."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if os.path.isfile(os.path.join(ROOT, name)):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(os.path.join(ROOT, name), dest / name)


def fresh_env(tmp_path: pathlib.Path) -> dict[str, str]:
    """This environment without anything that points Python at the checkout or another environment, no user
    site packages, and a cache directory of the test's own (pip keeps its cache and configuration: the same
    index, and no download twice)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PYTHONNOUSERSITE="1", VERIFY_CACHE_DIR=str(tmp_path / "cache"))
    return env


def require(available: bool, what: str) -> None:
    """Skip when a tool is missing on a developer's machine; in CI (CI set) a missing tool is a failure. The
    build tool is in the `test` extra, so wherever the README's test command ran, this never skips."""
    if not available:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is missing in CI: install the project with its `test` extra")
        pytest.skip(f"needs {what}")


def readme_commands() -> tuple[str, str]:
    """The README's two set-up commands (install and verify a spec; install with the test extra and test)."""
    main, test = (subprocess.run([sys.executable, os.path.join(ROOT, ".ci", "readme_command.py"), which],
                                 capture_output=True, text=True, check=True).stdout.strip()
                  for which in ("main", "test"))
    return main, test


def _shown(run: subprocess.CompletedProcess) -> str:
    return f"$ {run.args if isinstance(run.args, str) else ' '.join(map(str, run.args))}\n" \
           f"{run.stdout[-3000:]}{run.stderr[-4000:]}"


@dataclass
class FreshInstall:
    """What the session's install did, in order; a step that failed ends it (`failed` says which, with its
    output) and the tests that need a later step fail with that message."""
    base: pathlib.Path
    venv: pathlib.Path
    env: dict[str, str]
    runs: dict[str, subprocess.CompletedProcess] = field(default_factory=dict)
    failed: str = ""
    pytest_options: str = ""  # what the README's test command passes to pytest, if anything

    def step(self, name: str, argv, **kwargs) -> bool:
        if self.failed:
            return False
        run = subprocess.run(argv, env=self.env, capture_output=True, text=True, **kwargs)
        self.runs[name] = run
        if run.returncode != 0:
            self.failed = f"the session's install failed at {name!r}:\n{_shown(run)}"
        return not self.failed

    def need(self, *names: str) -> None:
        """Fail the calling test (with the failing step's output) unless these steps ran and succeeded."""
        assert not self.failed and all(n in self.runs for n in names), self.failed or f"not run: {names}"

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")


@pytest.fixture(scope="session")
def dists(tmp_path_factory) -> dict[str, pathlib.Path]:
    """`python -m build` on a clean copy of the checkout: the sdist, then the wheel built from that sdist (so a
    file the sdist leaves out breaks the wheel too). The working tree itself gets no build/ or egg-info."""
    require(importlib.util.find_spec("build") is not None, "the `build` package (python -m build)")
    require(shutil.which("git") is not None, "git (to copy the checkout's files)")
    base = tmp_path_factory.mktemp("packaging")
    source, out = base / "source", base / "dist"
    copy_checkout(source)
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(source)],
                         env=fresh_env(base), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(os.listdir(out))
    return {"wheel": wheels[0], "sdist": sdists[0]}


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory, dists) -> FreshInstall:
    """The session's one virtual environment, in a temporary directory outside the checkout: the README's
    first command verbatim in a `git ls-files` copy (venv, `pip install -e .`, `verify specs/ha.yaml`), the
    install part of its second (`pip install -e '.[test]'`), a part of the suite run there, then the wheel
    installed in place of the editable install (`--no-deps`: the dependencies are already there; `pip check`
    then proves they satisfy the wheel's own requirements)."""
    require(shutil.which("git") is not None, "git (to copy the checkout's files)")
    base = tmp_path_factory.mktemp("install")
    clone, venv = base / "clone", base / "venv"
    copy_checkout(clone)
    done = FreshInstall(base, venv, fresh_env(base))
    main, test = readme_commands()
    install, _, done.pytest_options = test.partition(" && .venv/bin/python -m pytest")
    done.step("readme main", ["bash", "-c", main.replace(".venv", str(venv))], cwd=clone, timeout=900)
    done.step("readme install", ["bash", "-c", install.replace(".venv", str(venv))], cwd=clone, timeout=900)
    done.step("readme tests", [done.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                               "tests/repository/test_readme.py", "tests/install/test_fresh_install.py",
                               "-k", "not fresh_virtual"],
              cwd=clone, timeout=900)
    done.step("wheel install", [done.python, "-m", "pip", "install", "--no-input", "--force-reinstall", "--no-deps",
                                str(dists["wheel"])], cwd=base, timeout=900)
    done.step("pip check", [done.python, "-m", "pip", "check"], cwd=base, timeout=300)
    return done
