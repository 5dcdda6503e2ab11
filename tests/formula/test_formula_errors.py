"""Formula errors read like a compiler's: `file:line:column` of the offending token inside the YAML file, the
line with a caret under the token, a precise hint for the usual slips (`=` for `==`, `^` for `**`, `&&` for
`and`, an unclosed bracket, a class without quotes, an undeclared name, a wrong number of arguments, a
comprehension over something other than Y), every problem of a formula at once, and lists in the spec's own
notation. Each case runs through the command (exit 2, the message on stderr) and through the API
(`verifier.verify` raises `SpecError` with the same message)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import verifier
from verifier.cli import check
from verifier.errors import caret_lines
from verifier.formula.parse import parse_formula

HEAD = 'name: t\nclasses: [cat, dog]\ncost: "0 if yhat == y else 1"\n'  # set_cost goes on line 4
PARAMS = "parameters:\n  delta: {value: 0.2}\n  eta: {per_class: true, value: [1, 2]}\n"
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): "
                     r"invalid spec at key '(?P<key>[^']*)': (?P<rest>.*)$")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _both(path: Path) -> str:
    """The message, checked to be the same through the command (exit 2, stderr) and the API (SpecError)."""
    out, err = io.StringIO(), io.StringIO()
    code = check([str(path), "--no-cache"], out, err)
    assert code == 2, err.getvalue()
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue()
    with pytest.raises(verifier.SpecError) as caught:
        verifier.verify(str(path), cache=False)
    assert str(caught.value) in err.getvalue()
    return str(caught.value)


def _problems(message: str, text: str) -> list[dict]:
    """Each problem: its position, key and words, the line shown and the characters the caret underlines,
    checked against the file: the shown line is the file's line and the caret sits at the reported column."""
    lines, file_lines, out = message.split("\n"), text.split("\n"), []
    for i, line in enumerate(lines):
        found = PROBLEM.match(line)
        if not found:
            continue
        problem = {k: found.group(k) for k in ("line", "column", "key", "rest")}
        problem["line"], problem["column"] = int(problem["line"]), int(problem["column"])
        if i + 2 < len(lines) and lines[i + 2].lstrip(" ").startswith("^"):
            shown, caret = lines[i + 1][2:], lines[i + 2][2:]
            start = len(caret) - len(caret.lstrip(" "))
            problem["underlined"] = shown[start:start + len(caret.strip())]
            file_line = file_lines[problem["line"] - 1]
            if file_line.strip() == shown:  # the file's own line: the caret is at the reported column
                assert file_line.index(shown) + start + 1 == problem["column"], message
                problem["in_file"] = True
        out.append(problem)
    return out


def _one(tmp_path: Path, set_cost: str, head: str = HEAD) -> tuple[dict, str]:
    text = head + f"set_cost: {set_cost}\n"
    message = _both(_write(tmp_path, text))
    problems = _problems(message, text)
    assert len(problems) == 1, message
    return problems[0], message


# -- 1, 2: the caret at the token, `=` for `==` ------------------------------------------------------------
def test_assignment_gets_did_you_mean_equals_at_its_column(tmp_path):
    problem, message = _one(tmp_path, '"x = 1 if y in Y else 0"')
    assert (problem["line"], problem["column"], problem["key"]) == (4, 14, "set_cost")
    assert "`=` is assignment; did you mean `==`?" in message
    assert problem["underlined"] == "=" and problem["in_file"]
    assert message.split("\n")[1:] == ['  set_cost: "x = 1 if y in Y else 0"', "               ^"]
    assert "(text: 'x = 1 if y in Y else 0')" in message and "— expected" in message  # the contract's pieces


def test_assignment_inside_a_conditional_is_found_where_python_says_expected_else(tmp_path):
    problem, message = _one(tmp_path, '"0 if y = yhat else 1"', HEAD.replace("set_cost", "x"))
    assert "did you mean `==`?" in message and "expected 'else'" not in message
    assert (problem["column"], problem["underlined"]) == (19, "=")


# -- 3: class names without quotes, undeclared names ---------------------------------------------------------
def test_a_class_name_without_quotes_is_told_to_be_quoted(tmp_path):
    problem, message = _one(tmp_path, '"1 if y == cat else 0"')
    assert "class names are written in quotes: 'cat'" in message
    assert (problem["column"], problem["underlined"]) == (22, "cat")


