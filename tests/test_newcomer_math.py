"""Issue 42, items 7-9: the sweep's sentences write a crossing one way and say in words what is undecided, the
values at the grid points are in the text as the docs say; mathematics is typeset per format (≥ not >=,
c<sub>a,b</sub> in HTML and Markdown, one readable form on the console, no `*` in HTML conditions); figures
carry no long title, the sweep plot uses the figures' palette and italic parameter names, and the calibration
chart colours rows by verdict."""

import io
import json
import os
import re

from conftest import ROOT, SPECS
from verifier.cli import check

P_SYMBOLIC = os.path.join(SPECS, "p-discounted-symbolic.yaml")
SQUARES = ("name: squares\nclasses: [a, b, c]\nparameters:\n  delta: {}\nassume: [\"delta >= 0\", \"delta <= 2\"]\n"
           "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + delta**2 * (len(Y) - 1)\"\n")
TRUTH = ["h", "h", "b", "b", "n", "n"]
SETS = {"precise": ["h", "b", "b", "h", "n", "n"], "cautious": ["h", "h,b", "b", "h,b", "n", "n"],
        "vacuous": ["h,b,n"] * 6}


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return check(list(argv), out, err), out.getvalue(), err.getvalue()


def _tree(path) -> list[str]:
    return sorted(os.path.join(d, f) for d, _, files in os.walk(path) for f in files)


def _squares(tmp_path) -> tuple[str, str]:
    """precise: wrong 2 times in 6 (mean cost 1/3); cautious: always {a, b} with the truth inside (delta^2):
    they cross at delta = sqrt(3)/3, an irrational exact zero."""
    spec, pred = tmp_path / "squares.yaml", tmp_path / "pred.csv"
    spec.write_text(SQUARES, encoding="utf-8")
    rows = ["true,predicted,classifier"] + [f"{y},{p},precise" for y, p in zip("abcabc", "abcaaa")] + \
        [f'{y},"a,b",cautious' for y in "ababab"]
    pred.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(spec), str(pred)


def _sentence(text: str, start: str) -> str:
    """One pair's sentence of the sweep text, its wrapped lines joined."""
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(start))
    out = [lines[i]]
    for line in lines[i + 1:]:
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return " ".join(out)


# -- item 7: the sweep's text -----------------------------------------------------------------------------------

def test_an_irrational_crossing_is_written_one_way_throughout_its_sentence(tmp_path):
    spec, pred = _squares(tmp_path)
    before = _tree(ROOT + "/specs")
    code, text, err = _run("evaluate", spec, pred, "--sweep", "delta=0:2:9")
    assert code == 0, err
    sentence = _sentence(text, "  precise vs cautious:")
    assert sentence == ("  precise vs cautious: the order flips at delta = sqrt(3)/3 ≈ 0.5773502692; cautious costs "
                        "less for delta in (0, sqrt(3)/3); precise costs less for delta in (sqrt(3)/3, 2)")
    decimals = re.findall(r"\d+\.\d+", sentence)
    assert decimals == ["0.5773502692"]  # the rational brackets beside the zero (12 digits) are never printed
    assert _tree(ROOT + "/specs") == before


def test_an_enclosed_crossing_has_the_same_digits_where_it_is_named_and_where_the_stretches_end(tmp_path):
    code, text, err = _run("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5")
    assert code == 0, err
    sentence = _sentence(text, "  precise vs vacuous:")
    (low, high) = re.fullmatch(r".*flips at some r in \[([\d.]+), ([\d.]+)\] \(certified enclosure\).*",
                               sentence).groups()
    assert f"precise costs less for r in (0, {low})" in sentence
    assert f"vacuous costs less for r in ({high}, 1)" in sentence
    assert len(re.findall(r"\d+\.\d+", sentence)) == 4  # each end twice, the same text each time


def test_the_stretch_near_r_1_says_in_words_what_is_undecided_and_why(tmp_path):
    code, text, err = _run("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5")
    assert code == 0, err
    sentence = _sentence(text, "  cautious vs vacuous:")
    assert "not excluded by certified bisection" not in text
    assert "cautious costs less for r in (0, 0.99999" in sentence
    assert "both cost exactly the same at r = 1, but for r in [0.99999" in sentence
    assert re.search(r"for r in \[0\.9999\d+, 1\) which costs less is not decided \(their difference is too close "
                     r"to 0 there for certified interval arithmetic to tell its sign\)", sentence)
    code, out, _ = _run("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5", "--format", "json")
    assert json.loads(out)["sweep"]["curves"][1]["values"][-1] == 0.0  # the tie at r = 1, as the text says


def _predictions(tmp_path) -> str:
    path = tmp_path / "pred.csv"
    rows = ["true,predicted,classifier"] + [f'{y},"{s}",{name}' for name, column in SETS.items()
                                             for y, s in zip(TRUTH, column)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def _grid_rows(text: str, parameter: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.split() and line.split()[0] == parameter) + 2
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_the_text_gives_the_values_at_the_grid_points_the_json_gives(tmp_path):
    spec, pred = _squares(tmp_path)
    code, text, err = _run("evaluate", spec, pred, "--sweep", "delta=0:2:9")
    code_json, out, _ = _run("evaluate", spec, pred, "--sweep", "delta=0:2:9", "--format", "json")
    assert code == code_json == 0, err
    sweep = json.loads(out)["sweep"]
    assert "Mean cost at the grid points (rounded to 4 decimals):" in text
    rows = _grid_rows(text, "delta")
    assert [r[0] for r in rows] == sweep["grid"]
    for i, row in enumerate(rows):
        assert row[1:] == [f"{c['values'][i]:.4f}" for c in sweep["curves"]]
    assert "grid points, every" not in text  # every point shown: no note of a selection


def test_a_long_grid_is_thinned_in_the_text_and_says_where_the_rest_is(tmp_path):
    spec, pred = _squares(tmp_path)
    code, text, err = _run("evaluate", spec, pred, "--sweep", "delta=0:2:101")
    assert code == 0, err
    rows = _grid_rows(text, "delta")
    assert [r[0] for r in rows] == [str(x) for x in ("0", "1/10", "1/5", "3/10", "2/5", "1/2", "3/5", "7/10",
                                                     "4/5", "9/10", "1", "11/10", "6/5", "13/10", "7/5", "3/2",
                                                     "8/5", "17/10", "9/5", "19/10", "2")]
    assert "21 of the 101 grid points, every 5th; all of them in --format json." in text
    assert "grid point(s)" not in text
