"""Sentences of the default report say what is proved, in the paper's words (Definition 4 for possibility),
and say what the spec documentation promises (a set-cost formula that modifies the initial costs)."""

import os

import verifier

from conftest import SPECS

MODIFIED = """
name: modified singletons
classes: [a, b, c]
parameters: {d: {value: 0.4}}
cost: "0 if yhat == y else 1"
set_cost: "0 if y in Y and len(Y) == 1 else (d if len(Y) < K else 0.9)"
"""


def test_possibility_is_worded_as_definition_4():
    text = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False).to_summary(width=120)
    (line,) = [x for x in text.splitlines() if x.startswith("P1 ")]
    assert "is possible: some p makes it strictly cheaper than each member" in line and "…" not in line
    assert "optimal" not in line  # the report's word for the separate alone/tied fact


def test_the_default_report_says_when_set_cost_modifies_the_initial_costs(tmp_path):
    spec = tmp_path / "modified.yaml"
    spec.write_text(MODIFIED)
    report = verifier.verify(str(spec), cache=False)
    for text in (report.to_summary(width=80), report.to_summary(width=200), report.to_text(width=200)):
        flat = " ".join(text.split())
        assert "The set-cost formula modifies the initial (determinate) costs in 6 entries" in flat
        assert "c_a(b): 1 → 2/5" in flat and "the properties use the modified singleton rows" in flat


def test_no_note_when_set_cost_keeps_the_initial_costs():
    text = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False).to_summary(width=200)
    assert "modifies the initial" not in text
