"""Issue 42, items 7-9: the sweep's sentences write a crossing one way and say in words what is undecided, the
values at the grid points are in the text as the docs say; mathematics is typeset per format (≥ not >=,
c<sub>a,b</sub> in HTML and Markdown, one readable form on the console, no `*` in HTML conditions); figures
carry no long title, the sweep plot uses the figures' palette and italic parameter names, and the calibration
chart colours rows by verdict.

Origin: a newcomer's reading of the mathematics, issue 42, items 7-9; formerly test_newcomer_math.py."""

import json
import os
import re

import pytest
import yaml

from verifier.report.figures.palette import LINES

from conftest import ROOT, SPECS, run_verify

P_SYMBOLIC = os.path.join(SPECS, "p-discounted-symbolic.yaml")
SQUARES = ("name: squares\nclasses: [a, b, c]\nparameters:\n  delta: {}\nassume: [\"delta >= 0\", \"delta <= 2\"]\n"
           "cost: \"0 if yhat == y else 1\"\nset_cost: \"(0 if y in Y else 1) + delta**2 * (len(Y) - 1)\"\n")
TRUTH = ["h", "h", "b", "b", "n", "n"]
SETS = {"precise": ["h", "b", "b", "h", "n", "n"], "cautious": ["h", "h,b", "b", "h,b", "n", "n"],
        "vacuous": ["h,b,n"] * 6}


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

def test_an_irrational_crossing_is_written_one_way_throughout_its_sentence(tmp_path, cli):
    spec, pred = _squares(tmp_path)
    before = _tree(ROOT + "/specs")
    code, text, err = cli("evaluate", spec, pred, "--sweep", "delta=0:2:9")
    assert code == 0, err
    sentence = _sentence(text, "  precise vs cautious:")
    assert sentence == ("  precise vs cautious: the order flips at delta = sqrt(3)/3 ≈ 0.5773502692; cautious costs "
                        "less for delta in (0, sqrt(3)/3); precise costs less for delta in (sqrt(3)/3, 2)")
    decimals = re.findall(r"\d+\.\d+", sentence)
    assert decimals == ["0.5773502692"]  # the rational brackets beside the zero (12 digits) are never printed
    assert _tree(ROOT + "/specs") == before


def test_an_enclosed_crossing_has_the_same_digits_where_it_is_named_and_where_the_stretches_end(tmp_path, cli):
    code, text, err = cli("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5")
    assert code == 0, err
    sentence = _sentence(text, "  precise vs vacuous:")
    (low, high) = re.fullmatch(r".*flips at some r in \[([\d.]+), ([\d.]+)\] \(certified enclosure\).*",
                               sentence).groups()
    assert f"precise costs less for r in (0, {low})" in sentence
    assert f"vacuous costs less for r in ({high}, 1)" in sentence
    assert len(re.findall(r"\d+\.\d+", sentence)) == 4  # each end twice, the same text each time


def test_near_r_1_the_order_is_decided_and_the_tie_at_r_1_is_said(tmp_path, cli):
    """Near r = 1 both power means vanish like 2^(-1/(1 - r)): certified bisection alone left [0.99999…, 1)
    undecided; the end lemma of analysis/vanishing_exponent.py decides it, and the exact tie at r = 1 is said."""
    code, text, err = cli("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5")
    assert code == 0, err
    sentence = _sentence(text, "  cautious vs vacuous:")
    assert "not excluded by certified bisection" not in text and "not decided" not in sentence
    assert "no crossing; cautious costs less for r in (0, 1)" in sentence
    assert "both cost exactly the same at r = 1" in sentence
    code, out, _ = cli("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5", "--format", "json")
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


def test_the_text_gives_the_values_at_the_grid_points_the_json_gives(tmp_path, cli):
    spec, pred = _squares(tmp_path)
    code, text, err = cli("evaluate", spec, pred, "--sweep", "delta=0:2:9")
    code_json, out, _ = cli("evaluate", spec, pred, "--sweep", "delta=0:2:9", "--format", "json")
    assert code == code_json == 0, err
    sweep = json.loads(out)["sweep"]
    assert "Mean cost at the grid points (rounded to 4 decimals):" in text
    rows = _grid_rows(text, "delta")
    assert [r[0] for r in rows] == sweep["grid"]
    for i, row in enumerate(rows):
        assert row[1:] == [f"{c['values'][i]:.4f}" for c in sweep["curves"]]
    assert "grid points, every" not in text  # every point shown: no note of a selection


