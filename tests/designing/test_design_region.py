"""The feasible region of a design on pairs of open cells: exact pieces that agree with the solver point by point,
with the per-cell ranges on each axis, and the `--plot` / `--region` contract."""

import json
import os
from fractions import Fraction

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier
from verifier.engines.plane import HalfPlane, pieces, plane_condition

from conftest import SPECS

HB_OPEN = os.path.join(SPECS, "design", "obstacle-hb-open.yaml")
OPEN = os.path.join(SPECS, "design", "obstacle-open.yaml")


@pytest.fixture(scope="module")
def hb():
    return verifier.design(HB_OPEN, setting="filtering")


def test_three_open_cells_give_three_planes_with_the_papers_bounds(hb):
    c = hb.completion
    assert [(r.x.label, r.y.label) for r in c.regions] == [
        ("c_{h,b}(h)", "c_{h,b}(b)"), ("c_{h,b}(h)", "c_{h,b}(n)"), ("c_{h,b}(b)", "c_{h,b}(n)")]
    # P5 ties the two member cells: a segment from (0, 0), included, to (1/2, 1/2), excluded by P3.
    (segment,) = c.regions[0].pieces
    assert set(segment.vertices) == {(0, 0), (Fraction(1, 2), Fraction(1, 2))}
    assert segment.open_vertices() == [(Fraction(1, 2), Fraction(1, 2))]
    assert segment.bounded
    # P3 bounds c_{h,b}(h) below 1/2 (a dashed edge), P4/P6 put c_{h,b}(n) at 2 or more, unbounded above.
    (strip,) = c.regions[1].pieces
    assert [h.text("x", "y") for h in strip.supporting()] == ["x ≥ 0", "y ≥ 2", "x < 1/2"]
    assert not strip.bounded and "open" in strip.edges()[-1]
    assert "Region of (c_{h,b}(h), c_{h,b}(b)), the other cells free: one convex piece:" in hb.text
    assert "corners (1/2, 1/2) excluded, (0, 0); bounded" in hb.text


def test_region_json_carries_exact_bounds_and_vertices(hb):
    regions = hb.record["regions"]
    assert regions[1]["cells"] == ["c_{h,b}(h)", "c_{h,b}(n)"]
    piece = regions[1]["pieces"][0]
    assert {"a": "1", "b": "0", "c": "-1/2", "relation": "<", "text": "c_{h,b}(h) < 1/2"} in piece["bounds"]
    assert ["0", "2"] in piece["vertices"] and ["1/2", "2"] in piece["excluded_vertices"]
    assert piece["bounded"] is False


def _member(region, p) -> bool:
    def inside(piece):
        return all((h.value(p) == 0) if h.equal else (h.value(p) < 0 if h.strict else h.value(p) <= 0)
                   for h in piece.constraints)
    return any(inside(piece) for piece in region.pieces)


def _feasible_with(c, pinned: dict) -> bool:
    problem = c.problem
    solver = z3.Solver(ctx=problem.ctx)
    solver.add(*[problem.condition(d) for d in c.kept], *[problem.pinned(x) for x in problem.fixed_cells])
    solver.add(problem.margin > 0, *problem.t.side)
    for cell, value in pinned.items():
        solver.add(problem.var(cell) == problem.value(value))
    return solver.check() == z3.sat


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2), st.fractions(-1, 3, max_denominator=8), st.fractions(-1, 4, max_denominator=8))
def test_every_point_is_in_the_region_iff_the_solver_completes_it(hb, which, x, y):
    region = hb.completion.regions[which]
    assert _member(region, (x, y)) == _feasible_with(hb.completion, {region.x: x, region.y: y})


def test_the_region_projects_onto_each_cells_range(hb):
    ranges = {r.cell.label: r for r in hb.completion.ranges}
    for region in hb.completion.regions:
        (x0, _), (x1, _) = region.frame
        xs = sorted({p[0] for piece in region.pieces for p in piece.vertices})
        (interval,) = ranges[region.x.label].intervals
        assert xs[0] == interval.low
        assert xs[-1] == (x1 if interval.high is None else interval.high)
        # an included end has an included vertex there, an excluded end only excluded ones
        for end, closed in ((interval.low, interval.low_closed), (interval.high, interval.high_closed)):
            if end is not None:
                at = [(p, p in piece.open_vertices()) for piece in region.pieces for p in piece.vertices if p[0] == end]
                assert any(not excluded for _, excluded in at) == closed