def test_an_undeclared_name_is_told_to_be_declared_with_did_you_mean(tmp_path):
    problem, message = _one(tmp_path, '"(0 if y in Y else eta[y]) + delt * (len(Y) - 1)"', HEAD + PARAMS)
    assert "unknown name 'delt'; did you mean 'delta'?" in message and "declare it under `parameters:`" in message
    assert (problem["line"], problem["column"], problem["underlined"]) == (7, 40, "delt")
    assert "expected one of delta, eta[...], K, Y, y" in message


def test_a_name_with_nothing_close_is_told_to_be_declared(tmp_path):
    problem, message = _one(tmp_path, '"zeta * len(Y)"')
    assert "unknown name 'zeta': declare it under `parameters:`" in message and "did you mean" not in message
    assert problem["underlined"] == "zeta"


# -- 4: every problem of a formula at once -------------------------------------------------------------------
def test_every_unknown_name_of_a_formula_is_reported_each_at_its_column(tmp_path):
    text = HEAD + 'set_cost: "delt + foo(1) + cat + bar"\n'
    message = _both(_write(tmp_path, text))
    problems = _problems(message, text)
    assert [(p["column"], p["underlined"]) for p in problems] == [(12, "delt"), (19, "foo"), (28, "cat"), (34, "bar")]
    assert all(p["in_file"] and p["key"] == "set_cost" for p in problems)
    assert "unknown function 'foo'" in problems[1]["rest"] and "in quotes: 'cat'" in problems[2]["rest"]


def test_independent_problems_of_a_formula_are_all_reported(tmp_path):
    text = HEAD + 'set_cost: "len(Y) ^ 2 + sqrt(1, 2) + (y is Y)"\n'
    problems = _problems(_both(_write(tmp_path, text)), text)
    assert [p["underlined"] for p in problems] == ["^", "sqrt(1, 2)", "is"]


def test_problems_of_several_formulas_are_reported_in_file_order(tmp_path):
    text = HEAD.replace('"0 if yhat == y else 1"', '"0 if yhat == y else Y"') + 'set_cost: "yhat"\n'
    problems = _problems(_both(_write(tmp_path, text)), text)
    assert [(p["line"], p["key"], p["underlined"]) for p in problems] == [(3, "cost", "Y"), (4, "set_cost", "yhat")]
    assert "'Y' (the predicted set) exists only in 'set_cost'" in problems[0]["rest"]
    assert "'yhat' (a predicted class) exists only in 'cost'" in problems[1]["rest"]


def test_a_syntax_error_stops_at_one_problem(tmp_path):
    problem, message = _one(tmp_path, '"foo + (1 +"')
    assert "`(` is never closed" in message and "foo" not in problem["rest"].split("(text")[0]


# -- 5: lists in the spec's notation -----------------------------------------------------------------------
def test_lists_are_written_in_the_specs_notation(tmp_path):
    _, message = _one(tmp_path, '"zeta"')
    assert "expected one of K, Y, y." in message and "['" not in message
    _, message = _one(tmp_path, "\"y == 'cta'\"")
    assert "'cta' is not a class; did you mean 'cat'?" in message and "expected one of cat, dog" in message
    _, message = _one(tmp_path, '"meen(1)"')
    assert "did you mean 'mean'?" in message and "one of abs, c, exp, genmean, len" in message and "['" not in message


def test_a_per_class_value_with_wrong_keys_is_shown_as_a_mapping(tmp_path):
    text = 'name: t\nclasses: [cat, dog]\nparameters:\n  eta: {per_class: true, value: {cat: 1, cow: 2}}\n' \
           'cost: "0 if yhat == y else eta[y]"\n'
    message = _both(_write(tmp_path, text))
    assert "(text: '{cat, cow}')" in message and "keys cat, dog" in message


