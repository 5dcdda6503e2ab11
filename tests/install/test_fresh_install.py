"""A fresh install is the only install that counts: every third-party import is a declared dependency (or an
optional extra imported where a clear message guards it), and the README's set-up commands work in a new
virtual environment with no system site packages."""

import ast
import pathlib
import re
import subprocess
import sys
import tomllib
from importlib import metadata

from conftest import ROOT

PROJECT = tomllib.loads(pathlib.Path(ROOT, "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def _provided_by(requirements: list[str]) -> set[str]:
    """Top-level modules that the distributions named in `requirements` install (read from their metadata)."""
    wanted = {_name(r) for r in requirements}
    return {module for module, dists in metadata.packages_distributions().items()
            if any(d.lower().replace("_", "-") in wanted for d in dists)}


def _imports(tree: ast.AST):
    """(top-level module, inside a function?) for every absolute import of a module."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name.split(".")[0], inner
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                yield child.module.split(".")[0], inner
            yield from walk(child, inner)
    yield from walk(tree, False)


def test_every_third_party_import_is_a_declared_dependency():
    required = _provided_by(PROJECT["dependencies"])
    extras = {name: _provided_by(reqs) for name, reqs in PROJECT.get("optional-dependencies", {}).items()
              if name != "test"}
    problems = []
    for path in sorted(pathlib.Path(ROOT, "verifier").rglob("*.py")):
        for module, in_function in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if module in ("verifier", "verifier_check") or module in sys.stdlib_module_names or module in required:
                continue
            extra = [name for name, modules in extras.items() if module in modules]
            if extra and in_function:
                continue  # optional: loaded on use, where the caller names the extra to install
            where = f"{path.relative_to(ROOT)}: {module}"
            problems.append(where + (f" (extra {extra[0]!r}, but imported at module level)" if extra else
                                     " is imported but no declared dependency provides it"))
    assert not problems, "\n".join(problems)


def test_the_dependency_check_is_not_vacuous():
    """The check above sees real imports: numpy and scipy are imported by the package and declared."""
    required = _provided_by(PROJECT["dependencies"])
    assert {"numpy", "scipy", "sympy", "z3", "flint", "yaml", "rich"} <= required
    seen = {m for p in pathlib.Path(ROOT, "verifier").rglob("*.py")
            for m, _ in _imports(ast.parse(p.read_text(encoding="utf-8")))}
    assert {"scipy", "numpy", "z3"} <= seen
    assert "pandas" not in required  # optional (extra "frames"): imported by UseReport.to_frame() only


def test_readme_setup_commands_work_in_a_fresh_virtual_environment(fresh_install):
    """The README's first command verbatim, then the install part of the second and a part of the suite, in a
    new virtual environment (no system site packages) in a temporary directory; the checkout is copied with
    `git ls-files` so that nothing installed or cached in the working tree can help. The session's one install
    (tests/installed.py) ran them; this test reads what they did."""
    fresh_install.need("readme main", "readme install", "readme tests")
    main = fresh_install.runs["readme main"]
    assert "P3" in main.stdout and "reward rightful cautiousness" in main.stdout
    assert fresh_install.pytest_options == "" or fresh_install.pytest_options.startswith(" "), \
        "the README's test command should end by running pytest"
    site = subprocess.run([fresh_install.python, "-c", "import sys; print(sys.flags.no_user_site, "
                           "any('site-packages' in p and not p.startswith(sys.prefix) for p in sys.path))"],
                          env=fresh_install.env, capture_output=True, text=True, check=True).stdout.split()
    assert site == ["1", "False"]  # nothing from the machine's own site packages
