"""Attacks on report writing and on what reaches a reader: the test sets up the symlink, the file where a
directory belongs, the unwritable directory, the colliding names and the escape sequences, and checks the
outcome and that nothing outside the temporary directory changed.

Origin: hostile files and environments, issue 11; formerly test_hostile_reports.py."""

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

import verifier

from conftest import ROOT, SPECS

TABLE_VI = os.path.join(SPECS, "table-vi.yaml")


def test_a_symlink_in_the_report_directory_is_replaced_not_written_through(tmp_path, cli):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "table-vi.md").symlink_to(victim)
    code, _, err = cli(TABLE_VI, "--report", str(reports), "--quiet")
    assert code == 0
    assert victim.read_text() == "precious"
    assert not (reports / "table-vi.md").is_symlink() and (reports / "table-vi.md").read_text().startswith("# ")
    assert "wrote" in err and str(reports / "table-vi.md") in err
    assert sorted(p.name for p in reports.iterdir()) == ["table-vi.html", "table-vi.json", "table-vi.md"]


def test_specs_that_would_share_a_report_name_get_distinct_names(tmp_path, cli):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        shutil.copy(TABLE_VI, tmp_path / folder / "scheme.yaml")
    reports = tmp_path / "reports"
    code, _, _ = cli(str(tmp_path / "one"), str(tmp_path / "two"), "--report", str(reports), "--quiet")
    assert code == 0
    assert sorted(p.name for p in reports.iterdir()) == [
        "scheme-2.html", "scheme-2.json", "scheme-2.md", "scheme.html", "scheme.json", "scheme.md"]
    for stem in ("scheme", "scheme-2"):
        assert json.loads((reports / f"{stem}.json").read_text())["spec"].endswith("scheme.yaml")


def test_a_report_directory_that_cannot_be_used_is_a_usage_error_before_any_work(tmp_path, cli):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = cli(TABLE_VI, "--report", str(blocker / "sub"))
    assert code == 2 and "cannot create the directory" in err and not out
    if os.geteuid() != 0:  # root may write anywhere: the permission attack means nothing then
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        code, out, err = cli(TABLE_VI, "--report", str(locked))
        assert code == 2 and "not writable" in err
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "x")
    code, _, err = cli(TABLE_VI, "--report", str(dangling))
    assert code == 2 and "not a directory" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "file"] + (["locked"] if os.geteuid() else [])


def test_a_spec_file_name_cannot_place_a_report_outside_the_directory(tmp_path, cli):
    odd = tmp_path / "..evil name;$(x).yaml"
    shutil.copy(TABLE_VI, odd)
    reports = tmp_path / "reports"
    code, _, _ = cli(str(odd), "--report", str(reports), "--quiet")
    assert code == 0
    assert sorted(p.name for p in reports.iterdir()) == ["evil_name___x_.html", "evil_name___x_.json",
                                                         "evil_name___x_.md"]


HOSTILE = """name: "Evil \\e[31mred\\e[0m \\u202escheme <script>alert(1)</script>"
description: "moves \\e[2J the cursor <img src=x onerror=alert(1)> &amp;"
source: "<!-- hidden --> cite"
classes: [a, b]
cost: "0 if yhat == y else 1"
set_costs:
  "a,b": [0.5, 0.5]
"""


def test_escape_sequences_and_html_from_a_spec_never_reach_a_reader(tmp_path, cli):
    spec = tmp_path / "evil.yaml"
    spec.write_text(HOSTILE, encoding="utf-8")
    code, out, err = cli(str(spec), "--report", str(tmp_path / "r"), "--color", "never")
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out and "Evil [31mred" in out
    md = (tmp_path / "r" / "evil.md").read_text(encoding="utf-8")
    assert "<script" not in md and "<img" not in md and "<!--" not in md and "\x1b" not in md
    assert "&lt;script>" in md
    page = (tmp_path / "r" / "evil.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<img" not in page and "\x1b" not in page and "\u202e" not in page
    notebook = verifier.verify(str(spec), cache=False)._repr_html_()
    assert "<script" not in notebook and "\x1b" not in notebook


def test_a_class_name_with_control_characters_is_refused(tmp_path, cli):
    spec = tmp_path / "ctl.yaml"
    spec.write_text('name: x\nclasses: ["a\\e[2J", b]\ncost: "0 if yhat == y else 1"\n', encoding="utf-8")
    code, _, err = cli(str(spec))
    assert code == 2 and "control characters" in err and "\x1b" not in err


@pytest.mark.parametrize("path", ["/dev/null"])
def test_special_files_are_invalid_specs(path, cli):
    code, _, err = cli(path)
    assert code == 2 and "Traceback" not in err


def test_a_planted_symlink_in_the_cache_is_replaced_not_written_through(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    first = verifier.verify(TABLE_VI)  # learn the entry's name, then plant a link there
    (entry,) = (tmp_path / "cache").glob("*.json")
    entry.unlink()
    entry.symlink_to(victim)
    first._remember(first.summary, {})
    assert victim.read_text() == "precious" and not entry.is_symlink()
    assert verifier.verify(TABLE_VI).cached_at is not None


# Found by an adversarial review of issue 11's reports (formerly in test_review_regressions.py).
def test_reports_of_a_spec_from_stdin_are_named_stdin(tmp_path):
    text = open(os.path.join(SPECS, "table-vi.yaml"), encoding="utf-8").read()
    done = subprocess.run([sys.executable, "-m", "verifier", "-", "--report", "out", "--quiet"], cwd=tmp_path,
                          input=text, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0 and sorted(os.listdir(tmp_path / "out")) == ["stdin.html", "stdin.json", "stdin.md"]
