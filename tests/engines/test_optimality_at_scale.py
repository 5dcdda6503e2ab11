"""Which sets can be optimal beyond 1,023 sets (issue 41, item 4): alone / tied / never at scale.

Two new routes, each against the exact route of up to 1,023 sets (one LP per set, `engines.optimality`, re-checked
by `check.optimality`) on small schemes, with hypothesis:
- a class-symmetric scheme checked on one set per size (`all`, `{max_size: k}` by symmetry): one status per
  size on the symmetric segment, re-checked by `check.orbit_optimality`; every set of that size must have it;
- families on the fast path's arrays (intervals, listed sets): batch by batch (uniform distributions,
  dominance, LPs), re-checked by `check.optimality_batch`.
Tampered evidence is downgraded to `unknown` by both checkers; a time bound that runs out leaves `unknown`
with the reason. The 100-class interval spec's counts (every one of its 5,050 intervals can be the unique best
prediction) are pinned in tests/analysis/test_families.py, with its verdicts, in one run.
"""

from __future__ import annotations

from types import SimpleNamespace

import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.analysis import optimality_route
from verifier.analysis.pipeline import analyse
from verifier.check.checker import Checker
from verifier.check.optimality import check_optimality
from verifier.check.optimality_batch import check_optimality_batch
from verifier.check.orbit_optimality import check_orbit_optimality
from verifier.engines.family_optimality import FamilyOptimality
from verifier.engines.optimality import analyse_optimality
from verifier.engines.orbit_optimality import orbit_optimality
from verifier.errors import SpecError
from verifier.spec import spec_from_text
from verifier.verdict import SetOptimality

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BLIND = [
    "genmean({p}, [c(v, y) for v in Y])",
    "(0 if y in Y else {a}) + {d} * (len(Y) - 1)",
    "min([c(v, y) for v in Y]) + {d} * (len(Y) - 1)",
    "(1 - {s} / len(Y)) if y in Y else {a}",
    "{d} * len(Y) / K + (0 if y in Y else 1)",
    "1 - (-0.6 * (1 / len(Y)) ** 2 + 1.6 / len(Y)) if y in Y else 1",
]
POOL = ["0", "1/5", "1/2", "1", "3/2", "2"]


def _small(scheme) -> dict:
    found = analyse_optimality(scheme)
    check_optimality(scheme, found, Checker(scheme))
    return found


def _statuses(found: dict) -> dict:
    return {m: e.status for m, e in found.items()}


@SETTINGS
@given(st.sampled_from(BLIND), st.sampled_from(POOL), st.sampled_from(POOL), st.sampled_from(["0", "1/2", "1", "2"]),
       st.sampled_from(["1", "3/4", "1/2"]), st.sampled_from(["0", "1/2"]), st.sampled_from(["1", "2", "3/2"]),
       st.integers(3, 6), st.data())
def test_orbit_statuses_are_those_of_every_set_enumerated(formula, a, d, p, s, low, high, K, data):
    top = data.draw(st.sampled_from([None] + list(range(2, K))))
    text = (f'name: blind\nclasses: {K}\ncost: "{low} if yhat == y else {high}"\n'
            f'set_cost: "{formula.format(p=p, a=a, d=d, s=s)}"\n'
            + (f"predictions: {{max_size: {top}}}\n" if top else ""))
    spec = spec_from_text(text, "blind.yaml")
    try:
        enumerated = analyse(spec, 20000)
    except SpecError:  # a formula undefined somewhere is refused on every route
        return
    by_orbits = analyse(spec, 20000, symmetry=True)
    assert by_orbits.scheme.orbits is not None and by_orbits.scheme.orbits.symmetric
    orbit = by_orbits.optimality
    assert {m for m in orbit if len(m) > 1} == {frozenset(range(n)) for n in range(2, (top or K) + 1)}
    for members, entry in enumerated.optimality.items():
        want = orbit[frozenset(range(len(members)))].status
        if "unknown" not in (want, entry.status):
            assert entry.status == want, (text, sorted(members))
    assert all(e.status != "unknown" for e in orbit.values()), text


@st.composite
def families(draw):
    """A rational scheme over intervals or a listed family of 4 or 5 classes, with ties and dominated rows."""
    K = draw(st.sampled_from([4, 5]))
    names = "abcde"[:K]
    kind = draw(st.sampled_from(["intervals", "sets"]))
    if kind == "intervals":
        sets = [tuple(range(i, j + 1)) for i in range(K) for j in range(i + 1, K)]
        family = "predictions: intervals\n"
    else:
        pool = [(0, 1), (1, 2), (0, 2), (2, 3), (0, 1, 2), (1, 2, 3), (0, 3), tuple(range(K))]
        sets = sorted(set(draw(st.lists(st.sampled_from(pool), min_size=2, max_size=6))))
        family = "predictions:\n  sets:\n" + "".join(f"    - [{', '.join(names[i] for i in m)}]\n" for m in sets)
    values = ["0", "1/4", "1/2", "3/4", "1", "2"]
    det = [[draw(st.sampled_from(values)) if h != y else "0" for y in range(K)] for h in range(K)]
    lines = [f"name: random family\nclasses: [{', '.join(names)}]\ncost_matrix:\n"]
    lines += [f"  {names[h]}: [{', '.join(det[h])}]\n" for h in range(K)]
    lines.append("set_costs:\n")
    lines += [f'  "{",".join(names[i] for i in m)}": [{", ".join(draw(st.sampled_from(values)) for _ in range(K))}]\n'
              for m in sets]
    return "".join(lines) + family


