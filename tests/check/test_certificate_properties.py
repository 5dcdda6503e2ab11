"""Property-based tests of the standalone checker's own arithmetic and readers (verifier_check/): its bounds of
roots, logs and exponentials always enclose the true value; equal numbers have equal forms where its canonical
rules reach (ties cancel exactly); its interpreter of the formula language agrees with the tool's on random
formulas (the same value, or both refuse); its YAML reader agrees with PyYAML wherever it reads a document; and a
random rational scheme's certificate always checks."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier_check import algebra, arithmetic, bounds, reals
from verifier_check.algebra import const
from verifier_check.limits import Malformed, Undecided

positive = st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=10 ** 6)


@settings(max_examples=200, deadline=None)
@given(positive, st.integers(2, 5))
def test_a_root_to_its_power_encloses_the_radicand(x, k):
    lo, hi = reals.root_bounds(x, k, 64)
    assert 0 <= lo <= hi and lo ** k <= x <= hi ** k and hi - lo <= Fraction(2, 1 << 64)


@settings(max_examples=200, deadline=None)
@given(positive)
def test_log_and_exp_bound_each_other(x):
    lo, hi = reals.log_bounds(x, 64)
    assert lo <= hi and hi - lo < Fraction(1, 1 << 50)
    assert reals.exp_bounds(lo, 64)[0] <= x <= reals.exp_bounds(hi, 64)[1]  # exp is increasing
    assert float(lo) - 1e-9 <= math.log(x) <= float(hi) + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.fractions(min_value=-30, max_value=30, max_denominator=1000))
def test_exp_encloses_the_float_value(x):
    lo, hi = reals.exp_bounds(x, 64)
    assert 0 < lo <= hi and float(lo) * (1 - 1e-12) <= math.exp(x) <= float(hi) * (1 + 1e-12)


def test_ties_cancel_exactly_where_the_canonical_forms_reach():
    log = lambda q: arithmetic.log(const(q), "t")  # noqa: E731
    root = lambda q, k=2: arithmetic.power(const(q), Fraction(1, k), "t")  # noqa: E731
    assert (log(3) - log(3).scaled(Fraction(2, 3)).scaled(Fraction(3, 2))).terms == {}
    assert (log(9).scaled(Fraction(1, 2)) - log(3)).terms == {}  # log 9 = 2 log 3, term for term
    assert (log(Fraction(8, 27)) - log(2).scaled(3) + log(3).scaled(3)).terms == {}
    assert (root(2) * root(8)).rational() == 4 and (root(12) - root(3).scaled(2)).terms == {}
    assert (root(4, 4) - root(2)).terms == {} and (root(2, 6) * root(2, 3) - root(2)).terms == {}
    square = (root(2) + root(3)) * (root(2) + root(3))
    assert (square - const(5) - root(6).scaled(2)).terms == {}
    assert bounds.sign(root(2) + root(3) - root(10), "t") == -1  # 3.146... against 3.162...: by bounds
    with pytest.raises(Undecided):  # a sign that would need the value of a parameter
        bounds.sign(algebra.parameter("t"), "t")


def test_undefined_arithmetic_is_malformed_at_its_place():
    for job in (lambda: arithmetic.inverse(const(0), "x"), lambda: arithmetic.log(const(-1), "x"),
                lambda: arithmetic.power(const(-2), Fraction(1, 2), "x"), lambda: arithmetic.exp(const(20000), "x")):
        with pytest.raises(Malformed, match="x: "):
            job()


# -- the interpreter against the tool's ------------------------------------------------------------------------
LEAVES = ["len(Y)", "rank(y)", "K", "1/3", "0.35", "2", "t"]
UNARY = ["sqrt({})", "log(1 + {})", "abs({})", "exp({} / 4)", "-{}"]
BINARY = ["({} + {})", "({} - {})", "({} * {})", "({} / (1 + {} * {}))", "({} ** 2)"]


@st.composite
def formulas(draw, depth=3, inside=False):
    """A formula of the language: leaves, functions and operators, and genmean over Y (reading c(yh, y))."""
    if depth == 0 or draw(st.booleans()) and depth < 3:
        return draw(st.sampled_from(LEAVES + (["c(yh, y)"] * 3 if inside else [])))
    kind = draw(st.sampled_from(["unary", "binary", "binary"] + ([] if inside else ["mean"])))
    if kind == "unary":
        return draw(st.sampled_from(UNARY)).format(draw(formulas(depth - 1, inside)))
    if kind == "mean":
        return f"genmean({draw(st.sampled_from(['0', '1/2', '2', '-1', 't']))}, [{draw(formulas(depth - 1, True))} " \
               "for yh in Y])"
    template = draw(st.sampled_from(BINARY))
    return template.format(*[draw(formulas(depth - 1, inside)) for _ in range(template.count("{}"))])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(formulas(), st.sampled_from(["1/2", "3", "0"]))
def test_the_checker_reads_every_formula_as_the_tool_does(body, t):
    """Each cell of a random set-cost formula: the tool's exact sympy value lies in the checker's bounds (the
    checker may leave a value it cannot reach not covered, never disagree). Specs the tool refuses (an undefined
    cell) are not certified, so nothing is asked of the checker there."""
    from verifier.errors import SpecError
    from verifier.lazy_sympy import sympy as sp
    from verifier.scheme.exact import build_scheme
    from verifier.spec.reader import spec_from_data
    from verifier_check.spec import Spec

    data = {"name": "random formula", "classes": ["a", "b", "c"], "parameters": {"t": {"value": t}},
            "cost": "abs(rank(yhat) - rank(y))", "set_cost": body}
    try:
        scheme = build_scheme(spec_from_data(data))
    except SpecError:
        return
    try:
        costs = Spec(dict(data, parameters={"t": {"value": Fraction(t)}})).costs({})
        mine = {m: costs.row(m) for m in scheme.all_sets}
    except Undecided:
        return
    for m, row in mine.items():
        for y, value in enumerate(row):
            exact = scheme.rows[m][y]
            lo, hi = bounds.interval(value, 64)
            approx = sp.Rational(str(sp.N(exact, 40)))
            width = abs(approx) * Fraction(1, 10 ** 30) + Fraction(1, 10 ** 30)
            assert lo - width <= approx <= hi + width, (body, m, y, value, exact)


# -- the YAML reader against PyYAML ---------------------------------------------------------------------------
WORD = st.text("ab1 .'\"#:-[]{},!&*|>?%@`~_0x9e+\\", max_size=8)
NAMED = st.sampled_from(["0", "1", "-3", "0.5", "1e3", "1.5e+3", "yes", "null", "~", "012", "0x1F", "x y"])
SCALAR = st.one_of(WORD, NAMED, WORD.map(lambda w: "'" + w.replace("'", "''") + "'"),
                   WORD.map(lambda w: '"' + w.replace("\\", "\\\\").replace('"', '\\"') + '"'))


@st.composite
def documents(draw):
    """Spec-like YAML text with hostile characters everywhere: plain, quoted and block scalars, flow and block
    collections, comments (most of it beyond the reader's subset: then nothing is asked of it)."""
    lines = []
    for i in range(draw(st.integers(1, 4))):
        key = draw(st.sampled_from([f"k{i}", f"'k {i}'", f'"k:{i}"', f"k{i} x"]))
        style = draw(st.sampled_from(["plain", "flow list", "flow map", "block list", "block scalar"]))
        items = draw(st.lists(SCALAR, min_size=0, max_size=3))
        if style == "plain":
            lines.append(f"{key}: {draw(SCALAR)}" + draw(st.sampled_from(["", " # c", "  #c"])))
        elif style == "flow list":
            lines.append(f"{key}: [" + ", ".join(items) + "]")
        elif style == "flow map":
            lines.append(f"{key}: {{" + ", ".join(f"m{j}: {x}" for j, x in enumerate(items)) + "}")
        elif style == "block list":
            lines += [f"{key}:"] + [f"  - {x}" for x in items or ["a"]]
        else:
            lines += [f"{key}: {draw(st.sampled_from(['>', '|', '>-', '|+']))}"] + [f"  {draw(WORD)}" for _ in items]
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None, derandomize=True)
@given(documents())
def test_the_yaml_reader_agrees_with_pyyaml_wherever_it_reads(text):
    from verifier.errors import SpecError
    from verifier.report.certificate.spec_content import canonical
    from verifier.spec.source import load_yaml
    from verifier_check import yaml_text
    from verifier_check.parse import content, load

    try:
        tool = content(load(canonical(load_yaml(text, "t").plain())))
    except SpecError:
        return  # a text the tool refuses names no spec: nothing is certified
    try:
        mine = yaml_text.read(text)
    except yaml_text.Unsupported:
        return
    assert mine == tool, text


cost = st.sampled_from(["0", "1/4", "1/2", "3/4", "1", "3/2", "2"])


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.lists(cost, min_size=9, max_size=9), st.lists(cost, min_size=12, max_size=12))
def test_a_random_rational_scheme_writes_a_certificate_that_checks(tmp_path_factory, det, sets):
    import verifier
    import verifier_check

    rows = {"a,b": sets[0:3], "a,c": sets[3:6], "b,c": sets[6:9], "a,b,c": sets[9:12]}
    text = ("name: random\nclasses: [a, b, c]\ncost_matrix:\n" + "".join(
        f"  {c}: [{', '.join(det[3 * i:3 * i + 3])}]\n" for i, c in enumerate("abc")) + "set_costs:\n" + "".join(
        f'  "{k}": [{", ".join(v)}]\n' for k, v in rows.items()))
    path = tmp_path_factory.mktemp("random") / "s.yaml"
    path.write_text(text)
    cert = verifier.verify(str(path), cache=False, detail="summary", certificate=True).certificate()
    _, results = verifier_check.claims(cert)
    assert [r for r in results if r[1] not in ("checked", "no claim")] == [], results
