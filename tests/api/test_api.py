"""The Python API: one scheme verified from a path, YAML text or a dict gives the same report; errors carry
their location; a notebook cell shows the report; the cache answers without re-analysing."""

import json
import os
from fractions import Fraction

import pytest
import sympy as sp
import yaml

import verifier

from conftest import SPECS

HA = os.path.join(SPECS, "ha-numeric.yaml")
TABLE_VI = os.path.join(SPECS, "table-vi.yaml")


def _text(path: str) -> str:
    return open(path, encoding="utf-8").read()


@pytest.mark.parametrize("spec", ["ha-numeric.yaml", "table-vi.yaml", "abellan-masegosa.yaml", "accuracy-u65.yaml"])
def test_path_text_and_dict_give_the_same_report(spec):
    path = os.path.join(SPECS, spec)
    from_path = verifier.verify(path, cache=False)
    from_text = verifier.verify(_text(path), cache=False)
    from_dict = verifier.verify(yaml.safe_load(_text(path)), cache=False)
    for other in (from_text, from_dict):
        assert other.verdicts == from_path.verdicts
        assert other.evidence == from_path.evidence
        assert other.fits == from_path.fits
        assert other.matrix == from_path.matrix
    assert from_text.source == "<text>" and from_dict.source == "<dict>" and from_path.source == path


def test_report_fields_match_the_paper():
    """Ha's rule with eta = (1, 2, 4), delta = 0.4: P3 fails on Y = Omega, y = a (4/5 against 2/3)."""
    report = verifier.verify(HA, cache=False)
    assert report.name.startswith("Ha's class-selective rejection")
    assert report.classes == ("a", "b", "c")
    assert set(report.verdicts) == {f"P{i}" for i in range(1, 11)}
    assert report.verdicts["P3"] == "fails" and report.verdicts["P10"] == "fails"
    assert "Y = {a, b, c}" in report.evidence["P3"] and "y = a" in report.evidence["P3"]
    assert report.fits == {"filtering": False, "choice": False}
    assert report.matrix[("a", "b", "c")] == (sp.Rational(4, 5),) * 3  # 2 delta, every class inside
    assert report.matrix[("a",)] == (0, 2, 4)
    assert all(isinstance(v, sp.Basic) for row in report.matrix.values() for v in row)
    assert len(report.matrix) == 2 ** 3 - 1
    assert report.expectations_met and report.cached_at is None
    assert "P3=fails" in repr(report)


def test_json_is_the_command_lines_json(capsys, cli):
    report = verifier.verify(TABLE_VI, cache=False)
    _, out, _ = cli("--format", "json", TABLE_VI)
    printed = json.loads(out)
    mine = report.to_json()
    for record in (printed, mine):
        record.pop("seconds")
    assert printed == mine


def test_markdown_html_and_the_notebook_view():
    report = verifier.verify(TABLE_VI, cache=False)
    assert report.to_markdown().startswith("# ")
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    cell = report._repr_html_()
    assert cell.startswith('<div class="verify-report">') and cell.endswith("</div>")
    assert "<html" not in cell and "<body" not in cell and "<svg" in cell
    # the notebook's own page keeps its styles: every rule is confined to the report's <div>
    style = cell.split("<style>", 1)[1].split("</style>", 1)[0]
    assert all(rule.startswith(".verify-report") for rule in style.split("}") if rule)
    for pid, verdict in report.verdicts.items():
        assert f'<span class="{verdict}">{verdict}</span>' in cell


def test_console_text_wraps_to_the_width_asked():
    report = verifier.verify(HA, cache=False)
    for width in (80, 120):
        text = report.to_text(width=width)
        assert max(len(line) for line in text.splitlines()) <= width
    assert "\x1b[" in report.to_text(color=True) and "\x1b[" not in report.to_text()


def test_spec_error_is_located_and_reads_as_the_command_line_says(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nclasses: [a, b]\ncost: \"0 if yhat == y else 1\"\nset_cost: \"__import__('os')\"\n")
    with pytest.raises(verifier.SpecError) as caught:
        verifier.verify(str(bad), cache=False)
    error = caught.value
    # the column is the offending token's (`__import__`, after the opening quote), not the value's start
    assert (error.path, error.key, error.line, error.column) == (str(bad), "set_cost", 4, 12)
    _, _, err = cli(bad)
    assert err.strip() == str(error)


def test_spec_error_from_text_and_dict_names_the_key():
    with pytest.raises(verifier.SpecError) as caught:
        verifier.verify("name: x\nclasses: [a, b]\ncost: '0'\nsetting: sorting\n", cache=False)
    assert (caught.value.path, caught.value.key, caught.value.line) == ("<text>", "setting", 4)
    with pytest.raises(verifier.SpecError) as caught:
        verifier.verify({"name": "x", "classes": ["a", "b"], "cost": "0", "setting": "sorting"}, cache=False)
    assert (caught.value.path, caught.value.key, caught.value.line, caught.value.column) == \
        ("<dict>", "setting", None, None)
    assert "sorting" in str(caught.value) and "filtering or choice" in str(caught.value)
    with pytest.raises(verifier.SpecError):
        verifier.verify({"name": "x", "classes": ["a", "b"], "cost": float("nan")}, cache=False)
    with pytest.raises(verifier.SpecError):
        verifier.verify(os.path.join(SPECS, "no-such-spec.yaml"), cache=False)


