"""The architecture cannot rot silently: the import-linter contracts of pyproject.toml hold (layers in
pipeline order, no cycles at any depth, checker and engines independent), and every layer says what it owns."""

import importlib
import os
import pkgutil
import subprocess
import sys

import pytest

from conftest import ROOT

PACKAGES = sorted(info.name.removeprefix("verifier.") for info in
                  pkgutil.walk_packages([os.path.join(ROOT, "verifier")], "verifier.") if info.ispkg)
MAX_CODE_LINES = 300


def code_lines(source: str) -> int:
    """The lines that hold code: neither blank, nor comment only, nor inside a docstring. The cap counts these,
    so that a module is split for cohesion, not squeezed by folding its explanations (issue 53)."""
    import ast
    import io
    import tokenize

    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    code = set()
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
               tokenize.ENDMARKER, tokenize.ENCODING}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            code.update(range(token.start[0], token.end[0] + 1))
    return len(code - docstrings)


def test_import_contracts_hold():
    run = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                          "sys.exit(lint_imports_command())", "--no-cache"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout and "No import cycles, at any depth KEPT" in run.stdout
    assert "Layers in pipeline order" in run.stdout
    kept = " ".join(run.stdout.split())  # contract names wrap at the terminal's width
    assert ("Figures draw what the analysis computed: report.figures imports no analysis, designing, using or engine "
            "KEPT") in kept


def test_a_contract_violation_would_be_caught():
    """The layers contract is not vacuous: grimp sees the real imports between the layers."""
    import grimp

    graph = grimp.build_graph("verifier")
    assert graph.chain_exists("verifier.cli.main", "verifier.formula.certified")
    assert not graph.chain_exists("verifier.engines.smt.engine", "verifier.check.checker")
    assert not graph.chain_exists("verifier.formula.enclose", "verifier.formula.genmean")
    # figures draw what others computed: their callers reach the analysis and the calibration, they do not
    assert graph.chain_exists("verifier.report.check.check_pictures", "verifier.designing.calibrate")
    assert graph.chain_exists("verifier.analysis.pipeline", "verifier.analysis.drawn")
    for module in ("ternary_plot", "parameter_plot", "spot_plot", "interval_plot", "region_plot", "pictures"):
        for below in ("verifier.analysis.simplex_regions", "verifier.designing.calibrate",
                      "verifier.engines.enumerate", "verifier.scheme.orbits"):
            assert not graph.chain_exists(f"verifier.report.figures.{module}", below), (module, below)


def test_every_subpackage_is_seen():
    """The list below is made from the tree, so a new subpackage is held to its docstring at once."""
    assert {"spec", "engines", "using.decide", "report.check", "api.use", "cli"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_says_what_it_owns_and_may_import(package):
    module = importlib.import_module(f"verifier.{package}")
    doc = module.__doc__ or ""
    assert "Owns:" in doc and "May import" in doc, f"verifier.{package} lacks its ownership docstring"


def test_modules_stay_small():
    """At most 300 lines of code per module (blank lines, comments and docstrings not counted)."""
    big = []
    for info in pkgutil.walk_packages([os.path.join(ROOT, "verifier")], "verifier."):
        path = importlib.util.find_spec(info.name).origin
        with open(path, encoding="utf-8") as handle:
            lines = code_lines(handle.read())
        if lines > MAX_CODE_LINES:
            big.append(f"{info.name} ({lines} lines of code)")
    assert not big, big


def test_code_lines_count_neither_docstrings_nor_comments():
    source = ('"""Module.\n\nMore."""\n\n# a comment\nx = (1,\n     2)  # trailing\n\n\ndef f():\n'
              '    """Doc."""\n    return """a\nb"""\n')
    assert code_lines(source) == 5  # x = (1, / 2) / def f(): / return """a / b"""


def test_the_standalone_checker_is_a_readable_package_of_the_standard_library():
    """verifier_check/, beside the package, grew past one file when it began to derive every cell from the spec
    (issue 63): each of its modules is held to the cap of 300 lines of code, reads top to bottom (its package
    docstring lists them in order), imports the standard library and its own modules only, never `verifier`, and
    absolutely (so that a copy of the folder runs under `python3 -S` under any folder name)."""
    import ast

    folder = os.path.join(ROOT, "verifier_check")
    order = ast.get_docstring(ast.parse(open(os.path.join(folder, "__init__.py"), encoding="utf-8").read()))
    modules = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".py") and not n.startswith("__"))
    listed = order.split("read top to bottom:", 1)[1].replace("\n", " ").rstrip(".").split(", ")
    assert sorted(m.strip() for m in listed) == modules, (listed, modules)
    for name in os.listdir(folder):
        if not name.endswith(".py"):
            continue
        source = open(os.path.join(folder, name), encoding="utf-8").read()
        assert code_lines(source) <= MAX_CODE_LINES, (name, code_lines(source))
        tree = ast.parse(source)
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert imported <= set(sys.stdlib_module_names) | {"verifier_check"}, (name, imported)
        assert not any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))  # no relative imports
        assert ast.get_docstring(tree), name


def _loaded_after(code: str) -> set[str]:
    run = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_the_command_loads_only_what_a_check_uses():
    """Importing the command, and checking a numeric spec, loads neither z3 nor scipy.stats nor the design
    solver: those cost more start-up time than a 9-class check takes to run (issue: load only what is used)."""
    heavy = {"z3", "scipy.stats", "verifier.api.designer", "verifier.api.use", "verifier.api.use.decisions",
             "verifier.api.use.evaluation", "verifier.designing"}
    assert not heavy & _loaded_after("import verifier.cli")
    checked = _loaded_after("import io\nfrom verifier.cli import check\n"
                            "assert check(['specs/ha-numeric.yaml', '--no-cache', '--format', 'json'], io.StringIO(), "
                            "io.StringIO()) in (0, 1)")
    assert not heavy & checked
    assert "verifier.api.designer" in _loaded_after("import verifier\nverifier.design")


def test_a_report_with_no_picture_never_loads_matplotlib(tmp_path):
    """matplotlib takes 0.3 s to import: the report files of a scheme that has no picture (9 classes) skip it,
    and a three-class report, which has its ternary map, loads it."""
    code = ("import io\nfrom verifier.cli import check\n"
            "assert check(['specs/{spec}', '--no-cache', '--report', {out!r}], io.StringIO(), io.StringIO()) in (0, 1)")
    assert "matplotlib" not in _loaded_after(code.format(spec="ordinal-l1-9.yaml", out=str(tmp_path / "a")))
    assert "matplotlib" in _loaded_after(code.format(spec="ha-numeric.yaml", out=str(tmp_path / "b")))


@pytest.mark.parametrize("package", ["designing", "using"])
def test_each_name_a_package_exports_loads_and_never_hides_a_module(package):
    """`verifier.designing` and `verifier.using` export their entry points, loaded on first use; a name that is
    also a module's (`calibrate`, `decide`) would be replaced by the module once it is imported, so none is."""
    module = importlib.import_module(f"verifier.{package}")
    modules = {info.name for info in pkgutil.iter_modules(module.__path__)}
    assert module.__all__ and not set(module.__all__) & modules
    for name in module.__all__:
        assert getattr(module, name) is not None


def test_no_module_hides_a_public_name():
    """`verifier.design(...)` is the API: a subpackage `verifier/design/` would replace it once imported."""
    import verifier

    modules = {info.name for info in pkgutil.iter_modules(verifier.__path__)}
    assert not set(verifier.__all__) & modules
