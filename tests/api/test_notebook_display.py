"""Every result displays itself in a notebook as sympy expressions and pandas frames do (issue 27, items 1-2):
a one-line repr under 200 characters with the main answer, HTML that parses with balanced tags and says the
same answer, Markdown; every name from a spec or a data file escaped; `explain` still the same text; and the
report's HTML, embedded in a mock of Jupyter's and JupyterLab's own styles, keeps its prose cells left-aligned
and follows the light and the dark theme in headless Chromium."""

from __future__ import annotations

import html
import io
import json
import os
import pickle
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import verifier
from verifier.cli import check

from conftest import ROOT, SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")
DESIGN = Path(SPECS) / "design"
ARTIFACTS = Path(ROOT) / "tests" / "artifacts"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Checked(HTMLParser):
    """Every tag closed in order (void elements aside); the visible text, entities decoded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.errors, self.text, self.tags = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.open[-1] if self.open else 'nothing'}>")
        else:
            self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def parsed(markup: str) -> _Checked:
    checker = _Checked()
    checker.feed(markup)
    checker.close()
    assert not checker.errors and not checker.open, (checker.errors, checker.open)
    return checker


def text_of(markup: str) -> str:
    return " ".join(" ".join(parsed(markup).text).split())


def assert_displays(result, answer: str | list[str]):
    """The repr: one line, under 200 characters, with the answer; the HTML and the Markdown say it too."""
    answers = [answer] if isinstance(answer, str) else answer
    line = repr(result)
    assert "\n" not in line and len(line) < 200, line
    markup = result._repr_html_()
    assert markup.startswith('<div class="verify-') and markup.endswith("</div>")
    shown, markdown = text_of(markup), result._repr_markdown_()
    for a in answers:
        assert a in line, (a, line)
        assert a in shown, (a, shown[:2000])
        assert a in markdown.replace("\\", ""), (a, markdown[:2000])
    return line, markup, markdown


# -- the objects --------------------------------------------------------------------------------------------
def test_report_repr_is_one_short_line_and_its_html_parses():
    report = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False)
    line = repr(report)
    assert "\n" not in line and len(line) < 200 and "P3=fails" in line and "filtering=no" in line
    markup = report._repr_html_()
    assert markup.startswith('<div class="verify-report">')
    assert "P3" in text_of(markup) and "fails" in text_of(markup)


def test_a_long_name_is_cut_and_the_verdicts_kept():
    spec = {"name": "A scheme with a very long name " * 8, "classes": ["a", "b"], "cost": "0 if yhat == y else 1",
            "set_cost": "0 if y in Y else 1"}
    line = repr(verifier.verify(spec, cache=False))
    assert len(line) < 200 and "…" in line and "P10=" in line and "choice=" in line


def test_class_sweeps_show_their_first_failures():
    sweep = verifier.sweep_classes(os.path.join(SPECS, "ha.yaml"), "2..3", cache=False)
    line, markup, _ = assert_displays(sweep, "P9 at K = 2")
    assert "K = 2..3" in line and markup.count('<span class="fails">fails</span>') >= 2
    every = verifier.sweep_classes(os.path.join(SPECS, "accuracy-u65.yaml"), "2..", cache=False)
    assert_displays(every, "P9 at K = 2")
    assert "holds for K ≥ 2" in every._repr_markdown_()


@pytest.mark.parametrize("spec, setting, status, answer", [
    ("obstacle-open.yaml", "filtering", "designed", "12 open cells filled"),
    ("ha-delta.yaml", "filtering", "calibrated", "delta = 1/4"),
    ("ha-delta.yaml", "choice", "no fit", "no value of delta meets the firm demands"),
    ("obstacle-conflict.yaml", "filtering", "impossible", "2 minimal conflicts (all)"),
])
def test_design_reports_show_their_status_and_answer(spec, setting, status, answer):
    result = verifier.design(str(DESIGN / spec), setting=setting)
    line, markup, markdown = assert_displays(result, [status, answer])
    assert len(repr(result)) < 200  # the dataclass's own repr was 37,550 characters
    if result.spec_text:  # the designed or calibrated spec, whole, in a <pre> and a YAML block
        assert f"<pre class=\"console\">{html.escape(result.spec_text.rstrip())}</pre>" in markup
        assert "```yaml\n" + result.spec_text.rstrip() in markdown
    if status == "impossible":  # every minimal conflict, each part named
        assert markup.count("<li>") >= len(result.conflicts) and "c_{h,b}(n) = 1 (fixed in the spec)" in text_of(markup)


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("predictions")
    truth = np.random.default_rng(3).integers(0, 3, size=40)
    masks = np.zeros((3, 40, 3), dtype=bool)
    masks[0, np.arange(40), truth] = True  # always right
    masks[1] = True  # always everything
    masks[2, np.arange(40), (truth + 1) % 3] = True  # always wrong
    np.save(folder / "m.npy", masks)
    np.save(folder / "t.npy", truth)
    return verifier.evaluate(OBSTACLE, predictions=str(folder / "m.npy"), truth=str(folder / "t.npy"))


def test_a_decision_shows_the_prediction_and_its_expected_costs():
    result = verifier.decide(OBSTACLE, "h=0.1,b=0.3,n=0.6")
    line, markup, markdown = assert_displays(result, "{b}")
    assert line == "<UseReport decision {b} for p = (h=1/10, b=3/10, n=3/5)>"
    for cell in ("13/10", "7/5", "22/15"):  # the expected costs, exact
        assert f'<td class="num">{cell}</td>' in markup and f"| {cell} |" in markdown
    tied = verifier.decide(OBSTACLE, "h=1/3,b=1/3,n=1/3")
    assert "tied with" in repr(tied) and "tied with" in text_of(tied._repr_html_())


def test_credal_and_batch_decisions(tmp_path):
    credal = verifier.decide(OBSTACLE, intervals_text="h=0:0.2,b=0.3:0.4,n=0.4:0.6")
    assert_displays(credal, "by maximality: {b}")
    rows = tmp_path / "p.csv"
    rows.write_text("n,h,b\n" + "0.6,0.1,0.3\n0.2,0.7,0.1\n" * 15)
    batch = verifier.decide(OBSTACLE, p_file=str(rows))
    line, markup, _ = assert_displays(batch, "30 rows")
    assert "{b} 15, {h} 15" in line or "{h} 15, {b} 15" in line
    assert "10 more rows" in text_of(markup)  # 20 shown, the rest in .record and .text


def test_scores_show_each_classifier_and_its_mean_cost(evaluated):
    line, markup, markdown = assert_displays(evaluated, ["classifier 2", "classifier 3"])
    assert "classifier 2 47/30 ≈ 1.567" in line and "classifier 3 91/40 ≈ 2.275" in line
    assert "<strong>0.0000</strong>" in markup  # the best mean cost, compared exactly
    assert "Paired comparisons" in text_of(markup) and '<td class="num">-47/30</td>' in markup  # exact
    assert "| classifier 2 | 1.5667 [1.525, 1.617] |" in markdown


def test_scores_repr_is_one_line_without_the_arrays(evaluated):
    scores = evaluated.scores
    assert repr(scores[1]) == "Scores('classifier 2', n=40, mean cost 47/30 ≈ 1.5667, determinacy 0)"
    assert repr(scores[0]) == "Scores('classifier 1', n=40, mean cost 0, determinacy 1)"
    assert all("array" not in repr(s) and len(repr(s)) < 200 for s in scores)
    assert "array" not in repr(scores)  # a list of them, as the issue saw it


def test_a_sweep_shows_its_curves_and_parameter(tmp_path):
    path = tmp_path / "pred.csv"
    path.write_text('true,predicted,classifier\nh,"h,b",x\nn,n,x\nh,h,y\nn,"h,n",y\n')
    result = verifier.evaluate(os.path.join(SPECS, "p-discounted-symbolic.yaml"), predictions=str(path),
                               sweep_text="r=0:2:9")
    line, markup, markdown = assert_displays(result, "r goes from 0 to 2")
    assert "M_{1 - r}(0, 1)/2" in text_of(markup) and "x vs y" in text_of(markup)
    assert "<svg" in markup  # the picture, inline


def test_names_from_specs_and_data_are_escaped(tmp_path):
    spec = {"name": "<script>alert(1)</script> " * 20, "classes": ["<i>", "b&c"], "cost": "0 if yhat == y else 1",
            "set_cost": "(0 if y in Y else 1) + 1/4"}
    decision = verifier.decide(spec, [0.9, 0.1])
    assert "<i>" not in decision._repr_html_() and "&lt;i&gt;" in decision._repr_html_()
    assert "<i>" in repr(decision) and "<i>" not in decision._repr_markdown_()
    path = tmp_path / "pred.csv"
    path.write_text('true,predicted,classifier\n<i>,<i>,<img src=x onerror=alert(1)>\n'
                    'b&c,"<i>,b&c",<img src=x onerror=alert(1)>\n'
                    '<i>,b&c,x|y\nb&c,b&c,x|y\n')
    scores = verifier.evaluate(spec, predictions=str(path))
    markup = scores._repr_html_()
    assert "<img" not in markup and "&lt;img src=x onerror=alert(1)&gt;" in markup
    assert "x\\|y" in scores._repr_markdown_()  # a '|' in a name does not split the Markdown table
    report = verifier.verify(spec, cache=False)
    assert "<script>" not in report._repr_html_() and len(repr(report)) < 200
    open_cells = ({key: value for key, value in spec.items() if key != "set_cost"}
                  | {"set_costs": {"<i>,b&c": [None, None]}})
    design = verifier.design(open_cells)
    assert design.status == "designed" and "<script>" not in design._repr_html_() and "<i>" not in design._repr_html_()
    assert "&lt;script&gt;" in design._repr_html_() and len(repr(design)) < 200


# -- explain -------------------------------------------------------------------------------------------------
def test_explain_is_still_the_text_and_shows_itself_rendered():
    text = verifier.explain("P4")
    out = io.StringIO()
    assert check(["explain", "P4"], out, io.StringIO()) == 0
    assert isinstance(text, str) and text == out.getvalue() and str(text) == out.getvalue()
    assert text.splitlines()[:3] == ["P4 non-dominance", "", "A set never costs less than its cheapest member: "
                                     "whatever the truth y, predicting Ŷ costs at least"]
    assert "  ∀ indeterminate Ŷ, ∀ y ∈ Ω: c_Y(y) ≥ min_ŷ∈Y c_ŷ(y)" in text and json.loads(json.dumps(text)) == text
    assert pickle.loads(pickle.dumps(text)) == text
    line, markup, markdown = repr(text), text._repr_html_(), text._repr_markdown_()
    assert line == "<Explanation P4 non-dominance: necessary for filtering, necessary for choice>"
    shown = text_of(markup)
    assert "P4 non-dominance" in shown and \
        "<pre><code>∀ indeterminate Ŷ, ∀ y ∈ Ω: c_Y(y) ≥ min_ŷ∈Y c_ŷ(y)</code></pre>" \
        in markup and markup.count("<tr>") == 3  # the header and one row per setting of Table VIII
    assert markdown.startswith("### P4 non-dominance") and "```text\n∀ indeterminate Ŷ" in markdown
    assert "| filtering | necessary |" in markdown and "| choice | necessary |" in markdown
    every = verifier.explain()
    assert every.startswith("The ten properties") and len(repr(every)) < 200 and "\n" not in repr(every)
    assert text_of(every._repr_html_()).count("necessary") == 8 and \
        "| P10 | upper boundedness |" in every._repr_markdown_()


# -- the report in a browser, inside a notebook's own styles --------------------------------------------------
# What Jupyter (classic) and JupyterLab put on every table of an output (their style sheets, abridged): cells
# right-aligned, tables centred, striped rows. They come after the report here, so only specificity can win.
NOTEBOOK_CSS = """
body{margin:0;font-family:sans-serif;font-size:13px}
.rendered_html table{margin-left:auto;margin-right:auto;border:none;border-collapse:collapse;color:black;\
font-size:12px;table-layout:fixed}
.rendered_html tr,.rendered_html th,.rendered_html td{text-align:right;vertical-align:middle;padding:.5em;border:none}
.rendered_html tbody tr:nth-child(odd){background:#f5f5f5}
.rendered_html tbody tr:hover{background:rgba(66,165,245,.2)}
.jp-RenderedHTMLCommon tr,.jp-RenderedHTMLCommon th,.jp-RenderedHTMLCommon td{\
text-align:right;vertical-align:middle;padding:.5em;border:none}
.jp-RenderedHTMLCommon table{margin-left:auto;margin-right:auto;table-layout:fixed}
.jp-RenderedHTMLCommon tbody tr:nth-child(odd){background:var(--jp-layout-color0,#eee)}
.jp-RenderedHTMLCommon :not(pre)>code{background-color:#eee;padding:1px 5px}
"""
PROBE = """<pre id="probe" hidden></pre><script>
const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
const row = '.verify-report #properties tbody tr:first-child ';
document.getElementById('probe').textContent = 'PROBE' + JSON.stringify({
  says: style(row + 'td:nth-child(3)', 'textAlign'), evidence: style(row + 'td:nth-child(5)', 'textAlign'),
  number: style('.verify-report td.num', 'textAlign'), margin: style('.verify-report table', 'marginLeft'),
  background: style('.verify-report', 'backgroundColor'), cell: style(row + 'td:nth-child(3)', 'backgroundColor'),
  text: style('.verify-report', 'color'), page: style('#outside', 'color')}) + 'PROBE';
</script>"""


def _browser():
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; .ci/run installs Debian's chromium")
        pytest.skip("chromium not installed (CI installs it)")
    return browser


def _notebook_page(fragment: str, body: str = "") -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body{body}><p id="outside">the notebook</p>'
            f'<div class="jp-OutputArea-output jp-RenderedHTMLCommon jp-RenderedHTML rendered_html">{fragment}</div>'
            f"<style>{NOTEBOOK_CSS}</style>{PROBE}</body></html>")


def _luminance(rgb: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    browser = _browser()
    folder = tmp_path_factory.mktemp("notebook")
    fragment = verifier.verify(os.path.join(SPECS, "table-vii.yaml"), cache=False)._repr_html_()
    pages = {"classic": ("", fragment), "lab-dark": (' data-jp-theme-light="false"', fragment),
             "vscode-light": (' class="vscode-light"', fragment)}
    for name, (body, frag) in pages.items():
        (folder / f"{name}.html").write_text(_notebook_page(frag, body), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={folder / 'profile'}"]

    def run(page: str, scheme: str, *how: str) -> subprocess.CompletedProcess:
        preference = {"dark": "0", "light": "1"}[scheme]  # Blink's preferred colour scheme: 0 dark, 1 light
        return subprocess.run([browser, *flags, f"--blink-settings=preferredColorScheme={preference}", *how,
                               (folder / f"{page}.html").as_uri()], check=True, timeout=60, capture_output=True,
                              text=True)

    def probe(page: str, scheme: str) -> dict:
        dom = run(page, scheme, "--dump-dom").stdout
        return json.loads(dom.split("PROBE", 2)[1])

    def screenshot(page: str, scheme: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"notebook-{page}-{scheme}.png"
        shot.unlink(missing_ok=True)
        run(page, scheme, "--window-size=1200,2000", f"--screenshot={shot}")
        return shot

    return probe, screenshot


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_prose_cells_stay_left_aligned_inside_a_notebooks_styles(chromium, scheme):
    probe, _ = chromium
    found = probe("classic", scheme)
    assert found["says"] == "left" and found["evidence"] == "left", found  # Jupyter's right-aligned cells lose
    assert found["number"] == "right" and found["margin"] == "0px", found  # numbers right; the table not centred
    assert found["cell"] == found["background"], found  # no striped rows from the notebook
    assert found["page"] == "rgb(0, 0, 0)"  # the notebook's own page keeps its styles
    dark = _luminance(found["background"]) < 80 and _luminance(found["text"]) > 170
    light = _luminance(found["background"]) > 240 and _luminance(found["text"]) < 80
    assert dark if scheme == "dark" else light, found


def test_the_pages_own_theme_wins_over_the_readers_preference(chromium):
    probe, _ = chromium
    lab = probe("lab-dark", "light")  # JupyterLab in a dark theme, the reader preferring light
    assert _luminance(lab["background"]) < 80 and lab["says"] == "left", lab
    assert _luminance(probe("vscode-light", "dark")["background"]) > 240  # VS Code in a light theme


def test_screenshots_in_light_and_dark_themes_differ(chromium):
    from PIL import Image

    _, screenshot = chromium
    light, dark = screenshot("classic", "light"), screenshot("classic", "dark")
    assert light.stat().st_size > 20_000 and dark.stat().st_size > 20_000  # rendered pages, not blank ones
    assert light.read_bytes() != dark.read_bytes()
    with Image.open(light) as a, Image.open(dark) as b:
        inside = (600, 60)  # within the report, beside its title
        assert sum(a.convert("RGB").getpixel(inside)) > 3 * 240 and sum(b.convert("RGB").getpixel(inside)) < 3 * 80


# -- pictures display as pictures, and say why when there is none (issue 42, found by a newcomer) --------------
def _is_picture(p, fmt):
    import pickle

    from verifier.report.output import PictureBytes

    assert isinstance(p, PictureBytes) and isinstance(p, bytes) and p.format == fmt and p
    assert p.data == bytes(p) and type(p.data) is bytes and len(repr(p)) < 200 and "\n" not in repr(p)
    assert pickle.loads(pickle.dumps(p)) == p and pickle.loads(pickle.dumps(p)).format == fmt
    if fmt == "svg":
        assert p._repr_svg_().startswith("<?xml") and p._repr_png_() is None and "<svg" in p.html()
    else:
        assert p._repr_png_().startswith(b"\x89PNG") and p._repr_svg_() is None


def _is_no_picture(p, why):
    assert not p and p == b"" and why in p.reason and why in repr(p) and why in p._repr_markdown_()


def test_a_sweep_picture_displays_as_the_picture_and_still_writes_as_bytes(tmp_path):
    import verifier

    result = verifier.evaluate(os.path.join(SPECS, "p-discounted-symbolic.yaml"), y_true=["h", "b"],
                               sets=[["h"], ["h", "b"]], sweep_text="r=0:1:3")
    svg, png = result.picture("svg"), result.picture("png")
    _is_picture(svg, "svg")
    _is_picture(png, "png")
    (tmp_path / "curves.svg").write_bytes(svg)  # as callers did with the plain bytes
    assert (tmp_path / "curves.svg").read_bytes() == bytes(svg)


def test_results_without_a_picture_say_why():
    import verifier

    decision = verifier.decide(OBSTACLE, "h=0.1,b=0.3,n=0.6")
    _is_no_picture(decision.picture(), "a decision has no picture")
    scores = verifier.evaluate(os.path.join(SPECS, "accuracy-u65.yaml"), y_true=["h", "b"], sets=[["h"], ["h", "b"]])
    _is_no_picture(scores.picture(), "--sweep")


def test_a_report_s_figures_display_in_a_notebook_and_say_why_when_none():
    import verifier

    figures = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False).figures(formats=("svg", "png"))
    assert set(figures) == {"ha-numeric-ternary.svg", "ha-numeric-ternary.png"}
    _is_picture(figures["ha-numeric-ternary.svg"], "svg")
    _is_picture(figures["ha-numeric-ternary.png"], "png")
    markup = figures._repr_html_()
    assert markup.count("<figure>") == 2 and "<?xml" not in markup and "data:image/png;base64," in markup
    assert len(repr(figures)) < 400
    none = verifier.verify(os.path.join(SPECS, "ordinal-l1-9.yaml"), cache=False).figures()
    assert none == {} and "this scheme has 9 classes" in none.reason and "No figures: " in none._repr_html_()


def test_a_design_without_a_region_says_why():
    import verifier

    designed = verifier.design(str(DESIGN / "obstacle-open.yaml"), setting="filtering", ranges=False)
    _is_no_picture(designed.picture(), "no region to draw")
