"""Attacks on what a command writes (issue 37, item 12): no output of any command may be one of its inputs, by
the same name, another spelling, a hard link or a symbolic link. Each test plants the files in a temporary
directory, runs the command, and checks the exit status, the message (the option, the output, the input it
would replace) and that not one byte or modification time in the directory changed.

Origin: attacks for issue 37, item 12; formerly test_attacks_outputs.py."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import verifier
from verifier.errors import UsageError

from conftest import SPECS
from untouched import located, snapshot

HA = os.path.join(SPECS, "ha-numeric.yaml")  # three classes: its report has a ternary picture
OPEN = os.path.join(SPECS, "design", "obstacle-open.yaml")
U65 = os.path.join(SPECS, "accuracy-u65.yaml")
# JSON is YAML: a spec written as JSON is a working spec, whatever its file is called
AS_JSON = ('{"name": "accuracy as JSON", "classes": ["a", "b", "c"], "cost": "0 if yhat == y else 1", '
           '"set_cost": "0 if y in Y and len(Y) == 1 else (0.5 if y in Y else 1)"}\n')


# -- verify --report / --figures -----------------------------------------------------------------------------------

def test_a_json_spec_is_not_replaced_by_its_json_report(tmp_path, monkeypatch, cli):
    (tmp_path / "spec.json").write_text(AS_JSON)
    monkeypatch.chdir(tmp_path)
    assert cli("spec.json", "--format", "json")[0] == 0  # the attack is real: it is a working spec
    located(tmp_path, ["spec.json", "--report", "."],
            "--report '.' would write './spec.json', which is the input spec 'spec.json'", "would replace it",
            "nothing was written")


def test_a_spec_named_like_a_markdown_report_is_not_replaced(tmp_path, monkeypatch):
    (tmp_path / "t.md").write_text(AS_JSON)
    monkeypatch.chdir(tmp_path)
    located(tmp_path, ["t.md", "--report", "."], "--report '.' would write './t.md', which is the input spec 't.md'")
    located(tmp_path, [tmp_path / "t.md", "--report", tmp_path / "." / "."], "which is the input spec")


def test_another_spec_of_the_run_is_not_replaced_by_a_report(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    shutil.copy(HA, tmp_path / "sub" / "t.yaml")
    (tmp_path / "t.md").write_text(AS_JSON)
    monkeypatch.chdir(tmp_path)
    # the first spec's report is ./t.md: the second spec, refused before the first is verified
    located(tmp_path, ["sub/t.yaml", "t.md", "--report", "."], "would write './t.md', which is the input spec 't.md'")


def test_a_spec_piped_in_from_a_report_name_is_not_replaced(tmp_path, monkeypatch):
    reports = tmp_path / "reports"
    reports.mkdir()
    shutil.copy(HA, reports / "stdin.md")  # `verify - --report reports < reports/stdin.md`
    with open(reports / "stdin.md", encoding="utf-8") as piped:
        monkeypatch.setattr("sys.stdin", piped)
        located(tmp_path, ["-", "--report", reports], f"would write '{reports / 'stdin.md'}', which is the input "
                "spec '-' (standard input)")


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_a_report_name_linked_to_the_spec_is_refused(tmp_path, link):
    spec = tmp_path / "scheme.yaml"
    shutil.copy(HA, spec)
    reports = tmp_path / "reports"
    reports.mkdir()
    (os.link if link == "hard" else os.symlink)(spec, reports / "scheme.json")
    located(tmp_path, [spec, "--report", reports], f"would write '{reports / 'scheme.json'}', which is the input spec",
            "(the same file by another name)")


@pytest.mark.parametrize("link", ["copy", "hard", "symbolic"])
def test_a_figure_name_that_is_an_input_is_refused(tmp_path, monkeypatch, link):
    shutil.copy(HA, tmp_path / "ha.yaml")
    figures = tmp_path / "figs"
    figures.mkdir()
    if link == "copy":  # a second spec of the run, named as ha.yaml's ternary picture
        shutil.copy(HA, figures / "ha-ternary.svg")
        inputs, culprit = [tmp_path / "ha.yaml", figures / "ha-ternary.svg"], figures / "ha-ternary.svg"
    else:
        (os.link if link == "hard" else os.symlink)(tmp_path / "ha.yaml", figures / "ha-ternary.svg")
        inputs, culprit = [tmp_path / "ha.yaml"], tmp_path / "ha.yaml"
    located(tmp_path, [*inputs, "--figures", figures], f"--figures '{figures}' would write "
            f"'{figures / 'ha-ternary.svg'}', which is the input spec '{culprit}'")


def test_report_names_are_planned_before_any_spec_is_verified(tmp_path, cli):
    """A spec's report names do not depend on whether an earlier spec was valid: the pre-check sees exactly
    the names that are then written."""
    for folder, text in (("one", "name: broken\n"), ("two", open(HA).read())):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "scheme.yaml").write_text(text)
    reports = tmp_path / "reports"
    code, _, err = cli(tmp_path / "one" / "scheme.yaml", tmp_path / "two" / "scheme.yaml", "--report", reports,
                       "--quiet")
    assert code == 2 and "one/scheme.yaml" in err
    assert sorted(p.name for p in reports.iterdir()) == ["scheme-2.html", "scheme-2.json", "scheme-2.md"]


# -- design -o / --plot, evaluate --plot ---------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["-o", "--plot"])
@pytest.mark.parametrize("link", ["same", "hard", "symbolic"])
def test_design_never_writes_over_its_spec(tmp_path, option, link):
    spec = tmp_path / ("t.md" if option == "-o" else "t.svg")
    shutil.copy(OPEN, spec)
    output = spec if link == "same" else tmp_path / ("out.yaml" if option == "-o" else "out.svg")
    if link != "same":
        (os.link if link == "hard" else os.symlink)(spec, output)
    located(tmp_path, ["design", spec, option, output], f"{option} would write '{output}', which is the input spec "
            f"'{spec}'", "would replace it")


def _probabilities(tmp_path, name: str):
    (tmp_path / name).write_text("h,b,n\n0.2,0.3,0.5\n0.6,0.2,0.2\n")
    (tmp_path / "truth.txt").write_text("n\nh\n")
    return tmp_path / name


def test_evaluate_plot_never_writes_over_a_probabilities_file(tmp_path):
    probs = _probabilities(tmp_path, "probs.svg")
    located(tmp_path, ["evaluate", U65, "--probabilities", probs, "--truth",
                       tmp_path / "truth.txt", "--plot", probs],
            f"--plot would write '{probs}', which is the input --probabilities '{probs}'")


def test_evaluate_plot_never_writes_over_predictions_or_truth_through_a_link(tmp_path):
    (tmp_path / "preds.png").write_text("true,predicted\nh,h\nb,\"h,b\"\n")
    os.symlink(tmp_path / "preds.png", tmp_path / "plot.png")
    spec = tmp_path / "u65.yaml"
    shutil.copy(U65, spec)
    located(tmp_path, ["evaluate", spec, tmp_path / "preds.png", "--plot", tmp_path / "plot.png"],
            f"which is the input predictions '{tmp_path / 'preds.png'}' (the same file by another name)")
    np.save(tmp_path / "masks.npy", np.array([[True, False, False]]))
    (tmp_path / "truth.txt").write_text("0\n")
    os.link(tmp_path / "truth.txt", tmp_path / "curves.svg")
    located(tmp_path, ["evaluate", spec, tmp_path / "masks.npy", "--truth", tmp_path / "truth.txt", "--plot",
                       tmp_path / "curves.svg"], f"which is the input --truth '{tmp_path / 'truth.txt'}'")


# -- the Python API: Report.write and Report.figures ---------------------------------------------------------------

def test_report_write_never_replaces_its_own_spec(tmp_path):
    (tmp_path / "spec.json").write_text(AS_JSON)
    report = verifier.verify(str(tmp_path / "spec.json"), cache=False)
    before = snapshot(tmp_path)
    with pytest.raises(UsageError, match=r"--report would write '.*spec\.json', which is the input spec"):
        report.write(str(tmp_path))
    assert snapshot(tmp_path) == before
    assert sorted(report.write(str(tmp_path / "out"))) == sorted(
        str(tmp_path / "out" / f"spec.{s}") for s in ("html", "json", "md"))


def test_report_figures_never_replace_its_own_spec(tmp_path):
    spec = tmp_path / "ha.yaml"
    shutil.copy(HA, spec)
    report = verifier.verify(str(spec), cache=False)
    os.link(spec, tmp_path / "ha-ternary.svg")
    before = snapshot(tmp_path)
    with pytest.raises(UsageError, match="which is the input spec"):
        report.figures(str(tmp_path), formats=("svg",))
    assert snapshot(tmp_path) == before


# -- design's outputs, attacked (issue 24; formerly in test_attacks_files.py) ----------------------------------
def test_design_refuses_to_write_over_its_input(tmp_path, cli):
    spec = tmp_path / "open.yaml"
    spec.write_text(open(OPEN, encoding="utf-8").read())
    original = spec.read_bytes()
    os.link(spec, tmp_path / "hard.yaml")
    (tmp_path / "soft.yaml").symlink_to(spec)
    for output in (spec, tmp_path / "hard.yaml", tmp_path / "soft.yaml", tmp_path / ".." / tmp_path.name / "open.yaml"):
        code, _, err = cli("design", spec, "-o", output)
        assert code == 2 and "is the input" in err and "would replace it" in err
    code, _, err = cli("design", spec, "-o", tmp_path / "x.svg", "--plot", tmp_path / "x.svg")
    assert code == 2 and "name the same file" in err
    assert spec.read_bytes() == original
