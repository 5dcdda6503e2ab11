"""Lean memory on the fast path (issue 41, item 3): the arrays made a chunk of sets at a time, the matrix's
numerators int64 where they fit, and the report streamed, with exactly the answers of the whole-array path.

Attacks: every chunked computation is forced down to chunks of a few cells (sets split mid-size, a
denominator per chunk) and must give the same JSON record, verdicts, evidence and instance counts as
the default chunks; numerators too large for int64 must stay exact Python integers. The memory figures
themselves are pinned in benchmarks/bench_family_bounds.py, not here (no timed or sized test).
"""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction as F

import numpy as np
import pytest

import verifier.engines.vector.decide as vector_decide
import verifier.engines.vector.pairs as vector_pairs
import verifier.engines.vector.possibility as vector_possibility
import verifier.engines.vector.terms as vector_terms
import verifier.engines.vector.uniform as vector_uniform
import verifier.scheme.cells as scheme_cells
from verifier.cli import check
from verifier.scheme.cells import build_cells
from verifier.spec import spec_from_text

from conftest import SPECS


def _tiny_chunks(monkeypatch, cells: int = 5) -> None:
    for module in (vector_decide, vector_pairs, vector_possibility, vector_terms, vector_uniform):
        monkeypatch.setattr(module, "CHUNK_CELLS", cells)
    monkeypatch.setattr(scheme_cells, "ASSEMBLE_CELLS", cells)  # (CHUNK_ELEMENTS, older, changes enclosures)


def _record(path: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    code = check([path, "--format", "json", "--no-cache"], out, err)
    assert code in (0, 1), err.getvalue()
    record = json.loads(out.getvalue())
    record.pop("seconds")
    return record


FORMULAS = ["genmean(1/2, [c(yh, y) for yh in Y])", "min([c(yh, y) for yh in Y]) + 1/7 * (len(Y) - 1)",
            "max([c(yh, y) for yh in Y]) if y in Y else mean([c(yh, y) for yh in Y])",
            "sqrt(sum([c(yh, y) for yh in Y]))", "(0 if y in Y else 1 + rank(y) / K) + 1/1000 * (len(Y) - 1)",
            "1 - (-0.6 / len(Y) ** 2 + 1.6 / len(Y)) if y in Y else 1"]
FAMILIES = ["intervals", "{max_size: 3}", "{hierarchy: [[c0, c1], [c2, [c3, c4]], c5]}", "all"]


def _spec(rng: random.Random, formula: str, family: str) -> str:
    K = 6
    rows = [[0 if h == y else rng.choice([1, 2, 3, F(1, 3), F(5, 2)]) for y in range(K)] for h in range(K)]
    matrix = "\n".join(f"  c{h}: [{', '.join(str(v) for v in row)}]" for h, row in enumerate(rows))
    return (f"name: chunks\nclasses: [{', '.join(f'c{i}' for i in range(K))}]\ncost_matrix:\n{matrix}\n"
            f'set_cost: "{formula}"\npredictions: {family}\n')


@pytest.mark.parametrize("formula", FORMULAS)
def test_chunks_of_a_few_cells_give_the_whole_arrays_answers(formula, tmp_path, monkeypatch):
    rng = random.Random(formula)
    for family in FAMILIES:
        path = tmp_path / "spec.yaml"
        path.write_text(_spec(rng, formula, family))
        whole = _record(str(path))
        for limit in (vector_decide.PAIRS_GRID_LIMIT, -1):  # the pairs route too, by chunks
            with monkeypatch.context() as patch:
                patch.setattr(vector_decide, "PAIRS_GRID_LIMIT", limit)
                _tiny_chunks(patch)
                assert _record(str(path)) == whole, (formula, family, limit)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]  # nothing else written


@pytest.mark.parametrize("name", ["accuracy-u65-pairs.yaml", "hierarchy-animals.yaml", "ordinal-intervals-10.yaml",
                                  "obstacle-p-discounted-cautious.yaml"])
