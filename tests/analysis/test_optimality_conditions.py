"""Where each set is alone, only tied or never optimal, as exact conditions on two or more parameters (issue 55,
item 1: "alone where nu < mu/(mu + 1); only tied where nu = mu/(mu + 1); never where nu > mu/(mu + 1)").

Every condition is checked against the brute force of tests/brute_force.py (one exact LP per set: t* > 0
alone, = 0 tied, < 0 never) at exact rational parameter points inside it and on both sides of its boundary;
a set given no condition (and no reason why not) must have its one status at every point sampled.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings

from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import build_scheme
from verifier.spec import load_spec, spec_from_data

from brute_force import optimum, parametric_schemes
from conftest import SPECS

GRID = [Fraction(k, 2) for k in range(3)]  # each random scheme's parameter points: 0, 1/2, 1 in both


def _status(scheme, members, point) -> str:
    values = {s: point[s.name] for s in scheme.symbols}
    rows = {m: [Fraction(str(sp.nsimplify(scheme.rows[m][y].subs(values)))) for y in range(scheme.K)]
            for m in scheme.all_sets}
    t = optimum(rows, members)
    return "alone" if t > 0 else "tied" if t == 0 else "never"


def _admissible(scheme, point) -> bool:
    values = {s: point[s.name] for s in scheme.symbols}
    return all(bool(c.subs(values)) for c, _ in scheme.assumptions)


def _agree(scheme, found, points) -> None:
    """At every admissible point: the one condition that holds there names the brute force's status."""
    for members, entry in found.items():
        for point in points:
            if not _admissible(scheme, point):
                continue
            truth = _status(scheme, members, point)
            if entry.conditions:
                values = {s: point[s.name] for s in scheme.symbols}
                holding = [c[0] for c in entry.conditions if bool(c[4].subs(values))]
                assert holding == [truth], (scheme.named(members), point, holding, truth)
            elif entry.status in ("alone", "tied", "never") and "not stated as a condition" not in entry.reason:
                assert truth == entry.status, (scheme.named(members), point, truth, entry.status)


def test_friedel_abstention_conditions_are_lemma_1():
    """Friedel et al.'s Lemma 1, now per set: abstaining is alone exactly where nu < mu/(1 + mu)."""
    scheme = build_scheme(load_spec(f"{SPECS}/friedel-abstention-symbolic.yaml"))
    found = symbolic_optimality(scheme)
    both = found[frozenset({0, 1})]
    assert [(c[0], c[1]) for c in both.conditions] == [
        ("alone", "nu < mu/(mu + 1)"), ("tied", "nu = mu/(mu + 1)"), ("never", "nu > mu/(mu + 1)")]
    for status, _, at, evidence, _ in both.conditions:  # each point decided exactly, its evidence re-checked
        assert evidence.status == status and _status(scheme, frozenset({0, 1}), at) == status
    assert found[frozenset({0})].conditions is None and found[frozenset({1})].conditions is None
    mu = Fraction(1)  # the boundary nu = 1/2, inside and on both sides
    _agree(scheme, found, [{"mu": mu, "nu": nu} for nu in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))])


def test_ha_full_set_is_alone_exactly_below_the_harmonic_bound():
    """Ha's {a, b, c} costs 2·delta: alone exactly where delta < 1/(1/eta[a] + 1/eta[b] + 1/eta[c])."""
    scheme = build_scheme(load_spec(f"{SPECS}/ha.yaml"))
    found = symbolic_optimality(scheme)
    full = found[frozenset({0, 1, 2})]
    assert [c[0] for c in full.conditions] == ["alone", "tied", "never"]
    assert full.conditions[0][1] == "delta < eta[a]·eta[b]·eta[c]/(eta[a]·eta[b] + eta[a]·eta[c] + eta[b]·eta[c])"
    assert all(e.conditions is None for m, e in found.items() if len(m) < 3)
    points = []
    for eta in ((3, 3, 3), (5, 3, 5), (2, 4, 4)):
        bound = 1 / sum(Fraction(1, e) for e in eta)
        for delta in (bound * Fraction(9, 10), bound, bound * Fraction(11, 10)):
            points.append({"delta": delta, "eta[a]": eta[0], "eta[b]": eta[1], "eta[c]": eta[2]})
    _agree(scheme, found, points)


def schemes():
    return parametric_schemes(counts=(2,))


@settings(max_examples=3, deadline=None)
@given(schemes())
def test_random_two_parameter_conditions_agree_with_the_brute_force(data):
    """Three examples only: a random two-parameter scheme costs about 28 s (eliminating p set by set, every
    condition proved both ways); breadth is measured by benchmarks/bench_optimality_conditions.py."""
    scheme = build_scheme(spec_from_data(data))
    found = symbolic_optimality(scheme)
    _agree(scheme, found, [{"t": t, "s": s} for t in GRID for s in GRID])
