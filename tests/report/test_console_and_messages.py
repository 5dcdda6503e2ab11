"""What a user reads: tables that fit 80, 100 and 120 columns, every independent mistake of a spec at once with
"did you mean", PyYAML errors in the tool's words, the negative-cost warning, and a progress bar that moves
within one spec."""

from __future__ import annotations

import io
import os
import re
import textwrap

import pytest

from conftest import SPECS


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize("stem", ["ha-numeric", "ordinal-l1-9", "ha", "abellan-masegosa"])
def test_every_line_fits_the_width(stem, width, cli):
    code, out, _ = cli(os.path.join(SPECS, f"{stem}.yaml"), "--width", str(width), "--color", "never")
    assert code == 0
    longest = max(out.splitlines(), key=len)
    assert len(longest) <= width, longest


def test_a_wide_matrix_is_folded_with_the_set_column_repeated(cli):
    _, out, _ = cli(os.path.join(SPECS, "ordinal-l1-9.yaml"), "--width", "80", "--color", "never", "-v")
    headers = [line for line in out.splitlines() if re.match(r"  Y +y = \d", line)]
    assert len(headers) == 2 and "y = 1" in headers[0] and "y = 9" in headers[1]


def test_long_evidence_wraps_inside_its_column(cli):
    _, out, _ = cli(os.path.join(SPECS, "ha-numeric.yaml"), "--width", "80", "--color", "never", "-v")
    section = out.split("Each predicted set")[1].split("Possible (Definition 4)")[0]
    evidence_column = section.splitlines()[3].index("evidence")
    continued = [line for line in section.splitlines()[5:] if line.strip() and not line.lstrip().startswith("{")]
    assert continued and all(line[:evidence_column].strip() == "" for line in continued)


MANY_MISTAKES = textwrap.dedent("""\
    name: many mistakes
    classes: [a, b, c]
    cots: "0 if y == yhat else 1"
    set_cost: "mean([c(yh, y) for yh in Y]) if y in Y else 1 +"
    setting: choise
    expect: {P11: holds}
    """)


def test_independent_mistakes_are_all_reported_at_once_with_did_you_mean(tmp_path, cli):
    spec = tmp_path / "many.yaml"
    spec.write_text(MANY_MISTAKES)
    code, out, err = cli(str(spec))
    assert code == 2 and not out
    lines = [line for line in err.splitlines() if line.startswith(str(spec))]
    assert [re.match(r".*?:(\d+):", line).group(1) for line in lines] == ["3", "4", "5", "6"]
    assert "unknown key 'cots'; did you mean 'cost'?" in err
    assert "unknown setting; did you mean 'choice'?" in err
    assert "at key 'set_cost'" in err and "unknown property 'P11'" in err


def test_a_misspelled_function_gets_did_you_mean(tmp_path, cli):
    spec = tmp_path / "f.yaml"
    spec.write_text('name: f\nclasses: [a, b]\ncost: "0 if y == yhat else 1"\n'
                    'set_cost: "meen([c(yh, y) for yh in Y])"\n')
    code, _, err = cli(str(spec))
    assert code == 2 and "unknown function 'meen'; did you mean 'mean'?" in err and "f.yaml:4:" in err


@pytest.mark.parametrize("text, said", [
    ("name: x\nclasses: [a, b\n", "the list [...] opened at line 2, column 10 is not closed"),
    ("name: {a: 1\n", "the mapping {...} opened at line 1, column 7 is not closed"),
    ('name: "abc\n', "the quoted text opened at line 1, column 7 is not closed"),
    ("name: x\n\tclasses: 3\n", "a tab character; YAML indents with spaces only"),
    ("name: a: b\n", "a value that contains ': ' must be quoted"),
])
def test_yaml_syntax_errors_are_explained_in_the_tools_words(tmp_path, text, said, cli):
    spec = tmp_path / "y.yaml"
    spec.write_text(text)
    code, _, err = cli(str(spec))
    assert code == 2 and said in err and err.startswith(f"{spec}:") and "<stream end>" not in err


def test_negative_costs_get_a_warning(tmp_path, cli):
    spec = tmp_path / "neg.yaml"
    spec.write_text('name: neg\nclasses: [a, b, c]\nset_cost: "-1 if y in Y else 1"\n')
    code, out, _ = cli(str(spec), "--color", "never")
    assert code == 0 and "warning: 12 cost(s) are negative (e.g. c{a}(a) = -1)" in " ".join(out.split())


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_analysis_reports_each_stage_to_the_progress_callback():
    import verifier

    stages = []
    verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False, progress=stages.append)
    assert stages[0] == "building the extended matrix" and "P3 reward rightful cautiousness" in stages
    # then what the displays show, made by the run (issue 64): the pictures' numbers last, for detail="full"
    assert stages[stages.index("re-checking the evidence independently") + 1:] == [
        "making the first steps to fit each setting", "making how to fit each setting",
        "making every set's optimality", "making the pictures' numbers"]
    assert len(stages) <= verifier.api.PROGRESS_STAGES


def test_the_progress_bar_moves_within_one_spec_and_stays_out_of_the_report(cli):
    err = _Terminal()
    code, out, _ = cli(os.path.join(SPECS, "ordinal-l1-9.yaml"), "--no-cache", "-v", stderr=err)
    percents = {int(p) for p in re.findall(r"(\d+)%", err.getvalue())}
    assert code == 0 and "Extended cost matrix" in out
    assert len({p for p in percents if 0 < p < 100}) >= 2  # it moved before the spec was finished
    assert "verifying" in err.getvalue() and "verifying" not in out


# Found by an adversarial review of issue 11's reports (formerly in test_review_regressions.py).
@pytest.mark.parametrize("width", [40, 60])
@pytest.mark.parametrize("stem", ["abellan-masegosa", "table-vii", "ha"])
def test_narrow_terminals_get_lines_that_fit(stem, width, cli):
    code, out, _ = cli(os.path.join(SPECS, f"{stem}.yaml"), "--width", str(width), "--color", "never")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= width
