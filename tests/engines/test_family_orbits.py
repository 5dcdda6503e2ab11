"""`{max_size: k}` by symmetry (issue 41, item 1): a scheme that treats every class alike is checked on one set
per allowed size, on arrays, at any number of classes; the verdicts must be those of enumerating the family.

Random class-blind schemes (hypothesis) at K <= 8 are checked three ways: by the fast orbit route, by the exact
orbit route (`build_reduced_scheme`, cell by cell) and by enumerating every allowed set; the verdicts agree.
A scheme that singles out a class is refused the route with the reason, and beyond the bounds stays a located
error; a family beyond the bounds that is class-symmetric is checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.analysis.pipeline import analyse
from verifier.engines.enumerate import EnumerationEngine
from verifier.errors import SpecError
from verifier.properties import PROPERTIES
from verifier.scheme.orbits import build_reduced_scheme
from verifier.spec import spec_from_text

ROOT = str(Path(__file__).resolve().parents[2])
FORMULAS = [
    "genmean({p}, [c(v, y) for v in Y])",
    "(0 if y in Y else {a}) + {d} * (len(Y) - 1)",
    "mean([c(v, y) for v in Y]) * {s}",
    "min([c(v, y) for v in Y]) + {d} * (len(Y) - 1)",
    "max([c(v, y) for v in Y]) - {d}",
    "(1 - {s} / len(Y)) if y in Y else {a}",
    "{d} * len(Y) / K + (0 if y in Y else 1)",
    "1 - (-0.6 * (1 / len(Y)) ** 2 + 1.6 / len(Y)) if y in Y else 1",
]
POOL = ["0", "1/5", "1/2", "1", "3/2", "2"]


def _text(formula: str, a: str, b: str, k: int, K: int = 3) -> str:
    return (f'name: blind\nclasses: {K}\ncost: "{a} if yhat == y else {b}"\nset_cost: "{formula}"\n'
            f"predictions: {{max_size: {k}}}\n")


def _verdicts(analysis) -> dict[str, str]:
    return {r.property.id: r.verdict.value for r in analysis.results}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FORMULAS), st.sampled_from(POOL), st.sampled_from(POOL), st.sampled_from(["0", "1/2", "1", "2"]),
       st.sampled_from(["1", "3/4", "1/2"]), st.sampled_from(["0", "0", "1/2"]), st.sampled_from(["1", "2", "3/2"]),
       st.integers(3, 8), st.data())
def test_orbit_verdicts_are_enumeration_verdicts(formula, a, d, p, s, low, high, K, data):
    k = data.draw(st.integers(2, K - 1))
    spec = spec_from_text(_text(formula.format(p=p, a=a, d=d, s=s), low, high, k, K), "blind.yaml")
    names = spec.classes
    try:
        enumerated = analyse(spec, 20000)
    except SpecError:  # a formula undefined somewhere (a zero divisor) is refused on every route
        return
    by_orbits = analyse(spec, 20000, symmetry=True)
    assert by_orbits.scheme.orbits is not None and by_orbits.scheme.orbits.top == k
    assert len(by_orbits.scheme.indeterminate_sets) == k - 1
    assert _verdicts(by_orbits) == _verdicts(enumerated), spec.set_cost.source
    exact = build_reduced_scheme(spec, names)  # the exact orbit route, cell by cell
    engine = EnumerationEngine(exact)
    assert {p.id: engine.decide(p).verdict.value for p in PROPERTIES} == _verdicts(enumerated)


def _verify(path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", str(path), "--no-cache", *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=ROOT))


def test_max_size_five_of_a_thousand_classes_is_checked_by_symmetry(tmp_path):
    path = tmp_path / "top5.yaml"
    path.write_text(_text("1 - (-0.6 * (1 / len(Y)) ** 2 + 1.6 / len(Y)) if y in Y else 1", "0", "1", 5)
                    .replace("classes: 3", "classes: 1000"), encoding="utf-8")
    done = _verify(path, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    import json
    record = json.loads(done.stdout)
    assert record["symmetry"]["sets"] == 8_291_875_041_450 and record["symmetry"]["representatives"] == 4
    verdicts = {name: p["verdict"] for name, p in record["properties"].items()}
    small = tmp_path / "top5-8.yaml"
    small.write_text(path.read_text(encoding="utf-8").replace("classes: 1000", "classes: 8"), encoding="utf-8")
    enumerated = json.loads(_verify(small, "--format", "json").stdout)
    assert verdicts == {name: p["verdict"] for name, p in enumerated["properties"].items()}
    assert sorted(os.listdir(tmp_path)) == ["top5-8.yaml", "top5.yaml"]


def test_the_verbose_report_by_symmetry_lists_each_size_once_and_says_what_it_stands_for(tmp_path):
    """At K = 1,000 the report lists the first class and one set per size, each saying how many sets it stands
    for, and the matrix shows the first columns with a note, not 1,000 singleton rows of 1,000 columns."""
    path = tmp_path / "top3.yaml"
    path.write_text(_text("(1 - 1 / len(Y)) if y in Y else 1", "0", "1", 3)
                    .replace("classes: 3", "classes: 1000"), encoding="utf-8")
    done = _verify(path, "-v")
    assert done.returncode in (0, 1), done.stderr
    assert len(done.stdout.splitlines()) < 400
    out = " ".join(done.stdout.split())  # sentences wrap at the terminal's width
    assert "stands for all 1,000 single classes, by symmetry" in out
    assert "stands for all 499,500 sets of 2, by symmetry" in out
    assert "stands for all 166,167,000 sets of 3, by symmetry" in out
    assert "the first 48 of 1,000 columns" in out and "y = 49" not in out
    assert "\n  {2} " not in done.stdout  # no singleton row beyond the first class's
    assert "3, …, 1000 (998 classes): 1/1996 each" in out  # a witness over 1,000 classes, said in one line
    report = tmp_path / "report"
    done = _verify(path, "--report", str(report))
    markdown = (report / "top3.md").read_text(encoding="utf-8")
    assert "by symmetry every other row, singletons included, is one of these" in markdown
    assert "| {2} |" not in markdown and "stands for all 499,500 sets of 2" in markdown


def test_a_class_singled_out_is_refused_the_route_and_located_beyond_the_bounds(tmp_path):
    path = tmp_path / "ranked.yaml"
    path.write_text(_text("(0 if y in Y else 1 + rank(y) / K)", "0", "1", 3).replace("classes: 3", "classes: 100"),
                    encoding="utf-8")
    done = _verify(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}:5:" in done.stderr and "key 'predictions'" in done.stderr
    assert "the symmetry route does not apply" in done.stderr and "rank" in done.stderr, done.stderr


def test_a_distribution_over_many_classes_says_each_run_of_one_value_once():
    """Runs of at least 4 neighbouring classes with one value are said once with their count; shorter runs, runs
    broken by a zero or by another value, and the zeros themselves are not merged."""
    from fractions import Fraction as F
    from types import SimpleNamespace

    from verifier.report.check.words import distribution

    scheme = SimpleNamespace(K=20, classes=tuple(f"c{i}" for i in range(1, 21)))
    values = [F(1, 4)] * 3 + [0] + [F(1, 8)] * 4 + [F(1, 16)] * 2 + [0] * 10
    assert distribution(scheme, values) == \
        "(c1: 1/4, c2: 1/4, c3: 1/4, c5, …, c8 (4 classes): 1/8 each, c9: 1/16, c10: 1/16; 0 elsewhere)"
    everywhere = [F(1, 20)] * 20
    assert distribution(scheme, everywhere) == "(c1, …, c20 (20 classes): 1/20 each)"
    small = SimpleNamespace(K=3, classes=("a", "b", "c"))
    assert distribution(small, [F(1, 3)] * 3) == "(a: 1/3, b: 1/3, c: 1/3)"