def test_bundled_specs_are_unchanged_by_tiny_chunks(name, monkeypatch):
    whole = _record(f"{SPECS}/{name}")
    _tiny_chunks(monkeypatch)
    assert _record(f"{SPECS}/{name}") == whole


def test_matrix_numerators_are_int64_when_they_fit_and_exact_integers_beyond():
    small = spec_from_text('name: small\nclasses: 40\ncost: "0 if y == yhat else 1 + rank(y) / K"\n'
                           'set_cost: "(0 if y in Y else 1 + rank(y) / K) + 1/1000 * (len(Y) - 1)"\n'
                           "predictions: {max_size: 2}\n")
    rows = build_cells(small).rows
    assert rows.num.dtype == np.int64 and rows.exact.all()
    assert rows.fraction((40, 0)) == F(1, 1000)  # the set {1, 2} at class 1: a member, one class more
    assert rows.fraction((40, 2)) == 1 + F(2, 40) + F(1, 1000)  # at class 3 (rank 2): not a member
    huge = spec_from_text('name: huge\nclasses: 5\ncost: "0 if y == yhat else 10 ** 30 + rank(y)"\n'
                          'set_cost: "mean([c(yh, y) for yh in Y]) / 7"\npredictions: {max_size: 2}\n')
    rows = build_cells(huge).rows
    assert rows.num.dtype == object and rows.exact.all()
    assert rows.fraction((5, 4)) == F(10**30 + 4, 7)  # {1, 2} at class 5 (rank 4): the mean of two equal costs


def _pairs(K: int) -> str:
    return (f'name: pairs {K}\nclasses: {K}\ncost: "0 if y == yhat else 1 + rank(y) / K"\n'
            'set_cost: "(0 if y in Y else 1 + rank(y) / K) + 1/1000 * (len(Y) - 1)"\npredictions: {max_size: 2}\n')


def test_derived_arrays_live_one_property_at_a_time_and_change_no_answer(tmp_path, monkeypatch):
    """Each derived array (a mean, min or max, the pairs' ids: each as large as the matrix) is freed once the next
    property does not read it, and none is alive during the re-check; the record is the one made when every
    array is kept (the attack: releasing too early or too late shows as a changed answer or a kept array)."""
    from verifier.analysis import pipeline
    from verifier.engines.vector import VectorEngine, terms

    monkeypatch.setattr(terms, "KEEP_CELLS", 0)  # a matrix too large to keep every array (31,200 cells here)
    path = tmp_path / "pairs.yaml"
    path.write_text(_pairs(40))
    engines, alive, at_recheck = [], [], []
    init, release, check_results = VectorEngine.__init__, VectorEngine.release, pipeline.check_results

    def kept(engine) -> set:
        return {k[0] if isinstance(k, tuple) else k for k in engine.terms._cache} - {"det_ids"}

    def spy_init(engine, scheme):
        init(engine, scheme)
        engines.append(engine)

    def spy_release(engine, coming):
        release(engine, coming)
        alive.append(kept(engine))

    def spy_check(scheme, results, checker=None):
        at_recheck.append(kept(engines[0]))
        return check_results(scheme, results, checker)

    monkeypatch.setattr(VectorEngine, "__init__", spy_init)
    monkeypatch.setattr(VectorEngine, "release", spy_release)
    monkeypatch.setattr(pipeline, "check_results", spy_check)
    lean = _record(str(path))
    assert len(alive) == 10 and at_recheck == [set()]
    assert all(len(names & {"mean", "min", "max", "sum"}) <= 1 for names in alive), alive
    assert "mean" in alive[1] and "min" not in alive[3] and "max" not in alive[8], alive  # P2 keeps it for P3
    assert alive[-1] == set()  # after P10: nothing left
    monkeypatch.setattr(VectorEngine, "release", lambda engine, coming: None)  # every array kept
    assert _record(str(path)) == lean
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.yaml"]


