"""Completing open cells beyond 5 classes: the fast path (HiGHS, every optimum confirmed exactly) on the 7-class
ordinal problem with every set row open, its agreement with the exact z3 path on small problems (exactly equal
Fractions), and infeasible problems still explained by the exact conflict machinery."""

import os
import time
from fractions import Fraction

import pytest

import verifier
from verifier.designing import make_request
from verifier.designing.complete import complete
from verifier.designing.exact_lp import Block, solve_blocks
from verifier.spec.reader import spec_from_text

from conftest import SPECS

DESIGN = os.path.join(SPECS, "design")
ORDINAL_7 = os.path.join(DESIGN, "ordinal-7-open.yaml")


def _complete(name, setting, objective="closest", method="auto"):
    path = os.path.join(DESIGN, name)
    spec = spec_from_text(open(path).read(), path, open_cells=True)
    return complete(spec, make_request(setting), objective, ranges=False, method=method)


@pytest.fixture(scope="module")
def ordinal_7():
    start = time.monotonic()
    report = verifier.design(ORDINAL_7, setting="choice")
    return report, time.monotonic() - start


def test_seven_classes_all_open_complete_for_the_choice_setting(ordinal_7):
    report, seconds = ordinal_7
    assert report.status == "designed"
    c = report.completion
    assert c.route == "fast"
    assert len(c.problem.open_cells) == 840
    del seconds  # the speed target lives in benchmarks/bench_beyond.py, not in a timed test
    assert c.check.settings["choice"].fits
    s = c.solution
    assert s.margin == Fraction(3, 50) and s.largest_margin.value == Fraction(1, 2) and s.largest_margin.attained
    assert s.objective_value == Fraction(1323, 50)
    assert s.objective_bound.value == 0 and not s.objective_bound.attained


def test_the_designed_seven_class_spec_re_verifies_and_fits_choice(ordinal_7):
    report, _ = ordinal_7
    again = verifier.verify(report.spec_text, cache=False)
    assert again.fits["choice"]
    for pid in ("P1", "P2", "P3", "P4", "P5", "P9", "P10"):
        assert again.verdicts[pid] == "holds"
    assert again.verdicts["P8"] == "fails"
    assert all(isinstance(Fraction(v), Fraction) for v in report.completion.solution.values.values())


@pytest.mark.parametrize("name,setting,objective", [
    ("obstacle-open.yaml", "choice", "closest"),
    ("obstacle-open.yaml", "choice", "bold"),
    ("obstacle-hb-open.yaml", "filtering", "closest"),
    ("obstacle-hb-open.yaml", "filtering", "cautious"),
])
def test_fast_path_gives_the_exact_paths_optimum_on_small_problems(name, setting, objective):
    fast = _complete(name, setting, objective, method="fast")
    exact = _complete(name, setting, objective, method="exact")
    assert fast.route == "fast", fast.route_note
    assert exact.route == "exact"
    a, b = fast.solution, exact.solution
    assert type(a.objective_value) is Fraction and a.objective_value == b.objective_value
    assert (a.margin, a.largest_margin, a.objective_bound) == (b.margin, b.largest_margin, b.objective_bound)
    assert fast.check.settings[setting].fits == exact.check.settings[setting].fits


@pytest.mark.parametrize("name", ["obstacle-open.yaml", "obstacle-hb-open.yaml", "obstacle-conflict.yaml"])
@pytest.mark.parametrize("setting", ["filtering", "choice"])
def test_whichever_route_answers_the_optimum_and_feasibility_agree(name, setting):
    fast = _complete(name, setting, method="fast")
    exact = _complete(name, setting, method="exact")
    assert fast.feasible == exact.feasible
    if fast.feasible:
        assert fast.solution.objective_value == exact.solution.objective_value
    else:
        assert fast.route == "exact" and "exact path" in fast.route_note


def test_an_infeasible_problem_is_explained_by_an_exact_conflict_even_when_the_fast_path_is_asked():
    c = _complete("obstacle-conflict.yaml", "filtering", method="fast")
    assert not c.feasible and c.route == "exact"
    parts = c.diagnosis.conflicts[0]
    assert any(p.cell is not None and p.cell.label == "c_{h,b}(n)" for p in parts)
    assert any(p.demand is not None and p.demand.pid == "P4" for p in parts)


def test_exact_lp_confirms_by_dual_certificate_and_never_trusts_an_infeasible_float_answer():
    # min x + y subject to x + y >= 1/3, x - y <= 1/7, y <= 1 (rational optimum 1/3, a face of optima)
    third = Fraction(1, 3)
    rows = [({0: Fraction(-1), 1: Fraction(-1)}, -third, False),
            ({0: Fraction(1), 1: Fraction(-1)}, Fraction(1, 7), False),
            ({1: Fraction(1)}, Fraction(1), False)]
    bad = [({0: Fraction(1)}, Fraction(0), False), ({0: Fraction(-1)}, Fraction(-1, 10**12), False)]
    good, impossible = solve_blocks([Block(["x", "y"], rows, {0: Fraction(1), 1: Fraction(1)}),
                                     Block(["z"], bad, {0: Fraction(1)})], 5000)
    assert good.status == "optimal" and good.objective == third and sum(good.values.values()) == third
    assert impossible.status == "infeasible" and impossible.confirmed_by == "z3"


def test_completion_stops_at_seven_classes_with_a_located_error():
    from verifier.errors import SpecError

    eight = "name: eight\nclasses: 8\ncost: \"0 if yhat == y else 1\"\n"
    with pytest.raises(SpecError, match="at most 7 classes"):
        complete(spec_from_text(eight, "<eight>", open_cells=True), make_request("choice"), ranges=False)
