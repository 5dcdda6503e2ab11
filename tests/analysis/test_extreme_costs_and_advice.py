"""What the analysis says at the edges: tiny and huge costs, which sets are never strictly optimal, advice that works
when applied, why P9 fails, every failing cell in the JSON, a margin given as a bound. Each test is one defect an
adversarial review found, written as the attack; the review's tests of the cache, spec directories, console
width, report names and calibration are beside those features (tests/api/test_cache_key.py,
tests/api/test_special_files_cache_and_memory.py, tests/report/test_console_and_messages.py,
tests/report/test_report_writing.py, tests/designing/test_calibration_ties.py).

Origin: an adversarial review of issue 11's reports and hostile-input handling (commit b12a1a6); formerly
test_review_regressions.py."""

from __future__ import annotations

import os
import textwrap
from fractions import Fraction

import verifier
from verifier.analysis.pipeline import analyse
from verifier.spec import spec_from_text

from conftest import SPECS


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


def test_the_json_lists_every_failing_cell(tmp_path):
    record = verifier.verify(os.path.join(SPECS, "obstacle-discounted.yaml"), cache=False).to_json()
    fit = record["settings"]["filtering"]["how_to_fit"]
    assert "and 3 more" in " ".join(fit["steps"]) and len(fit["cells"]["P3"]) == 9


def test_a_margin_given_as_a_bound_is_below_the_true_gap():
    a = analyse(spec_from_text(open(os.path.join(SPECS, "abellan-masegosa.yaml"), encoding="utf-8").read()))
    for members, entry in a.optimality.items():
        if entry.status == "alone" and entry.margin_is_bound:
            p = entry.witness
            gaps = [sum(x * (a.scheme.rows[z][y] - a.scheme.rows[members][y]) for y, x in enumerate(p))
                    for z in a.scheme.all_sets if z != members]
            assert all(float(g) >= float(entry.margin) for g in gaps) and Fraction(str(entry.margin)) > 0
