"""Bad specs and the command's contract (DESIGN.md §3-§4): exit 2 with a located one-paragraph message, never a
traceback and never executing spec text; exit 1 on unmet expectations; the JSON report's required keys."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import run_verify

SPECS = Path(__file__).resolve().parents[2] / "specs"
FORMULA_SPEC = 'name: t\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\nset_cost: {formula}\n'  # formula on line 4
GOOD = 'name: t\nclasses: [a, b]\ncost_matrix:\n  a: [0, 1]\n  b: [1, 0]\nset_costs:\n  "a,b": [0.5, 0.5]\n'


def write(tmp_path: Path, text: str | bytes, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def assert_rejected(path: Path, key: str | None = None, line: int | bool = True) -> str:
    """Exit 2; stderr names the file, the key and a line (when they apply); no traceback, no 'internal error'."""
    code, _, err = run_verify(str(path))
    assert code == 2, err
    assert str(path) in err
    assert "Traceback" not in err and "internal error" not in err, err
    if key is not None:
        assert f"key '{key}'" in err, err
    if line is True:
        assert re.search(re.escape(str(path)) + r":\d+", err), f"no line number: {err}"
    elif line:
        assert f"{path}:{line}:" in err, err
    return err


# -- formulas: never evaluated by Python -------------------------------------------------------------------
INJECTIONS = [
    "__import__('os').system('touch {m}')",
    "__import__('os')",
    "().__class__.__base__.__subclasses__()",
    "(lambda: __import__('os').system('touch {m}'))()",
    "f'{{__import__(\"os\").system(\"touch {m}\")}}'",
    "(x := __import__('os').system('touch {m}'))",
    "sum([__import__('os').system('touch {m}') for q in [1, 2]])",  # comprehension over something other than Y
    "import os; os.system('touch {m}')",
    "exec(\"open('{m}', 'w')\")",
    "open('{m}', 'w')",
]


@pytest.mark.parametrize("template", INJECTIONS)
def test_injection_formula_is_rejected_and_not_executed(tmp_path, template):
    marker = tmp_path / "MARKER"
    path = write(tmp_path, FORMULA_SPEC.format(formula=json.dumps(template.format(m=marker))))
    assert_rejected(path, key="set_cost", line=4)
    assert not marker.exists()  # nothing of the formula ran


@pytest.mark.parametrize("formula, words", [
    ("foo + 1", "unknown name"),
    ("foo(1)", "unknown function"),
    ("c(y)", "c(yh, y)"),  # wrong arity
    ("genmean(1)", "genmean"),
    ("Y", "not a number"),  # a set where a number belongs
    ("1 / (len(Y) - len(Y))", "division by zero"),
    ("genmean(-1, [c(yh, y) for yh in Y])", "undefined"),  # Eq. 12 with a zero cost
    ("log(0)", "log"),
    ("sqrt(-1)", "square root"),
    ("2 ** 100000", "too large"),
    ("2 ** 2 ** 2 ** 2 ** 2 ** 2", "too large"),
    ("1" + "0" * 400, "digits"),
    ("1e5000", "exponent"),
    ("(" * 500 + "1" + ")" * 500, "nested"),
])
def test_bad_formula_is_rejected_with_key_and_line(tmp_path, formula, words):
    path = write(tmp_path, FORMULA_SPEC.format(formula=json.dumps(formula)))
    err = assert_rejected(path, key="set_cost", line=4)
    assert words in err


@pytest.mark.parametrize("formula, value", [("-" * 900 + "1", 1), ("+".join(["1"] * 600), 600)],
                         ids=["900 minus", "600 terms"])
def test_long_operator_chains_are_evaluated_not_rejected(tmp_path, formula, value):
    # long flat chains are ordinary formulas: the interpreter walks them iteratively
    from verifier.analysis.pipeline import analyse_file

    path = write(tmp_path, FORMULA_SPEC.format(formula=json.dumps(formula)))
    analysis = analyse_file(str(path))
    assert set(analysis.scheme.rows[frozenset({0, 1})]) == {value}


@pytest.mark.parametrize("text, key, line", [
    (GOOD.replace("[0.5, 0.5]", "[1e400, 0.5]"), "set_costs.a,b[0]", 7),  # a legal literal (exponent <= 1000)
    (GOOD.replace("[0.5, 0.5]", '["2 ** 1000 * 2 ** 100", 0.5]'), "set_costs.a,b[0]", 7),
    (FORMULA_SPEC.format(formula='"(12345678901234567890/7) ** 999"'), "set_cost", 4),  # > 4300 digits
], ids=["1e400", "2**1100", "big power in set_cost"])
def test_huge_but_admissible_value_is_verified_or_rejected_with_key(tmp_path, text, key, line, cli):
    path = write(tmp_path, text)
    code, _, err = cli(str(path))
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == 0 or (code == 2 and f"key '{key}'" in err and f"{path}:{line}:" in err), err


# -- the YAML document and its keys --------------------------------------------------------------------------
def _bomb() -> str:  # billion laughs: 9 levels of 9 aliases each, under a known key (an unknown one is never read)
    text = 'name: t\nclasses: [a, b]\nexpect:\n  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    prev = "l0"
    for i in range(1, 10):
        text += f"  l{i}: &l{i} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = f"l{i}"
    return text


BAD_DOCUMENTS = {  # id: (text, key named in the message, line number expected)
    "duplicate class": (GOOD.replace("[a, b]", "[a, a]"), "classes", 2),
    "one class": ('name: t\nclasses: [a]\ncost: "0"\n', "classes", 2),
    "one class as int": ('name: t\nclasses: 1\ncost: "0"\n', "classes", 2),
    "65 classes": ('name: t\nclasses: 65\ncost: "0 if yhat == y else 1"\nset_cost: "1"\n', "classes", 2),
    "17 classes, not symmetric": ('name: t\nclasses: 17\ncost: "abs(rank(yhat) - rank(y))"\n'
                                  'set_cost: "log(len(Y)) + min([c(v, y) for v in Y])"\n', "classes", 2),
    "nan cost": (GOOD.replace("[0.5, 0.5]", "[.nan, 0.5]"), "set_costs.a,b[0]", 7),
    "inf cost": (GOOD.replace("[0.5, 0.5]", "[0.5, .inf]"), "set_costs.a,b[1]", 7),
    "-inf cost": (GOOD.replace("[1, 0]", "[-.Inf, 0]"), "cost_matrix.b[0]", 5),
    "huge int literal": (GOOD.replace("[0.5, 0.5]", "[" + "9" * 500 + ", 0.5]"), "set_costs.a,b[0]", 7),
    "huge exponent literal": (GOOD.replace("[0.5, 0.5]", "[1e5000, 0.5]"), "set_costs.a,b[0]", 7),
    "set in a cost cell": (GOOD.replace("[0.5, 0.5]", "[Y, 0.5]"), "set_costs.a,b[0]", 7),
    "duplicate top key": (GOOD + "name: u\n", "name", 8),
    "duplicate nested key": (GOOD.replace("  b: [1, 0]\n", "  b: [1, 0]\n  a: [0, 2]\n"), "cost_matrix.a", 6),
    "row of wrong length": (GOOD.replace("[0.5, 0.5]", "[0.5, 0.5, 1]"), "set_costs.a,b", 7),
    "unknown top key": (GOOD + "bogus: 1\n", "bogus", 8),
    "missing name": (GOOD.replace("name: t\n", ""), "name", True),
    "missing classes": (GOOD.replace("classes: [a, b]\n", ""), "classes", True),
    "unknown property": (GOOD + "expect: {P11: holds}\n", "expect.P11", 8),
    "unknown verdict": (GOOD + "expect: {P1: maybe}\n", "expect.P1", 8),
    # a symbolic parameter is fine, but 1/r is undefined at the admissible value r = 0
    "formula undefined for an admissible value": (GOOD.replace("[0.5, 0.5]", "[1 / r, 1 / r]")
                                                  + "parameters:\n  r: {}\n", "assume", 1),
    "assumption false": (GOOD.replace("[0.5, 0.5]", "[r, r]")
                         + 'parameters:\n  r: {value: 0.5}\nassume:\n  - "r > 1"\n', "assume[0]", 11),
    "not a mapping": ("- a\n- b\n", None, 1),
    "deep YAML nesting": ('name: t\nclasses: [a, b]\ncost: ' + "[" * 100 + "]" * 100 + "\n", None, 3),
    "empty file": ("", None, False),
    "blank file": ("  \n\n", None, False),
    "not UTF-8": (b"\xff\xfe\x00n\x00a\x00m\x00e", None, False),
}


@pytest.mark.parametrize("case", list(BAD_DOCUMENTS), ids=list(BAD_DOCUMENTS))
def test_bad_document_is_rejected(tmp_path, case):
    text, key, line = BAD_DOCUMENTS[case]
    assert_rejected(write(tmp_path, text), key=key, line=line)


@pytest.mark.parametrize("where", ["name", "set_costs"])
def test_yaml_python_tag_is_rejected_and_not_executed(tmp_path, where):
    marker = tmp_path / "MARKER"
    tag = f'!!python/object/apply:os.system ["touch {marker}"]'
    text = (GOOD.replace("name: t", f"name: {tag}") if where == "name"
            else GOOD.replace("[0.5, 0.5]", f"[{tag}, 0.5]"))
    err = assert_rejected(write(tmp_path, text), key="name" if where == "name" else "set_costs.a,b[0]")
    assert "tag" in err.lower()
    assert not marker.exists()


def test_alias_bomb_is_rejected_as_one(tmp_path):
    # its time is measured in benchmarks/bench_inputs.py: tests assert outcomes, never wall time
    err = assert_rejected(write(tmp_path, _bomb()), key="expect.l5[0]", line=8)
    assert "alias bomb" in err and "100,000 copied values" in err


def test_missing_rows_are_listed(tmp_path):
    text = 'name: t\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\nset_costs:\n  "a,b": [0.5, 0.5, 1]\n'
    err = assert_rejected(write(tmp_path, text), key="set_costs", line=False)
    for row in ('"a,c"', '"b,c"', '"a,b,c"'):
        assert row in err
    assert '"a,b"' not in err.replace('"a,b,c"', "")


def test_missing_rows_message_has_a_line(tmp_path):
    text = 'name: t\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\nset_costs:\n  "a,b": [0.5, 0.5, 1]\n'
    assert_rejected(write(tmp_path, text), key="set_costs", line=True)


def test_wrong_length_message_shows_the_row_as_written(tmp_path):
    err = assert_rejected(write(tmp_path, GOOD.replace("[0.5, 0.5]", "[0.5, 0.5, 1]")), key="set_costs.a,b")
    assert "Fraction(" not in err and "0.5" in err


def test_missing_file(tmp_path):
    assert_rejected(tmp_path / "nope.yaml", line=False)


# -- the command line ------------------------------------------------------------------------------------------
def test_directory_with_one_bad_spec_verifies_the_others(tmp_path, cli):
    for name in ("table-vi.yaml", "friedel-abstention.yaml"):
        shutil.copy(SPECS / name, tmp_path / name)
    bad = write(tmp_path, 'name: bad\nclasses: [a]\ncost: "0"\n', "m-bad.yaml")
    code, out, err = cli(str(tmp_path))
    assert code == 2
    assert str(bad) in err and "key 'classes'" in err and "Traceback" not in err
    assert "Table VI" in out and "Friedel" in out  # the good ones still reported
    assert "table-vi" not in err and "friedel" not in err


@pytest.mark.parametrize("argv", [[], ["--bogus", str(SPECS / "table-vi.yaml")],
                                  ["--format", "xml", str(SPECS / "table-vi.yaml")]])
def test_usage_errors_exit_2(argv, cli):
    code, out, err = cli(*argv)
    assert code == 2 and "usage" in err and "Traceback" not in err


def test_unmet_expectation_exits_1_and_met_exits_0(tmp_path, cli):
    possible = GOOD.replace("[0.5, 0.5]", "[0.25, 0.25]")  # below the mean 1/2 everywhere: {a,b} is possible
    assert cli(str(write(tmp_path, possible + "expect: {P1: holds, P8: holds}\n", "met.yaml")))[0] == 0
    code, out, _ = cli(str(write(tmp_path, possible + "expect: {P1: fails}\n", "unmet.yaml")))
    assert code == 1 and "holds" in out


def test_json_report_has_the_contract_keys_and_exact_strings(tmp_path, cli):
    text = ('name: t\nclasses: [a, b]\nparameters:\n  r: {value: 0.45}\ncost_matrix:\n  a: [0.5, 1]\n'
            '  b: [1, 0.5]\nset_costs:\n  "a,b": [r, r]\n')
    path = write(tmp_path, text)
    code, out, _ = cli("--format", "json", str(path))
    assert code == 0
    report = json.loads(out)
    assert report["spec"] == str(path) and report["name"] == "t" and report["classes"] == ["a", "b"]
    assert set(report["properties"]) == {f"P{i}" for i in range(1, 11)}
    for entry in report["properties"].values():
        assert entry["verdict"] in ("holds", "fails", "unknown") and "reason" in entry
    assert isinstance(report["settings"]["filtering"]["fits"], bool)
    assert isinstance(report["settings"]["choice"]["fits"], bool)
    p4 = report["properties"]["P4"]  # c_{a,b}(a) = 9/20 < min(1/2, 1): exact strings, not floats
    assert p4["verdict"] == "fails"
    assert p4["counterexample"]["Y"] == ["a", "b"] and p4["counterexample"]["y"] == "a"
    assert p4["counterexample"]["lhs"] == "9/20" and p4["counterexample"]["rhs"] == "1/2"
    assert report["parameters"] == {"r": "9/20"}


def test_json_for_several_specs_is_an_array(tmp_path, cli):
    code, out, _ = cli("--format", "json", str(SPECS / "table-vi.yaml"), str(SPECS / "friedel-abstention.yaml"))
    assert code == 0
    assert [r["name"][:8] for r in json.loads(out)] == ["Table VI", "Friedel "]


# -- spec text, attacked (issue 24; formerly in test_attacks_files.py) -----------------------------------------
ZERO_ONE = 'cost: "0 if yhat == y else 1"\nset_cost: "0 if y in Y else 1"\n'


@pytest.mark.parametrize("text, expected", [
    ("parameters:\n  None: {value: 1}\n", "'None' cannot be a parameter name"),
    ("parameters:\n  import: {value: 1}\n", "'import' cannot be a parameter name"),
    ("functions:\n  lambda(x): x\n", "'lambda' cannot be defined here"),
    ("parameters:\n  ? !!python/name:os.system r\n  : {value: 1}\n", "YAML tags are not allowed"),
])
def test_reserved_names_and_tagged_keys_are_refused(tmp_path, text, expected, cli):
    spec = write(tmp_path, "name: s\nclasses: [a, b, c]\n" + text + ZERO_ONE, "s.yaml")
    code, _, err = cli(spec, "--no-cache")
    assert code == 2 and expected in err and "s.yaml:" in err, err


def test_deep_yaml_nesting_is_located(tmp_path, cli):
    nested = "[" * 3000 + "x" + "]" * 3000
    spec = write(tmp_path, f"name: deep\nclasses: 3\n{ZERO_ONE}description: {nested}\n", "deep.yaml")
    code, _, err = cli(spec, "--no-cache")
    assert code == 2 and "deep.yaml:5:" in err and "nesting deeper than 64 levels" in err and len(err) < 500


@pytest.mark.parametrize("formula, expected, absent", [
    ("foo('zz')", "unknown function 'foo'", "is not a class"),
    ("sum('a')", "sum needs numbers, got a class", "ClassRef"),
])
def test_formula_errors_name_the_real_problem(tmp_path, formula, expected, absent, cli):
    spec = write(tmp_path, f'name: f\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\n'
                           f'set_cost: "{formula}"\n', "f.yaml")
    code, _, err = cli(spec, "--no-cache")
    assert code == 2 and expected in err and absent not in err, err


def test_a_huge_number_in_a_matrix_is_not_placed_in_a_formula_column(tmp_path, cli):
    spec = write(tmp_path, "name: m\nclasses: [a, b]\ncost_matrix:\n  a: [0, 1e999]\n  b: [1, 0]\n"
                           "set_costs:\n  'a,b': [1, 1]\n", "m.yaml")
    code, _, err = cli(spec, "--no-cache")
    assert code == 2 and "m.yaml:4:" in err and "more than 3000 bits" in err and "column" not in err


def test_dollar_signs_in_names_reach_the_pictures_as_text(tmp_path, cli):
    spec = write(tmp_path, textwrap.dedent("""\
        name: "dollars $\\\\foo$"
        classes: ['$\\foo$', 'b$', c]
        cost: "0 if yhat == y else 1"
        set_cost: "(0 if y in Y else 1) + 0.1 * (len(Y) - 1)"
        """), "d.yaml")
    code, _, err = cli(spec, "--report", tmp_path / "reports", "--no-cache")
    assert code == 0, err
    html = (tmp_path / "reports" / "d.html").read_text(encoding="utf-8")
    assert "$\\foo$" in html and "<svg" in html