def test_plane_condition_splits_a_disjunction_into_exact_pieces():
    ctx = z3.Context()
    x, y, z = z3.Reals("x y z", ctx)
    # ∃z: (0 <= z <= 1 and x = z and y >= z) or (x > 2 and x < 3 and y == 0)
    body = [z3.Or(z3.And(z >= 0, z <= 1, x == z, y >= z), z3.And(x > 2, x < 3, y == 0))]
    conj = plane_condition(body, x, y, [z], 5000)
    frame = ((Fraction(-1), Fraction(-1)), (Fraction(4), Fraction(4)))
    found = pieces(conj, frame)
    assert len(found) == 2
    triangle = next(p for p in found if len(p.vertices) > 2)
    assert not triangle.bounded and (0, 0) in triangle.vertices and (1, 1) in triangle.vertices
    segment = next(p for p in found if len(p.vertices) == 2)
    assert set(segment.vertices) == {(2, 0), (3, 0)} and set(segment.open_vertices()) == {(2, 0), (3, 0)}
    assert HalfPlane(Fraction(-2), Fraction(1), Fraction(3), strict=True).text("x", "y") == "2·x - y > 3"


def test_plot_writes_svg_and_png(tmp_path, cli):
    svg, png = tmp_path / "r.svg", tmp_path / "r.png"
    code, _, err = cli("design", HB_OPEN, "--plot", str(svg))
    assert code == 0 and svg.read_text().lstrip().startswith(("<?xml", "<svg")) and "wrote" in err
    code, _, _ = cli("design", HB_OPEN, "--plot", str(png), "--format", "json")
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_region_names_chosen_cells_among_many(tmp_path, cli):
    code, out, _ = cli("design", OPEN, "--region", "h,b:h", "--region", "h,b,n:h", "--format", "json",
                       "--no-ranges")
    assert code == 0
    (region,) = json.loads(out)["regions"]
    assert region["cells"] == ["c_{h,b}(h)", "c_{h,b,n}(h)"]


@pytest.mark.parametrize("argv, words", [
    (["--plot", "r.eps"], "must end in .svg, .pdf or .png"),
    (["--region", "h,x:n", "--region", "h,b:h"], "expected an open cell written SET:CLASS"),
    (["--region", "h,b:n"], "name two or three distinct open cells"),
    (["--plot", "r.svg"], "no region to draw"),
])
def test_bad_region_requests_are_usage_errors(tmp_path, argv, words, cli):
    argv = [str(tmp_path / a) if a.startswith("r.") else a for a in argv]
    code, _, err = cli("design", OPEN, *argv)
    assert code == 2 and words in err, err
    assert not any(tmp_path.iterdir())


def test_plot_refuses_a_directory(tmp_path, cli):
    target = tmp_path / "d.svg"
    target.mkdir()
    code, _, err = cli("design", HB_OPEN, "--plot", str(target))
    assert code == 2 and "not a regular file" in err


# -- the region picture fits a page (issue 42, found by a newcomer) --------------------------------------------
def test_the_design_region_picture_fits_a_page_and_starts_at_zero(monkeypatch):
    import verifier
    from verifier.report.figures import region_plot

    drawn = []
    monkeypatch.setattr(region_plot, "figure_bytes", lambda fig, fmt, title: drawn.append(fig) or b"<svg/>")
    designed = verifier.design(os.path.join(SPECS, "design", "obstacle-hb-open.yaml"), setting="filtering")
    assert designed.picture("svg")
    (fig,) = drawn
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 3 and fig.get_size_inches()[0] <= 7.5  # three panels, not 16 inches
    assert all(ax.get_xlim()[0] >= 0 and ax.get_ylim()[0] >= 0 for ax in panels)
    title = fig._suptitle.get_text() if fig._suptitle is not None else ""  # no spec name drawn (issue 42, item 9)
    assert all(len(line) <= 100 for line in title.splitlines()) and "obstacle" not in title.lower()
