"""The answer first (issue 56, item 1): six data sets x four classifiers print the across-data-set answer
(Friedman, Iman-Davenport, Nemenyi's critical difference, the average ranks), one line per data set and one per
pair over the data sets within a first screen of 40 lines at 80 columns; each data set's scores and its 36 pairs
only with -v; --quiet keeps the answer and the per-data-set lines. The JSON and the exit status do not depend on
-v or --quiet."""

from __future__ import annotations

import io

import numpy as np
import pytest

from verifier.cli import check

from conftest import SPECS, run_verify

OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"
CLASSIFIERS = (("good", 0.85), ("fair", 0.7), ("poor", 0.5), ("vague", 0.6))


def _six_by_four(tmp_path):
    """Six data sets of 40 instances, four classifiers (vague predicts the whole set when wrong)."""
    rng = np.random.default_rng(3)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(6):
        truth = rng.integers(0, 3, 40)
        for who, right in CLASSIFIERS:
            for t in truth:
                wrong = "h|b|n" if who == "vague" else "hbn"[(t + 1) % 3]
                rows.append(f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else wrong},{who},s{d}")
    path = tmp_path / "six.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(*argv):
    return run_verify("evaluate", OBSTACLE, *argv)


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    return str(_six_by_four(tmp_path_factory.mktemp("six")))


def _index(lines: list[str], start: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(start))


def test_the_default_output_is_the_answer_on_one_screen_in_this_order(six):
    code, out, err = _run(six)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 36 and all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert lines[0] == "Over 6 data sets, the 4 classifiers present on every one (alpha = 0.05):"
    assert lines[1].startswith("  Friedman test over 6 data sets: chi2 = 975/59 tie-corrected")
    flat = " ".join(out.split())
    assert ("Iman-Davenport F_F = 325/7, p-value 7.935e-08; by Iman-Davenport's p-value significant at 0.05; "
            "average ranks (1 = lowest mean cost) good 1, vague 29/12 ≈ 2.417, fair 31/12 ≈ 2.583, poor 4; Nemenyi "
            "critical difference CD = 1.9148; average ranks further apart than CD: good vs poor.") in flat
    table = _index(lines, "Mean cost and rank per data set")
    assert table == 10 and lines[table + 1].split() == ["data", "set", "good", "fair", "poor", "vague"]
    assert [line.split()[0] for line in lines[table + 3:table + 9]] == [f"s{d}" for d in range(6)]
    assert lines[table + 10].startswith("  average rank")
    over = _index(lines, "Pairs over the 6 data sets")
    head = _index(lines, "  pair ")
    assert over == table + 12 and head == over + 2
    assert [line.split(" vs ")[0].strip() + " " + line.split()[2] for line in lines[head + 1:head + 7]] == \
        ["good fair", "good poor", "good vague", "fair poor", "fair vague", "poor vague"]
    within = _index(lines, "Pairs within each data set")
    assert within == head + 8 and "36 compared" in lines[within] and "good vs poor on s5" in lines[within + 1]
    assert lines[-1] == "More: -v or --report DIR (scores and pairs of each data set); --format json."
    assert "Data set s0:" not in out and "(40 instances)" not in out  # the detail is behind -v


def test_verbose_adds_every_detail_after_the_same_answer(six):
    _, short, _ = _run(six)
    code, out, err = _run(six, "-v")
    assert code == 0 and err == ""
    assert out.startswith(short.rsplit("\n\nMore:", 1)[0])  # the same answer comes first
    detail = out[out.index("In full:"):]
    for d in range(6):
        assert f"Data set s{d}:" in detail
        assert all(f"{a} vs {b} on data set s{d} (40 instances)" in detail for a, b in
                   [("good", "fair"), ("good", "poor"), ("good", "vague"), ("fair", "poor"), ("fair", "vague"),
                    ("poor", "vague")])
    assert detail.index("Data set s5:") < detail.index("good vs fair on data set s0") < \
        detail.index("Over 6 data sets, the 4 classifiers present") < detail.index("Two classifiers at a time")
    assert len(out.splitlines()) > 500


def test_quiet_prints_the_answer_and_one_line_per_data_set_only(six):
    code, out, err = _run(six, "--quiet")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0].startswith("Over 6 data sets") and lines[-1].startswith("  average rank")
    assert len(lines) == 21 and "Pairs over" not in out and "More:" not in out


def test_json_and_exit_status_do_not_depend_on_verbose_or_quiet(six):
    runs = [_run(six, "--format", "json", *flags) for flags in ((), ("-v",), ("--quiet",))]
    assert {code for code, _, _ in runs} == {0} and len({out for _, out, _ in runs}) == 1


