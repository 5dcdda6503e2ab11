"""A result is a value (issue 64, item 1): everything a display shows is made by the run, within its one time
limit, and every display afterwards only formats. Each report below is rendered in every format after the run
with the solvers and every maker of a report part made unavailable (a call raises); a run made for a smaller
`detail` refuses the displays it did not make for; a time limit reached while the parts are made is a cut run
that says what it did not make, is never cached, and still renders.

Origin: issue 64, item 1 (a notebook display of a four-class, two-parameter spec ran past 600 s)."""

from __future__ import annotations

import contextlib
import json
from html import unescape
from pathlib import Path

import pytest

import verifier
from verifier.errors import UsageError

from conftest import SPECS as SPEC_DIR

SPECS = Path(SPEC_DIR)
FAST = ["ha-numeric.yaml", "friedel-abstention.yaml", "table-vi.yaml", "p-discounted-symbolic.yaml",
        "friedel-abstention-symbolic.yaml", "ha.yaml", "ordinal-l1-9.yaml", "accuracy-u65-pairs.yaml"]

# three classes, two parameters, a quadratic gain: conditions over the parameter plane (sign cells) and pictures
GAIN = """name: Quadratic-gain discounted accuracy (three classes)
classes: [a1, a2, a3]
parameters:
  a: {}
  lam: {}
assume: ["a >= 1", "a <= 2.5", "lam >= 0", "lam <= 1"]
functions:
  g(x): "a * x - (a - 1) * x**2"
cost: "0 if yhat == y else 1"
set_cost: "1 - g(1 / len(Y)) if y in Y else 1 + lam * (len(Y) - 1)"
setting: choice
"""


def _forbidden(*_args, **_kwargs):
    raise AssertionError("a display called a solver or made a part of the result")


@contextlib.contextmanager
def _no_solvers(monkeypatch):
    """z3, HiGHS and every maker of a report's parts raise while the block runs."""
    import highspy
    import z3

    import verifier.analysis.drawn as drawn
    import verifier.analysis.remedy as remedy
    import verifier.analysis.simplex_regions as simplex_regions
    import verifier.analysis.symbolic_optimality as symbolic_optimality
    import verifier.designing.calibrate as calibrate
    import verifier.report.certificate.writer as writer

    with monkeypatch.context() as patch:
        for owner, name in [(z3, "Solver"), (z3, "SolverFor"), (z3, "Optimize"), (z3, "Tactic"),
                            (highspy, "Highs"), (drawn, "_spot_verdicts"), (remedy, "_how_to_fit"),
                            (simplex_regions, "simplex_regions"), (symbolic_optimality, "symbolic_optimality"),
                            (calibrate, "calibrate"), (writer, "certificate")]:
            patch.setattr(owner, name, _forbidden)
        yield


def _every_display(report, tmp_path) -> dict:
    record = {k: v for k, v in report.to_json().items() if k != "seconds"}  # the one measurement of a run
    out = {"summary": report.to_summary(), "text": report.to_text(), "json": json.dumps(record),
           "markdown": report.to_markdown(), "html": report.to_html(), "notebook": report._repr_html_(),
           "repr": repr(report), "certificate": json.dumps(report.certificate())}
    out["figures"] = sorted(report.figures(formats=("svg",)))
    out["written"] = [p.rsplit("/", 1)[-1] for p in report.write(str(tmp_path / "reports"))]
    return out


@pytest.mark.parametrize("name", FAST)
def test_every_display_of_a_bundled_spec_only_formats(name, tmp_path, monkeypatch):
    report = verifier.verify(SPECS / name, cache=False, certificate=True)
    with _no_solvers(monkeypatch):
        shown = _every_display(report, tmp_path)
    assert report.name in shown["text"] and shown["written"]
    again = verifier.verify(SPECS / name, cache=False, certificate=True)
    assert _every_display(again, tmp_path / "again") == shown  # a value: the same run prints the same bytes


def test_a_two_parameter_spec_is_complete_before_it_is_shown(tmp_path, monkeypatch):
    report = verifier.verify(GAIN, cache=False, certificate=True)
    assert report.analysis.optimality and all(e.conditions is not None or e.status is not None
                                              for e in report.analysis.optimality.values())
    with _no_solvers(monkeypatch):
        shown = _every_display(report, tmp_path)
    assert shown["figures"] and "Stopped" not in shown["text"]


@pytest.mark.parametrize("detail, refused", [("summary", ["to_text", "to_json", "to_html", "figures"]),
                                              ("text", ["to_html", "figures", "_repr_html_"])])
