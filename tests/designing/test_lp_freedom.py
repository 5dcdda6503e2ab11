"""Each open cell's range by exact linear programs (`designing.lp_freedom`) against z3's quantifier elimination of
the same demands, on the bundled designs and on random three-class ones; the union of intervals against points."""

import os
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.designing import make_request
from verifier.designing.complete import complete
from verifier.designing.lp_freedom import lp_ranges, union
from verifier.engines.margins import Interval, projection
from verifier.spec import load_spec
from verifier.spec.reader import spec_from_text

from conftest import SPECS

OPEN = os.path.join(SPECS, "design", "obstacle-open.yaml")
HB_OPEN = os.path.join(SPECS, "design", "obstacle-hb-open.yaml")


def _both(spec, request):
    """(the LP ranges, the z3 projections) of every open cell of the design, by cell key."""
    done = complete(spec, request, ranges=False)
    assert done.feasible
    problem = done.problem
    conditions = [problem.condition(d) for d in done.kept] + [problem.pinned(c) for c in problem.fixed_cells]
    lp = lp_ranges(problem, conditions, done.solution.values, done.solution.margin, 20_000)
    body = conditions + [problem.margin > 0] + list(problem.t.side)
    variables = [problem.margin] + list(problem.t.variables.values())
    qe = {}
    for cell in problem.open_cells:
        x = problem.var(cell)
        qe[cell.key] = projection(body, x, [v for v in variables if not v.eq(x)], 60_000)
    return lp, qe, problem


@pytest.mark.parametrize("path, setting", [(OPEN, "filtering"), (OPEN, "choice"), (HB_OPEN, "filtering")])
def test_every_cell_of_the_bundled_designs_is_decided_by_lps_as_the_elimination_decides_it(path, setting):
    lp, qe, problem = _both(load_spec(path, open_cells=True), make_request(setting))
    assert set(lp) == {c.key for c in problem.open_cells}
    for key, intervals in lp.items():
        assert qe[key] is not None and intervals == qe[key], key


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(off=st.lists(st.integers(1, 4), min_size=6, max_size=6),
       fixed=st.lists(st.one_of(st.none(), st.none(), st.none(), st.integers(0, 6).map(lambda n: Fraction(n, 2))),
                      min_size=12, max_size=12),
       setting=st.sampled_from(["filtering", "choice"]),
       extra=st.sampled_from([(), ("P7",), ("P6",)]))
def test_random_designs_get_the_ranges_the_elimination_gets(off, fixed, setting, extra):
    it = iter(off)
    det = [[0 if h == y else next(it) for y in range(3)] for h in range(3)]
    rows = {"a,b": fixed[0:3], "a,c": fixed[3:6], "b,c": fixed[6:9], "a,b,c": fixed[9:12]}
    text = "name: random\nclasses: [a, b, c]\ncost_matrix:\n" + "".join(
        f"  {n}: [{', '.join(str(v) for v in det[i])}]\n" for i, n in enumerate("abc")) + "set_costs:\n" + "".join(
        f"  \"{k}\": [{', '.join('null' if v is None else repr(str(v)) for v in r)}]\n" for k, r in rows.items())
    spec = spec_from_text(text, "<random>", open_cells=True)
    request = make_request(setting, with_=list(extra))
    done = complete(spec, request, ranges=False)
    if not done.feasible:
        return
    lp, qe, problem = _both(spec, request)
    assert set(lp) == {c.key for c in problem.open_cells}  # three classes: no cell is left to the elimination
    for key, intervals in lp.items():
        if qe[key] is not None:  # z3 answered: it must be the same exact set
            assert intervals == qe[key], (key, intervals, qe[key])


ENDS = st.one_of(st.none(), st.integers(-3, 3).map(Fraction))


@st.composite
def intervals(draw):
    low, high = draw(ENDS), draw(ENDS)
    if low is not None and high is not None and low > high:
        low, high = high, low
    low_closed, high_closed = draw(st.booleans()) and low is not None, draw(st.booleans()) and high is not None
    if low is not None and low == high:
        low_closed = high_closed = True
    return Interval(low, high, low_closed, high_closed)


@given(st.lists(intervals(), max_size=6))
def test_the_union_is_disjoint_sorted_and_has_the_same_points(pieces):
    out = union(pieces)
    for x in [Fraction(n, 2) for n in range(-8, 9)]:
        assert any(i.contains(x) for i in out) == any(i.contains(x) for i in pieces), x
    for a, b in zip(out, out[1:]):  # disjoint, not touching in a shared point, and sorted
        assert a.high is not None and b.low is not None and (a.high < b.low or not (a.high_closed or b.low_closed))