@SETTINGS
@given(families())
def test_the_batch_route_agrees_with_one_lp_per_set(text):
    analysis = analyse(spec_from_text(text, "family.yaml"), 20000, optimality=False)
    scheme = analysis.scheme
    assert scheme.cells is not None
    small = _small(scheme)
    large: dict = {}
    for batch in FamilyOptimality(scheme).batches():
        check_optimality_batch(scheme, batch, Checker(scheme))
        large.update(batch)
    assert set(large) == set(small)
    for members, entry in large.items():
        assert entry.status != "unknown", (text, entry.reason)
        if small[members].status != "unknown":
            assert entry.status == small[members].status, (text, sorted(members))


def test_tampered_orbit_evidence_is_downgraded():
    spec = spec_from_text('name: u65\nclasses: 5\ncost: "0 if yhat == y else 1"\n'
                          'set_cost: "1 - (-0.6 * (1 / len(Y)) ** 2 + 1.6 / len(Y)) if y in Y else 1"\n', "u65.yaml")
    scheme = analyse(spec, 20000, symmetry=True, optimality=False).scheme
    found = orbit_optimality(scheme)
    pair = frozenset({0, 1})
    assert found[pair].status == "alone"
    skewed = list(found[pair].witness)
    skewed[0], skewed[1] = skewed[0] + skewed[1], sp.Integer(0)  # no longer constant on the set
    found[pair] = SetOptimality(pair, "alone", witness=tuple(skewed))
    found[frozenset({0})] = SetOptimality(frozenset({0}), "never", certificate={pair: sp.Integer(1)})
    check_orbit_optimality(scheme, found, Checker(scheme))
    assert found[pair].status == "unknown" and "not constant on the set" in found[pair].reason
    assert found[frozenset({0})].status == "unknown" and "certificate" in found[frozenset({0})].reason


def test_tampered_batch_evidence_is_downgraded():
    text = ("name: ordinal\nclasses: 12\ncost: 'abs(rank(yhat) - rank(y))'\n"
            "set_cost: 'mean([c(v, y) for v in Y]) * 3 / 4'\npredictions: intervals\n")
    scheme = analyse(spec_from_text(text, "ordinal.yaml"), 20000, optimality=False).scheme
    entries = {}
    for batch in FamilyOptimality(scheme).batches():
        entries.update(batch)
    pair, single = frozenset({0, 1}), frozenset({5})
    entries[pair] = SetOptimality(pair, "alone", witness=tuple([sp.Integer(1)] + [sp.Integer(0)] * 11))
    entries[single] = SetOptimality(single, "never", certificate={frozenset({4, 5}): sp.Integer(1)})
    check_optimality_batch(scheme, entries, Checker(scheme))
    assert entries[pair].status == "unknown" and "not the unique minimiser" in entries[pair].reason
    assert entries[single].status == "unknown" and "fails at y" in entries[single].reason


def test_a_spent_time_bound_leaves_the_rest_unknown_with_the_reason(monkeypatch):
    text = ("name: ordinal\nclasses: 50\ncost: 'abs(rank(yhat) - rank(y))'\n"
            "set_cost: 'mean([c(v, y) for v in Y]) * 3 / 4'\npredictions: intervals\n")
    analysis = analyse(spec_from_text(text, "ordinal.yaml"), 20000, optimality=False)
    found = optimality_route._large(analysis.scheme, {}, Checker(analysis.scheme), 0.0005)
    assert len(found) == 1275
    undecided = [e for e in found.values() if e.status == "unknown"]
    assert undecided and all("ran out after" in e.reason and "--time-limit" in e.reason for e in undecided)


def test_beyond_a_thousand_sets_every_interval_is_decided_and_beyond_the_bound_the_reason_says_so():
    text = ("name: ordinal\nclasses: 50\ncost: 'abs(rank(yhat) - rank(y))'\n"
            "set_cost: 'mean([c(v, y) for v in Y]) * 3 / 4'\npredictions: intervals\n")
    analysis = analyse(spec_from_text(text, "ordinal.yaml"), 20000)
    assert len(analysis.optimality) == 1275 and analysis.optimality_reason == ""
    assert all(e.status in ("alone", "tied", "never") for e in analysis.optimality.values())
    # beyond 1,023 sets a JSON witness lists its nonzero classes only (as docs/verify.md says), summing to 1
    from fractions import Fraction

    from verifier.report.check import to_json

    record = to_json(analysis)
    witnesses = [e["witness"]["p"] for e in record["optimality"] if "witness" in e]
    assert witnesses and all("0" not in p.values() for p in witnesses)
    assert all(sum(map(Fraction, p.values())) == 1 for p in witnesses)
    assert any(len(p) < 50 for p in witnesses)
    huge = SimpleNamespace(all_sets=range(100_001), K=2, family_restricted=True)
    assert "done for up to 100,000 sets and 2,000,000 cells" in optimality_route.why_not_decided(huge)
    assert "this scheme has 100,001 sets" in optimality_route.why_not_decided(huge)
    # intervals of 215 classes: the family's cell bound
    wide = SimpleNamespace(all_sets=range(23_220), K=215, family_restricted=True)
    assert "this scheme has 23,220 sets, 4,992,300 cells" in optimality_route.why_not_decided(wide)
    every = SimpleNamespace(all_sets=range(2047), K=11, family_restricted=False)  # `all` at 11 classes
    assert "done for up to 1,023 sets of every subset" in optimality_route.why_not_decided(every)
