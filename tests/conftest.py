import functools
import inspect
import io
import os
import re
import sys
import warnings
from typing import NamedTuple

import pytest
from hypothesis import settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "specs")
REPORTS = os.path.join(ROOT, "reports")
sys.path.insert(0, ROOT)

from installed import dists, fresh_install  # noqa: E402,F401  (the session's one build and one install)

# Tests verify afresh: a report cached by one test must not show up (labelled "cached") in another.
os.environ["VERIFY_NO_CACHE"] = "1"
# The console's width in a pipe follows COLUMNS when it is set (as shutil.get_terminal_size reads it): the
# snapshots are the pipe's default width, whatever the shell running the tests exports. A test sets it itself.
os.environ.pop("COLUMNS", None)

# Hypothesis: CI runs are reproducible (derandomized: the same examples on every run, no example database),
# developers explore new random examples each run. `CI=true` (set by .ci/run's caller) picks the first;
# HYPOTHESIS_PROFILE chooses either explicitly. Each test's own deadline still applies; its max_examples (its
# literal number, or Hypothesis's 100) is scaled by EXAMPLES[profile]: all of it in CI, a tenth (at least 5,
# never more than the test asks) in the developer's inner loop.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)
EXAMPLES = {"ci": 1.0, "dev": 0.1}

# Markers (registered in pyproject.toml), set here so that nobody forgets one. A test is `install`, `kernel` or
# `browser` when its own code, a helper of its module it calls or a fixture it uses does that (read from their
# source, so a new test is marked as it is written), or when it uses the session's install; each of those is also
# `slow`, as is every test in tests/slow_tests.txt (measured over about 2 s, setup included; benchmarks/slow_tests.py
# refreshes the list from a `--durations=0` run).
KINDS = {
    "install": re.compile(r'"-m", "venv"|"-m", "build"|"try-repo"'),
    "kernel": re.compile(r"\bjupyter_client\b|\bipykernel\b|KernelManager"),
    "browser": re.compile(r"\bchromium\b"),
}
INSTALL_FIXTURES = {"dists", "fresh_install"}
SLOW_LIST = os.path.join(ROOT, "tests", "slow_tests.txt")


def _measured_slow() -> set[str]:
    """Node ids from tests/slow_tests.txt; an id without its parameters marks every parametrization."""
    if not os.path.exists(SLOW_LIST):
        return set()
    with open(SLOW_LIST, encoding="utf-8") as handle:
        return {line.strip() for line in handle if line.strip() and not line.startswith("#")}


@functools.cache
def _source(function) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _with_helpers(function) -> list:
    """The function and the functions of its own module that it names (one level: `_in_kernel`, ...)."""
    code, names = getattr(function, "__code__", None), getattr(function, "__globals__", {})
    helpers = [names.get(n) for n in (code.co_names if code else ())]
    return [function] + [h for h in helpers if inspect.isfunction(h) and h.__module__ == function.__module__]


def _kinds(item) -> set[str]:
    function = getattr(item, "function", None)
    functions = _with_helpers(function) if function is not None else []
    info = getattr(item, "_fixtureinfo", None)
    fixtures = set(getattr(item, "fixturenames", ()))
    for name in fixtures:
        functions += [d.func for d in (info.name2fixturedefs.get(name, ()) if info else ())]
    text = "\n".join(_source(f) for f in functions)
    found = {kind for kind, pattern in KINDS.items() if pattern.search(text)}
    return found | ({"install"} if fixtures & INSTALL_FIXTURES else set())


def _scale_examples(item, factor: float) -> None:
    """Scale a Hypothesis test's max_examples once (parametrized tests share one function)."""
    test = getattr(item, "obj", None)
    chosen = getattr(test, "_hypothesis_internal_use_settings", None)
    if chosen is None or factor == 1.0 or getattr(test, "_examples_scaled", False):
        return
    wanted = chosen.max_examples
    test._hypothesis_internal_use_settings = settings(chosen, max_examples=min(wanted, max(5, round(wanted * factor))))
    test._examples_scaled = True


