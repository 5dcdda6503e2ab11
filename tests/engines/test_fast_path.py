"""The fast path (arrays, exact where it matters) against the exact cell-by-cell path.

The randomized comparison draws 200 numeric schemes with a fixed seed (rational and irrational entries,
deliberate ties, explicit rows and formulas) and requires the same verdicts, the same first counterexample or
witness, the same instance counts and the same Definition 4 status for every set. Hypothesis checks the
array arithmetic against exact fractions: every enclosure contains the exact value, every exact element is it.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.check.checker import check_results
from verifier.cli import check
from verifier.engines.enumerate import EnumerationEngine
from verifier.engines.vector import VectorEngine
from verifier.errors import SpecError
from verifier.formula.cells import Cells, compare
from verifier.formula.parse import parse_formula
from verifier.formula.symmetry import member_cost_symmetric
from verifier.formula.vector import NotVectorised
from verifier.properties import PROPERTIES
from verifier.scheme import build_scheme
from verifier.scheme.lazy import build_fast_scheme
from verifier.spec import load_spec, spec_from_text

from conftest import ROOT, SPECS

POOL = ["0", "1/2", "1", "3/2", "2", "5/2", "3", "1/3", "4"]
FORMULAS = [
    "genmean({p}, [c(yh, y) for yh in Y])",
    "genmean(1 - {r}, [c(yh, y) for yh in Y]) if y in Y else genmean(1 + {r}, [c(yh, y) for yh in Y])",
    "(0 if y in Y else c(y, y) + {k}) + {d} * (len(Y) - 1)",
    "mean([c(yh, y) for yh in Y]) * {s}",
    "min([c(yh, y) for yh in Y]) + {d} * (len(Y) - 1)",
    "max([c(yh, y) for yh in Y]) - {d}",
    "sqrt(sum([c(yh, y) ** 2 for yh in Y]) / len(Y))",
    "log(1 + sum([c(yh, y) for yh in Y])) / log(1 + len(Y))",
    "mean([c(yh, y) for yh in Y]) if y in Y else max([c(yh, y) for yh in Y])",
]


def _random_spec(rng: random.Random, number: int) -> str:
    K = rng.choice([2, 3, 3, 4, 4, 4])
    classes = "abcd"[:K]
    rows = []
    for h in range(K):
        row = [("0" if (y == h and rng.random() < 0.8) else rng.choice(POOL)) for y in range(K)]
        rows.append(f"  {classes[h]}: [{', '.join(row)}]")
    text = f"name: random {number}\nclasses: [{', '.join(classes)}]\ncost_matrix:\n" + "\n".join(rows) + "\n"
    if rng.random() < 0.35:  # explicit rows, some of them exactly the mean of their members (ties)
        text += "set_costs:\n"
        matrix = [[Fraction(x) for x in r.split("[")[1].rstrip("]").split(", ")] for r in rows]
        for n in range(2, K + 1):
            for members in _subsets(K, n):
                if rng.random() < 0.3:
                    cells = [sum((matrix[h][y] for h in members), Fraction(0)) / n for y in range(K)]
                else:
                    cells = [Fraction(rng.choice(POOL)) for _ in range(K)]
                values = ", ".join(str(c) for c in cells)
                text += f"  \"{','.join(classes[i] for i in members)}\": [{values}]\n"
        return text
    formula = rng.choice(FORMULAS).format(p=rng.choice(["0", "1/2", "1", "2", "1/3"]), r=rng.choice(["1/2", "1/4"]),
                                          k=rng.choice(["1", "1/2"]), d=rng.choice(["0", "1/5", "1/2", "1"]),
                                          s=rng.choice(["1", "3/4", "1/2"]))
    return text + f'set_cost: "{formula}"\n'


def _subsets(K: int, n: int):
    from itertools import combinations

    return combinations(range(K), n)


def _both_builds(spec):
    """(exact scheme, fast scheme), or None when there is nothing to compare: a spec the exact builder rejects
    (the fast one must reject it too) or one the arrays leave to the exact path."""
    try:
        exact = build_scheme(spec)
    except SpecError:
        with pytest.raises((SpecError, NotVectorised)):
            build_fast_scheme(spec)
        return None
    try:
        return exact, build_fast_scheme(spec)
    except NotVectorised:
        return None


def _summary(scheme, engine) -> dict:
    out = {}
    for prop in PROPERTIES:
        result = engine.decide(prop)
        binding = result.evidence.binding
        where = None if binding is None else (tuple(sorted(binding.members)), binding.y, binding.y2)
        out[prop.id] = (result.verdict.value, result.evidence.kind, where, result.evidence.instances)
    out["possibility"] = {tuple(sorted(m)): engine.possibility[m].status.value for m in scheme.indeterminate_sets}
    return out


def test_the_fast_and_exact_paths_agree_on_200_random_numeric_schemes(tmp_path):
    rng = random.Random(20261123)
    vectorised = 0
    for number in range(200):
        text = _random_spec(rng, number)
        built = _both_builds(spec_from_text(text))
        if built is None:
            continue
        exact_scheme, fast_scheme = built
        vectorised += 1
        fast_engine = VectorEngine(fast_scheme)
        fast = _summary(fast_scheme, fast_engine)
        exact = _summary(exact_scheme, EnumerationEngine(exact_scheme))
        assert fast == exact, text
        results = [fast_engine.decide(p) for p in PROPERTIES]
        check_results(fast_scheme, results)
        assert all(r.checked for r in results), text
    assert vectorised >= 160  # the comparison is about the fast path: nearly every draw must take it


NUMERIC = sorted(n[:-5] for n in os.listdir(SPECS) if n.endswith(".yaml") and "symbolic" not in n and n != "ha.yaml")


@pytest.mark.parametrize("stem", NUMERIC)
def test_every_bundled_numeric_spec_gets_the_same_verdicts_on_both_paths(stem):
    out_fast, out_exact = io.StringIO(), io.StringIO()
    path = os.path.join(SPECS, f"{stem}.yaml")
    check([path, "--no-cache", "--format", "json"], out_fast, io.StringIO())
    check([path, "--no-cache", "--format", "json", "--exact"], out_exact, io.StringIO())
    fast, exact = json.loads(out_fast.getvalue()), json.loads(out_exact.getvalue())
    assert {p: v["verdict"] for p, v in fast["properties"].items()} == \
        {p: v["verdict"] for p, v in exact["properties"].items()}
    assert [e["status"] for e in fast.get("possibility", [])] == [e["status"] for e in exact.get("possibility", [])]


# -- the array arithmetic against exact fractions --------------------------------------------------------------
fractions = st.fractions(min_value=-50, max_value=50, max_denominator=40)


def _cells(values, exact_mask):
    """Exact elements as rationals; the others as tight enclosures of the same values (not exact)."""
    den = math.lcm(*(v.denominator for v in values))
    num = np.array([v.numerator * (den // v.denominator) for v in values], dtype=np.int64)
    exact = Cells.from_exact(num, den)
    lo = np.nextafter(exact.lo, -np.inf)
    hi = np.nextafter(exact.hi, np.inf)
    mask = np.array(exact_mask)
    return Cells(np.where(mask, exact.lo, lo), np.where(mask, exact.hi, hi), np.where(mask, num, 0), den, mask)


def _holds(cells: Cells, values):
    for i, v in enumerate(values):
        assert cells.lo[i] <= v <= cells.hi[i], (i, v, cells.lo[i], cells.hi[i])
        if cells.exact[i]:
            assert cells.fraction((i,)) == v


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(fractions, fractions, st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_array_arithmetic_encloses_exact_results(rows):
    a_values, b_values = [r[0] for r in rows], [r[1] for r in rows]
    a, b = _cells(a_values, [r[2] for r in rows]), _cells(b_values, [r[3] for r in rows])
    _holds(a + b, [x + y for x, y in zip(a_values, b_values)])
    _holds(a - b, [x - y for x, y in zip(a_values, b_values)])
    _holds(a * b, [x * y for x, y in zip(a_values, b_values)])
    _holds(a.power(Fraction(3)), [x**3 for x in a_values])
    if all(y != 0 for y in b_values):
        _holds(a / b, [x / y for x, y in zip(a_values, b_values)])
    squares = [x * x for x in a_values]
    roots = a.square().power(Fraction(1, 2))  # x*x >= 0 is known to square(), not to a product
    _holds(roots, [abs(x) for x in a_values])
    truth = compare(a, "<", b)
    for i, (x, y) in enumerate(zip(a_values, b_values)):
        assert truth[i] in ((x < y), -1) and (truth[i] != -1 or not (a.exact[i] and b.exact[i]))
    assert all(math.isfinite(v) for v in squares)


def test_roots_of_perfect_powers_stay_exact_and_others_are_enclosed():
    cells = Cells.from_exact(np.array([0, 1, 4, 9, 2]), 1).power(Fraction(1, 2))
    assert cells.exact.tolist() == [True, True, True, True, False]
    assert [cells.fraction((i,)) for i in range(4)] == [0, 1, 2, 3]
    assert cells.lo[4] <= math.sqrt(2) <= cells.hi[4] and cells.hi[4] - cells.lo[4] < 1e-14


# -- the member-cost lemma ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("formula, symmetric", [
    ("genmean(1 - r, [c(yh, y) for yh in Y])", True),
    ("sum([c(v, y) ** 2 for v in Y]) / len(Y) + 1", True),
    ("max([c(a, y) for a in Y]) * min([c(b, y) for b in Y])", True),
    ("(0 if y in Y else 1) + 0.2 * (len(Y) - 1)", False),  # y itself, not through its members' costs
    ("sum([c(v, y) * rank(v) for v in Y])", False),  # the member's name matters
    ("sum([c(v, y) for v in Y]) + rank(y)", False),
    ("sum([c(y, v) for v in Y])", False),
    ("eta[y] * mean([c(v, y) for v in Y])", False),
    ("sqrt(sum([c(v, y) for v in Y if v == 'a']))", False),  # a filter picks members by class
    ("sum([c(v, y) for v in Y if rank(v) > 0])", False),
])
def test_the_member_cost_lemma_is_read_off_the_formula(formula, symmetric):
    parsed = parse_formula(formula, "t.yaml", "set_cost", None)
    assert member_cost_symmetric(parsed, {}) is symmetric


def test_the_lemma_decides_permutation_invariance_of_irrational_costs_without_exact_work():
    spec = load_spec(os.path.join(SPECS, "ordinal-l1-9.yaml"))
    scheme = build_fast_scheme(spec)
    engine = VectorEngine(scheme)
    assert engine.symmetric
    result = engine.decide(next(p for p in PROPERTIES if p.id == "P5"))
    assert result.verdict.value == "holds" and engine.resolved == 0


# -- limits and the command ----------------------------------------------------------------------------------------
def test_numeric_formula_specs_go_beyond_twelve_classes(tmp_path):
    path = tmp_path / "zero-one.yaml"
    path.write_text('name: 0/1 with abstention\nclasses: 13\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "0.5 * (len(Y) - 1) / (K - 1) if y in Y else 1"\n')
    out, err = io.StringIO(), io.StringIO()
    code = check([str(path), "--no-cache", "--format", "json"], out, err)
    assert code == 0, err.getvalue()
    record = json.loads(out.getvalue())
    assert len(record["classes"]) == 13 and record["properties"]["P1"]["verdict"] == "holds"


def test_symbolic_specs_and_the_exact_engine_stop_at_twelve_classes(tmp_path):
    """Unless the scheme treats every class alike (the symmetry route, tests/engines/test_symmetry.py)."""
    lopsided = tmp_path / "lopsided.yaml"
    lopsided.write_text('name: t\nclasses: 13\nparameters:\n  d: {}\nassume: ["d > 0"]\n'
                        'cost: "abs(rank(yhat) - rank(y))"\nset_cost: "mean([c(v, y) for v in Y]) - d"\n')
    out, err = io.StringIO(), io.StringIO()
    assert check([str(lopsided), "--no-cache"], out, err) == 2
    assert "beyond enumeration (12 classes for this spec)" in err.getvalue()
    assert "symmetry route does not apply" in err.getvalue()
    assert re.search(r"lopsided\.yaml:2:\d+: invalid spec at key 'classes'", err.getvalue())  # file, key, position
    err = io.StringIO()
    assert check([os.path.join(SPECS, "accuracy-u65.yaml"), "--exact", "--no-cache"], io.StringIO(), err) == 0
    path = tmp_path / "big.yaml"
    path.write_text('name: t\nclasses: 13\ncost: "abs(rank(yhat) - rank(y))"\nset_cost: "1 + 0 * c(y, y)"\n')
    err = io.StringIO()
    assert check([str(path), "--exact", "--no-cache"], io.StringIO(), err) == 2
    assert "beyond enumeration (12 classes for this spec)" in err.getvalue()


def test_standard_output_of_a_real_process_is_only_the_json_report():
    done = subprocess.run([sys.executable, "-m", "verifier", "specs/ha-numeric.yaml", "--no-cache", "--format",
                           "json"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["name"]  # nothing else (HiGHS printed a banner here once)


# -- regressions from an adversarial review of the fast path ----------------------------------------------------
REVIEWED = {
    # a comprehension filter that names its variable picks members by class: the lemma must not apply
    "filter": ('name: lemma filter on v\nclasses: [a, b]\ncost: "2 + (0 if yhat == y else 10**-30)"\n'
               'set_cost: "sum([c(v, y) for v in Y]) if len(Y) == 1 else '
               'sqrt(sum([c(v, y) for v in Y if v == \'a\']))"\n', 0),
    # denominators beyond 2^53 and beyond 1000 bits: enclosures from correctly rounded int division
    "tiny": ("name: tiny decimal\nclasses: [a, b]\ncost_matrix:\n  a: [0, 0." + "0" * 302 + "1]\n  b: [1, 0]\n"
             'set_costs:\n  "a,b": [0.5, 0.5]\n', 0),
    # the exact rational LP's witnesses hold plain integers
    "huge": ('name: huge integers\nclasses: [a, b, c]\ncost: "0 if yhat == y else 10**20 + rank(y)"\n'
             'set_cost: "sum([c(v, y) for v in Y]) / len(Y) - (1 if y in Y else 0)"\n', 0),
    # a function body cannot see Y; an empty sum is an error: both as on the exact path
    "function": ('name: f\nclasses: [a, b, c]\nfunctions:\n  g(t): "sum([t for v in Y])"\n'
                 'cost: "0 if yhat == y else 1"\nset_cost: "(0 if y in Y else 1) + g(1/10)"\n', 2),
    "empty": ('name: e\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\n'
              'set_cost: "(0 if y in Y else 1) + 0.1 * sum([1 for v in Y if rank(v) > 5])"\n', 2),
}


@pytest.mark.parametrize("case", list(REVIEWED))
def test_reviewed_cases_get_the_exact_paths_answer(tmp_path, case):
    text, code = REVIEWED[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    runs = []
    for extra in ([], ["--exact"]):
        out, err = io.StringIO(), io.StringIO()
        runs.append((check([str(path), "--no-cache", "--format", "json", *extra], out, err), out.getvalue(),
                     err.getvalue()))
    (fast_code, fast_out, fast_err), (exact_code, exact_out, _) = runs
    assert fast_code == exact_code == code, fast_err
    assert "internal error" not in fast_err
    if code == 0:
        fast, exact = json.loads(fast_out), json.loads(exact_out)
        assert {p: v["verdict"] for p, v in fast["properties"].items()} == \
            {p: v["verdict"] for p, v in exact["properties"].items()}


def test_enclosures_of_ratios_with_large_denominators_contain_the_ratio():
    from verifier.formula.rationals import enclose_ratio

    rng = random.Random(3)
    for _ in range(2000):
        den = (rng.randint(2**52, 2**52 + 2**50) << 18) + (1 << 17) - rng.randint(1, 4)
        num = (rng.randint(2**52, 2**53) << 9) - (1 << 8) + rng.randint(1, 4)
        lo, hi = enclose_ratio(np.array([num], dtype=np.int64), den)
        assert Fraction(float(lo[0])) <= Fraction(num, den) <= Fraction(float(hi[0]))


def test_too_many_ties_for_one_by_one_go_to_the_exact_walk(monkeypatch):
    from verifier.engines.vector import decide

    text = ('name: ties\nclasses: 4\ncost: "0 if yhat == y else sqrt(rank(yhat) + rank(y) + 2)"\n'
            'set_cost: "sum([c(v, y) for v in Y]) / len(Y)"\n')
    spec = spec_from_text(text)
    exact = {p.id: EnumerationEngine(build_scheme(spec)).decide(p).verdict.value for p in PROPERTIES}
    monkeypatch.setattr(decide, "RESOLVE_LIMIT", 1)
    scheme = build_fast_scheme(spec)
    engine = VectorEngine(scheme)
    fast = {p.id: engine.decide(p).verdict.value for p in PROPERTIES}
    assert fast == exact and exact["P6"] == exact["P7"] == "holds"


# -- random formulas: the vectorised interpreter against the exact one -------------------------------------------
_leaf = st.sampled_from(["1", "2", "1/3", "0.5", "len(Y)", "K", "rank(y)", "c(y, y)"])
_member = st.sampled_from(["c(v, y)", "c(v, y) ** 2", "sqrt(c(v, y))", "c(v, y) + rank(v)", "1 + c(v, y) / 2"])
_reducer = st.builds(lambda f, e: f"{f}([{e} for v in Y])", st.sampled_from(["sum", "min", "max", "mean", "prod"]),
                     _member) | st.builds(lambda p, e: f"genmean({p}, [{e} for v in Y])",
                                          st.sampled_from(["0", "1/2", "2", "-1"]), _member)


def _combine(children):
    return st.builds(lambda a, op, b: f"({a}) {op} ({b})", children, st.sampled_from(["+", "-", "*"]), children) | \
        st.builds(lambda a, b: f"({a}) if y in Y else ({b})", children, children) | \
        st.builds(lambda a: f"sqrt(abs({a}))", children)


_formula = st.recursive(_leaf | _reducer, _combine, max_leaves=5)


@settings(max_examples=60, deadline=None)
@given(_formula, st.sampled_from(["abs(rank(yhat) - rank(y))", "0 if yhat == y else 1 + rank(y)"]))
def test_the_vectorised_interpreter_agrees_with_the_exact_one(formula, cost):
    import sympy as sp

    built = _both_builds(spec_from_text(f'name: random formula\nclasses: 3\ncost: "{cost}"\nset_cost: "{formula}"\n'))
    if built is None:
        return
    exact, fast = built
    rows = fast.cells.rows
    for s, members in enumerate(exact.all_sets):
        for y in range(exact.K):
            value = exact.rows[members][y]
            if rows.exact[s, y]:
                assert value.is_Rational and Fraction(int(value.p), int(value.q)) == rows.fraction((s, y)), formula
            else:
                assert not value.is_Rational or Fraction(int(value.p), int(value.q)) != 0 or rows.lo[s, y] <= 0
            approx = sp.Float(sp.N(value, 40), 40)
            assert sp.Float(rows.lo[s, y], 40) <= approx <= sp.Float(rows.hi[s, y], 40), (formula, members, y)


def test_a_closed_standard_output_is_no_crash():
    done = subprocess.run(["bash", "-c",
                           f"'{sys.executable}' -m verifier specs/ha-numeric.yaml --no-cache --format json >&-"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_how_to_fit_with_many_sets_lists_the_first_cells_and_counts_them_all(tmp_path):
    path = tmp_path / "costly.yaml"
    path.write_text('name: costly rejection\nclasses: 11\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "(0 if y in Y else 1) + 0.9 * (len(Y) - 1)"\n')
    out, err = io.StringIO(), io.StringIO()
    check([str(path), "--no-cache", "--format", "json"], out, err)
    fit = json.loads(out.getvalue())["settings"]["filtering"]["how_to_fit"]
    # P3 fails wherever the truth is in Y: every set of size n >= 2 at each of its n members
    expected = sum(math.comb(11, n) * n for n in range(2, 12))
    assert fit["cells_total"]["P3"] == expected and fit["cells_total_is_lower_bound"]["P3"] is False
    assert 1023 <= len(fit["cells"]["P3"]) < expected
    assert any(f"fails at {expected:,} places (the first" in step for step in fit["steps"])
