"""Optimality of each set (DESIGN.md §6): `alone` / `tied` / `never`, against an exact LP written here.

The expected answers come from one exact rational LP per set (sympy's simplex): t* = max t such that
E_p[c_Y − c_Z] + t <= 0 for every other set Z, p in the simplex; alone iff t* > 0, tied iff t* = 0, never iff
t* < 0. The tool's witnesses and certificates are re-checked here in Fractions.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction as F

import sympy as sp
from hypothesis import given

import verifier
from verifier.analysis.pipeline import analyse
from verifier.check.optimality import check_optimality
from verifier.spec import spec_from_text
from verifier.verdict import SetOptimality

from brute_force import SETTINGS, analyse_data, frac, optimum, schemes

# The example: 0/1 costs, a pair costs the loss of its best member, the full set a reject cost of 1/2.
REJECT = textwrap.dedent("""\
    name: pairs at their best member, the full set at 1/2
    classes: [a, b, c]
    cost: "0 if y == yhat else 1"
    set_costs:
      "a,b": [0, 0, 1]
      "a,c": [0, 1, 0]
      "b,c": [1, 0, 0]
      "a,b,c": [0.5, 0.5, 0.5]
    """)


def expected_cost(row, p) -> F:
    return sum((a * b for a, b in zip(row, p)), F(0))


def test_the_reject_example_is_possible_everywhere_but_the_full_set_is_never_optimal():
    a = analyse(spec_from_text(REJECT))
    label = {a.scheme.label(m): e for m, e in a.optimality.items()}
    assert all(e.status.value == "true" for e in a.possibility)  # every set is possible (Definition 4)
    assert label["{a, b, c}"].status == "never"
    assert {label[k].status for k in ("{a, b}", "{a, c}", "{b, c}")} == {"alone"}
    assert {label[k].status for k in ("{a}", "{b}", "{c}")} == {"tied"}
    assert a.determinate_never_alone
    mixture = label["{a, b, c}"].certificate
    assert sorted(mixture.values()) == [sp.Rational(1, 3)] * 3


def test_every_report_format_keeps_the_two_facts_apart():
    report = verifier.verify(REJECT, cache=False)
    data = json.loads(json.dumps(report.to_json()))
    full = next(e for e in data["possibility"] if e["Y"] == ["a", "b", "c"])
    assert full["status"] == "possible" and full["optimal"]["status"] == "never"
    assert full["optimal"]["certificate"]["dominates"] == "strictly"
    assert len(data["optimality"]) == 7 and data["determinate_never_strictly_optimal"] is True
    for text in (report.to_text(), report.to_markdown(), report.to_html()):
        assert "can be optimal" not in text
        assert "Determinate predictions are never strictly optimal" in text
        assert "never a best prediction" in text


@SETTINGS
@given(schemes())
def test_optimality_matches_an_exact_lp_and_its_evidence_checks(data):
    K, det, rows = data
    a = analyse_data(K, det, rows)
    all_rows = {frozenset((h,)): det[h] for h in range(K)} | rows
    assert set(a.optimality) == set(all_rows)
    for Y, entry in a.optimality.items():
        t = optimum(all_rows, Y)
        want = "alone" if t > 0 else "tied" if t == 0 else "never"
        assert entry.status == want, (Y, t, entry)
        others = [Z for Z in all_rows if Z != Y]
        if entry.witness is not None:
            p = [frac(v) for v in entry.witness]
            assert min(p) >= 0 and sum(p) == 1
            mine = expected_cost(all_rows[Y], p)
            gaps = [expected_cost(all_rows[Z], p) - mine for Z in others]
            assert all(g > 0 for g in gaps) if want == "alone" else (min(gaps) == 0)
        if entry.certificate is not None:
            lam = {Z: frac(w) for Z, w in entry.certificate.items()}
            assert Y not in lam and sum(lam.values()) == 1 and min(lam.values()) >= 0
            for y in range(K):
                mixed = sum((w * all_rows[Z][y] for Z, w in lam.items()), F(0))
                assert all_rows[Y][y] > mixed if want == "never" else all_rows[Y][y] >= mixed


def test_the_checker_downgrades_evidence_that_does_not_hold():
    a = analyse(spec_from_text(REJECT))
    s = a.scheme
    full, pair = frozenset(range(3)), frozenset((0, 1))
    forged = {
        full: SetOptimality(full, "alone", witness=(sp.Rational(1, 3),) * 3),  # {a,b,c} is never best
        pair: SetOptimality(pair, "never", certificate={frozenset((0,)): sp.Integer(1)}),  # {a} does not dominate
        frozenset((0,)): SetOptimality(frozenset((0,)), "tied", witness=(1, 0, 0), tied_with=(full,),
                                       certificate={pair: sp.Integer(1)}),  # {a, b, c} does not tie at e_a
    }
    check_optimality(s, forged)
    assert all(e.status == "unknown" and e.reason.startswith("evidence not confirmed") for e in forged.values())


def test_irrational_costs_are_decided_exactly():
    text = textwrap.dedent("""\
        name: log costs
        classes: [a, b, c]
        cost: "0 if y == yhat else 1"
        set_cost: "log(len(Y)) / log(3) if y in Y else 1"
        """)
    a = analyse(spec_from_text(text))
    full = a.optimality[frozenset(range(3))]
    # at the uniform p: {a,b,c} costs 1 and every pair 2/3·log 2/log 3 + 1/3 ≈ 0.754, so never alone there
    assert full.status in ("tied", "never")
    assert all(e.status != "unknown" for e in a.optimality.values())