# -- 6: other frequent slips ---------------------------------------------------------------------------------
@pytest.mark.parametrize("formula, words, underlined, column", [
    ('"(1 + len(Y)"', "`(` is never closed", "(", 12),
    ('"1 if y in Y or (len(Y) > 2 else 0"', "`(` is never closed", "(", 27),
    ('"max(1, len(Y)]"', "`]` does not close the `(` before it", "]", 25),
    ('"len(Y) - 1)"', "`)` has no matching `(`", ")", 22),
    ('"len(Y) ^ 2"', "`^` is not a power in formulas; did you mean `**`?", "^", 19),
    ('"y in Y && len(Y) > 1"', "`&&` is not an operator here; did you mean `and`?", "&&", 19),
    ('"y in Y || len(Y) > 1"', "did you mean `or`?", "||", 19),
    ('"y in Y & len(Y) > 1"', "did you mean `and`?", "&", 19),
    ('"1 if !(y in Y) else 0"', "`!` is not an operator here; did you mean `not`?", "!", 17),
    ('"len(Y) // 2"', "did you mean `/`?", "//", 19),
    ("\"1 if y is 'cat' else 0\"", "`is` is not allowed in formulas; did you mean `==`?", "is", 19),
    ('"sqrt(len(Y), 2)"', "sqrt() takes 1 argument, got 2", "sqrt(len(Y), 2)", 12),
    ('"genmean(1)"', "genmean() takes 2 arguments, got 1", "genmean(1)", 12),
    ('"c(y)"', "c() takes 2 arguments, got 1", "c(y)", 12),
    ('"sum([1 for v in [1, 2]])"', "comprehensions may only run over the predicted set Y, not over a list",
     "[1, 2]", 28),
    ('"len(Y) +"', "it ends in the middle of an expression", "+", 19),
    ("\"y == 'cat\"", "the quote ' is never closed", "'", 17),
])
def test_frequent_slips_get_a_precise_message_at_the_token(tmp_path, formula, words, underlined, column):
    problem, message = _one(tmp_path, formula)
    assert words in message
    assert (problem["column"], problem["underlined"]) == (column, underlined) and problem["in_file"]


def test_a_user_function_called_with_the_wrong_number_of_arguments(tmp_path):
    head = HEAD + 'functions:\n  g(x): "x / 2"\n'
    problem, message = _one(tmp_path, '"g(1, len(Y))"', head)
    assert "g() takes 1 argument, got 2" in message and "— expected g(x)." in message
    assert problem["underlined"] == "g(1, len(Y))"


def test_names_that_exist_elsewhere_say_where(tmp_path):
    text = HEAD + PARAMS + 'functions:\n  g(x): "x + y"\n  h(x): "x + 1"\nset_cost: "eta + h(1)"\n'
    text = text.replace("delta: {value: 0.2}", 'delta: {value: "eta[\'cat\'] / 2"}')
    problems = _problems(_both(_write(tmp_path, text)), text)
    words = [p["rest"] for p in problems]
    assert "is a parameter; a parameter's value may use numbers and K only" in words[0]
    assert "'y' is not available in a function body; make it a parameter, as in g(x, y)" in words[1]
    assert "'eta' is a per-class parameter; did you mean `eta[y]`?" in words[2]
    assert len(problems) == 3 and all(p.get("in_file") for p in problems)


def test_a_string_argument_of_an_unknown_function_is_not_called_a_bad_class(tmp_path):
    _, message = _one(tmp_path, "\"foo('zz')\"")
    assert "unknown function 'foo'" in message and "is not a class" not in message


# -- positions in every kind of YAML string ------------------------------------------------------------------
@pytest.mark.parametrize("written, line, column", [
    ("delt * len(Y)", 4, 11),  # plain
    ('"delt * len(Y)"', 4, 12),  # double-quoted
    ("'delt * len(Y)'", 4, 12),  # single-quoted
    ("\"'cat' != y and delt > 0\"", 4, 27),
    ("'y != ''cat'' and delt > 0'", 4, 29),  # '' is one quote in the value, two in the file
    ('"y != \\"cat\\" and delt > 0"', 4, 29),  # \" likewise
    ('"\\u00e9\\u00e9 != delt"', 4, 28),  # escapes are several characters in the file
    ('"é + delt"', 4, 16),  # columns count characters, not bytes
    (">\n  len(Y)\n  + delt", 6, 5),  # folded block
    ("|\n  (len(Y)\n  + delt)", 6, 5),  # literal block
    ('"len(Y) +\n  delt"', 5, 3),  # a double-quoted string over two lines
    ("len(Y) +\n  2 * delt", 5, 7),  # a plain string over two lines
])
def test_the_position_is_the_tokens_in_every_kind_of_yaml_string(tmp_path, written, line, column):
    text = HEAD + f"set_cost: {written}\n"
    problems = [p for p in _problems(_both(_write(tmp_path, text)), text) if "delt" in p["rest"]]
    assert len(problems) == 1
    assert (problems[0]["line"], problems[0]["column"], problems[0]["underlined"]) == (line, column, "delt")
    assert problems[0]["in_file"]


