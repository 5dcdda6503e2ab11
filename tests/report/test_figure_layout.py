"""Figures a paper prints as they are (issue 56): each figure's size, axis labels, colour-bar labels, legend
entries and colours, read from the matplotlib Figure (or the SVG's text), never from pixels. The abstention maps
(labelled colour bars, Lemma 1's line in a legend, the classifier named once, column / 2 x 2 / row layouts, one
colour scale for the classifiers compared), the K(θ) curves and the losses against γ, the doubt ECDF, the design
δ plot's ticks, and one Okabe-Ito palette in every figure module."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.text import Text

import verifier
from verifier.cli import check
from verifier.errors import UsageError
from verifier.report.figures import abstention_plot, conditions_plot
from verifier.report.figures.abstention_maps import LEMMA_LABEL, PANELS
from verifier.report.figures.palette import MISSING, OKABE_ITO, ONE_COLUMN_WIDTH, TWO_COLUMN_WIDTH
from verifier.report.figures.picture import plt

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
SCORES = ROOT / "examples" / "breast-cancer" / "scores.csv"
BAR_LABELS = {label for _, label in PANELS}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def two_scores(tmp_path_factory) -> str:
    """Two classifiers' scores (logistic, svm) and the truth, from the bundled example."""
    path = tmp_path_factory.mktemp("scores") / "two.csv"
    with open(SCORES, newline="") as f, open(path, "w", newline="") as out:
        rows = list(csv.reader(f))
        columns = [rows[0].index(name) for name in ("logistic", "svm", "true")]
        csv.writer(out).writerows([[row[k] for k in columns] for row in rows])
    return str(path)


@pytest.fixture(scope="module")
def abstention(two_scores):
    return verifier.evaluate(str(SPECS / "friedel-abstention-symbolic.yaml"), scores=two_scores,
                             sweep_text=["mu=0:1:11", "nu=0:1:11"]).abstention


@pytest.fixture(scope="module")
def conditions(two_scores):
    return verifier.evaluate(str(ROOT / "examples" / "operating-conditions" / "cost-proportion.yaml"),
                             scores=two_scores, threshold_choice="score", uncertainty=[0, 4, "inf"]).conditions


def _maps(curves, name: str, **options):
    picture = next(p for p in abstention_plot.pictures(curves, **options) if p.name == f"abstention-{name}")
    return picture, picture.draw()


def _panels_and_bars(fig):
    bars = [ax for ax in fig.axes if hasattr(ax, "_colorbar")]
    return [ax for ax in fig.axes if ax not in bars], bars


def _texts(fig) -> list[str]:
    fig.canvas.draw()
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def _hex(colour) -> str:
    return to_hex(colour).upper()


# -- abstention maps ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("layout, shape, width", [("column", (4, 1), ONE_COLUMN_WIDTH),
                                                  ("grid", (2, 2), ONE_COLUMN_WIDTH),
                                                  ("row", (1, 4), TWO_COLUMN_WIDTH)])
def test_abstention_maps_label_every_colour_bar_and_name_the_classifier_once(abstention, layout, shape, width):
    _, fig = _maps(abstention, "logistic", layout=layout)
    try:
        panels, bars = _panels_and_bars(fig)
        assert len(panels) == 4 and len(bars) == 4
        assert {bar.get_ylabel() for bar in bars} == BAR_LABELS  # cost, abstention rate, l, u
        rows = {round(ax.get_position().y0, 3) for ax in panels}
        columns = {round(ax.get_position().x0, 3) for ax in panels}
        assert (len(rows), len(columns)) == shape
        w, h = fig.get_size_inches()
        assert w == pytest.approx(width) and h <= 9.0  # a page holds it
        assert fig.get_suptitle() == "logistic"
        assert sum("logistic" in t for t in _texts(fig)) == 1  # named once, above the panels
        assert all(ax.get_title() == "" for ax in panels)
        legend = fig.legends[0]
        assert [t.get_text() for t in legend.get_texts()][0] == LEMMA_LABEL  # the dashed line, explained
        assert {ax.get_xlabel() for ax in panels} <= {"$\\mu$", ""} and "$\\mu$" in {ax.get_xlabel() for ax in panels}
        assert "$\\nu$" in {ax.get_ylabel() for ax in panels}
    finally:
        plt.close(fig)


def test_compact_grid_is_shorter_than_the_column(abstention):
    sizes = {}
    for layout in ("column", "grid"):
        _, fig = _maps(abstention, "svm", layout=layout)
        sizes[layout] = fig.get_size_inches()
        plt.close(fig)
    assert sizes["grid"][1] < sizes["column"][1] / 2
    assert sizes["grid"][0] == sizes["column"][0] == pytest.approx(ONE_COLUMN_WIDTH)