SCORES = f"{SPECS}/../examples/breast-cancer/scores.csv"  # five classifiers on 569 instances


def test_abstention_curves_one_line_per_classifier_without_padding_and_every_pair_with_verbose():
    code, out, _ = _run_spec(f"{SPECS}/friedel-abstention-symbolic.yaml", "--scores", SCORES,
                             "--sweep", "mu=0:1:11", "--sweep", "nu=0:1:11")
    lines = out.splitlines()
    head = _index(lines, "  classifier ")
    assert code == 0 and head < _index(lines, "  Differential cost per scenario")
    table = lines[head:head + 7]
    assert [line.split()[0] for line in table[1:]] == ["tree", "nb", "logistic", "forest", "svm", "trivial"]
    # each column as wide as its widest cell: two spaces after the widest VACC, never a run of blanks
    vacc = table[0].index("VACC")
    widest = max(len(line[vacc:].split("  ")[0]) for line in table[1:])
    assert table[0][vacc:vacc + widest + 2] == "VACC".ljust(widest + 2) and table[0][vacc + widest + 2] != " "
    code, verbose, _ = _run_spec(f"{SPECS}/friedel-abstention-symbolic.yaml", "--scores", SCORES,
                                 "--sweep", "mu=0:1:11", "--sweep", "nu=0:1:11", "-v")
    assert code == 0 and verbose == out  # 15 pairs: every one is shown by default


def test_operating_conditions_with_five_classifiers_summary_first_pairs_with_verbose():
    argv = ["examples/operating-conditions/cost-proportion.yaml".join([f"{SPECS}/../", ""]), "--scores", SCORES,
            "--threshold-choice", "score", "--uncertainty", "0", "--uncertainty", "inf"]
    code, out, err = _run_spec(*argv)
    lines = out.splitlines()
    assert code == 0 and err == ""
    head = _index(lines, "  L at gamma =")
    assert [line.split()[0] for line in lines[head + 1:head + 6]] == ["tree", "nb", "logistic", "forest", "svm"]
    flat = " ".join(out.split())
    assert ("hold exactly for all 5 classifiers: L(inf) = Brier score; L(0) = mean absolute error (each value "
            "with -v)") in flat
    assert "10 pairs, each with its paired test, with -v or in --format json. 0: logistic; inf: logistic" in flat
    assert " vs " not in out
    code, verbose, _ = _run_spec(*argv, "-v")
    assert code == 0 and verbose.count(" vs ") == 10 and "forest: L(inf) = Brier score (275/9104): holds exactly" \
        in " ".join(verbose.split())
    assert verbose.splitlines()[:head + 6] == lines[:head + 6]  # the same table first