def test_a_long_grid_is_thinned_in_the_text_and_says_where_the_rest_is(tmp_path, cli):
    spec, pred = _squares(tmp_path)
    code, text, err = cli("evaluate", spec, pred, "--sweep", "delta=0:2:101")
    assert code == 0, err
    rows = _grid_rows(text, "delta")
    assert [r[0] for r in rows] == [str(x) for x in ("0", "1/10", "1/5", "3/10", "2/5", "1/2", "3/5", "7/10",
                                                     "4/5", "9/10", "1", "11/10", "6/5", "13/10", "7/5", "3/2",
                                                     "8/5", "17/10", "9/5", "19/10", "2")]
    assert "21 of the 101 grid points, every 5th; all of them in --format json." in text
    assert "grid point(s)" not in text


# -- item 8: mathematics per output format ----------------------------------------------------------------------

BUNDLED = sorted(f for f in os.listdir(SPECS) if f.endswith(".yaml"))
ASCII_RELATION = re.compile(r">=|<=|!=|&gt;=|&lt;=")
RAW_INDEX = re.compile(r"(?<![A-Za-z])(c|mean|max|min|C)_\{")


def _outputs(name: str, tmp_path) -> dict[str, str]:
    """The console report (default and -v), the Markdown report, `--format markdown` and the HTML report, of
    the bundled spec without its description (the spec's own words are shown as written)."""
    with open(os.path.join(SPECS, name), encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    data.pop("description", None)
    path = str(tmp_path / name)
    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(data, handle, allow_unicode=True)
    tmp_path = tmp_path / "reports"
    out = {"console": run_verify(path, "--width", "120")[1], "verbose": run_verify(path, "-v", "--width", "120")[1],
           "markdown table": run_verify(path, "--format", "markdown")[1]}
    code, _, err = run_verify(path, "--report", str(tmp_path), "--no-cache")
    assert code in (0, 1), err
    stem = name[:-len(".yaml")]
    for kind in ("md", "html"):
        out[kind] = (tmp_path / f"{stem}.{kind}").read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("name", ["obstacle-hand-filled.yaml", "friedel-abstention-symbolic.yaml",
                                  "p-discounted-symbolic.yaml", "table-vi.yaml"])
def test_reports_write_relations_and_set_indices_one_way_per_format(name, tmp_path):
    before = _tree(SPECS)
    outputs = _outputs(name, tmp_path)
    for kind, text in outputs.items():
        html_text = kind == "html" and text[text.index("<body>"):]  # the style sheet is not text
        shown = re.sub(r"<svg.*?</svg>", "", html_text, flags=re.S) if html_text else text
        assert not ASCII_RELATION.search(shown), (kind, ASCII_RELATION.search(shown))
        assert not RAW_INDEX.search(shown), (kind, shown[RAW_INDEX.search(shown).start() - 80:][:160])
    assert _tree(SPECS) == before


def test_a_cost_subscript_is_typeset_in_html_and_markdown_and_plain_on_the_console(tmp_path, cli):
    outputs = _outputs("obstacle-hand-filled.yaml", tmp_path)
    assert "c<sub>h,b</sub>(n) = 3 must be ≤ max<sub>h,b</sub>(n) = 2" in outputs["html"]
    assert "c<sub>h,b</sub>(n) = 3 must be ≤ max<sub>h,b</sub>(n) = 2" in outputs["md"]
    assert "c{h,b}(n) = 3 must be ≤ max{h,b}(n) = 2" in " ".join(outputs["verbose"].split())
    assert "c{h,b}(n)" in outputs["console"]
    assert 'Notation: c<sub>Y</sub>(y) is the cost' in outputs["html"]
    record = json.loads(cli(os.path.join(SPECS, "obstacle-hand-filled.yaml"), "--format", "json")[1])
    assert "c_{h, b}(n)" in json.dumps(record)  # the JSON keeps the engines' labels


def test_a_hostile_class_name_in_a_subscript_stays_escaped(tmp_path, cli):
    spec = tmp_path / "hostile.yaml"
    spec.write_text('name: h\nclasses: ["<b>x", "q}<i>"]\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "0 if y in Y and len(Y) == 1 else 2"\n', encoding="utf-8")
    code, _, err = cli(str(spec), "--report", str(tmp_path / "out"), "--no-cache")
    assert code == 0, err
    page = (tmp_path / "out" / "hostile.html").read_text(encoding="utf-8")
    assert "<b>x" not in page and "<i>" not in page and "&lt;b&gt;x" in page
    assert page.count("<sub>") == page.count("</sub>") > 0


def test_conditions_write_products_without_a_star(tmp_path):
    outputs = _outputs("friedel-abstention-symbolic.yaml", tmp_path)
    for kind in ("html", "md", "verbose"):
        assert "2*nu" not in outputs[kind] and "2·nu" in outputs[kind], kind


# -- item 9: figures ----------------------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: bytes) -> list[str]:
    """The drawn texts of an SVG (its metadata, which holds the file's title, is not drawn)."""
    import xml.etree.ElementTree as ET

    out = []
    for text in ET.fromstring(svg).iter(f"{SVG}text"):
        spans = list(text.iter(f"{SVG}tspan"))
        out.extend(s.text or "" for s in spans) if spans else out.append(text.text or "")
    return out


def _drawn_colours(svg: str) -> set[str]:
    """Stroke colours of the paths that draw something: a one-point path without a marker (matplotlib's
    placeholder lines) takes the colour cycle's next colour but shows nothing."""
    return {colour for d, colour in re.findall(r'<path d="([^"]*)"[^>]*stroke: (#[0-9a-f]{6})', svg)
            if "L" in d or "C" in d or "z" in d}


def test_the_sweep_plot_has_no_title_the_figures_palette_and_an_italic_parameter(tmp_path, cli):
    plot = tmp_path / "curves.svg"
    code, _, err = cli("evaluate", P_SYMBOLIC, _predictions(tmp_path), "--sweep", "r=0:1:5", "--plot", str(plot))
    assert code == 0, err
    svg = plot.read_bytes()
    texts = _texts(svg)
    assert not any("p-discounted" in t or "varies" in t for t in texts)  # no spec name, no title drawn
    assert "p-discounted costs" in svg.decode()  # the title stays in the file's metadata
    colours = _drawn_colours(svg.decode())
    assert {c.lower() for c in LINES[:3]} <= colours  # Okabe & Ito's line order, as every other figure
    assert "#1f77b4" not in colours and "#ff7f0e" not in colours  # not matplotlib's own cycle
    assert re.search(r'<tspan[^>]*font-style: (oblique|italic)[^>]*>r</tspan>', svg.decode())  # $r$, typeset
    width = float(re.search(r'<svg[^>]* width="([\d.]+)pt"', svg.decode()).group(1))
    assert width <= 3.6 * 72  # one column, as the other figures


def test_the_calibration_chart_colours_rows_by_verdict(tmp_path, cli):
    plot = tmp_path / "calibration.svg"
    code, _, err = cli("design", os.path.join(SPECS, "design", "ha-delta.yaml"), "--plot", str(plot))
    assert code == 0, err
    svg = plot.read_text(encoding="utf-8")
    texts = _texts(plot.read_bytes())
    assert {"holds / fits", "fails / does not fit"} <= set(texts)  # the verdict legend
    assert not {"both settings fit", "neither fits"} & set(texts)  # no colour by which setting fits
    assert {"filtering fits", "choice fits"} <= set(texts)  # the settings are rows, labelled
    colours = _drawn_colours(svg)
    assert {"#009e73", "#d55e00"} <= colours and "#0072b2" not in colours  # spot_plot's holds and fails


def test_figures_draw_no_long_title(tmp_path, cli):
    import numpy as np

    import verifier

    designed = verifier.design(os.path.join(SPECS, "design", "obstacle-hb-open.yaml"), setting="filtering")
    texts = _texts(bytes(designed.picture("svg")))
    assert texts and not any(len(t) > 70 or "obstacle" in t.lower() for t in texts)
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 3, 30)
    paths = []
    for k in range(2):
        np.save(tmp_path / f"clf{k}.npy", rng.dirichlet([1, 1, 1], 30))
        paths += ["--probabilities", str(tmp_path / f"clf{k}.npy")]
    np.save(tmp_path / "truth.npy", truth)
    plot = tmp_path / "surface.svg"
    code, _, err = cli("evaluate", os.path.join(ROOT, "docs", "examples", "triage-two-costs.yaml"), *paths,
                       "--truth", str(tmp_path / "truth.npy"), "--sweep", "mu=0:4:5", "--sweep", "nu=0:1/2:3",
                       "--plot", str(plot))
    assert code == 0, err
    texts = _texts(plot.read_bytes())
    assert "mean cost (Eq. 4)" in texts and not any("vary" in t or len(t) > 70 for t in texts)