# A listed id that names no test would silently unmark a slow test (a moved or renamed test), so the run stops.
STALE = "tests/slow_tests.txt names tests that do not exist (moved or renamed?); fix the ids or refresh the list " \
        "(benchmarks/slow_tests.py):\n  "


def _without_their_test(listed: set[str]) -> list[str]:
    """Listed node ids whose file is gone or no longer defines the function (checked before collection)."""
    stale = []
    for node in sorted(listed):
        path, _, name = node.partition("::")
        function = name.split("[", 1)[0].rpartition("::")[2]
        file = os.path.join(ROOT, path)
        if not os.path.isfile(file) or not re.search(rf"^\s*def {re.escape(function)}\(", _text(file), re.M):
            stale.append(node)
    return stale


def _without_their_parameters(listed: set[str], items, args: list[str]) -> list[str]:
    """Listed ids with [parameters] whose function was collected without them (unless the command line picked
    parameters itself)."""
    if any("[" in arg for arg in args):
        return []
    collected = {item.nodeid for item in items}
    functions = {nodeid.split("[", 1)[0] for nodeid in collected}
    return sorted(node for node in listed
                  if "[" in node and node.split("[", 1)[0] in functions and node not in collected)


@functools.cache
def _text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def pytest_configure(config):
    # Once, before any collection: in the xdist controller a UsageError is one clear line, in a worker a crash.
    if not hasattr(config, "workerinput"):
        stale = _without_their_test(_measured_slow())
        if stale:
            raise pytest.UsageError(STALE + "\n  ".join(stale))


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    slow = _measured_slow()
    stale = _without_their_parameters(slow, items, config.args)
    if stale and hasattr(config, "workerinput"):  # an xdist worker: a warning the controller shows
        warnings.warn(pytest.PytestWarning(STALE + "\n  ".join(stale)))
    elif stale:
        raise pytest.UsageError(STALE + "\n  ".join(stale))
    grouped = config.pluginmanager.hasplugin("xdist")
    for item in items:
        kinds = _kinds(item)
        for kind in sorted(kinds):
            item.add_marker(kind)
        if kinds or item.nodeid in slow or item.nodeid.split("[", 1)[0] in slow:
            item.add_marker("slow")
        if grouped and "install" in kinds:  # one worker builds the session's one install for all of them
            item.add_marker(pytest.mark.xdist_group("install"))
        _scale_examples(item, EXAMPLES.get(PROFILE, 1.0))


# -- the bundled specs' reports, made once per session ----------------------------------------------------------
@functools.cache
def bundled(stem: str):
    """The API report of specs/<stem>.yaml, verified once per session (cwd ROOT, named `specs/<stem>.yaml` as
    the committed reports are) and shared by every test that renders a bundled spec; each rendering is also
    made once (the report keeps its outputs). tests/bundled/test_report_snapshots.py checks that it agrees with a
    fresh `verify` run."""
    from verifier.api import verify

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return verify(f"specs/{stem}.yaml", cache=False)
    finally:
        os.chdir(cwd)


def bundled_report(stem: str, verbose: bool = False, width: int = 120) -> str:
    """The console text `verify specs/<stem>.yaml --width W --color never [-v]` prints, from `bundled(stem)`."""
    report = bundled(stem)
    return report.to_text(width) if verbose else report.to_summary(width)


# -- the command line, run in-process ---------------------------------------------------------------------------
class Ran(NamedTuple):
    """What one `verify` command did: its exit status and what it printed."""
    code: int
    out: str
    err: str


def run_verify(*argv, stderr=None) -> Ran:
    """`verify ARGV...` in this process (`verifier.cli.check`), each argument as text (paths welcome); `stderr`
    replaces the captured standard error (a fake terminal, say)."""
    from verifier.cli import check

    out, err = io.StringIO(), stderr if stderr is not None else io.StringIO()
    return Ran(check([str(a) for a in argv], out, err), out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    """The verify command: `code, out, err = cli(SPEC, "--format", "json")` (see `run_verify`)."""
    return run_verify
