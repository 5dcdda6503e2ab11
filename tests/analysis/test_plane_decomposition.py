"""The exact decomposition of the parameter plane (issue 65): real algebraic numbers, every sign pattern of a set
of polynomials, a set's status from the signs alone, and the conditions built from them, each compared with an
independent method: exact evaluation at rational points, the brute force's one exact LP per set
(tests/brute_force.py), and the numeric engine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import flint
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.analysis.optimality_across import Points
from verifier.analysis.plane_cells import decompose
from verifier.analysis.plane_optimality import plane_optimality, plane_possibility
from verifier.analysis.real_algebraic import Field, Root, order, real_roots, sign_at, simplest_between
from verifier.analysis.sign_factors import decisive_factors
from verifier.analysis.sign_status import SignStatus
from verifier.analysis.symbolic_optimality import symbolic_optimality
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import build_scheme
from verifier.spec import spec_from_data

from brute_force import optimum, parametric_schemes

HA_ONE_ETA = {"name": "Ha with one eta", "classes": ["a", "b", "c"], "parameters": {"delta": {}, "eta": {}},
              "assume": ["delta >= 0", "delta <= eta / 2", "eta <= 4"],
              "cost": "0 if yhat == y else eta", "set_cost": "(0 if y in Y else eta) + delta * (len(Y) - 1)"}
GAIN = {"name": "Quadratic-gain discounted accuracy", "classes": ["a1", "a2", "a3", "a4"],
        "parameters": {"a": {}, "lam": {}}, "assume": ["a >= 1", "a <= 2.5", "lam >= 0", "lam <= 1"],
        "functions": {"g(x)": "a * x - (a - 1) * x**2"}, "cost": "0 if yhat == y else 1",
        "set_cost": "1 - g(1 / len(Y)) if y in Y else 1 + lam * (len(Y) - 1)"}


def _poly(*coefficients):
    return flint.fmpq_poly([flint.fmpq(Fraction(c).numerator, Fraction(c).denominator) for c in coefficients])


def test_real_roots_are_exact_ordered_and_signed():
    roots = real_roots(_poly(-2, 0, 1) * _poly(-1, 3) * _poly(-3, 0, 1))  # ±√2, 1/3, ±√3
    assert [r if isinstance(r, Fraction) else (r.poly.coeffs(), r.index) for r in roots] == [
        ([-3, 0, 1], 0), ([-2, 0, 1], 0), Fraction(1, 3), ([-2, 0, 1], 1), ([-3, 0, 1], 1)]
    assert [sign_at(_poly(-2, 0, 1), r) for r in roots] == [1, 0, -1, 0, 1]  # zero exactly at ±√2
    assert [sign_at(_poly(-6, 0, 0, 0, 1), r) for r in roots] == [1, -1, -1, -1, 1]  # x^4 - 6 at ±√3: 3
    assert real_roots(_poly(1, 0, 1)) == [] and real_roots(_poly(6, -5, 1)) == [Fraction(2), Fraction(3)]
    sqrt2 = roots[3]
    assert isinstance(sqrt2, Root) and Fraction(141, 100) < sqrt2.approximate() < Fraction(142, 100)
    assert simplest_between(Fraction(1, 3), Fraction(1, 2)) == Fraction(2, 5)
    assert simplest_between(roots[1], roots[2]) == 0 and simplest_between(None, roots[0]) == -2
    assert simplest_between(roots[0], roots[1]) == Fraction(-3, 2) and simplest_between(roots[3], None) == 2
    assert order([roots[4], Fraction(7, 4), roots[0]]) == [roots[0], roots[4], Fraction(7, 4)]


def test_the_field_of_a_root_divides_exactly():
    sqrt3 = real_roots(_poly(-3, 0, 1))[1]
    field = Field(sqrt3)
    alpha = _poly(0, 1)
    assert field.sign(alpha * alpha - 3) == 0 and field.sign(alpha - _poly(Fraction(173, 100))) == 1
    assert field.reduce(field.inverse(alpha) * alpha) == _poly(1)
    # b^2 - 3 and b - α over Q(√3): their gcd is b - α; (b - α)^2 (b + 1) has the square-free part (b - α)(b + 1)
    assert field.gcd([_poly(-3), _poly(0), _poly(1)], [-alpha, _poly(1)]) == [-alpha, _poly(1)]
    line, plus_one = [-alpha, _poly(1)], [_poly(1), _poly(1)]

    def times(f, g):
        out = [_poly(0)] * (len(f) + len(g) - 1)
        for i, x in enumerate(f):
            for j, y in enumerate(g):
                out[i + j] = field.reduce(out[i + j] + x * y)
        return out
    assert field.squarefree(times(times(line, line), plus_one)) == times(line, plus_one)


@st.composite
def polynomial_sets(draw):
    """Two to five distinct irreducible integer polynomials of degree up to 2 in (a, b)."""
    ctx = flint.fmpq_mpoly_ctx.get(("a", "b"), "lex")
    a, b = ctx.gens()
    monomials = [ctx.from_dict({(0, 0): 1}), a, b, a * a, a * b, b * b]
    found = {}
    for _ in range(draw(st.integers(2, 5))):
        degree = draw(st.integers(1, 2))
        poly = sum((draw(st.integers(-3, 3)) * m for m in monomials[:3 if degree == 1 else 6]), ctx.from_dict({}))
        if poly.is_constant():
            continue
        for factor, _ in poly.factor()[1]:
            if not factor.is_constant():
                terms = factor.to_dict()
                factor = factor if terms[max(terms)] > 0 else -factor
                found.setdefault(str(factor), factor)
    return list(found.values())


@settings(max_examples=40, deadline=None)
@given(polynomial_sets())
def test_every_sign_pattern_at_a_point_is_one_the_decomposition_found(polys):
    """Complete: the pattern at every point of a grid of the box (lines and curves cross it at such points) is
    among those found; sound: each pattern found with a rational point has those signs there."""
    box = ((Fraction(-2), Fraction(2)), (Fraction(-2), Fraction(2)))
    cells = decompose(polys, box)
    found = {c.signs for c in cells}

    def signs(x, y):
        return tuple((v > 0) - (v < 0) for v in (p(flint.fmpq(x.numerator, x.denominator),
                                                   flint.fmpq(y.numerator, y.denominator)) for p in polys))
    grid = sorted({Fraction(n, d) for d in (1, 2, 3, 4) for n in range(-2 * d, 2 * d + 1)})
    for x, y in itertools.product(grid, grid):
        assert signs(x, y) in found, (polys, x, y)
    for cell in cells:
        if cell.sure and cell.point is not None:
            assert signs(*cell.point) == cell.signs


@st.composite
def crowded_sets(draw):
    """Four to nine polynomials of degree up to 3 in (a, b): enough crossings that a sweep moves roots past others,
    over the bottom edge and through double roots."""
    ctx = flint.fmpq_mpoly_ctx.get(("a", "b"), "lex")
    a, b = ctx.gens()
    monomials = [ctx.from_dict({(0, 0): 1}), a, b, a * a, a * b, b * b, a * b * b, b * b * b]
    found = {}
    for _ in range(draw(st.integers(4, 9))):
        poly = sum((draw(st.integers(-4, 4)) * m for m in monomials[:draw(st.sampled_from([3, 6, 8]))]),
                   ctx.from_dict({}))
        for factor, _ in ([] if poly.is_constant() else poly.factor()[1]):
            if not factor.is_constant():
                terms = factor.to_dict()
                found.setdefault(str(factor if terms[max(terms)] > 0 else -factor), factor)
    return list(found.values())


@settings(max_examples=40, deadline=None)
@given(crowded_sets(), st.sampled_from([((Fraction(0), Fraction(1)), (Fraction(0), Fraction(1))),
                                        ((Fraction(-2), Fraction(2)), (Fraction(-1), Fraction(3)))]))
def test_the_sweep_finds_every_pattern_lifting_each_stripe_in_full_finds(polys, box):
    """Ordering each stripe's roots from the stripe before (`analysis.plane_sweep`) gives the same patterns, sure
    flags and points as isolating every root of every stripe again."""
    from verifier.analysis import plane_cells

    found = {}
    try:
        for sweep in (False, True):
            plane_cells.SWEEP = sweep
            try:
                found[sweep] = {c.signs: (c.sure, c.point) for c in decompose(polys, box)}
            except plane_cells.NotDecomposed as exc:
                found[sweep] = str(exc)
    finally:
        plane_cells.SWEEP = True
    assert found[True] == found[False]


def _brute_status(scheme, members, point) -> str:
    values = {s: sp.Rational(point[s.name].numerator, point[s.name].denominator) for s in scheme.symbols}
    rows = {m: [Fraction(str(sp.nsimplify(scheme.rows[m][y].subs(values)))) for y in range(scheme.K)]
            for m in scheme.all_sets}
    t = optimum(rows, members)
    return "alone" if t > 0 else "tied" if t == 0 else "never"


@settings(max_examples=5, deadline=None)
@given(parametric_schemes(counts=(2,)), st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=4,
                                                   max_size=8))
def test_the_status_read_from_the_signs_is_the_brute_forces(data, grid):
    """Oriented-matroid covectors against one exact LP per set, at rational points (many on zero sets)."""
    scheme = build_scheme(spec_from_data(data))
    for members in scheme.all_sets:
        factors = decisive_factors(scheme, members)
        status = SignStatus(scheme, members, factors)
        for i, j in grid:
            point = (Fraction(i, 4), Fraction(j, 4))
            signs = tuple(f.sign_at(point) for f in factors)
            assert status.status(signs).value == _brute_status(scheme, members, {"t": point[0], "s": point[1]})


def test_ha_with_one_eta_states_its_ties_as_equalities_without_a_solver(monkeypatch):
    """The issue's example: only tied where "delta = 0 or delta = eta/2", not a nested negation; z3 never asked."""
    def no_solver(*_, **__):
        raise AssertionError("z3 was asked")
    monkeypatch.setattr(z3.Solver, "check", no_solver)
    scheme = build_scheme(spec_from_data(HA_ONE_ETA))
    found = plane_optimality(scheme)
    pair = found[frozenset({0, 1})]
    assert [(c[0], c[1]) for c in pair.conditions] == [
        ("alone", "delta < eta/2 and delta > 0"), ("tied", "(delta = 0) or (delta = eta/2)")]
    full = found[frozenset({0, 1, 2})]
    assert [(c[0], c[1]) for c in full.conditions] == [
        ("alone", "delta < eta/3"), ("tied", "delta = eta/3"), ("never", "delta > eta/3")]
    for members, entry in found.items():  # each shown point decided again by the numeric engine
        for status, _, at, evidence, _ in entry.conditions or ():
            assert evidence.status == status == _brute_status(scheme, members, {
                k: Fraction(int(v.p), int(v.q)) for k, v in at.items()})
    assert plane_possibility(scheme)[0] == "delta < eta/2"
    assert plane_optimality(build_scheme(spec_from_data(HA_ONE_ETA))) == found  # the same answer again


