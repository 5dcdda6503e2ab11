"""One command line: every subcommand answers -h/--help with its options, defaults, examples and exit codes; the
shared options are spelled and explained the same way everywhere; a misspelled option or choice gets a "did
you mean"; help, version, explain and schema load none of the solvers; --format markdown and a directory's
summary table."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS

SUBCOMMANDS = [[], ["check"], ["design"], ["decide"], ["evaluate"], ["explain"], ["schema"]]


@pytest.mark.parametrize("sub", SUBCOMMANDS, ids=lambda s: s[0] if s else "verify")
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_subcommand_has_help_with_examples_and_exit_codes(sub, flag, cli):
    code, out, err = cli(*sub, flag)
    assert code == 0 and not err
    assert out.startswith("usage: verify") and "examples:" in out and "exit status:" in out
    assert "-h, --help" in out


@pytest.mark.parametrize("sub, option", [([], "--format"), (["design"], "--format"), (["decide"], "--format"),
                                         (["evaluate"], "--format"), ([], "--time-limit"),
                                         (["decide"], "--time-limit"), (["evaluate"], "--time-limit"),
                                         ([], "--timeout"), (["design"], "--timeout"), ([], "--quiet"),
                                         (["decide"], "--quiet"), (["evaluate"], "--quiet")])
def test_shared_options_read_the_same_everywhere(sub, option, cli):
    _, out, _ = cli(*sub, "--help")
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(option) or f", {option}" in line)
    block = [lines[start]] + [line for line in lines[start + 1:start + 5] if line.startswith(" " * 20)]
    text = " ".join(block)
    assert "default" in text or option == "--quiet"
    assert ("no progress bars" in text) if option == "--quiet" else True


@pytest.mark.parametrize("argv, hint", [
    (["--formt", "json", "specs/ha.yaml"], "did you mean '--format'?"),
    (["--format", "jsn", "specs/ha.yaml"], "did you mean 'json'?"),
    (["decide", "specs/obstacle-discounted.yaml", "--intervals", "h=0:1", "--rule", "maximalty"],
     "did you mean 'maximality'?"),
    (["design", "specs/design/ha-delta.yaml", "--seting", "choice"], "did you mean '--setting'?"),
    (["evaluate", "specs/accuracy-u65.yaml", "x.csv", "--tabel", "csv"], "did you mean '--table'?"),
    (["explain", "non-dominanse"], "did you mean 'non-dominance'?"),
])
def test_misspellings_get_a_did_you_mean(argv, hint, cli):
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code, out, err = cli(*argv)
    finally:
        os.chdir(cwd)
    assert code == 2 and hint in err and "Traceback" not in err and not out


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["explain"], ["explain", "P4"], ["schema"],
                                  ["decide", "--help"], ["design", "--help"]])
def test_help_version_explain_and_schema_load_no_solver(argv):
    """They answer in a few hundredths of a second because they import neither sympy nor z3 nor rich."""
    code = ("import io, sys\nfrom verifier.cli import check\n"
            f"assert check({argv!r}, io.StringIO(), io.StringIO()) == 0\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'z3', 'rich', 'numpy'))))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""


def test_a_directory_prints_one_line_per_spec_then_one_table(cli):
    code, out, _ = cli(SPECS, "--width", "100")
    lines = out.splitlines()
    assert code == 0
    table = lines.index(next(line for line in lines if line.startswith("spec ") and "P10" in line))
    stems = [name[:-5] for name in sorted(os.listdir(SPECS)) if name.endswith(".yaml")]
    assert [line.split()[0] for line in lines[:len(stems)]] == stems  # one line per spec, as it finishes
    assert sorted(line.split()[0] for line in lines[table + 2:table + 2 + len(stems)]) == sorted(stems)
    assert len(lines) < 3 * len(stems)  # not thousands of lines


def test_markdown_for_a_step_summary(cli):
    code, out, _ = cli(os.path.join(SPECS, "ha-numeric.yaml"), "--format", "markdown")
    assert code == 0 and out.startswith("## verify: ")
    assert "| spec | P1 | P2 |" in out and "| P3 | reward rightful cautiousness | fails |" in out
    code, out, _ = cli(SPECS, "--format", "markdown")
    assert code == 0 and out.count("\n| `") == len([n for n in os.listdir(SPECS) if n.endswith(".yaml")])


def test_verbose_is_the_full_report(cli):
    _, short, _ = cli(os.path.join(SPECS, "ha-numeric.yaml"), "--width", "100")
    _, full, _ = cli(os.path.join(SPECS, "ha-numeric.yaml"), "--width", "100", "-v")
    assert "Extended cost matrix" in full and "Extended cost matrix" not in short
    assert "verify -v" in short and len(full.splitlines()) > 2 * len(short.splitlines())


def test_a_subcommand_is_the_subcommand_even_beside_a_folder_of_its_name(tmp_path, monkeypatch, cli):
    """Issue 64, item 5: with a check/ folder in the working directory (a CI repository's), `verify check CERT`
    ran the spec checker on the folder; a spec of that name is ./check."""
    import shutil

    from conftest import SPECS

    monkeypatch.chdir(tmp_path)
    (tmp_path / "check").mkdir()
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "check" / "s.yaml")
    code, out, err = cli("check", "--help")
    assert code == 0 and "Re-check a verify certificate" in out
    code, out, err = cli("check", "missing.json")
    assert code == 2 and err.startswith("verify check: missing.json: malformed certificate: cannot read it")
    code, out, err = cli("./check", "--no-cache", "--quiet")
    assert code == 0, err  # the folder of specs, as a path
