"""Property-based and mutation tests of the standalone checker (verifier_check.py): its own rational bounds of
roots, logs and exponentials always enclose the true value, a random rational scheme's certificate always checks,
and every forgery of a genuine certificate (issue 52: verdicts moved to points, points or sets dropped, a family
that disagrees with the matrix, counts and lists that claim more than they hold) is refused while the genuine
one is still accepted."""

import copy
import io
import json
import math
import os
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier_check as vc

from conftest import SPECS

positive = st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=10 ** 6)


@settings(max_examples=200, deadline=None)
@given(positive, st.integers(2, 5))
def test_a_root_to_its_power_encloses_the_radicand(x, k):
    lo, hi = vc.bounds(["root", f"{x.numerator}/{x.denominator}", k], 64, "t")
    assert 0 <= lo <= hi and lo ** k <= x <= hi ** k and hi - lo <= Fraction(2, 1 << 64)


@settings(max_examples=200, deadline=None)
@given(positive)
def test_log_and_exp_bound_each_other(x):
    text = f"{x.numerator}/{x.denominator}"
    lo, hi = vc.bounds(["log", text], 64, "t")
    assert lo <= hi and hi - lo < Fraction(1, 1 << 50)
    # exp is increasing, so exp(lo) <= x <= exp(hi) when [lo, hi] encloses log x
    assert vc.bounds(["exp", f"{lo.numerator}/{lo.denominator}"], 64, "t")[0] <= x
    assert vc.bounds(["exp", f"{hi.numerator}/{hi.denominator}"], 64, "t")[1] >= x
    assert float(lo) - 1e-9 <= math.log(x) <= float(hi) + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.fractions(min_value=-30, max_value=30, max_denominator=1000))
def test_exp_encloses_the_float_value(x):
    lo, hi = vc.bounds(["exp", f"{x.numerator}/{x.denominator}"], 64, "t")
    assert 0 < lo <= hi and float(lo) * (1 - 1e-12) <= math.exp(x) <= float(hi) * (1 + 1e-12)


def test_an_exact_tie_of_logarithms_cancels_instead_of_being_bounded():
    numbers = vc.Numbers()
    a = numbers.linear(["log", "3"], "a")
    b = numbers.linear(["*", "2/3", "3/2", ["log", "3"]], "b")
    assert numbers.sign(vc.add(a, vc.times(-1, b)), "tie") == 0
    with pytest.raises(vc.Undecided):  # log 9 / 2 is log 3 too, but not term for term: never guessed
        numbers.sign(vc.add(a, vc.times(Fraction(-1, 2), numbers.linear(["log", "9"], "c"))), "tie")


cost = st.sampled_from(["0", "1/4", "1/2", "3/4", "1", "3/2", "2"])


@settings(max_examples=12, deadline=None)
@given(st.lists(cost, min_size=9, max_size=9), st.lists(cost, min_size=12, max_size=12))
def test_a_random_rational_scheme_writes_a_certificate_that_checks(det, sets):
    import verifier

    rows = {"a,b": sets[0:3], "a,c": sets[3:6], "b,c": sets[6:9], "a,b,c": sets[9:12]}
    spec = {"name": "random", "classes": ["a", "b", "c"],
            "cost_matrix": {"a": det[0:3], "b": det[3:6], "c": det[6:9]}, "set_costs": rows}
    cert = verifier.verify(spec, cache=False).certificate()
    results = vc.claims(cert)
    assert [r for r in results if r[1] not in ("checked", "no claim")] == [], results


_GENUINE: dict = {}


def genuine(name: str) -> dict:
    if name not in _GENUINE:
        import verifier

        _GENUINE[name] = verifier.verify(os.path.join(SPECS, name)).certificate()
    return copy.deepcopy(_GENUINE[name])


