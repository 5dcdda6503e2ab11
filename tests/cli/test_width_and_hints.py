"""Issue 42, the last rough edges a newcomer meets at the command line: every output and help fits 80 columns
without splitting a word, the shared options are accepted wherever they mean something, a mistyped subcommand
gets a "did you mean", the short parameter form is answered, and messages name a few classes and the count.
The issue's other edges are tested beside their features: pictures in a notebook
(tests/api/test_notebook_display.py), the design region picture (tests/designing/test_design_region.py), the
HTML legend (tests/report/test_report_files.py), the formula builtins (tests/formula/test_formula_language.py)
and the CI docs (tests/repository/test_docs.py).

Origin: a newcomer's rough edges, issue 42; formerly test_newcomer_edges.py."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS

DESIGN = os.path.join(SPECS, "design", "obstacle-open.yaml")
OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")


def _words(text):
    return sorted(text.split())


# -- item 1: the width ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("prop", [None, *(f"P{i}" for i in range(1, 11))])
def test_explain_fits_80_columns_and_splits_no_word(prop, cli):
    code, out, err = cli("explain", *([prop] if prop else []), "--width", "80")
    wide = cli("explain", *([prop] if prop else []), "--width", "1000")[1]
    assert code == 0 and not err
    assert max(len(line) for line in out.splitlines()) <= 80
    assert _words(out) == _words(wide)  # the same words: wrapping moved line breaks, it split none


def test_design_header_fits_80_columns_and_the_spec_below_is_unchanged(tmp_path, cli):
    code, out, err = cli("design", DESIGN, "--width", "80")
    code_wide, wide, _ = cli("design", DESIGN, "--width", "1000")
    assert code == code_wide == 0 and not err
    header, spec = out.split("\n\n", 1)[0], out[out.index("\nname: "):]
    assert all(line.startswith("#") and len(line) <= 80 for line in out[:out.index("\nname: ")].splitlines())
    assert spec == wide[wide.index("\nname: "):]  # the YAML itself is never wrapped
    assert _words(out.replace("#", "")) == _words(wide.replace("#", ""))
    assert header.startswith("# verify design: ")


def test_decide_takes_width_and_a_batch_csv_is_never_wrapped(tmp_path, cli):
    code, out, err = cli("decide", OBSTACLE, "--intervals", "h=0:0.2,b=0.3:0.4,n=0.4:0.6", "--width", "80")
    wide = cli("decide", OBSTACLE, "--intervals", "h=0:0.2,b=0.3:0.4,n=0.4:0.6", "--width", "1000")[1]
    assert code == 0 and not err and max(map(len, out.splitlines())) <= 80 < max(map(len, wide.splitlines()))
    assert _words(out) == _words(wide)
    probs = tmp_path / "p.csv"
    probs.write_text("h,b,n\n" + "0.1,0.3,0.6\n" * 3)
    code, out, _ = cli("decide", OBSTACLE, "--p-file", str(probs), "--width", "40")
    assert code == 0 and out.splitlines()[0].count(",") == out.splitlines()[1].count(",")  # CSV rows intact
    assert sorted(os.listdir(tmp_path)) == ["p.csv"]


@pytest.mark.parametrize("sub", [[], ["design"], ["decide"], ["evaluate"], ["explain"], ["schema"]],
                         ids=lambda s: s[0] if s else "verify")
def test_every_help_fits_80_columns(sub):
    env = dict(os.environ, COLUMNS="80", PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-m", "verifier", *sub, "--help"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("usage: verify")
    assert max(len(line) for line in run.stdout.splitlines()) <= 80


@pytest.mark.parametrize("sub", [["design", DESIGN], ["decide", OBSTACLE, "--p", "h=1"], ["explain"], [SPECS]])
def test_width_is_accepted_wherever_there_is_text_to_wrap(sub, cli):
    code, _, err = cli(*sub, "--width", "80")
    assert code == 0, err
    code, _, err = cli(*sub, "--width", "10")
    assert code == 2 and "--width" in err and "40 to 1000 columns" in err


# -- item 2: a mistyped subcommand, help, a missing spec -----------------------------------------------------
@pytest.mark.parametrize("word, meant", [("evaluat", "evaluate"), ("desing", "design"), ("explian", "explain"),
                                         ("decid", "decide"), ("schem", "schema")])
def test_a_mistyped_subcommand_is_named_and_nothing_is_verified(word, meant, tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    spec = os.path.join(SPECS, "ha-numeric.yaml")
    code, out, err = cli(word, spec, "x.csv")
    assert code == 2 and not out  # the spec after it is not verified
    assert f"'{word}' is neither a subcommand nor a spec file; did you mean '{meant}'?" in err
    assert "Traceback" not in err and os.listdir(tmp_path) == []


def test_a_file_named_like_a_subcommand_is_still_a_spec(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evaluat").write_text(open(os.path.join(SPECS, "ha-numeric.yaml")).read())
    code, out, err = cli("evaluat", "--width", "100")
    assert code == 0 and "Ha" in out and "did you mean" not in err


@pytest.mark.parametrize("argv, start", [(["help"], "usage: verify [-h]"), (["help", "design"], "usage: verify design"),
                                         (["help", "evaluate"], "usage: verify evaluate")])
def test_verify_help_is_the_help(argv, start, cli):
    code, out, err = cli(*argv)
    assert code == 0 and out.startswith(start) and not err


def test_a_bare_verify_lists_every_subcommand(cli):
    code, out, err = cli()
    assert code == 2 and not out and "no spec given" in err
    assert all(sub in err for sub in ("schema", "explain", "design", "decide", "evaluate"))


@pytest.mark.parametrize("argv, meant", [(["specs/hha.yaml"], "specs/ha.yaml"), (["specs/ha"], "specs/ha.yaml"),
                                         (["decide", "specs/obstacle-discountd.yaml", "--p", "h=1"],
                                          "specs/obstacle-discounted.yaml")])
def test_a_missing_spec_gets_the_nearest_spec_file(argv, meant, monkeypatch, cli):
    monkeypatch.chdir(ROOT)
    code, out, err = cli(*argv)
    assert code == 2 and not out and "No such file or directory" in err
    assert f"(did you mean '{meant}'?)" in err and "Traceback" not in err


def test_a_missing_spec_far_from_every_name_gets_no_guess(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("nothing-like-it.yaml")
    assert code == 2 and "did you mean" not in err


# -- item 3: the short parameter form ------------------------------------------------------------------------
SHORT = """name: short
classes: [a, b]
parameters:
  d: {value}