def test_windows_line_ends_are_one_line_break(tmp_path):
    text = HEAD.replace("\n", "\r\n") + "set_cost: >\r\n  len(Y)\r\n  + delt\r\n"
    (tmp_path / "spec.yaml").write_bytes(text.encode("utf-8"))
    message = _both(tmp_path / "spec.yaml")
    assert message.startswith(f"{tmp_path / 'spec.yaml'}:6:5: ") and message.split("\n")[1:] == ["  + delt", "    ^~~~"]


def test_a_formula_in_a_list_or_a_flow_sequence_is_placed_too(tmp_path):
    text = ('name: t\nclasses: [cat, dog]\nparameters:\n  delta: {value: 0.2}\nassume:\n  - "delta > 0"\n'
            '  - "dleta < 1"\ncost_matrix:\n  cat: [0, "1 + dleta"]\n  dog: [1, 0]\n'
            'set_costs:\n  "cat,dog": [0.5, 0.5]\n')
    problems = _problems(_both(_write(tmp_path, text)), text)
    assert [(p["line"], p["column"], p["key"]) for p in problems] == [
        (7, 6, "assume[1]"), (9, 17, "cost_matrix.cat[1]")]
    assert all(p["underlined"] == "dleta" and p["in_file"] for p in problems)


def test_an_indentation_indicator_falls_back_to_the_formulas_start_never_a_wrong_place(tmp_path):
    text = HEAD + "set_cost: |2\n    len(Y) + delt\n"
    problem = _problems(_both(_write(tmp_path, text)), text)[0]
    assert (problem["line"], problem["column"]) == (4, 11)  # where the value starts
    assert problem["underlined"] == "delt" and "in_file" not in problem  # the caret is under the formula itself


def test_a_literal_block_that_breaks_the_formula_over_lines_says_so(tmp_path):
    problem, message = _one(tmp_path, "|\n  len(Y)\n  + 1")
    assert "the formula goes on after a line break" in message and "parentheses" in message


# -- the API with data (no file positions) and parse_formula ------------------------------------------------------
def test_a_spec_given_as_data_shows_the_formula_with_the_caret():
    with pytest.raises(verifier.SpecError) as caught:
        verifier.verify({"name": "t", "classes": ["cat", "dog"], "cost": "0 if yhat == y else 1",
                         "set_cost": "1 if y == cat else delt"}, cache=False)
    error = caught.value
    assert (error.line, error.column) == (None, None) and len(error.problems) == 2
    assert str(error).split("\n")[1:3] == ["  1 if y == cat else delt", "            ^~~"]


def test_parse_formula_reports_every_construct_outside_the_whitelist():
    with pytest.raises(verifier.SpecError) as caught:
        parse_formula("len(Y) ^ 2 + a.b + (lambda: 1)", "t.yaml", "set_cost", None)
    assert [p.message.split(";")[0] for p in caught.value.problems] == [
        "`^` is not a power in formulas", "attribute access ('.') not allowed in formulas",
        "lambda not allowed in formulas"]


def test_the_caret_line_keeps_long_formulas_readable():
    line = "1 + " * 200 + "zz"
    shown, caret = caret_lines(line, len(line) - 2, len(line)).split("\n")
    assert len(shown) <= 110 and shown.endswith("zz") and caret.strip() == "^~"
    assert shown.index("zz") == caret.index("^")
    shown, caret = caret_lines("a\x1b[31m b", 7, 8).split("\n")
    assert "\x1b" not in shown and shown.index("b") == caret.index("^")


def test_valid_formulas_using_every_kind_of_name_are_accepted(tmp_path):
    text = ('name: t\nclasses: [cat, dog]\nparameters:\n  delta: {value: 0.2}\n'
            '  eta: {per_class: true, value: [1, 2]}\n'
            '  r: {value: "1 / K"}\nfunctions:\n  g(x): "x * delta + h(x)"\n  h(y): "y / 2"\nassume: ["eta[y] > 0"]\n'
            'cost: "0 if yhat == y else eta[y] * g(1)"\n'
            "set_cost: \"mean([c(yh, y) for yh in Y if yh != 'cat' or True]) + r * len(Y) "
            "if y in Y else eta['dog']\"\n")
    report = verifier.verify(_write(tmp_path, text).read_text(), cache=False)
    assert report.verdicts


def test_a_hash_is_refused_not_read_as_a_comment(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text('name: t\nclasses: [a, b]\ncost: "0 if yhat == y else 1"\nset_cost: "1 # + foo"\n')
    out, err = io.StringIO(), io.StringIO()
    assert check([str(path)], out, err) == 2
    assert "`#` would start a comment" in err.getvalue() and ":4:14:" in err.getvalue()