def test_two_column_width_keeps_the_colour_bars_thin(abstention):
    _, fig = _maps(abstention, "logistic", layout="grid", width=TWO_COLUMN_WIDTH)
    try:
        fig.canvas.draw()
        assert fig.get_size_inches()[0] == pytest.approx(TWO_COLUMN_WIDTH)
        _, bars = _panels_and_bars(fig)
        assert all(bar.get_position().width * TWO_COLUMN_WIDTH <= 0.14 for bar in bars)  # inches
    finally:
        plt.close(fig)


def test_classifiers_compared_share_one_colour_scale(abstention):
    """logistic and svm: the same limits per panel (l and u together); the trivial baseline keeps its own."""
    limits = {}
    for name in ("logistic", "svm", "trivial"):
        picture, fig = _maps(abstention, name)
        panels, bars = _panels_and_bars(fig)
        limits[name] = {bar.get_ylabel(): bar._colorbar.mappable.get_clim() for bar in bars}
        if name != "trivial":
            assert "shared with" in picture.caption
        plt.close(fig)
    assert limits["logistic"] == limits["svm"]
    assert limits["logistic"]["lower threshold l"] == limits["logistic"]["upper threshold u"]
    assert limits["trivial"]["least expected cost"] != limits["logistic"]["least expected cost"]


def test_difference_map_labels_its_bar_and_explains_its_lines(abstention):
    picture = next(p for p in abstention_plot.pictures(abstention) if p.name == "difference-logistic-svm")
    fig = picture.draw()
    try:
        _, bars = _panels_and_bars(fig)
        assert [bar.get_ylabel() for bar in bars] == ["cost of logistic − svm"]
        entries = [t.get_text() for t in fig.legends[0].get_texts()]
        assert entries == ["equal costs", LEMMA_LABEL]
        assert fig.get_suptitle() == "logistic - svm"
    finally:
        plt.close(fig)


def test_layout_and_width_are_checked_where_a_user_gives_them(two_scores):
    report = verifier.evaluate(str(SPECS / "friedel-abstention-symbolic.yaml"), scores=two_scores,
                               sweep_text=["mu=0:1:3", "nu=0:1:3"])
    files = report.figures(formats=("svg",), layout="grid", width=TWO_COLUMN_WIDTH)
    assert files and all(name.endswith(".svg") for name in files)
    for bad in ({"layout": "square"}, {"width": 1.0}, {"width": "3.5"}, {"width": True}):
        with pytest.raises(UsageError, match="figure"):
            report.figures(formats=("svg",), **bad)


def test_maps_are_the_same_bytes_twice(abstention):
    picture, fig = _maps(abstention, "svm", layout="grid")
    plt.close(fig)
    first, second = picture.render("svg"), picture.render("svg")
    assert first == second and b"<dc:date>" not in first


# -- operating conditions -------------------------------------------------------------------------------------------
def test_cost_curves_name_the_classifier_and_colour_each_gamma(conditions):
    picture = next(p for p in conditions_plot.pictures(conditions, _grid()) if p.name == "cost-curves-logistic")
    fig = picture.draw()
    try:
        ax = fig.axes[0]
        assert fig.legends[0].get_title().get_text() == "logistic, score-driven thresholds"
        assert ax.get_xlabel() == "$\\theta$" and "K(\\theta)" in ax.get_ylabel()  # one symbol on both axes
        lines = ax.get_lines()
        assert [t.get_text() for t in fig.legends[0].get_texts()] == ["γ = 0", "γ = 4", "γ = ∞"]
        colours = [_hex(line.get_color()) for line in lines]
        assert len(set(colours)) == len(colours) and set(colours) <= set(OKABE_ITO)
        assert lines[0].get_linestyle() == "--"  # γ = 0 dashed too, for grey print
        assert fig.get_size_inches()[0] == pytest.approx(ONE_COLUMN_WIDTH)
    finally:
        plt.close(fig)


def test_losses_are_points_on_a_scale_that_shows_gamma(conditions):
    fig = conditions_plot.draw_losses(conditions)
    try:
        ax = fig.axes[0]
        lines = ax.get_lines()
        points = [line for line in lines if line.get_marker() not in (None, "None", "")]
        assert len(points) == 2 and all(line.get_linestyle() == "None" for line in points)  # no joining line
        assert list(points[0].get_xdata()) == [0.0, 0.8, 1.0]  # γ/(1 + γ): 0, 4 and ∞
        assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "4", "∞"]
        assert "γ/(1 + γ)" in ax.get_xlabel()
        assert any(list(line.get_xdata()) == [1.0, 1.0] for line in lines if line not in points)  # ∞ marked
        assert {_hex(line.get_color()) for line in points} <= set(OKABE_ITO)
        assert len({line.get_marker() for line in points}) == 2
        assert [t.get_text() for t in fig.legends[0].get_texts()] == ["logistic", "svm"]
    finally:
        plt.close(fig)


