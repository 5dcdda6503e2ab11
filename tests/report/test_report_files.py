"""--report: Markdown, self-contained HTML and JSON per spec; the committed reports of the bundled specs are
up to date; the HTML has its sections and renders in headless Chromium with the matrix, verdicts and plots."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from verifier.cli import check

from conftest import bundled

ROOT = Path(__file__).resolve().parents[2]
SPECS, REPORTS = ROOT / "specs", ROOT / "reports"
STEMS = sorted(p.stem for p in SPECS.glob("*.yaml"))
ARTIFACTS = ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    for stem in STEMS:  # what `verify specs --report DIR` writes, from the session's shared reports
        bundled(stem).write(str(folder))
    return folder


def _without_svg(text: str) -> str:
    # matplotlib's SVG bytes may differ across versions; the plots are checked in the browser test instead
    return re.sub(r"<svg.*?</svg>", "<svg/>", text, flags=re.S)


@pytest.mark.parametrize("stem", STEMS)
def test_committed_reports_are_up_to_date(fresh, stem):
    for suffix in ("md", "json", "html"):
        committed = REPORTS / f"{stem}.{suffix}"
        assert committed.exists(), f"reports/{stem}.{suffix} is missing: run `verify specs --report reports`"
        new, old = (fresh / f"{stem}.{suffix}").read_text(), committed.read_text()
        if suffix == "html":
            new, old = _without_svg(new), _without_svg(old)
        assert new == old, f"reports/{stem}.{suffix} is out of date: run `verify specs --report reports`"


class _Sections(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.tags, self.scripts, self.links = set(), [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.ids.add(attrs.get("id"))
        self.scripts += tag == "script"
        self.links += [v for k, v in attrs.items() if k in ("src", "href") and v and "://" in v]


@pytest.mark.parametrize("stem", ["table-vii", "obstacle-p-discounted-cautious", "friedel-abstention-symbolic"])
def test_html_has_its_sections_and_is_self_contained(fresh, stem):
    parser = _Sections()
    parser.feed((fresh / f"{stem}.html").read_text())
    assert {"properties", "settings", "matrix", "possibility", "plots"} <= parser.ids
    assert "svg" in parser.tags and parser.scripts == 0 and not parser.links


def test_markdown_and_json_agree(fresh):
    record = json.loads((fresh / "ha-numeric.json").read_text())
    md = (fresh / "ha-numeric.md").read_text()
    assert record["properties"]["P3"]["verdict"] == "fails" and \
        ("| P3 | reward rightful cautiousness | a set containing the truth costs strictly less than the mean of its "
         "members' costs | **fails** |") in md
    assert "seconds" not in record  # report files are deterministic


def test_html_renders_in_headless_chromium(fresh):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; .ci/run installs Debian's chromium")
        pytest.skip("chromium not installed (CI installs it)")
    ARTIFACTS.mkdir(exist_ok=True)
    page = fresh / "obstacle-p-discounted-cautious.html"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={fresh / 'chromium-profile'}"]
    shot = ARTIFACTS / "obstacle-p-discounted-cautious.png"
    subprocess.run([browser, *flags, "--window-size=1200,2400", f"--screenshot={shot}", page.as_uri()],
                   check=True, timeout=120, capture_output=True)
    assert shot.exists() and shot.stat().st_size > 20_000  # a rendered page, not a blank one
    dom = subprocess.run([browser, *flags, "--dump-dom", page.as_uri()], check=True, timeout=120,
                         capture_output=True, text=True).stdout
    for visible in ("Extended cost matrix", "9/4 (2.25)", "mistake aversion", ">fails<", ">holds<", "<svg"):
        assert visible in dom


# -- CI options ---------------------------------------------------------------------------------------------
def test_require_fails_exactly_when_the_setting_is_not_fitted():
    spec = str(SPECS / "obstacle-p-discounted-cautious.yaml")  # fits choice, not filtering
    assert check([spec, "--require", "choice"], io.StringIO(), io.StringIO()) == 0
    err = io.StringIO()
    assert check([spec, "--require", "filtering"], io.StringIO(), err) == 1
    assert "does not fit the filtering setting" in err.getvalue()


def test_cache_is_near_instant_and_never_shown_as_fresh(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "spec.yaml"
    spec.write_text((SPECS / "ha-numeric.yaml").read_text())
    first, second = io.StringIO(), io.StringIO()
    assert check([str(spec)], first, io.StringIO()) == 0
    assert "cached result" not in first.getvalue()
    assert check([str(spec)], second, io.StringIO()) == 0
    assert second.getvalue().startswith("(cached result from") and first.getvalue() in second.getvalue()
    out = io.StringIO()
    check([str(spec), "--format", "json"], out, io.StringIO())
    check([str(spec), "--format", "json"], out := io.StringIO(), io.StringIO())
    assert "cached" in json.loads(out.getvalue())
    spec.write_text(spec.read_text().replace("value: 0.4", "value: 0.45"))  # a changed spec is verified afresh
    third = io.StringIO()
    check([str(spec)], third, io.StringIO())
    assert "cached result" not in third.getvalue()
    fourth = io.StringIO()
    check([str(spec), "--no-cache"], fourth, io.StringIO())
    assert "cached result" not in fourth.getvalue()


# -- a legend, and paragraphs (issue 42, found by a newcomer) --------------------------------------------------
def test_the_html_fit_table_has_a_legend_and_the_markdown_header_is_paragraphs():
    import verifier

    report = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml"), cache=False)
    page = report.to_html()
    assert "N = necessary, D = desirable, A = analyst&#x27;s choice, U = undesirable" in page
    markdown = report.to_markdown()
    head = markdown[:markdown.index("## Properties")]
    for start in ("Classes: ", "Intended setting: ", "Parameters: "):
        line = next(i for i, text in enumerate(head.splitlines()) if text.startswith(start))
        assert head.splitlines()[line - 1] == ""  # a paragraph of its own
