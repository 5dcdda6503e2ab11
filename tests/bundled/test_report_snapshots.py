"""Snapshots of the console report: reports/<stem>.txt is what `verify specs/<stem>.yaml` prints (the compact
report), reports/<stem>.verbose.txt what `verify -v specs/<stem>.yaml` prints (the full one).

Run with UPDATE_SNAPSHOTS=1 to rewrite them after an intended change (and review the diff).
"""

import io
import os
import re

import pytest

from verifier.cli import check

from conftest import REPORTS, ROOT, SPECS, bundled, bundled_report

STEMS = sorted(name[:-5] for name in os.listdir(SPECS) if name.endswith(".yaml"))


def _report(stem: str, *flags: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)  # the report names the spec by the path it was given
    try:
        code = check([f"specs/{stem}.yaml", "--width", "120", "--color", "never", *flags], out, err)
    finally:
        os.chdir(cwd)
    assert code == 0, err.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("stem", ["ha-numeric", "friedel-abstention-symbolic", "ordinal-intervals-10"])
def test_the_shared_report_is_what_a_fresh_verify_prints(stem):
    """conftest.bundled_report (one verification per session, shared) agrees with a fresh `verify` run, compact
    and full, at two widths; and it is shared: the same report object every time."""
    for verbose in (False, True):
        assert bundled_report(stem, verbose=verbose) == _report(stem, *(["-v"] if verbose else []))
    assert bundled_report(stem, width=80) == _report(stem, "--width", "80")  # the later --width wins
    assert bundled(stem) is bundled(stem)


@pytest.mark.parametrize("kind", ["txt", "verbose.txt"])
@pytest.mark.parametrize("stem", STEMS)
def test_report_matches_snapshot(stem, kind):
    text = bundled_report(stem, verbose=kind == "verbose.txt")
    path = os.path.join(REPORTS, f"{stem}.{kind}")
    if os.environ.get("UPDATE_SNAPSHOTS"):
        os.makedirs(REPORTS, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    assert os.path.exists(path), f"no snapshot for {stem}; run with UPDATE_SNAPSHOTS=1"
    with open(path, encoding="utf-8") as handle:
        expected = handle.read()
    if text != expected:  # name the first differing line (pytest's full diff of 500 KB texts takes minutes)
        new, old = text.splitlines(), expected.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(new, old)) if a != b), min(len(new), len(old)))
        pytest.fail(f"reports/{stem}.{kind} is out of date (UPDATE_SNAPSHOTS=1 to refresh); first difference at "
                    f"line {line + 1}:\n  now:      {new[line] if line < len(new) else '<end>'!r}\n"
                    f"  snapshot: {old[line] if line < len(old) else '<end>'!r}")


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("stem", STEMS)
def test_the_verdicts_are_on_the_first_screen(stem, width):
    """The compact report: every verdict within the first 30 lines, about 40 lines in all for 3 classes."""
    lines = bundled_report(stem, width=width).splitlines()
    rows = [i for i, line in enumerate(lines) if re.match(r"P(10|[1-9]) ", line)]
    assert len(rows) == 10 and rows[-1] < 30
    assert len(lines) <= 45 and all(len(line) <= width for line in lines)
    assert any(line.startswith("Fit to the paper's Table VIII") for line in lines)


def test_report_sections_are_present():
    text = bundled_report("ha-numeric", verbose=True)
    for heading in ("Extended cost matrix", "Possible (Definition 4)", "Optimal:", "Properties (Yang",
                    "Fit to the paper's Table VIII", "Expectations (expect:)"):
        assert heading in text
    assert re.search(r"P3 +reward rightful +fails +says: a set containing the truth", text)
    assert "To fit the filtering setting:" in text and "lower it by more than 2/15" in " ".join(text.split())
    assert "c{a,b,c}(a) = 4/5 (0.8)" in text and "mean{a,b,c}(a) = 2/3" in text  # a set index as the set
