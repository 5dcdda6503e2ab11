"""The formula language: exact values, the vocabulary of DESIGN.md §3, and precise errors."""

import pytest
import sympy as sp

from verifier.errors import SpecError
from verifier.formula.evaluate import ClassRef, Evaluator, UserFunction, Vocabulary
from verifier.formula.parse import parse_formula

CLASSES = ("a", "b", "c")
COSTS = {(h, y): sp.Integer(abs(h - y)) for h in range(3) for y in range(3)}


def evaluate(text, **local):
    functions = {"g": UserFunction("g", ("x",), parse_formula("-0.6 * x**2 + 1.6 * x", "t.yaml", "g", None))}
    vocab = Vocabulary(CLASSES, {"r": sp.Rational(1, 2), "eta": (sp.Integer(1), sp.Integer(2), sp.Integer(4))},
                       functions, lambda h, y: COSTS[(h, y)])
    return Evaluator(vocab).number(parse_formula(text, "t.yaml", "set_cost", None), local)


def test_decimals_are_exact():
    assert evaluate("0.35") == sp.Rational(7, 20)
    assert evaluate("1 - g(1/3)") == sp.Rational(8, 15)  # Table III's "0.54"


def test_set_vocabulary():
    Y = frozenset({0, 2})
    assert evaluate("len(Y)", Y=Y, y=ClassRef(1)) == 2
    assert evaluate("1 if y in Y else 0", Y=Y, y=ClassRef(1)) == 0
    assert evaluate("1 if y not in Y else 0", Y=Y, y=ClassRef(1)) == 1
    assert evaluate("sum([c(yh, y) for yh in Y])", Y=Y, y=ClassRef(1)) == 2
    assert evaluate("max(c(yh, y) for yh in Y if yh != 'a')", Y=Y, y=ClassRef(0)) == 2
    assert evaluate("rank(y) + K", y=ClassRef(2)) == 5
    assert evaluate("eta[y] + eta['c']", y=ClassRef(1)) == 6


def test_genmean_is_eq_12_and_13():
    assert evaluate("genmean(1 - r, [0, 1])") == sp.Rational(1, 4)
    assert evaluate("genmean(0.5, [2, 2, 0])") == sp.Rational(8, 9)  # Table X's 0.89
    assert evaluate("genmean(0, [2, 8])") == 4  # geometric mean
    assert evaluate("genmean(1, [1, 2, 6])") == 3
    assert evaluate("genmean(-1, [1, 3])") == sp.Rational(3, 2)  # harmonic mean


@pytest.mark.parametrize("text, words", [
    ("genmean(-1, [0, 1])", "undefined when a value is 0"),
    ("1 / (K - 3)", "division by zero"),
    ("log(0)", "log of a number <= 0"),
    ("sqrt(-1)", "square root of a negative"),
    ("2 ** 5000", "too large"),
    ("x + 1", "unknown name 'x'"),
    ("foo(1)", "unknown function 'foo'"),
    ("eta", "per-class parameter"),
    ("'z'", "'z' is not a class"),
    ("Y", "not a number"),
    ("y < 'a'", "only be compared with == and !="),
])
def test_runtime_errors_are_spec_errors(text, words):
    with pytest.raises(SpecError) as info:
        evaluate(text, Y=frozenset({0, 1}), y=ClassRef(0))
    assert words in str(info.value)
    assert "t.yaml" in str(info.value) and "set_cost" in str(info.value)


@pytest.mark.parametrize("text, words", [
    ("__import__('os')", "may not start with '_'"),
    ("().__class__", "attribute access"),
    ("(lambda: 1)()", "lambda"),
    ("f'{y}'", "f-strings"),
    ("(x := 1)", "assignment expressions"),
    ("[v for v in [1, 2]]", "only run over the predicted set Y"),
    ("{1: 2}", "dict literals"),
    ("1 +", "not valid expression syntax"),
    ("import os", "not valid expression syntax"),
    ("1j", "complex numbers"),
    ("(" * 300 + "1" + ")" * 300, "nested"),
])
def test_forbidden_syntax_never_runs(text, words):
    with pytest.raises(SpecError) as info:
        parse_formula(text, "t.yaml", "set_cost", None)
    assert words in str(info.value)


# -- the names a formula may call (issue 42, found by a newcomer) ----------------------------------------------
def test_the_names_a_formula_may_call_are_the_builtins():
    from verifier.formula.builtins import BUILTINS
    from verifier.formula.scope import BUILTIN_NAMES

    assert sorted(BUILTIN_NAMES) == sorted(name for name in BUILTINS if not name.startswith("__"))
