"""Fuzzing the formula parser and the spec loader (hypothesis): nothing is ever executed, nothing but the
tool's SpecError ever escapes, and valid formulas evaluate exactly and round-trip to the same value."""

from __future__ import annotations

import ast
import io
from fractions import Fraction

import sympy as sp
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.cli import check
from verifier.errors import SpecError
from verifier.formula.evaluate import ClassRef, Evaluator, Vocabulary
from verifier.formula.parse import parse_formula
from verifier.spec import load_spec

CLASSES = ("a", "b", "c")
VOCAB = Vocabulary(CLASSES, {"r": sp.Rational(1, 2)}, {}, lambda h, y: sp.Integer(abs(h - y)))
LOCAL = {"Y": frozenset({0, 2}), "y": ClassRef(1)}
TOKENS = ["__import__", "os", "system", "(", ")", "[", "]", "'a'", "'ls'", ".", ",", ":", "=", ":=", "lambda",
          "for", "in", "Y", "y", "if", "else", "1", "0.5", "-", "+", "*", "/", "**", "len", "c", "yh", "genmean",
          "f'{y}'", "not", "and", "or", "<", "==", "__class__", "exec", "open", "1e999", " "]


def evaluate(text: str):
    formula = parse_formula(text, "fuzz.yaml", "set_cost", None)
    return Evaluator(VOCAB).number(formula, LOCAL)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map(" ".join))
def test_token_soup_only_ever_raises_spec_error(text):
    try:
        evaluate(text)
    except SpecError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_random_text_only_ever_raises_spec_error(text):
    try:
        evaluate(text)
    except SpecError:
        pass


# -- generated valid formulas: an independent Fraction oracle and a round trip --------------------------------
def _formulas():
    leaves = st.one_of(
        st.fractions(min_value=-20, max_value=20, max_denominator=8).map(
            lambda f: (str(f.numerator) if f.denominator == 1 else f"({f.numerator}/{f.denominator})", f)),
        st.sampled_from([("len(Y)", Fraction(2)), ("K", Fraction(3)), ("r", Fraction(1, 2)), ("rank(y)", Fraction(1)),
                         ("c('a', y)", Fraction(1)), ("sum([c(yh, y) for yh in Y])", Fraction(2))]),
    )

    def extend(inner):
        def binary(pair, op):
            (a, x), (b, z) = pair
            if op == "/" and z == 0:
                return (f"({a} + {b})", x + z)
            value = {"+": x + z, "-": x - z, "*": x * z, "/": x / z if z else x}[op]
            return (f"({a} {op} {b})", value)

        return st.one_of(
            st.tuples(st.tuples(inner, inner), st.sampled_from("+-*/")).map(lambda t: binary(*t)),
            st.tuples(inner, inner, inner).map(
                lambda t: (f"({t[0][0]} if {t[1][0]} < {t[2][0]} else {t[2][0]})",
                           t[0][1] if t[1][1] < t[2][1] else t[2][1])),
            inner.map(lambda a: (f"abs({a[0]})", abs(a[1]))),
            st.tuples(inner, inner).map(lambda t: (f"max({t[0][0]}, {t[1][0]})", max(t[0][1], t[1][1]))),
        )

    return st.recursive(leaves, extend, max_leaves=10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_formulas())
def test_valid_formulas_are_exact_and_round_trip(pair):
    text, expected = pair
    value = evaluate(text)
    assert value == sp.Rational(expected.numerator, expected.denominator)
    assert evaluate(ast.unparse(ast.parse(text, mode="eval"))) == value  # the canonical text means the same


# -- the spec loader ------------------------------------------------------------------------------------------
KEYS = ["name", "classes", "cost", "cost_matrix", "set_cost", "set_costs", "parameters", "assume", "expect",
        "functions", "setting", "source", "description", "value", "per_class", "a", "b", "a,b", "P1", "x(y)"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 20), st.floats(allow_nan=True),
                    st.sampled_from(["holds", "a", "0 if yhat == y else 1", "len(Y)", "__import__('os')", "", "1/0"]))
documents = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)),
                         max_leaves=14)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents)
def test_random_documents_only_ever_give_spec_errors(tmp_path, document):
    path = tmp_path / "fuzz.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    try:
        load_spec(str(path))
    except SpecError:
        pass
    out, err = io.StringIO(), io.StringIO()
    assert check([str(path)], out, err) in (0, 1, 2)
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue(), err.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200))
def test_random_bytes_only_ever_give_spec_errors(tmp_path, data):
    path = tmp_path / "bytes.yaml"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    assert check([str(path)], out, err) in (0, 1, 2)
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue(), err.getvalue()


def test_an_exhausted_resource_limit_gives_unknown_with_its_reason():
    out, err = io.StringIO(), io.StringIO()
    from pathlib import Path

    from verifier import limits

    spec = str(Path(__file__).resolve().parents[2] / "specs" / "ha.yaml")
    try:
        code = check(["--rlimit", "1", "--format", "json", spec], out, err)
    finally:
        limits.apply()  # reset for the other tests
    import json

    properties = json.loads(out.getvalue())["properties"]
    unknown = [p for p in properties.values() if p["verdict"] == "unknown"]
    assert unknown and all(p["reason"] for p in unknown)
    assert code == 1  # the spec's expectations cannot be met without verdicts
