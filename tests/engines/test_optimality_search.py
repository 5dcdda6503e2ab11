"""The float search behind per-set optimality may only speed things up, never change an answer.

- Relabellings: a set's answer moved along a class permutation that leaves the matrix unchanged is confirmed
  exactly like a found one; on random schemes with a planted symmetry, and with a forged "symmetry" that does
  not hold, every status equals the exact rational LP of test_optimality.
- The warm-started cutting-plane LP reaches the optimum of the whole LP (scipy's HiGHS on every row at once).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import verifier
from verifier.engines import optimality
from verifier.engines.automorphisms import LIMIT, class_automorphisms, orbits
from verifier.engines.cutting_planes import cutting_planes
from verifier.engines.expected import ExpectedCosts

from brute_force import optimum

NAMES = "abcd"
VALUES = [F(0), F(1, 2), F(1), F(3, 2), F(2), F(3)]


def _sets(K):
    return [frozenset(c) for n in range(1, K + 1) for c in itertools.combinations(range(K), n)]


@st.composite
def mirrored(draw):
    """(K, rows[Y][y]) with c_{σY}(σy) = c_Y(y) for the reversal σ(y) = K − 1 − y; diagonal 0."""
    K = draw(st.sampled_from([3, 4]))
    flip = lambda m: frozenset(K - 1 - y for y in m)  # noqa: E731
    rows: dict = {}
    for Y in _sets(K):
        if Y in rows:
            continue
        row = [F(0) if Y == frozenset((y,)) else draw(st.sampled_from(VALUES)) for y in range(K)]
        rows[Y] = row
        rows[flip(Y)] = [row[K - 1 - y] for y in range(K)]
        if flip(Y) == Y:  # a mirror-image set: its own row must be a palindrome
            rows[Y] = [row[min(y, K - 1 - y)] for y in range(K)]
    return K, rows


def _spec(K, rows) -> dict:
    names = NAMES[:K]
    text = lambda v: f"{v.numerator}/{v.denominator}"  # noqa: E731
    return {"name": "random", "classes": list(names),
            "cost_matrix": {names[h]: [text(v) for v in rows[frozenset((h,))]] for h in range(K)},
            "set_costs": {",".join(names[i] for i in sorted(Y)): [text(v) for v in row]
                          for Y, row in rows.items() if len(Y) > 1}}


def _statuses_match_the_exact_lp(K, rows) -> None:
    a = verifier.verify(_spec(K, rows), cache=False).analysis
    for Y, entry in a.optimality.items():
        t = optimum(rows, Y)
        assert entry.status == ("alone" if t > 0 else "tied" if t == 0 else "never"), (Y, t, entry)


@settings(max_examples=40, deadline=None)
@given(mirrored())
def test_answers_moved_along_a_planted_symmetry_are_the_exact_lps(data):
    K, rows = data
    sets = _sets(K)
    floats = np.array([[float(v) for v in rows[m]] for m in sets])
    moves = class_automorphisms(sets, floats, K)
    for sigma in moves:  # each one really relabels the matrix onto itself
        image = lambda m: frozenset(int(sigma[y]) for y in m)  # noqa: E731
        assert all(rows[image(m)][int(sigma[y])] == rows[m][y] for m in sets for y in range(K))
    assert any(list(s) == list(range(K - 1, -1, -1)) for s in moves) or len(moves) == LIMIT  # LIMIT: more symmetry
    _statuses_match_the_exact_lp(K, rows)


@settings(max_examples=25, deadline=None)
@given(mirrored(), st.permutations(range(4)))
def test_a_forged_symmetry_cannot_change_an_answer(monkeypatch_data, permutation):
    K, rows = monkeypatch_data
    sigma = np.array([y for y in permutation if y < K])
    with pytest.MonkeyPatch.context() as patch:  # whatever the float test says, the moved evidence is re-confirmed
        patch.setattr(optimality, "class_automorphisms", lambda *_: [sigma])
        _statuses_match_the_exact_lp(K, rows)


def test_ordinal_costs_have_the_reversal_and_ha_with_ranked_weights_has_none():
    ordinal = {"name": "ordinal", "classes": 6, "parameters": {"r": {"value": "1/2"}},
               "cost": "abs(rank(yhat) - rank(y))", "set_cost": "genmean(1 - r, [c(yh, y) for yh in Y])"}
    ha = {"name": "ha", "classes": 5, "parameters": {"delta": {"value": "1/5"}},
          "cost": "0 if y == yhat else 1 + rank(y)",
          "set_cost": "(0 if y in Y else 1 + rank(y)) + delta * (len(Y) - 1)"}
    for spec, want in ((ordinal, [[5, 4, 3, 2, 1, 0]]), (ha, [])):
        s = verifier.verify(spec, cache=False).analysis.scheme
        costs = ExpectedCosts(s)
        assert [list(m) for m in class_automorphisms(costs.sets, costs.floats, s.K)] == want


def test_orbits_name_a_representative_and_the_permutation_reaching_each_set():
    sets = _sets(3)
    reverse = np.array([2, 1, 0])
    found = orbits(sets, [reverse])
    for m, (start, sigma) in found.items():
        if sigma is None:
            assert start == m
        else:
            assert frozenset(int(sigma[y]) for y in start) == m
    assert sum(sigma is None for _, sigma in found.values()) == 5  # {a}~{c}, {b}, {a,b}~{b,c}, {a,c}, {a,b,c}


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(3, 14), st.integers(0, 2**32 - 1))
def test_the_warm_started_cutting_planes_reach_the_whole_lps_optimum(K, n, seed):
    rng = np.random.default_rng(seed)
    F_ = rng.integers(0, 5, size=(n, K)) / 4.0
    blocks = {j: j for j in range(n)}
    first = {j: [i for i in range(min(K, n)) if i != j] or [(j + 1) % n] for j in range(n)}
    found = cutting_planes(F_, blocks, first)
    for j, (p, t, duals) in found.items():
        rows = [i for i in range(n) if i != j]
        A = np.hstack([F_[j] - F_[rows], np.ones((len(rows), 1))])
        whole = linprog(np.r_[np.zeros(K), -1.0], A_ub=A, b_ub=np.zeros(len(rows)),
                        A_eq=np.r_[np.ones(K), 0.0][None, :], b_eq=[1.0],
                        bounds=[(0, 1)] * K + [(None, None)], method="highs")
        assert abs(t - (-whole.fun)) < 1e-7, (j, t, -whole.fun)
        assert abs(sum(p) - 1) < 1e-9 and min(p) >= -1e-9
        lam = np.array([duals.get(i, 0.0) for i in rows])
        if lam.sum() > 0:  # the duals certify t: Σ λ (c_Y − c_Z) >= −t in every column, Σ λ = 1
            assert abs(lam.sum() - 1) < 1e-7
            assert np.all(lam @ (F_[j] - F_[rows]) >= -t - 1e-7)


def test_the_checker_refuses_a_witness_lent_to_another_set_on_irrational_costs():
    """The batch re-check of `alone` entries (float bounds of irrational cells) accepts only true minimisers."""
    from verifier.check.optimality import check_optimality
    from verifier.verdict import SetOptimality

    spec = {"name": "ordinal", "classes": 5, "parameters": {"r": {"value": "1/2"}},
            "cost": "abs(rank(yhat) - rank(y))", "set_cost": "genmean(1 - r, [c(yh, y) for yh in Y])"}
    a = verifier.verify(spec, cache=False).analysis
    real = dict(a.optimality)
    sets = list(real)
    lent = {b: SetOptimality(b, "alone", witness=real[a_].witness) for a_, b in zip(sets, sets[1:] + sets[:1])}
    check_optimality(a.scheme, lent)
    assert all(e.status == "unknown" for e in lent.values())
    kept = {m: SetOptimality(m, "alone", witness=e.witness) for m, e in real.items() if e.status == "alone"}
    check_optimality(a.scheme, kept)
    assert len(kept) > 20 and all(e.status == "alone" for e in kept.values())
