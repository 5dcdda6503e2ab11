"""Option values are checked before any work: zero, negative, NaN and infinite limits are usage errors, and
`--report` takes a directory only (it never swallows a spec path)."""

import io
import os

import pytest

from verifier.cli import check

from conftest import SPECS

HA = os.path.join(SPECS, "ha-numeric.yaml")


@pytest.mark.parametrize("option", [
    ["--timeout", "0"], ["--timeout", "-1"], ["--timeout", "nan"], ["--timeout", "inf"], ["--timeout", "soon"],
    ["--rlimit", "0"], ["--rlimit", "-5"], ["--rlimit", "1.5"], ["--memory", "0"], ["--memory", "100"],
    ["--memory", "-1"], ["--width", "0"], ["--width", "-80"], ["--width", "wide"],
])
def test_bad_limits_are_usage_errors(option):
    out, err = io.StringIO(), io.StringIO()
    assert check([*option, HA], out, err) == 2
    assert err.getvalue().startswith("verify: usage error: argument " + option[0])
    assert "Traceback" not in err.getvalue() and not out.getvalue()


def test_report_never_swallows_a_spec(tmp_path):
    err = io.StringIO()
    assert check(["--report", HA], io.StringIO(), err) == 2
    assert "--report takes a directory" in err.getvalue()
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    err = io.StringIO()
    assert check([HA, "--report", str(a_file)], io.StringIO(), err) == 2
    assert "is a file" in err.getvalue() and a_file.read_text() == "x"


def test_report_into_a_directory_names_the_files(tmp_path):
    assert check([HA, "--report", str(tmp_path / "out"), "--quiet"], io.StringIO(), io.StringIO()) == 0
    assert sorted(os.listdir(tmp_path / "out")) == ["ha-numeric.html", "ha-numeric.json", "ha-numeric.md"]
