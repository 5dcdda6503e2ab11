"""Regressions from an adversarial review: each test is one defect that was found, written as the attack."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

import verifier
from conftest import ROOT, SPECS
from verifier.analysis.pipeline import analyse
from verifier.spec import spec_from_text


def _optimal(text):
    a = analyse(spec_from_text(textwrap.dedent(text)))
    return a, {a.scheme.label(m): e.status for m, e in a.optimality.items()}


def test_tiny_costs_are_analysed_not_an_internal_error():
    a, status = _optimal("""\
        name: tiny
        classes: [a, b, c]
        cost: "0 if yhat == y else 0.000000001"
        set_cost: "(0 if y in Y else 0.000000001) if len(Y) < 3 else 0.0000000006"
        """)
    assert status["{a, b}"] == "alone" and status["{a, b, c}"] == "never"


def test_huge_costs_still_decide_every_set():
    _, status = _optimal("""\
        name: huge
        classes: [a, b]
        cost: "0 if yhat == y else 1"
        set_costs: {"a,b": [1000000000000, 1000000000000]}
        """)
    assert status == {"{a}": "alone", "{b}": "alone", "{a, b}": "never"}


def test_never_strictly_optimal_is_claimed_only_when_sets_are_what_ties():
    a, status = _optimal("""\
        name: singletons tie with each other only
        classes: [a, b]
        cost_matrix: {a: [1, 1], b: [1, 1]}
        set_costs: {"a,b": [5, 5]}
        """)
    assert status == {"{a}": "tied", "{b}": "tied", "{a, b}": "never"} and not a.determinate_never_alone
    assert "never strictly optimal" not in verifier.verify(a.spec, cache=False).to_text()


def test_the_p1_repair_advice_works_when_applied():
    text = textwrap.dedent("""\
        name: nothing possible
        classes: [a, b, c]
        cost: "0 if y == yhat else 1"
        set_costs:
          "a,b": [0.9, 0.9, 1]
          "a,c": [0.9, 1, 0.9]
          "b,c": [1, 0.9, 0.9]
          "a,b,c": [0.9, 0.9, 0.9]
        """)
    steps = verifier.verify(text, cache=False).to_json()["settings"]["filtering"]["how_to_fit"]["steps"]
    advice = next(s for s in steps if s.startswith("P1"))
    assert "lower the costs of {a, b, c}" in advice and "now 9/10" in advice and "below 2/3" in advice
    repaired = text.replace('"a,b,c": [0.9, 0.9, 0.9]', '"a,b,c": [0.6, 0.6, 0.6]')  # mean 3/5 < 2/3
    assert verifier.verify(repaired, cache=False).verdicts["P1"] == "holds"


def test_a_cached_report_names_the_file_it_was_asked_for(tmp_path):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "first.yaml")
    (tmp_path / "sub").mkdir()
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "sub" / "second.yaml")
    env = {**os.environ, "PYTHONPATH": ROOT, "VERIFY_NO_CACHE": "", "VERIFY_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("first.yaml", "sub/second.yaml"):
        done = subprocess.run([sys.executable, "-m", "verifier", name, "--format", "json"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert json.loads(done.stdout)["spec"] == name


def test_a_fifo_or_broken_link_in_a_spec_directory_is_an_error_not_skipped(tmp_path, cli):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "ok.yaml")
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "broken.yaml").symlink_to(tmp_path / "nowhere")
    code, out, err = cli(str(tmp_path), "--quiet")
    assert code == 2 and "Table VI" in out
    assert "fifo.yaml" in err and "FIFO" in err and "broken.yaml" in err


def test_p9_failing_for_want_of_candidates_says_so():
    report = verifier.verify(os.path.join(SPECS, "table-vi.yaml"), cache=False)
    text = report.to_json()["properties"]["P9"]["explanation"]
    assert "never depends" in text  # table VI: members' cost lists differ, and the set's cost does not react
    zero_one = verifier.verify(textwrap.dedent("""\
        name: 0/1
        classes: [a, b, c]
        cost: "0 if y == yhat else 1"
        set_cost: "0 if y in Y else 1"
        """), cache=False)
    assert "no set has two members with different cost lists" in zero_one.to_json()["properties"]["P9"]["explanation"]


@pytest.mark.parametrize("width", [40, 60])
@pytest.mark.parametrize("stem", ["abellan-masegosa", "table-vii", "ha"])
def test_narrow_terminals_get_lines_that_fit(stem, width, cli):
    code, out, _ = cli(os.path.join(SPECS, f"{stem}.yaml"), "--width", str(width), "--color", "never")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= width


def test_the_json_lists_every_failing_cell(tmp_path):
    record = verifier.verify(os.path.join(SPECS, "obstacle-discounted.yaml"), cache=False).to_json()
    fit = record["settings"]["filtering"]["how_to_fit"]
    assert "and 3 more" in " ".join(fit["steps"]) and len(fit["cells"]["P3"]) == 9


def test_reports_of_a_spec_from_stdin_are_named_stdin(tmp_path):
    text = open(os.path.join(SPECS, "table-vi.yaml"), encoding="utf-8").read()
    done = subprocess.run([sys.executable, "-m", "verifier", "-", "--report", "out", "--quiet"], cwd=tmp_path,
                          input=text, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0 and sorted(os.listdir(tmp_path / "out")) == ["stdin.html", "stdin.json", "stdin.md"]


def test_a_margin_given_as_a_bound_is_below_the_true_gap():
    a = analyse(spec_from_text(open(os.path.join(SPECS, "abellan-masegosa.yaml"), encoding="utf-8").read()))
    for members, entry in a.optimality.items():
        if entry.status == "alone" and entry.margin_is_bound:
            p = entry.witness
            gaps = [sum(x * (a.scheme.rows[z][y] - a.scheme.rows[members][y]) for y, x in enumerate(p))
                    for z in a.scheme.all_sets if z != members]
            assert all(float(g) >= float(entry.margin) for g in gaps) and Fraction(str(entry.margin)) > 0


def test_calibration_reads_a_chained_assumption():
    # "0 <= r <= 1" is a conjunction for sympy; calibration took it for one inequality and crashed
    from verifier.designing.calibrate import calibrate
    from verifier.spec import spec_from_text

    text = ("name: p-discounted, chained bounds\nclasses: 3\nparameters: {r: {}}\nassume: '0 <= r <= 1'\n"
            "cost: 'abs(rank(yhat) - rank(y))'\nset_cost: 'genmean(1 - r, [c(yh, y) for yh in Y])'\n")
    chained = calibrate(spec_from_text(text))
    split = calibrate(spec_from_text(text.replace("'0 <= r <= 1'", "['r >= 0', 'r <= 1']")))
    ends = lambda c: (c.pieces[0].low, c.pieces[-1].high)
    assert ends(chained) == ends(split) == (0, 1)
    assert [p.verdicts for p in chained.pieces] == [p.verdicts for p in split.pieces]
