"""The documentation stays true and connected: the README is a short entry point that links every page of docs/;
every relative link in README.md, docs/*.md and specs/README.md reaches a file of the repository (and a heading
of it, for a link with an anchor); nothing points outside the repository; every `verify ...` command shown in
the docs parses with the real command line (so a misspelled option or choice fails here); every long option
named anywhere in the docs exists; and the self-contained Python examples of docs/python-api.md run."""

import importlib.util
import io
import os
import re
import shlex

import pytest

from verifier.cli import check

from conftest import ROOT

DOCS = os.path.join(ROOT, "docs")
PAGES = sorted(os.path.join(DOCS, n) for n in os.listdir(DOCS) if n.endswith(".md"))
README = os.path.join(ROOT, "README.md")
EVERY = [README, *PAGES, os.path.join(ROOT, "specs", "README.md")]
SUBCOMMANDS = ("schema", "explain", "check", "design", "decide", "evaluate")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _name(path: str) -> str:
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def _fenced(text: str) -> list[tuple[str, str]]:
    """(language, body) of the fenced code blocks (``` ... ```), indented ones inside list items included."""
    return [(language, re.sub(r"^ {0,4}", "", body, flags=re.M))
            for language, body in re.findall(r"^ *```([^\n]*)\n(.*?)^ *```", text, re.S | re.M)]


def _unfenced(text: str) -> str:
    return re.sub(r"^ *```[^\n]*\n.*?^ *```", "", text, flags=re.S | re.M)


INDENTED = r"(?:^|\n\n)((?: {4}[^\n]*\n?)+)"  # an indented (4-space) code block after a blank line


def _prose(text: str) -> str:
    """The text without its fenced code blocks and without indented code blocks."""
    return re.sub(INDENTED, "\n\n", _unfenced(text))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`."""
    text = re.sub(r"`|\*\*?|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", _prose(_read(path)), re.M):
        slug = _slug(heading)
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


def _links(path: str) -> list[str]:
    prose = re.sub(r"`[^`\n]*`", "", _prose(_read(path)))
    return re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose)


def test_there_are_docs_pages_and_the_readme_links_each_one():
    readme = _read(README)
    names = [os.path.basename(p) for p in PAGES]
    assert {"verify.md", "specs.md", "ci.md", "how-verdicts-are-decided.md", "python-api.md",
            "architecture.md"} <= set(names), names
    for name in names:
        assert f"(docs/{name})" in readme, f"the README does not link docs/{name}"


def test_the_readme_stays_short():
    lines = _read(README).count("\n")
    assert lines < 150, f"README.md has {lines} lines: move detail into docs/"


@pytest.mark.parametrize("path", PAGES, ids=_name)
def test_each_page_has_a_title_and_an_introduction(path):
    text = _read(path)
    assert text.startswith("# "), f"{_name(path)} should start with a `# ` title"
    intro = text.split("\n", 1)[1].split("\n## ", 1)[0]
    assert len(re.sub(r"```.*?```", "", intro, flags=re.S).split()) >= 25, \
        f"{_name(path)} needs a short introduction before its first section"


@pytest.mark.parametrize("path", EVERY, ids=_name)
def test_every_relative_link_resolves_inside_the_repository(path):
    links = _links(path)
    if path != os.path.join(ROOT, "specs", "README.md"):
        assert links, f"{_name(path)} links nowhere"
    problems = []
    for link in links:
        if re.match(r"[a-z][a-z0-9+.-]*:", link):  # https:, mailto:: outside the repository by intent
            continue
        target, _, anchor = link.partition("#")
        file = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
        if os.path.commonpath([file, ROOT]) != ROOT:
            problems.append(f"{link}: outside the repository")
        elif not os.path.exists(file):
            problems.append(f"{link}: no such file")
        elif anchor and (not file.endswith(".md") or anchor not in _anchors(file)):
            problems.append(f"{link}: no heading #{anchor} in {_name(file)}")
    assert not problems, f"{_name(path)}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", EVERY, ids=_name)
def test_no_page_points_outside_the_repository(path):
    text = _read(path)
    assert "../shared" not in text and "DESIGN.md" not in text
    assert not re.search(r"\]\((/|file:)", text), "an absolute link"
    assert not re.search(r"(?<![\w.~])/(work|tmp|home|root)/", text), "a path of one machine"


def _commands(path: str) -> list[str]:
    """Every `verify ...` command shown: the lines of shell blocks (```sh and indented blocks), the `$ `-prompted
    lines of output blocks (```text), the `run:` and `entry:` values of YAML blocks, and inline code spans that
    start with `verify `. Output lines (a report that happens to begin with "verify") are not commands."""
    text = _read(path)
    found = []
    blocks = _fenced(text) + [("sh", b) for b in re.findall(INDENTED, _unfenced(text))]
    for language, block in blocks:
        for line in block.splitlines():
            if language in ("", "sh", "bash", "shell", "console"):
                line = re.sub(r"^\s*(?:\$ )?", "", line)
            elif language == "yaml":
                line = re.sub(r"^\s*(?:- )?(?:run|entry): ", "", line)
            elif language == "text" and line.startswith("$ "):
                line = line[2:]
            else:
                continue
            if re.match(r"verify(\s|$)", line):
                found.append(line)
    for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", _prose(text)):
        span = " ".join(span.split())
        if re.match(r"verify(\s|$)", span):
            found.append(span)
    return found