def test_large_matrix_decimals_are_shared_and_keep_the_sign_of_zero(tmp_path):
    """Thousands of rows: each distinct decimal is one float object (8 bytes a cell, not 32), and sharing never
    turns -0.0 into 0.0 (equal as keys, printed apart)."""
    from verifier.analysis.pipeline import analyse_file
    from verifier.report.check.json_matrix import MATRIX_SYMBOLIC_SETS, shared
    from verifier.report.check.json_record import to_json

    numbers: dict = {}
    assert shared(numbers, 1.25) is shared(numbers, float("1.25"))
    assert str(shared(numbers, -0.0)) == "-0.0" and str(shared(numbers, 0.0)) == "0.0"
    assert shared(numbers, None) is None
    path = tmp_path / "pairs.yaml"
    path.write_text(_pairs(50))
    record = to_json(analyse_file(str(path)))
    assert len(record["matrix"]) == 50 + 50 * 49 // 2 > MATRIX_SYMBOLIC_SETS  # the large matrix's route
    decimals = [v for row in record["matrix"] for v in row["decimal"] if v]
    assert len({id(v) for v in decimals}) == len(set(decimals)) < len(decimals) // 100
    assert record["matrix"][60]["decimal"] == [float(F(c)) for c in record["matrix"][60]["costs"]]  # correctly rounded


def test_singletons_made_exact_in_place_not_in_a_copy_of_the_matrix(monkeypatch):
    """Singleton rows that lose exactness in floats (sqrt(2) ** 2; a power mean of one value no longer does)
    are made rational again by the exact interpreter in the matrix's own arrays (a copy would double the peak
    of a large family), and the cells are then the exact values."""
    import verifier.scheme.lazy as lazy

    built = []

    def build(spec):
        cells = scheme_cells.build_cells(spec)
        built.append((cells.rows.lo, cells.rows.hi, cells.rows.exact, bool(cells.rows.exact[:30].all())))
        return cells

    monkeypatch.setattr(lazy, "build_cells", build)
    spec = spec_from_text('name: power mean\nclasses: 30\ncost: "0 if y == yhat else 1 + rank(y) / K"\n'
                          'set_cost: "genmean(1/2, [c(yh, y) for yh in Y]) * sqrt(2) ** 2 / 2"\n'
                          'predictions: {max_size: 2}\n')
    rows = lazy.build_fast_scheme(spec).cells.rows
    lo, hi, exact, exact_when_built = built[0]
    assert not exact_when_built  # the floats lost it: the attack reaches the repair
    assert rows.lo is lo and rows.hi is hi and rows.exact is exact  # repaired where they are
    assert rows.exact[:30].all()
    assert rows.fraction((0, 1)) == 1 + F(1, 30) and rows.fraction((2, 2)) == 0
    assert all(rows.lo[h, y] <= rows.fraction((h, y)) <= rows.hi[h, y] for h in range(30) for y in range(30))


def test_a_small_matrix_makes_each_derived_array_once_for_the_decisions_and_the_repairs(tmp_path, monkeypatch):
    """Below `KEEP_CELLS` every derived array stays once made: the mean that P6, P7 and P6's repair read is made
    once (it was made three times), and the record is the one made when each is freed after its last reader."""
    from verifier.engines.vector import terms

    path = tmp_path / "mean.yaml"  # P6 fails: its repair reads the members' mean again
    path.write_text('name: mean\nclasses: 30\ncost: "abs(rank(y) - rank(yhat))"\n'
                    'set_cost: "genmean(1/2, [c(yh, y) for yh in Y])"\npredictions: intervals\n')
    made = []
    mean = terms.TermArrays._mean
    monkeypatch.setattr(terms.TermArrays, "_mean", lambda self: made.append(1) or mean(self))
    kept = _record(str(path))
    assert kept["properties"]["P6"]["verdict"] == "fails" and len(made) == 1
    monkeypatch.setattr(terms, "KEEP_CELLS", 0)
    assert _record(str(path)) == kept and len(made) > 2