def test_a_display_beyond_the_detail_made_is_refused_and_never_computed(detail, refused, monkeypatch):
    report = verifier.verify(SPECS / "ha-numeric.yaml", cache=False, detail=detail)
    with _no_solvers(monkeypatch):
        assert "Ha's class-selective rejection" in report.to_summary()
        for method in refused:
            with pytest.raises(UsageError, match=f"made with detail='{detail}'"):
                getattr(report, method)()
        with pytest.raises(UsageError, match="certificate=True"):
            report.certificate()


def test_the_detail_is_checked_at_the_door():
    with pytest.raises(UsageError, match="detail takes one of 'summary', 'text', 'full', not 'all'"):
        verifier.verify(SPECS / "ha-numeric.yaml", detail="all")


def test_a_time_limit_reached_while_the_parts_are_made_is_a_cut_run_that_says_what_it_left(tmp_path,
                                                                                          monkeypatch):
    import time

    import verifier.report.check.check_pictures as check_pictures

    monkeypatch.setattr(check_pictures, "_numbers", lambda analysis: time.sleep(30))
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    report = verifier.verify(SPECS / "ha-numeric.yaml", time_limit=1.5, certificate=False)
    a = report.analysis
    assert a.stopped.startswith("Stopped: the time limit of 1.5 s (--time-limit) was reached while making the "
                                "pictures' numbers; not made: the pictures' numbers")
    assert report.verdicts["P1"] == "holds"  # the verdicts were decided and re-checked before
    with _no_solvers(monkeypatch):
        html = unescape(report.to_html())
        assert "Stopped: the time limit of 1.5 s (--time-limit) was reached while making the pictures' numbers" in html
        assert report.figures(formats=("svg",)) == {}
    assert verifier.verify(SPECS / "ha-numeric.yaml", time_limit=1.5).cached_at is None  # never cached


def test_an_expected_certificate_is_re_checked_within_the_time_limit(tmp_path, monkeypatch):
    import time

    import verifier.api.completion as completion

    text = (SPECS / "ha-numeric.yaml").read_text().replace("expect: {", "expect: {certificate: checks, ", 1)
    path = tmp_path / "expects.yaml"
    path.write_text(text)
    fresh = verifier.verify(path, cache=False)
    assert fresh.expectations["certificate"] == {"expected": "checks", "actual": "checks", "met": True}
    monkeypatch.setattr(completion, "_recheck", lambda analysis: time.sleep(30))
    cut = verifier.verify(path, cache=False, time_limit=1.5)
    assert cut.expectations["certificate"] == {"expected": "checks", "actual": "not checked", "met": False}
    assert "while making the certificate's re-check" in cut.analysis.stopped


def test_a_time_limit_reached_while_the_matrix_is_built_is_a_cut_run_on_any_machine(tmp_path, monkeypatch, cli):
    """Issue 64, item 2: an invalid spec (exit 2) on a quiet machine and a cut run under load, before; a cut run
    showing the classes' own rows either way now."""
    import time

    import verifier.analysis.pipeline as pipeline

    monkeypatch.setattr(pipeline, "_build", lambda *args, **kwargs: time.sleep(30))
    path = tmp_path / "gain.yaml"
    path.write_text(GAIN)
    report = verifier.verify(path, time_limit=1, cache=False)
    assert set(report.verdicts.values()) == {"unknown"} and report.fits == {"filtering": None, "choice": None}
    assert report.analysis.stopped == ("Stopped: the time limit of 1 s (--time-limit) was reached during the stage "
                                       "'building the extended matrix'; only the classes' own rows were built, no "
                                       "property was decided")
    assert "building the extended matrix" in report.evidence["P1"]
    with _no_solvers(monkeypatch):
        assert "stopped early: Stopped: the time limit of 1 s" in report.to_summary()
        for display in (report.to_text(), report.to_html()):
            assert "only the classes' own rows were built" in unescape(display)
    code, out, err = cli(path, "--time-limit", "1", "--no-cache")
    assert code == 0 and "stopped early: Stopped: the time limit of 1 s" in out


def test_a_certificate_changes_nothing_the_console_prints(tmp_path, cli):
    """`--certificate F` wrote the certificate's JSON into the variable that chose the console report, so that
    `--certificate F --quiet` printed the 141-line verbose report (issue 66)."""
    plain = cli(SPECS / "ha.yaml", "--quiet")
    certified = cli(SPECS / "ha.yaml", "--quiet", "--certificate", tmp_path / "c.json")
    assert certified.out == plain.out and plain.code == certified.code == 0
    assert json.loads((tmp_path / "c.json").read_text())["format"] == "verify-certificate"