def _run_spec(spec, *argv):
    out, err = io.StringIO(), io.StringIO()
    code = check(["evaluate", spec, *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_certainty_of_three_classifiers_one_line_each_and_the_rest_with_verbose(tmp_path):
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 3, 200)
    np.save(tmp_path / "truth.npy", truth)
    argv = [f"{SPECS}/accuracy-u65.yaml"]
    for name, pull in (("good", 5), ("fair", 2), ("bad", 0.5)):
        p = rng.dirichlet(np.ones(3), 200)
        p[np.arange(200), truth] += pull * rng.random(200)
        np.save(tmp_path / f"{name}.npy", p / p.sum(1, keepdims=True))
        argv += ["--probabilities", str(tmp_path / f"{name}.npy")]
    argv += ["--truth", str(tmp_path / "truth.npy"), "--certainty"]
    code, out, _ = _run_spec(*argv)
    block = out[out.index("Certainty and doubt of each decision"):].splitlines()
    assert code == 0 and block[1].split() == ["classifier", "rows", "ties", "mean", "min", "certainty", "median",
                                              "max", "doubt", "right/wrong/set"]
    assert [line.split()[0] for line in block[2:5]] == ["good", "fair", "bad"] and "(quantiles)" not in out
    assert block[-1] == "  Quantiles, each outcome and each pair's test: verify evaluate -v, or --format json."
    code, verbose, _ = _run_spec(*argv, "-v")
    assert code == 0 and verbose.count("minimum certainty (quantiles)") == 3 and "good vs fair: median" in verbose


def test_decide_certainty_says_it_is_about_the_most_probable_class():
    out, err = io.StringIO(), io.StringIO()
    assert check(["decide", OBSTACLE, "--p", "h=0.1,b=0.3,n=0.6", "--certainty"], out, err) == 0
    assert ("Certainty of the most probable class n over each other class (p_n − p_i, exact; about n, not the "
            "optimal set {b}): h 1/2, b 3/10") in " ".join(out.getvalue().split())


def _console_blocks(page: str) -> list[str]:
    import html
    import re

    return [html.unescape(block) for block in re.findall(r'<pre class="console">(.*?)</pre>', page, re.S)]


def test_html_shows_console_text_in_monospace_blocks_that_keep_columns_and_words():
    """Issue 56 item 3: the abstention, operating-condition and design "why" text in HTML is the console's text,
    escaped, in <pre> blocks styled monospace, unwrapped, no word broken."""
    import re

    import verifier
    from verifier.report.check import SCOPED_CSS

    rule = re.search(r"\.verify-report\.verify-report pre\{([^}]*)\}", SCOPED_CSS).group(1)
    assert "white-space:pre;" in rule and "word-break:normal" in rule and "overflow-wrap:normal" in rule
    assert "overflow-x:auto" in rule and rule.split("font-family:")[1].endswith("monospace")
    abstention = verifier.evaluate(f"{SPECS}/friedel-abstention-symbolic.yaml", scores=SCORES,
                                   sweep_text=["mu=0:1:11", "nu=0:1:11"])
    conditions = verifier.evaluate(f"{SPECS}/../examples/operating-conditions/cost-proportion.yaml", scores=SCORES,
                                   threshold_choice="score", uncertainty=["0", "inf"])
    design = verifier.design(f"{SPECS}/design/obstacle-conflict.yaml", setting="filtering")
    for report, shown in ((abstention, abstention.text), (conditions, conditions.text), (design, design.text)):
        blocks = _console_blocks(report._repr_html_())
        assert blocks and blocks[0] == shown.rstrip()  # the same text as the console, to the character
    assert _console_blocks(conditions._repr_html_())[1] == conditions.shown(verbose=True).rstrip()  # folded, whole
    assert "  classifier  VACC             abstaining pays" in _console_blocks(abstention._repr_html_())[0]
    page = design._repr_html_()
    assert "c_{h,b}(n): 1 -&gt; 2" in page and "<pre>" not in page  # escaped, and every block is a console block


def test_a_notebook_shows_the_same_answer_first(six):
    import html

    import verifier

    report = verifier.evaluate(OBSTACLE, predictions=six)
    sentence = " ".join(report.text.split("\n  With N")[0].split("\n", 1)[1].split())  # the console's answer
    for page in (html.unescape(report._repr_html_()), report._repr_markdown_().replace("\\_", "_")):
        assert page.index(sentence) < page.index("s5") < page.index("Paired comparisons")
    assert '<td class="num"><strong>0.2750 (1)</strong></td>' in report._repr_html_()  # s0's best, in bold


def test_report_writes_the_full_text_the_page_and_the_json(six, tmp_path):
    import json

    folder = tmp_path / "out"
    code, out, err = _run(six, "--report", str(folder))
    names = sorted(p.name for p in folder.iterdir())
    stem = "obstacle-discounted"  # the spec's stem: one evaluation of the spec, whatever its inputs
    assert code == 0 and names == [f"{stem}-evaluate.{suffix}" for suffix in ("html", "json", "txt")]
    assert err.count("verify: wrote ") == 3 and out == _run(six)[1]  # stdout stays the answer
    assert (folder / f"{stem}-evaluate.txt").read_text() == _run(six, "-v")[1]
    assert json.loads((folder / f"{stem}-evaluate.json").read_text()) == json.loads(_run(six, "--format", "json")[1])
    page = (folder / f"{stem}-evaluate.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Friedman test over 6 data sets" in page
    assert _console_blocks(page)[-1] == _run(six, "-v")[1].rstrip()  # the whole text, folded, monospace
    clash = tmp_path / f"{stem}-evaluate.txt"  # the predictions where the report would go: refused, untouched
    clash.write_text(open(six).read())
    code, _, err = _run(str(clash), "--report", str(tmp_path))
    assert code == 2 and "usage error: --report" in err and clash.read_text() == open(six).read()


def test_the_latex_and_markdown_footnotes_say_the_bold_is_per_data_set(six, tmp_path):
    _, latex, _ = _run(six, "--table", "latex")
    _, markdown, _ = _run(six, "--table", "markdown")
    assert "% bold: best of the column within each data set, compared exactly" in latex
    assert "Bold: best of the column within each data set, compared exactly." in markdown
    one = tmp_path / "one.csv"
    one.write_text("true,predicted,classifier\nh,h,A\nb,h,A\nh,b,B\nb,b,B\n")
    assert "% bold: best of the column, compared exactly" in _run(str(one), "--table", "latex")[1]