def _argvs(command: str) -> list[list[str]]:
    """The argument lists of each `verify` in a shell command, up to a redirection, pipe or comment."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out, current, skip = [], None, False
    for token in lexer:
        if token in ("|", "||", "&&", ";"):
            current, skip = None, False
        elif skip or token in (">", ">>", "<", "2>", "&>") or re.fullmatch(r"\d?>+&?\d?", token):
            skip = True  # the redirection's target, and anything after it, is not an argument of verify
        elif current is None:
            if token == "verify":
                current = []
                out.append(current)
            else:
                skip = True  # another program in the pipeline
        else:
            current.append(token)
    return out


COMMANDS = [(path, command) for path in [README, *PAGES] for command in _commands(path)]


def test_the_docs_show_commands():
    per_page = {_name(p) for p, _ in COMMANDS}
    for page in ("README.md", "docs/verify.md", "docs/design.md", "docs/decide-evaluate.md", "docs/ci.md"):
        assert page in per_page, f"{page} shows no verify command"
    assert len(COMMANDS) >= 40


@pytest.mark.parametrize("path,command", COMMANDS, ids=[f"{_name(p)}: {c[:60]}" for p, c in COMMANDS])
def test_every_verify_command_parses(path, command, tmp_path, monkeypatch):
    """`--help` appended: the command line is parsed as written (options, choices, values) and nothing runs."""
    monkeypatch.chdir(tmp_path)  # no file named like a subcommand, and nothing is written into the checkout
    argvs = _argvs(command)
    assert argvs, command
    for argv in argvs:
        out, err = io.StringIO(), io.StringIO()
        status = check([*argv, "--help"], out, err)
        assert status == 0, f"{_name(path)}: `verify {shlex.join(argv)}` does not parse:\n{err.getvalue()}"


def _options() -> set[str]:
    """Every long option of `verify` and its subcommands, as their help lists them."""
    found = set()
    for argv in [[], *[[name] for name in SUBCOMMANDS]]:
        out = io.StringIO()
        assert check([*argv, "--help"], out, io.StringIO()) == 0
        found |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", out.getvalue()))
    return found


def test_the_command_parser_check_is_not_vacuous(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for wrong in (["specs/ha.yaml", "--widht", "100"], ["design", "x.yaml", "--setting", "choise"],
                  ["decide", "x.yaml", "--pp", "h=1"], ["evaluate", "x.yaml", "p.csv", "--table", "latek"]):
        assert check([*wrong, "--help"], io.StringIO(), io.StringIO()) == 2, wrong
    assert _argvs('verify specs/ --format markdown >> "$GITHUB_STEP_SUMMARY"  # a comment') == \
        [["specs/", "--format", "markdown"]]
    assert _argvs("verify explain P4 | verify schema") == [["explain", "P4"], ["schema"]]


def test_every_long_option_named_in_the_docs_exists():
    known = _options()
    benchmarks = "".join(_read(os.path.join(ROOT, "benchmarks", n)) for n in os.listdir(
        os.path.join(ROOT, "benchmarks")) if n.endswith(".py"))
    problems = []
    # the README's test command passes pytest's own options (pytest-xdist's `-n auto --dist loadgroup`)
    known = set(known) | {"--dist"}
    for path in [README, *PAGES]:
        for option in set(re.findall(r"(?<![\w/-])--[a-z][a-z0-9-]*", _read(path))):
            if option not in known and f'"{option}"' not in benchmarks:
                problems.append(f"{_name(path)}: {option}")
    assert not problems, "options that neither verify nor a benchmark has:\n  " + "\n  ".join(sorted(problems))


def _text_files() -> list[str]:
    """The pages, CONTRIBUTING.md, the configuration and CI entry point, and the code of verifier/, tests/ and
    benchmarks/: every place that names a test file or directory (the CHANGELOG names past paths, as it should)."""
    found = [*EVERY, os.path.join(ROOT, "CONTRIBUTING.md"), os.path.join(ROOT, "pyproject.toml"),
             os.path.join(ROOT, ".ci", "run")]
    for top in ("verifier", "tests", "benchmarks"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            found += [os.path.join(folder, n) for n in names if n.endswith((".py", ".md", ".txt", ".sh"))]
    return found


def test_every_test_path_named_anywhere_exists():
    """tests/ is arranged as the code is, and a file moves with its feature: a page, a docstring or the slow list
    that still names the old path would send a reader (or a marker) nowhere."""
    problems = []
    for path in _text_files():
        for named in set(re.findall(r"(?<![\w/.-])tests/[\w./-]*\w", _read(path))):
            if "artifacts" not in named and not os.path.exists(os.path.join(ROOT, named)):
                problems.append(f"{_name(path)}: {named}")
    assert not problems, "paths under tests/ that do not exist:\n  " + "\n  ".join(sorted(problems))


def _python_blocks() -> list[str]:
    text = _read(os.path.join(DOCS, "python-api.md"))
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_python_api_examples_run(monkeypatch):
    """The self-contained examples (those that import what they use) after the first, which
    tests/repository/test_readme.py runs; the conformal one names other libraries' objects and is only shown."""
    blocks = [b for b in _python_blocks()[1:] if b.startswith("import verifier")]
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    for block in blocks:
        if "sklearn" in block and importlib.util.find_spec("sklearn") is None:
            continue  # scikit-learn is in the `test` extra; a developer's environment may lack it
        scope: dict = {}
        exec(compile(block, "docs/python-api.md", "exec"), scope)  # our own documentation, not spec text
        if "designed" in scope:
            assert scope["designed"].status == "designed"
            assert scope["scores"].records()[0]["mean_cost_exact"] == "21/80"


# -- pinning the tool in CI (issue 42, found by a newcomer) ----------------------------------------------------
def test_the_ci_docs_pin_a_commit_not_a_tag_that_does_not_exist():
    text = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()
    assert "release tag>" not in text
    assert "rev: <a full commit hash of this repository>" in text and "git rev-parse HEAD" in text