def run(cert, tmp_path) -> tuple[int, str]:
    """The checker's exit status and its output (stdout, then stderr), in process."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cert))
    out, err = io.StringIO(), io.StringIO()
    return vc.main([str(path)], out, err), out.getvalue() + err.getvalue()


def _forged_holds_at_a_point(c):
    """Issue 52: the for-every verdicts of ha.yaml claimed at one point (P2 and P3 fail for ha.yaml)."""
    for pid, n in {"P2": 12, "P3": 9, "P4": 12, "P5": 24, "P6": 3, "P8": 12}.items():
        c["properties"][pid] = {"verdict": "holds", "at": 3, "evidence": {"kind": "enumerated", "instances": n}}
    c["properties"]["P1"] = {"verdict": "holds", "at": 3,
                             "evidence": {"kind": "witness", "Y": ["a", "b"], "p": ["1/2", "1/2", "0"]}}
    c["also"], c["not_covered"] = [], []


def _point_matrix_without_a_set(c):
    c["family"] = {"kind": "sets"}  # a family the checker cannot recount: the certificate's sets are the family
    c["points"][0]["matrix"] = [r for r in c["points"][0]["matrix"] if r["set"] != ["a", "b"]]


def _family_shortened(c):
    c["sets"] = [s for s in c["sets"] if s != ["a", "c"]]


def _set_outside_a_partial_family(c):
    c["partial"], c["family"] = True, {"kind": "max_size", "max_size": 2}
    del c["set_facts"]


def _facts_listed_twice(c):
    c["set_facts"].append(copy.deepcopy(c["set_facts"][-1]))


def _multiplier_named_twice(c):
    fact = next(f for f in c["set_facts"] if f["optimal"]["status"] in ("tied", "never"))
    fact["optimal"]["lambda"] = fact["optimal"]["lambda"] * 2


# (spec, forgery, exit status, what the checker says; the line of the claim, or the message for exit 2)
FORGERIES = [
    ("ha.yaml", _forged_holds_at_a_point, 1, "P2: refuted: certificate.properties.P2.at: a verdict that holds "
     "claims every admissible value of the parameters, which no point proves"),
    ("ha.yaml", lambda c: c["properties"].update(P9={**c["properties"]["P9"], "verdict": "holds"}), 1,
     "P9: refuted: certificate.properties.P9.at:"),
    ("ha.yaml", lambda c: c["points"][0]["values"].pop("delta"), 2,
     "certificate.points[0].values: expected a value of each parameter"),
    ("ha.yaml", lambda c: c["points"][1]["values"].update(delta="0.5"), 2,
     "certificate.points[1].values.delta: expected a rational"),
    ("ha.yaml", _point_matrix_without_a_set, 1,
     "points: refuted: certificate.points[0].matrix: its sets are not the family's, certificate.sets"),
    ("ha.yaml", _family_shortened, 1, "matrix: refuted: certificate.sets: the all family lacks set {a,c}"),
    ("ha.yaml", lambda c: c.update(matrix=c["points"][0]["matrix"]), 2,
     "certificate.matrix: not a key of a certificate with parameters"),
    ("ha.yaml", lambda c: c["also"][0].update(verdict="fails"), 2,
     "certificate.also[0].verdict: expected holds (what holds at a point), got \"fails\""),
    ("ha.yaml", lambda c: c["properties"]["P6"].update(evidence={"kind": "enumerated", "instances": 0}), 3,
     "P6: not covered"),
    ("ha-numeric.yaml", lambda c: c.update(points=[], also=[]), 2,
     "certificate.points: not a key of a certificate without parameters"),
    ("ha-numeric.yaml", lambda c: c.update(classes=[*c["classes"], "d"]), 2,
     "certificate.matrix[0]: expected a new set"),
    ("ha-numeric.yaml", lambda c: c.update(family={"kind": "max_size", "max_size": 1}), 1,
     "matrix: refuted: certificate.matrix: the max_size family has no set {a,b}"),
    ("ha-numeric.yaml", lambda c: c.update(family={"kind": "every"}), 2,
     "certificate.family.kind: expected all or intervals or max_size or hierarchy or sets, got \"every\""),
    ("ha-numeric.yaml", _set_outside_a_partial_family, 1,
     "matrix: refuted: certificate.matrix: the max_size family has no set {a,b,c}"),
    ("ha-numeric.yaml", lambda c: c.update(partial=1), 2, "certificate.partial: expected true or false, got 1"),
    ("ha-numeric.yaml", lambda c: c["properties"]["P4"]["evidence"].update(instances=13), 1,
     "P4: refuted: the certificate counts 13 instances, the checker enumerated 12"),
    ("ha-numeric.yaml", _facts_listed_twice, 1, "sets: refuted: two set facts for {a,b,c}"),
    ("obstacle-discounted.yaml", _multiplier_named_twice, 1, "is not another set of the family, or named twice"),
    ("ha-numeric.yaml", lambda c: c.update(version=True), 2, "certificate.version: expected 1, got true"),
    ("ha-numeric.yaml", lambda c: c["properties"]["P4"].update(at=0), 2,
     "certificate.properties.P4.at: expected no point (a certificate without parameters has none), got 0"),
]


@pytest.mark.parametrize("spec, forge, status, said", FORGERIES, ids=[
    f"{s}-{getattr(f, '__name__', i)}" for i, (s, f, _, _) in enumerate(FORGERIES)])
def test_every_forgery_of_a_genuine_certificate_is_refused(tmp_path, spec, forge, status, said):
    cert = genuine(spec)
    assert run(cert, tmp_path)[0] == (3 if cert["not_covered"] else 0)  # the genuine one: accepted
    forge(cert)
    code, out = run(cert, tmp_path)
    assert code == status and said in out, out
    assert "Traceback" not in out


def test_partial_matrices_prove_no_failure_of_p1_and_no_optimality(tmp_path):
    cert = genuine("obstacle-discounted.yaml")  # P1 fails: one Ville certificate per set of the family
    cert["partial"] = True  # now the rows listed may be some sets only: neither claim can be shown
    code, out = run(cert, tmp_path)
    assert code == 3 and "P1: not covered: the matrix is partial" in out, out
    assert "sets: not covered: the matrix is partial" in out


def test_dropping_the_facts_at_points_claims_less_and_changes_no_verdict(tmp_path):
    cert = genuine("ha.yaml")
    before = run(cert, tmp_path)[1].splitlines()
    del cert["also"]
    code, out = run(cert, tmp_path)
    assert code == 3 and [x for x in before if " also at " not in x][:-1] == out.splitlines()[:-1]


def test_a_max_size_beyond_the_class_count_is_every_set_and_costs_nothing(tmp_path):
    cert = genuine("ha-numeric.yaml")
    cert["family"] = {"kind": "max_size", "max_size": 10 ** 12}  # a 10^12-step loop before
    code, out = run(cert, tmp_path)
    assert code == 0 and "family: checked: max_size: each of its 7 sets has its row" in out
