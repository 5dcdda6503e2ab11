"""Hostile names in every Markdown output (issue 37, item 14): the report's .md, `verify --format markdown`,
`evaluate --table markdown` and the notebook's Markdown escape spec, class, classifier and data set names with
the one function the report uses (`report.safe_text`), so that no HTML and no link reaches a reader. Each output
is rendered by a CommonMark parser (markdown-it-py, which rich already depends on) with raw HTML enabled, and
the rendered page must hold no tag and no link from the names.

Origin: attacks for issue 37, item 14; formerly test_attacks_markdown.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import verifier
from verifier.report.text.safe_text import markdown, markdown_cell

from untouched import snapshot

RENDER = MarkdownIt("commonmark", {"html": True}).enable("table")
RENDER.validateLink = lambda url: True  # markdown-it drops javascript: links itself; other renderers may not

SPEC_NAME = "<script>alert(1)</script> [x](javascript:alert(2)) \\"
CLASSES = ["<img src=x onerror=alert(3)>", "[y](javascript:alert(4))", "c|d"]
SPEC = f"""\
name: {json.dumps(SPEC_NAME)}
classes: {json.dumps(CLASSES)}
cost: "0 if yhat == y else 1"
set_cost: "0 if y in Y and len(Y) == 1 else (0.5 if y in Y else 1)"
"""
# the names as every Markdown output shows them
SHOWN = ["&lt;script>alert(1)&lt;/script> [x]\\(javascript:alert(2)) \\\\", "&lt;img src=x onerror=alert(3)>",
         "[y]\\(javascript:alert(4))"]


def harmless(text: str) -> None:
    """Parsed, the Markdown holds no raw HTML, no link, no autolink and no image."""
    def tokens(items):
        for token in items:
            yield token
            yield from tokens(token.children or ())

    ours = ("<sub>", "</sub>")  # the only markup the writers add: a term's set index as a subscript
    found = [t.type for t in tokens(RENDER.parse(text))
             if t.type in ("html_inline", "html_block", "link_open", "image") and t.content not in ours]
    assert not found, (found, text[:300])
    page = RENDER.render(text)
    assert "<script" not in page and "<img" not in page and "<a " not in page


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_verify_format_markdown_escapes_names_as_the_report_file_does(tmp_path, hostile, cli):
    code, table, _ = cli(hostile, "--format", "markdown", "--no-cache")
    assert code == 0
    code, _, _ = cli(hostile, "--report", tmp_path / "r", "--quiet")
    assert code == 0
    report = (tmp_path / "r" / "hostile.md").read_text(encoding="utf-8")
    for text in (table, report):
        harmless(text)
        for name in SHOWN:
            assert name in text, (name, text[:400])
    assert f"## verify: {SHOWN[0]}\n" in table and f"# {SHOWN[0]}\n" in report  # the backslash shown once
    assert "c\\|d" in table and "c\\|d" in report  # a '|' in a name never ends a table cell


def test_an_invalid_spec_in_the_markdown_table_is_escaped(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nclasses: [a, '[z](javascript:alert(5))', '<b>']\ncost: '0 if yhat == y else 1'\n"
                   "set_costs: {'a,<b>': [0, 1, 2]}\n", encoding="utf-8")
    before = snapshot(tmp_path)
    code, out, err = cli(bad, "--format", "markdown", "--no-cache")
    assert code == 2 and err and "internal error" not in err
    harmless(out)
    assert "invalid" in out and snapshot(tmp_path) == before


def test_evaluate_table_markdown_escapes_classifier_and_data_set_names(tmp_path, hostile, cli):
    rows = ["true,predicted,classifier,dataset"]
    for who in ("<script>alert(6)</script>", "[w](javascript:alert(7))", "*bold*|x"):
        for data in ("<img src=x onerror=alert(8)>", "[v](javascript:alert(9))"):
            rows += [f'"{CLASSES[0]}","{CLASSES[0]}","{who}","{data}"',
                     f'"{CLASSES[2]}","{CLASSES[2]},{CLASSES[0]}","{who}","{data}"']
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = cli("evaluate", hostile, tmp_path / "p.csv", "--table", "markdown")
    assert code == 0, err
    harmless(out)
    assert "&lt;script>alert(6)&lt;/script>" in out and "[w]\\(javascript:alert(7))" in out
    assert "\\*bold\\*\\|x" in out and "&lt;img src=x onerror=alert(8)>" in out
    result = verifier.evaluate(str(hostile), predictions=str(tmp_path / "p.csv"))
    assert result.table("markdown") == out
    harmless(result._repr_markdown_())


def test_a_notebook_shows_hostile_names_without_markup(hostile):
    report = verifier.verify(str(hostile), cache=False)
    harmless(report.to_markdown())
    harmless(verifier.decide(str(hostile), {CLASSES[0]: "1"})._repr_markdown_())


HOSTILE_TEXT = st.lists(st.sampled_from(list("[]()<>!:\\`|&#;*_ \naj/") + ["javascript:", "img", "a href=x"]),
                        max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(HOSTILE_TEXT, HOSTILE_TEXT)
def test_escaped_text_never_renders_a_link_or_a_tag(before, after):
    """Whatever the text, escaped it forms no link, image or HTML, in a paragraph or in a table cell, even
    beside a link definition made of the same characters."""
    text = before + "[x](javascript:alert(1))" + after
    harmless(markdown(text) + "\n\n" + markdown("[x]: javascript:alert(1)") + "\n")
    harmless(f"| a | b |\n|---|---|\n| {markdown_cell(text)} | {markdown_cell(after)} |\n")
    assert "\n" not in markdown_cell(text)
