"""The CI recipes work as written: docs/ci.md's GitHub Actions job and pre-commit config, and the repository's
own `.pre-commit-hooks.yaml`, parse, name real options and paths, and select the specs that pass; the hook
runs as pre-commit runs it (its entry, then the file names its regexes select) in a temporary git
repository."""

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest
import yaml

from verifier.api import cache
from verifier.cli.main import _parser

from conftest import ROOT, SPECS
from installed import copy_checkout, require

CI_DOC = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()  # the recipes (linked from the README)
HOOKS = yaml.safe_load(open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8"))
SCRIPTS = tomllib.load(open(os.path.join(ROOT, "pyproject.toml"), "rb"))["project"]["scripts"]
BIN = os.path.dirname(sys.executable)  # where this environment's `verify` is installed


def _readme_yaml(top_key: str) -> dict:
    """The one YAML block of docs/ci.md with this top-level key (the recipes lived in the README before)."""
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", CI_DOC, re.S)]
    found = [b for b in blocks if isinstance(b, dict) and top_key in b]
    assert len(found) == 1, f"expected one docs/ci.md YAML block with {top_key!r}, found {len(found)}"
    return found[0]


def _selected(hook: dict, paths: list[str]) -> list[str]:
    """The file names pre-commit passes to a hook: `files` searched, `exclude` not (both Python regexes)."""
    files, exclude = re.compile(hook.get("files", "")), re.compile(hook.get("exclude", "^$"))
    return sorted(p for p in paths if files.search(p) and not exclude.search(p))


def _repository_files() -> list[str]:
    out = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__", "artifacts") and not d.endswith("egg-info")]
        out += [os.path.relpath(os.path.join(folder, n), ROOT).replace(os.sep, "/") for n in names]
    return out


def _top_level_specs() -> list[str]:
    """The bundled specs the hook must pass: specs/*.yaml and the large ones in specs/large/ (not design/)."""
    large = os.path.join(SPECS, "large")
    return sorted([f"specs/{n}" for n in os.listdir(SPECS) if n.endswith((".yaml", ".yml"))] +
                  [f"specs/large/{n}" for n in os.listdir(large) if n.endswith((".yaml", ".yml"))])


def test_the_hook_definition_is_what_pre_commit_expects():
    assert isinstance(HOOKS, list) and [h["id"] for h in HOOKS] == ["verify"]
    hook = HOOKS[0]
    assert {"id", "name", "entry", "language", "files", "exclude", "pass_filenames"} <= set(hook)
    assert hook["entry"] == "verify" and hook["entry"] in SCRIPTS  # the console script the package installs
    assert hook["language"] == "python" and hook["pass_filenames"] is True
    allowed = {"id", "name", "entry", "language", "files", "exclude", "types", "types_or", "exclude_types",
               "additional_dependencies", "args", "always_run", "fail_fast", "pass_filenames", "description",
               "language_version", "log_file", "require_serial", "stages", "verbose", "minimum_pre_commit_version"}
    assert set(hook) <= allowed, set(hook) - allowed


@pytest.mark.parametrize("which", ["hook", "readme"])
def test_the_hook_selects_the_bundled_specs_and_leaves_out_design(which):
    hook = HOOKS[0] if which == "hook" else _readme_yaml("repos")["repos"][0]["hooks"][0]
    everything = _repository_files()
    design = [p for p in everything if p.startswith("specs/design/") and p.endswith(".yaml")]
    assert len(design) >= 3
    assert _selected(hook, everything) == _top_level_specs()  # not design/, reports/, .pre-commit-hooks.yaml, ...
    # the reason for `exclude`: without it, the design specs with open cells would be passed, and refused
    assert set(design) <= set(_selected({**hook, "exclude": "^$"}, everything))


def test_every_spec_the_hook_selects_passes(tmp_path):
    """The hook's selection in this repository, run in one `verify` call as pre-commit would: exit 0."""
    files = _selected(HOOKS[0], _repository_files())
    env = dict(os.environ, VERIFY_CACHE_DIR=str(tmp_path / "cache"), PATH=BIN + os.pathsep + os.environ["PATH"])
    run = subprocess.run([*shlex.split(HOOKS[0]["entry"]), *HOOKS[0].get("args", []), *files], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def test_the_hook_runs_on_a_temporary_git_repository(tmp_path):
    """A repository that uses the hook: two specs, a design spec and a CI workflow committed; the hook gets
    the two specs only, and passes."""
    require(shutil.which("git") is not None, "git")
    repo = tmp_path / "repo"
    for source, target in [("ha-numeric.yaml", "specs/ha-numeric.yaml"), ("table-vi.yaml", "specs/table-vi.yaml"),
                           ("design/obstacle-open.yaml", "specs/design/obstacle-open.yaml")]:
        (repo / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(SPECS, source), repo / target)
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: [push]\njobs: {}\n", encoding="utf-8")
    env = dict(os.environ, VERIFY_CACHE_DIR=str(tmp_path / "cache"), PATH=BIN + os.pathsep + os.environ["PATH"],
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    _git(repo, env, ["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "specs"])
    tracked = subprocess.run(["git", "ls-files"], cwd=repo, env=env, capture_output=True, text=True,
                             check=True).stdout.split()
    hook = HOOKS[0]
    files = _selected(hook, tracked)
    assert files == ["specs/ha-numeric.yaml", "specs/table-vi.yaml"]
    run = subprocess.run([*shlex.split(hook["entry"]), *hook.get("args", []), *files], cwd=repo, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "P3" in run.stdout and "table-vi" in run.stdout
    # what `exclude` keeps out: plain verify refuses a spec with open cells
    refused = subprocess.run([*shlex.split(hook["entry"]), "specs/design/obstacle-open.yaml"], cwd=repo,
                             env=env, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2, refused.stdout[-2000:] + refused.stderr[-2000:]


def _git(repo, env, *commands: list[str]) -> None:
    for command in commands:
        subprocess.run(["git", *command], cwd=repo, env=env, check=True, capture_output=True, timeout=60)


def test_pre_commit_uses_the_hook_by_reference(tmp_path):
    """`pre-commit try-repo` as another repository would use the hook: pre-commit reads this repository's
    .pre-commit-hooks.yaml (a committed copy of the checkout), installs the project into an environment of
    its own, and runs the hook on the specs it selects; the design spec is left out, so the hook passes."""
    require(importlib.util.find_spec("pre_commit") is not None, "pre-commit (in the `test` extra)")
    require(shutil.which("git") is not None, "git")
    env = dict(os.environ, VERIFY_CACHE_DIR=str(tmp_path / "cache"), PRE_COMMIT_HOME=str(tmp_path / "pre-commit"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    for name in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):
        env.pop(name, None)
    tool, user = tmp_path / "tool", tmp_path / "user"
    copy_checkout(tool)
    _git(tool, env, ["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "tool"])
    for source in ("ha-numeric.yaml", "table-vi.yaml", "design/obstacle-open.yaml"):
        (user / "specs" / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(SPECS, source), user / "specs" / source)
    _git(user, env, ["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "specs"])
    run = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(tool), "verify", "--all-files",
                          "--verbose"], cwd=user, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert re.search(r"verify cost schemes\.+Passed", run.stdout), run.stdout[-4000:]
    assert "table-vi" in run.stdout and "obstacle-open" not in run.stdout  # --verbose shows verify's output


def _verify_argv(run: str) -> list[str]:
    """The arguments of a `verify ...` step, without its shell redirection."""
    words = shlex.split(run.split(">", 1)[0])
    assert words[0] == "verify", run
    return words[1:]


def test_the_readme_actions_job_caches_publishes_and_summarises(monkeypatch):
    workflow = _readme_yaml("jobs")
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert {"push", "pull_request"} <= set(on)
    assert workflow["permissions"]["checks"] == "write"
    steps = workflow["jobs"]["verify"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert uses[0].startswith("actions/checkout@") and uses[1].startswith("actions/setup-python@")

    cached = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    assert len(cached) == 1 and {"path", "key"} <= set(cached[0]["with"])
    monkeypatch.delenv("VERIFY_CACHE_DIR", raising=False)
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    assert os.path.expanduser(cached[0]["with"]["path"]) == cache.directory()  # where verify keeps its cache
    runs = [s.get("run", "") for s in steps]
    first_verify = next(i for i, r in enumerate(runs) if r.startswith("verify "))
    assert steps.index(cached[0]) < first_verify  # restored before anything is verified

    junit_run = next(r for r in runs if "--format junit" in r)
    junit_file = junit_run.split(">", 1)[1].strip()
    published = [s for s in steps if "junit" in s.get("uses", "")]
    assert len(published) == 1 and published[0]["if"] == "always()"
    assert published[0]["with"]["report_paths"] == junit_file

    summary = [s for s in steps if "$GITHUB_STEP_SUMMARY" in s.get("run", "")]
    assert len(summary) == 1 and summary[0]["if"] == "always()"
    assert re.search(r'>> "\$GITHUB_STEP_SUMMARY"$', summary[0]["run"].strip())
    junit_args, summary_args = _verify_argv(junit_run), _verify_argv(summary[0]["run"])
    assert "--format" in summary_args and summary_args[summary_args.index("--format") + 1] == "markdown"

    def answer_options(argv):  # the options that make a cache entry: the same in both steps, so it is reused
        args = vars(_parser().parse_args(argv))
        return {k: v for k, v in args.items() if k not in ("format", "report", "quiet", "color", "width")}

    formats = next(a.choices for a in _parser()._actions if "--format" in a.option_strings)
    assert "junit" in formats
    if "markdown" in formats:
        assert answer_options(junit_args) == answer_options(summary_args)
    else:  # `--format markdown` is being added: until then compare the words
        strip = lambda argv: [w for i, w in enumerate(argv)  # noqa: E731
                              if w not in ("--format", "--report") and argv[i - 1] not in ("--format", "--report")]
        assert strip(junit_args) == strip(summary_args)
    artifact = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert junit_file in artifact["with"]["path"]


def test_the_readme_pre_commit_config_is_complete():
    config = _readme_yaml("repos")
    hook = config["repos"][0]["hooks"][0]
    assert config["repos"][0]["repo"] == "local"
    assert {"id", "name", "entry", "language", "files", "exclude"} <= set(hook)
    assert shlex.split(hook["entry"])[0] in SCRIPTS and hook["language"] == "system"
    assert "design" in hook["exclude"]