cost: "0 if yhat == y else 1"
set_cost: "d"
"""


@pytest.mark.parametrize("value, meant", [("0.5", "write {d: {value: 0.5}}"), ("7", "write {d: {value: 7}}"),
                                          ("[1, 2]", "write {d: {per_class: true, value: [1, 2]}}"),
                                          ('"1/2"', 'write {d: {value: "1/2"}}'),
                                          ("symbolic", "write {d: {}} for a symbolic real")])
def test_a_bare_parameter_value_says_exactly_what_is_meant(value, meant, tmp_path, cli):
    spec = tmp_path / "short.yaml"
    spec.write_text(SHORT.replace("{value}", value))
    code, out, err = cli(str(spec))
    assert code == 2 and meant in err and "Traceback" not in err
    assert f"{spec}:4:6: invalid spec at key 'parameters.d'" in err
    assert sorted(os.listdir(tmp_path)) == ["short.yaml"]


def test_the_schema_says_the_same_and_still_refuses_a_bare_value():
    import json

    import jsonschema
    import yaml

    from verifier.spec.schema import schema_text

    schema = json.loads(schema_text())
    assert "write {d: {value: 0.5}}" in schema["$defs"]["parameter"]["errorMessage"]
    bare = yaml.safe_load(SHORT.replace("{value}", "0.5"))
    long_form = yaml.safe_load(SHORT.replace("{value}", "{value: 0.5}"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(bare))
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(long_form))


# -- item 4: an invalid spec is told before any solver loads -------------------------------------------------
BAD = {"yaml": "name: t\nclasses: [a, b\ncost: '0'\n",
       "bare parameter": SHORT.replace("{value}", "0.5"),
       "unknown key": "name: t\nclasses: [a, b]\ncots: '0 if yhat == y else 1'\n",
       "formula": "name: t\nclasses: [a, b]\ncost: '0 if yhat == y else eta'\nset_cost: '1'\n"}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_an_invalid_spec_loads_no_solver_before_its_message(kind, tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text(BAD[kind])
    code = ("import io, sys\nfrom verifier.cli import check\nerr = io.StringIO()\n"
            f"status = check([{str(spec)!r}], io.StringIO(), err)\n"
            "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'z3', 'scipy', 'matplotlib', 'numpy', "
            "'mpmath', 'flint', 'rich'})\nprint(status, heavy, repr(err.getvalue()))")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=ROOT, VERIFY_NO_CACHE="1"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("2 [] ") and f"{spec}:" in run.stdout and "invalid spec" in run.stdout
    assert sorted(os.listdir(tmp_path)) == ["bad.yaml"]


# -- item 5: a warning is never cut; an unmet expect says which property broke -------------------------------
@pytest.mark.parametrize("width", ["80", "100", "120"])
def test_a_warning_in_the_compact_report_is_never_cut(width, cli):
    code, out, _ = cli(os.path.join(SPECS, "table-vi.yaml"), "--width", width, "--no-cache")
    fit = out[out.index("Fit to the paper's Table VIII:"):]
    assert code == 0 and "…" not in fit and max(map(len, out.splitlines())) <= int(width)
    said = " ".join(fit.split())
    assert "P8 (correctness cost-insensitivity) is undesirable but holds; P9 (correctness cost-sensitivity) is " \
           "desirable but fails" in said
    assert "--report DIR: the same in files" in said


def test_an_unmet_expect_names_the_property_in_the_directory_summary(tmp_path, cli):
    folder = tmp_path / "specs"
    folder.mkdir()
    text = open(os.path.join(SPECS, "ha-numeric.yaml")).read()
    (folder / "broken.yaml").write_text(text.split("\nexpect:")[0] + "\nexpect: {P3: holds, P4: holds}\n")
    (folder / "fine.yaml").write_text(open(os.path.join(SPECS, "table-vi.yaml")).read())
    code, out, _ = cli(str(folder), "--width", "100", "--no-cache")
    assert code == 1
    lines = out.splitlines()  # each spec's name as it finishes, then the table says the rest once
    assert lines[0].startswith("broken  Ha's class-selective") and "NOT MET" not in lines[0]
    assert [line.split()[-1] for line in lines if line.startswith(("broken ", "fine "))][2:] == ["MET", "met"]
    assert f"{folder / 'broken.yaml'}: expectations not met: P3 expected holds, got fails" in out
    code, out, _ = cli(str(folder), "--format", "markdown", "--no-cache")
    assert code == 1 and "| NOT MET: P3 expected holds, got fails |" in out
    assert sorted(os.listdir(folder)) == ["broken.yaml", "fine.yaml"]


# -- item 6 (in part): --figures says when no picture applies --------------------------------------------------
def test_figures_dir_says_when_no_picture_applies(tmp_path, cli):
    code, _, err = cli(os.path.join(SPECS, "ordinal-l1-9.yaml"), "--figures", str(tmp_path / "figs"), "--no-cache")
    assert code == 0 and "verify: no figures for" in err and "this scheme has 9 classes" in err
    assert os.listdir(tmp_path / "figs") == []


# -- item 10: long class lists, legends, paragraphs, trailing spaces, one box style, compact JSON ------------
THOUSAND = """name: thousand
classes: 1000
predictions: {sets: [["1", "2"]]}
cost: "0 if yhat == y else COST"
set_cost: "0 if y in Y else 1"
"""


@pytest.mark.parametrize("cost, nearest", [("(2 if y == 'abc' else 1)", None), ("1", None)])
def test_a_message_about_a_class_names_a_few_and_the_count(cost, nearest, tmp_path, cli):
    spec = tmp_path / "k.yaml"
    spec.write_text(THOUSAND.replace("COST", cost).replace('["1", "2"]',
                                                           '["1", "2000"]' if cost == "1" else '["1", "2"]'))
    code, out, err = cli(str(spec))
    assert code == 2 and not out and "Traceback" not in err
    assert "the 1,000 classes 1 .. 1000" in err and "500" not in err.split("1 .. 1000", 1)[1]
    assert len(err) < 600  # not all 1,000 names
    if cost == "1":
        assert "(the nearest to '2000': 200, 1000" in err


def test_few_of_lists_short_lists_whole():
    from verifier.errors import few_of

    assert few_of(["h", "b", "n"], "x") == "h, b, n"
    long = few_of([str(i) for i in range(1, 1001)], "77")
    assert long.startswith("the 1,000 classes 1 .. 1000 (the nearest to '77': 77") and long.count(",") <= 9


def test_an_unknown_class_in_a_distribution_names_few(tmp_path):
    import verifier
    from verifier.errors import UsageError

    with pytest.raises(UsageError) as caught:
        verifier.decide({"name": "k", "classes": 30, "cost": "0 if yhat == y else 1",
                         "set_cost": "0 if y in Y else 1 + len(Y)", "predictions": {"sets": [["1", "2"]]}}, {"31": 1})
    assert "the 30 classes 1 .. 30 (the nearest to '31': " in str(caught.value)


@pytest.mark.parametrize("argv", [["-v", os.path.join(SPECS, "ha-numeric.yaml")],
                                  ["--classes", "2..4", os.path.join(SPECS, "accuracy-u65.yaml")]])
def test_console_tables_carry_no_trailing_spaces_and_one_box_style(argv, cli):
    code, out, _ = cli(*argv, "--width", "100", "--no-cache")
    assert code == 0 and not [line for line in out.splitlines() if line != line.rstrip()]
    assert not set("┏┃┡┩━") & set(out)  # the simple-head style of the report's own tables, no heavy box


def test_decide_json_puts_a_batch_row_on_one_line(tmp_path, cli):
    import json

    probs = tmp_path / "p.csv"
    probs.write_text("h,b,n\n" + "0.1,0.3,0.6\n0.5,0.4,0.1\n" * 50)
    code, out, _ = cli("decide", OBSTACLE, "--p-file", str(probs), "--format", "json", "--quiet")
    record = json.loads(out)
    assert code == 0 and len(record["predictions"]) == 100
    assert len(out.splitlines()) < 150  # about a line per row at most, not three
    assert '["b"],' in out.replace(" ", "") or '[["b"],' in out.replace(" ", "")


def test_json_text_is_json():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from verifier.cli.options import json_text

    scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | \
        st.floats(allow_nan=False, allow_infinity=False)
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) |
                          st.dictionaries(st.text(max_size=6), inner, max_size=6), max_leaves=40)

    @settings(max_examples=200, deadline=None)
    @given(values)
    def same(value):
        import json

        assert json.loads(json_text(value)) == value

    same()


# -- item 8 (in part): plurals, never "(s)" ------------------------------------------------------------------
def test_counts_read_as_plain_english(tmp_path, cli):
    from verifier.errors import counted

    assert (counted(1, "warning"), counted(2, "warning"), counted(1000, "class", "classes")) == \
        ("1 warning", "2 warnings", "1,000 classes")
    code, out, _ = cli(os.path.join(SPECS, "table-vii.yaml"), "--width", "100", "--no-cache")
    assert code == 0 and "fits, with 3 warnings: " in out and "(s)" not in out
    code, out, _ = cli("design", DESIGN, "--width", "100")
    assert "0 of 12 open cells forced" in out and "(s)" not in out


def test_default_output_speaks_no_solver_jargon(cli):
    code, out, _ = cli(os.path.join(SPECS, "ha.yaml"), "--width", "120", "--no-cache")
    assert code == 0 and "(unsat)" not in out and "z3 proof" not in out
    import verifier

    zero_one = verifier.verify(os.path.join(SPECS, "accuracy-u65.yaml"), cache=False)
    assert "for want of" not in zero_one.to_text(width=120)


def test_json_text_keeps_each_scalar_its_own_text():
    """true, 1 and 1.0 (and 0.0, -0.0) are equal in Python, and each keeps its own JSON text (a cache of texts
    keyed by value would merge them); a row of flat values is the line json.dumps writes with ", " between
    items."""
    import json

    from verifier.cli.options import json_text

    value = {"rows": [[1, True, 1.0], [True, 1, 1.0], [0, False, 0.0, -0.0], ["é", "1", None]]}
    text = json_text(value)
    assert json.loads(text) == value
    assert text == '{\n  "rows": [[1, true, 1.0], [true, 1, 1.0], [0, false, 0.0, -0.0], ["é", "1", null]]\n}'
    long = {"rows": [[1, True, 1.0, -0.0, "b" * 30]] * 3}
    assert json_text(long).splitlines()[2] == '    [1, true, 1.0, -0.0, "' + "b" * 30 + '"],'