def test_floats_in_a_dict_are_the_decimals_they_print_as():
    spec = yaml.safe_load(_text(HA))
    assert spec["parameters"]["delta"]["value"] == 0.4
    report = verifier.verify(spec, cache=False)
    assert report.matrix[("a", "b")][2] == Fraction(4) + Fraction(2, 5)  # eta[c] + delta, exactly


def test_bad_arguments_are_usage_errors():
    for kwargs in ({"timeout": 0}, {"timeout": -1}, {"timeout": float("nan")}, {"timeout": float("inf")},
                   {"classes": 1}, {"classes": 99}, {"classes": ["a", "a"]}, {"classes": "abc"}):
        with pytest.raises(verifier.UsageError):
            verifier.verify(HA, cache=False, **kwargs)
    with pytest.raises(verifier.UsageError):
        verifier.verify(12, cache=False)


def test_classes_choose_the_class_count_of_a_formula_spec():
    ha = os.path.join(SPECS, "ha.yaml")
    spec = yaml.safe_load(_text(os.path.join(SPECS, "accuracy-u65.yaml")))
    four = verifier.verify(spec, classes=4, cache=False)
    assert four.classes == ("1", "2", "3", "4") and len(four.matrix) == 15
    with pytest.raises(verifier.UsageError):  # a cost matrix fixes the classes
        verifier.verify(TABLE_VI, classes=3, cache=False)
    sweep = verifier.sweep_classes(ha, "2..3", cache=False)
    assert sweep.counts == [2, 3]
    assert sweep.verdicts[2]["P3"] == "holds" and sweep.verdicts[3]["P3"] == "fails"
    assert sweep.first_failure["P3"] == 3
    assert "first fails at" in sweep.to_text()


def test_verify_all_returns_one_report_per_spec():
    reports = verifier.verify_all(SPECS, cache=False, detail="summary")  # verdicts only
    names = sorted(n for n in os.listdir(SPECS) if n.endswith(".yaml"))
    assert [os.path.basename(r.source) for r in reports] == names
    assert all(r.expectations_met for r in reports)


def test_the_cache_answers_without_analysing_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    fresh = verifier.verify(HA)
    text = fresh.to_text()
    assert fresh.cached_at is None
    again = verifier.verify(HA)
    assert again.cached_at is not None
    assert again._subject is None  # nothing was analysed...
    assert (again.verdicts, again.evidence, again.fits) == (fresh.verdicts, fresh.evidence, fresh.fits)
    assert again.to_text() == text and again._subject is None  # ...not even to print the text seen before
    assert again.matrix == fresh.matrix  # what was never rendered is made from a fresh analysis
    # a different option is a different question
    assert verifier.verify(HA, timeout=5).cached_at is None
    # the same file rewritten differently (comments, key order) is the same question
    spec = tmp_path / "spec.yaml"
    spec.write_text(_text(HA), encoding="utf-8")
    assert verifier.verify(str(spec)).cached_at is None
    data = yaml.safe_load(_text(HA))
    spec.write_text("# a comment\n" + yaml.safe_dump(dict(reversed(list(data.items())))), encoding="utf-8")
    hit = verifier.verify(str(spec))
    assert hit.cached_at is not None and hit.verdicts == fresh.verdicts
    # the same content under another name is verified for that name: a report names the file it was asked for
    other = tmp_path / "other.yaml"
    other.write_text(_text(HA), encoding="utf-8")
    assert verifier.verify(str(other)).to_json()["spec"] == str(other)


def test_a_malformed_cache_entry_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    verifier.verify(TABLE_VI)
    for entry in tmp_path.glob("*.json"):
        entry.write_text(json.dumps({"summary": [], "outputs": {}, "stored_at": "x"}))
    assert verifier.verify(TABLE_VI).cached_at is None
    verifier.verify(TABLE_VI)
    for entry in tmp_path.glob("*.json"):
        record = json.loads(entry.read_text())
        del record["summary"]["verdicts"]["P3"]
        entry.write_text(json.dumps(record))
    assert verifier.verify(TABLE_VI).cached_at is None
    for entry in tmp_path.glob("*.json"):
        entry.write_text("{not json")
    assert verifier.verify(TABLE_VI).cached_at is None


def test_explain_states_each_property():
    for i in range(1, 11):
        text = verifier.explain(f"P{i}")
        assert text.startswith(f"P{i} ") and "Table VIII" in text and "filtering:" in text
    assert verifier.explain("non-dominance") == verifier.explain("4") == verifier.explain("P4")
    assert "∀ indeterminate Ŷ, ∀ y ∈ Ω: c_Y(y) ≥ min_ŷ∈Y c_ŷ(y)" in verifier.explain("P4")
    listing = verifier.explain()
    assert all(f"P{i} " in listing for i in range(1, 11)) and "vacuously" in listing and "tight" in listing
    with pytest.raises(verifier.UsageError, match="unknown property .P11."):
        verifier.explain("P11")


def test_verify_explain_on_the_command_line(cli):
    _, out, err = cli("explain", "P6")
    assert out.startswith("P6 mistake aversion") and "filtering: necessary" in out and not err
    _, out, err = cli("explain")
    assert "P10" in out
    assert cli("explain", "P42").code == 2
    assert cli("explain", "P1", "P2").code == 2


def test_dir_lists_the_lazily_loaded_api():
    """Issue "The answer first", item 4: `dir(verifier)` lists what `verifier.X` gives, loaded or not."""
    import verifier.api

    assert set(verifier.__all__) <= set(dir(verifier))
    assert {"verify", "design", "decide", "evaluate", "explain", "Report", "UseReport"} <= set(dir(verifier))
    assert {"decide", "evaluate", "design"} <= set(dir(verifier.api))