def test_the_four_class_quadratic_gain_states_where_p1_holds():
    """Issue 65: "holds at some admissible values ... but no exact condition could be derived" before."""
    assert plane_possibility(build_scheme(spec_from_data(GAIN))) == ("a > 1", sp.Gt(sp.Symbol("a", real=True) - 1, 0))


def test_points_shown_are_rechecked_by_the_numeric_engine():
    scheme = build_scheme(spec_from_data({**GAIN, "classes": ["a1", "a2", "a3"]}))
    found = plane_optimality(scheme)
    points = Points(scheme)
    pair = found[frozenset({0, 1})]
    assert [(c[0], c[1]) for c in pair.conditions] == [("alone", "a > 1"), ("tied", "a = 1")]
    for status, _, at, evidence, _ in pair.conditions:
        assert points.decide(at)[frozenset({0, 1})].status == evidence.status == status


def test_costs_beyond_polynomials_go_to_the_solver_route_without_an_internal_error():
    """A root or a quotient of the parameters in a cost: the plane route declines (None), and the z3 route
    still answers (it once ended in an internal error on the quotient)."""
    base = {"classes": ["a", "b", "c"], "parameters": {"t": {}, "s": {}},
            "assume": ["t >= 1", "t <= 2", "s >= 0", "s <= 1"], "cost": "0 if yhat == y else 1"}
    for name, set_cost in (("root", "t**(1/2) * s if y in Y else 1 + s"),
                           ("quotient", "(1 - s/t) if y in Y else 1 + s")):
        scheme = build_scheme(spec_from_data({**base, "name": name, "set_cost": set_cost}))
        assert plane_optimality(scheme) is None
        assert set(symbolic_optimality(scheme)) == set(scheme.all_sets)