def test_loss_ticks_of_close_gammas_keep_infinity():
    assert conditions_plot._ticks([0, 1, 4, 16, 64, None], ONE_COLUMN_WIDTH)[-1] is None
    assert conditions_plot._ticks([0, 1, 4, 16, 64, None], ONE_COLUMN_WIDTH)[:2] == [0, 1]


def _grid():
    from verifier.using.operating import GRID

    return GRID


# -- the doubt ECDF, the design δ plot -----------------------------------------------------------------------------
def test_doubt_ecdf_in_the_palette():
    from verifier.report.figures.doubt_plot import draw_doubt

    curves = [(name, np.array([1.0, 2.0, 4.0, np.inf])) for name in ("a", "b", "c")]
    fig = draw_doubt(curves, "doubt")
    try:
        colours = [_hex(line.get_color()) for line in fig.axes[0].get_lines()]
        assert len(set(colours)) == 3 and set(colours) <= set(OKABE_ITO)
    finally:
        plt.close(fig)


def test_design_delta_plot_labels_the_open_end_of_p1(tmp_path):
    target = tmp_path / "delta.svg"
    assert check(["design", str(SPECS / "design" / "ha-delta.yaml"), "--plot", str(target)], io.StringIO(),
                 io.StringIO()) == 0
    root = ET.fromstring(target.read_bytes())
    texts = [" ".join("".join(t.itertext()).split()) for t in root.iter(f"{SVG}text")]
    assert {"0", "1/3", "1/2", "2"} <= set(texts)  # 1/2, P1's open end, beside 1/3 on a second line


def test_many_lines_never_look_alike():
    from verifier.report.figures.palette import line_style

    looks = [(s["color"], s["marker"]) for s in map(line_style, range(49))]
    assert len(set(looks)) == 49  # 24 classifiers over six data sets: each its own colour and marker


# -- one palette ----------------------------------------------------------------------------------------------------
def test_every_figure_module_draws_in_the_one_palette():
    """Any colour written as hex in a figure module is Okabe & Ito's or a grey (no value, outlines)."""
    allowed = {c.upper() for c in OKABE_ITO} | {MISSING.upper(), "#BBBBBB", "#999999", "#FFFFFF"}
    found = {}
    for path in (ROOT / "verifier" / "report" / "figures").glob("*.py"):
        for colour in re.findall(r"[\"'](#[0-9A-Fa-f]{6})[\"']", path.read_text()):
            if colour.upper() not in allowed:
                found.setdefault(path.name, []).append(colour)
    assert not found


def test_command_line_layout_and_width_reach_the_files(two_scores, tmp_path):
    argv = ["evaluate", str(SPECS / "friedel-abstention-symbolic.yaml"), "--scores", two_scores, "--sweep",
            "mu=0:1:3", "--sweep", "nu=0:1:3"]
    assert check([*argv, "--figures", str(tmp_path), "--figure-layout", "row"], io.StringIO(), io.StringIO()) == 0
    root = ET.fromstring((tmp_path / "friedel-abstention-symbolic-abstention-svm.svg").read_bytes())
    assert float(root.get("width").removesuffix("pt")) > 72 * 6  # two columns wide (bbox tight trims a little)
    err = io.StringIO()
    assert check([*argv, "--figure-layout", "grid"], io.StringIO(), err) == 2 and "--figures" in err.getvalue()


def test_a_panel_without_values_says_so_instead_of_a_scale(abstention):
    _, fig = _maps(abstention, "trivial", layout="grid")  # the trivial classifier never thresholds a score
    try:
        panels, bars = _panels_and_bars(fig)
        empty = [bar for bar in bars if not len(bar.get_yticks())]
        assert {bar.get_ylabel() for bar in empty} == {"lower threshold l", "upper threshold u"}
        assert {"l = ±∞\neverywhere", "u = ±∞\neverywhere"} <= set(_texts(fig))
    finally:
        plt.close(fig)


def test_each_classifier_keeps_its_own_scale_on_request(abstention):
    own = {}
    for name in ("logistic", "svm"):
        picture = next(p for p in abstention_plot.pictures(abstention, shared_scales=False)
                       if p.name == f"abstention-{name}")
        fig = picture.draw()
        own[name] = {bar.get_ylabel(): bar._colorbar.mappable.get_clim() for bar in _panels_and_bars(fig)[1]}
        plt.close(fig)
        assert "shared" not in picture.caption
    assert own["logistic"]["least expected cost"] != own["svm"]["least expected cost"]
