"""Every count in every text output carries thousands separators (issue 56, item 4): "fails at 2,207 places",
"and 2,201 more", "4,050 instances", "n 1,200". The outputs are scanned for integers of four digits or more that
are not part of an exact fraction, a decimal, a name, an exponent or a year, and that are not a statistic or a
quantile printed as a float; any such integer is a count printed without its separators."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from conftest import REPORTS, ROOT, SPECS, run_verify

OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"
BARE = re.compile(r"(?<![\w./,:=^+−\-])(\d{4,})(?![\w./,^])")
NOT_COUNTS = re.compile(r"quantiles|W = \d|seed|random_state")  # floats shown as %g, seeds


def bare_counts(text: str) -> list[str]:
    """The integers of four digits or more in `text` printed without separators (years and floats excepted)."""
    found = []
    for line in text.splitlines():
        if NOT_COUNTS.search(line):
            continue
        found += [f"{m.group(1)} in {line.strip()[:120]!r}" for m in BARE.finditer(line)
                  if not _year(line[:m.start()], m.group(1))]
    return found


def _year(before: str, digits: str) -> bool:
    """A year of a citation: 19xx or 20xx after a name ("Demšar 2006", "Friedel et al. 2006") or "(", "; "."""
    return bool(re.fullmatch(r"(19|20)\d\d", digits)) and bool(re.search(r"([A-Z][^\s]*|al\.|;),? $|\($", before))


def test_the_scanner_tells_counts_from_fractions_decimals_names_and_years():
    assert bare_counts("fails at 323400 places; and 1972 more") == [
        "323400 in 'fails at 323400 places; and 1972 more'", "1972 in 'fails at 323400 places; and 1972 more'"]
    assert bare_counts("fails at 323,400 places: 16/1875 ≈ 0.0085, 1e-1234, c1234, Demšar 2006, x_1000") == []


@pytest.mark.parametrize("suffix", ["txt", "verbose.txt", "md"])
def test_the_committed_reports_of_verify_print_counts_with_separators(suffix):
    """What `verify SPEC`, `verify -v SPEC` and the Markdown report say (the snapshots are current: another
    test compares them with the code's output)."""
    found = [f"{path.name}: {hit}" for path in sorted(Path(REPORTS).glob(f"*.{suffix}"))
             if suffix != "txt" or not path.name.endswith(".verbose.txt")
             for hit in bare_counts(path.read_text(encoding="utf-8"))]
    assert not found, found[:10]


def _run(*argv):
    code, out, err = run_verify(*argv)
    assert code == 0, err
    return out + err


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """1,200 instances in each of two data sets, three classifiers; 1,500 distributions and their truth."""
    folder = tmp_path_factory.mktemp("big")
    rng = np.random.default_rng(5)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(2):
        truth = rng.integers(0, 3, 1200)
        for who, right in (("A", 0.8), ("B", 0.7), ("C", 0.6)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'h|b|n'},{who},d{d}" for t in truth]
    (folder / "sets.csv").write_text("\n".join(rows) + "\n")
    np.savetxt(folder / "p.csv", rng.dirichlet(np.ones(3), 1500), delimiter=",", header="h,b,n", comments="",
               fmt="%.6f")
    np.save(folder / "truth.npy", rng.integers(0, 3, 1500))
    return folder


def test_evaluate_decide_abstention_and_certainty_print_counts_with_separators(big):
    outputs = {
        "evaluate": _run("evaluate", OBSTACLE, str(big / "sets.csv")),
        "evaluate -v": _run("evaluate", OBSTACLE, str(big / "sets.csv"), "-v"),
        "evaluate --table": _run("evaluate", OBSTACLE, str(big / "sets.csv"), "--table", "markdown"),
        "evaluate --certainty": _run("evaluate", OBSTACLE, "--probabilities", str(big / "p.csv"), "--truth",
                                     str(big / "truth.npy"), "--certainty", "-v"),
        "decide --p-file": _run("decide", OBSTACLE, "--p-file", str(big / "p.csv"), "--certainty").split(
            "\n", 1501)[-1],  # the 1,500 CSV rows are data; their summary (standard error) is text
        "abstention": _run("evaluate", f"{SPECS}/friedel-abstention-symbolic.yaml", "--scores",
                           str(Path(ROOT) / "examples/breast-cancer/scores.csv"), "--sweep", "mu=0:1:41", "--sweep",
                           "nu=0:1:41", "-v"),
    }
    assert "(1,200 instances)" in outputs["evaluate -v"] and \
        "1,600 cost scenarios" in " ".join(outputs["abstention"].split())
    found = [f"{name}: {hit}" for name, text in outputs.items() for hit in bare_counts(text)]
    assert not found, found[:10]
