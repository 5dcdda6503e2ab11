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

from hypothesis import HealthCheck, given, settings, strategies as st

from verifier.analysis.pipeline import analyse
from verifier.engines.enumerate import EnumerationEngine
from verifier.errors import SpecError
from verifier.properties import PROPERTIES
from verifier.scheme.orbits import build_reduced_scheme
from verifier.spec import spec_from_text

ROOT = str(Path(__file__).resolve().parents[1])
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


def test_a_class_singled_out_is_refused_the_route_and_located_beyond_the_bounds(tmp_path):
    path = tmp_path / "ranked.yaml"
    path.write_text(_text("(0 if y in Y else 1 + rank(y) / K)", "0", "1", 3).replace("classes: 3", "classes: 100"),
                    encoding="utf-8")
    done = _verify(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}:5:" in done.stderr and "key 'predictions'" in done.stderr
    assert "the symmetry route does not apply" in done.stderr and "rank" in done.stderr, done.stderr
