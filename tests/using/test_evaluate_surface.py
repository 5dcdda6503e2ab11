"""`verify evaluate SPEC --probabilities ... --sweep A --sweep B`: the surface of mean cost, indeterminacy rate
and average set size over two symbolic parameters, each row's Bayes-optimal set decided afresh at every point.

Checked against a brute force that rebuilds the scheme at the point (`build_scheme` with the values, not the
substitution the surface uses) and enumerates every set with exact Fractions; probabilities in quarters make
exact ties common, so the tie rule is exercised. Then: points outside the assumptions, refusals (the same
parameter twice, a parameter that is not symbolic, three sweeps, one symbolic parameter, per-class ones), set
predictions as given, the command line's exit codes and messages, the JSON's shape and the heat maps."""

import json
import os
from fractions import Fraction as F
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier
from verifier.api.entry import load
from verifier.errors import SpecError, UsageError
from verifier.scheme.exact import build_scheme

from conftest import ROOT, SPECS

EXAMPLES = os.path.join(ROOT, "docs", "examples")
TRIAGE = os.path.join(EXAMPLES, "triage-two-costs.yaml")  # 3 classes, mu and nu symbolic, both assumed > 0
FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")
FOUR = """\
name: four classes, a missed-case cost and a price per extra class
classes: [a, b, c, d]
parameters:
  mu: {}
  nu: {}
assume: ["mu > 0", "nu > 0", "nu < 1"]
cost: "0 if yhat == y else (mu if rank(y) == 3 else 1)"
set_cost: "min([c(yh, y) for yh in Y]) + nu * (len(Y) - 1)"
"""


def _brute(spec_path: str, names: tuple[str, str], point: tuple[F, F], rows, truth):
    """Mean cost, indeterminacy rate and average set size at one point: every set's exact expected cost."""
    spec = load(spec_path)
    scheme = build_scheme(spec, values=dict(zip(names, point)))
    K = scheme.K
    sets = [frozenset(c) for n in range(1, K + 1) for c in combinations(range(K), n)]
    cost = {(m, y): F(str(scheme.cost(m, y))) for m in sets for y in range(K)}
    chosen = []
    for p in rows:
        expected = {m: sum(F(p[y]) * cost[m, y] for y in range(K)) for m in sets}
        least = min(expected.values())
        chosen.append(min((m for m in sets if expected[m] == least), key=lambda m: (len(m), sorted(m))))
    n = len(rows)
    mean = sum(cost[m, y] for m, y in zip(chosen, truth)) / n
    return mean, F(sum(len(m) > 1 for m in chosen), n), F(sum(len(m) for m in chosen), n)


def _quarters(draw, n: int, K: int):
    rows = []
    for _ in range(n):
        cuts = sorted(draw(st.lists(st.integers(0, 4), min_size=K - 1, max_size=K - 1)))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [4])]
        rows.append([x / 4 for x in parts])
    return rows


@st.composite
def _data(draw, K: int):
    n = draw(st.integers(1, 8))
    truth = draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n))
    return _quarters(draw, n, K), _quarters(draw, n, K), truth


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_data(3))
def test_the_surface_matches_a_brute_force_over_every_set(data):
    a, b, truth = data
    classes = ["benign", "suspect", "malignant"]
    result = verifier.evaluate(TRIAGE, y_true=[classes[t] for t in truth], probabilities={"A": a, "B": b},
                               sweep_text=["mu=0:2:5", "nu=0:1:5"], time_limit=None)
    s = result.surface
    assert [g.name for g in s.classifiers] == ["A", "B"]
    for i, j, x, y in s.points():
        if x == 0 or y == 0:  # outside mu > 0, nu > 0
            assert (x, y) in s.excluded and all(g.mean_cost[i][j] is None for g in s.classifiers)
            continue
        for g, rows in zip(s.classifiers, (a, b)):
            assert (g.mean_cost[i][j], g.rate[i][j], g.size[i][j]) == _brute(TRIAGE, ("mu", "nu"), (x, y), rows,
                                                                             truth), (g.name, x, y)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_data(4))
def test_four_classes_with_a_third_assumption_match_the_brute_force(tmp_path_factory, data):
    a, _, truth = data
    path = tmp_path_factory.mktemp("four") / "four.yaml"
    path.write_text(FOUR)
    result = verifier.evaluate(str(path), y_true=np.array(truth), probabilities=np.array(a),
                               sweep_text=["nu=0:2:5", "mu=1/2:3:3"], time_limit=None)
    s = result.surface
    assert s.parameters == ("nu", "mu")
    assert s.excluded == [(x, y) for x in s.grids[0] for y in s.grids[1] if not 0 < x < 1]
    for i, j, x, y in s.points():
        if (x, y) not in s.excluded:
            g = s.classifiers[0]
            assert (g.mean_cost[i][j], g.rate[i][j], g.size[i][j]) == _brute(str(path), ("nu", "mu"), (x, y), a,
                                                                             truth)


def test_friedels_two_classes_abstain_exactly_where_lemma_1_allows():
    """Rows (1/2, 1/2): E[P] = mu/2, E[N] = 1/2, E[{P,N}] = nu. At mu = 1/2, nu = 1/4 predicting P ties with
    abstaining and the tie rule reports the smaller set; at mu = 1, nu = 1/4 abstaining is strictly best; at
    nu = 1/2 nothing beats P (nu >= mu / (1 + mu), Lemma 1)."""
    result = verifier.evaluate(FRIEDEL, y_true=["P", "N"], probabilities=[[0.5, 0.5], [0.5, 0.5]],
                               sweep_text=["mu=1/2:1:2", "nu=1/4:1/2:2"], time_limit=None)
    g = result.surface.classifiers[0]
    assert g.rate == [[0, 0], [1, 0]] and g.size == [[1, 1], [2, 1]]
    assert g.mean_cost == [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 2)]]
    assert g.ties == 2 * 2  # both rows at (1/2, 1/4) and at (1, 1/2): P ties with a rival
    assert "Ties between optimal sets" in result.text


def _probabilities(tmp_path):
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 3, 40)
    paths = []
    for k in range(2):
        p = rng.dirichlet([1, 1, 1], 40)
        path = tmp_path / f"clf{k}.npy"
        np.save(path, p)
        paths.append(str(path))
    np.save(tmp_path / "truth.npy", truth)
    return paths, str(tmp_path / "truth.npy")


def test_the_command_line_gives_words_json_grids_and_heat_maps(tmp_path, cli):
    paths, truth = _probabilities(tmp_path)
    before = sorted(os.listdir(tmp_path))
    args = ["evaluate", TRIAGE, "--probabilities", paths[0], "--probabilities", paths[1], "--truth", truth,
            "--sweep", "mu=0:4:5", "--sweep", "nu=0:1/2:3"]
    code, out, err = cli(*args, "--plot", str(tmp_path / "surface.svg"))
    assert code == 0, err
    assert "clf0: mean cost from" in out and "lowest at (mu, nu) = (" in out and "indeterminacy rate from" in out
    assert "7 grid points lie outside the spec's assumptions" in out and "(s)" not in out
    assert "Cheapest (least exact mean cost) per admitted point: clf0 at" in out
    svg = (tmp_path / "surface.svg").read_text()
    assert svg.startswith("<?xml") and "mean cost (Eq. 4)" in svg and "indeterminacy rate" in svg
    assert sorted(os.listdir(tmp_path)) == sorted(before + ["surface.svg"])
    code, out, _ = cli(*args, "--format", "json")
    record = json.loads(out)["surface"]
    assert record["parameters"] == ["mu", "nu"] and record["grid"] == {"mu": ["0", "1", "2", "3", "4"],
                                                                       "nu": ["0", "1/4", "1/2"]}
    assert {"mu": "0", "nu": "1/4"} in record["excluded"] and len(record["excluded"]) == 7
    first = record["classifiers"][0]
    assert first["classifier"] == "clf0" and record["rows"] == 40
    assert first["mean_cost"][0] == [None, None, None] and first["mean_cost"][1][0] is None
    exact, value = first["mean_cost"][1][1], first["mean_cost_float"][1][1]
    assert abs(float(F(exact)) - value) < 1e-12
    assert F(first["indeterminacy_rate"][1][1]) * 40 == int(F(first["indeterminacy_rate"][1][1]) * 40)
    assert 1 <= F(first["average_set_size"][1][1]) <= 3
    assert F(first["lowest_mean_cost"]["value"]) == min(F(v) for row in first["mean_cost"] for v in row if v)
    assert sum(record["cheapest"].values()) == 8  # 15 points, 7 left out


def test_bad_pairs_of_sweeps_are_usage_errors_that_say_why(tmp_path, cli):
    paths, truth = _probabilities(tmp_path)
    base = ["evaluate", TRIAGE, "--probabilities", paths[0], "--truth", truth]
    cases = [(["--sweep", "mu=0:1:3", "--sweep", "mu=0:2:3"], "--sweep names 'mu' twice"),
             (["--sweep", "mu=0:1:3", "--sweep", "r=0:2:3"], "'r' is not a symbolic parameter of the spec (mu, nu)"),
             (["--sweep", "mu=0:1:3", "--sweep", "nu=0:2:3", "--sweep", "nu=0:1:2"], "--sweep is given 3 times"),
             (["--sweep", "mu=0:1:201", "--sweep", "nu=0:2:202"], "more than the 40,401 a surface takes"),
             (["--sweep", "mu=0:1:3", "--sweep", "nu=0:2:3", "--pairs", "all"], "--pairs does not combine with it")]
    cases.append((["--sweep", "mu=0:1:3"], "two --sweeps, a surface from probabilities too"))
    for extra, message in cases:
        code, out, err = cli(*base, *extra)
        assert code == 2 and out == "" and message in err and "Traceback" not in err, (extra, err)
        assert err.startswith("verify evaluate: usage error: ")
    assert sorted(os.listdir(tmp_path)) == ["clf0.npy", "clf1.npy", "truth.npy"]


def test_a_spec_with_one_or_per_class_or_three_symbolic_parameters_is_refused(tmp_path, cli):
    paths, truth = _probabilities(tmp_path)
    one = os.path.join(SPECS, "p-discounted-symbolic.yaml")  # r only
    code, _, err = cli("evaluate", one, "--probabilities", paths[0], "--truth", truth.replace("truth", "truth"),
                       "--sweep", "r=0:1:3", "--sweep", "nu=0:1:3")
    assert code == 2 and "'nu' is not a symbolic parameter of the spec (r)" in err
    with pytest.raises(SpecError, match="symbolic per class"):
        verifier.evaluate(os.path.join(SPECS, "ha.yaml"), y_true=["a"], probabilities=[[1, 0, 0]],
                          sweep_text=["delta=0:1:3", "eta=0:1:3"])
    three = tmp_path / "three.yaml"
    three.write_text(FOUR.replace("  nu: {}\n", "  nu: {}\n  lam: {}\n").replace("nu * (len(Y) - 1)",
                                                                            "nu * lam * (len(Y) - 1)"))
    with pytest.raises(SpecError, match="lam is symbolic") as caught:
        verifier.evaluate(str(three), y_true=["a"], probabilities=[[1, 0, 0, 0]], sweep_text=["mu=0:1:3", "nu=0:1:3"])
    assert caught.value.file == str(three) and caught.value.key == "parameters"


def test_two_sweeps_of_set_predictions_give_the_exact_mean_cost_of_the_sets_as_given(tmp_path, cli):
    csv = tmp_path / "predictions.csv"
    csv.write_text("true,predicted\nbenign,benign\nmalignant,benign\nsuspect,\"benign,suspect\"\n"
                   "malignant,\"suspect,malignant\"\n")
    code, out, err = cli("evaluate", TRIAGE, str(csv), "--sweep", "mu=0:2:3", "--sweep", "nu=1/2:1:2",
                         "--format", "json")
    assert code == 0, err
    record = json.loads(out)["surface"]
    assert record["sets"] == "as given" and record["tie_rule"] is None and record["excluded"] == [
        {"mu": "0", "nu": "1/2"}, {"mu": "0", "nu": "1"}]
    (g,) = record["classifiers"]
    # rows: c_benign(benign) = 0, c_benign(malignant) = mu, c_{benign,suspect}(suspect) = nu,
    # c_{suspect,malignant}(malignant) = 0 + nu (min of 1 and 0, plus nu): (mu + 2 nu) / 4
    expected = [[None, None], [str(F(1 + 2 * nu, 4)) for nu in (F(1, 2), 1)], [str(F(2 + 2 * nu, 4))
                                                                              for nu in (F(1, 2), 1)]]
    assert g["mean_cost"] == expected and g["indeterminacy_rate"][1] == ["1/2", "1/2"]
    assert g["average_set_size"][2] == ["3/2", "3/2"]
    code, out, err = cli("evaluate", TRIAGE, str(csv), "--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3")
    assert code == 0 and "of the set predictions as given as mu goes from 0 to 1" in out
    code, out, err = cli("evaluate", TRIAGE, str(csv), "--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3", "--pairs",
                         "all")
    assert code == 2 and "--pairs chooses the paired comparisons" in err
    assert sorted(os.listdir(tmp_path)) == ["predictions.csv"]
    with pytest.raises(UsageError, match="an empty list"):
        verifier.evaluate(TRIAGE, y_true=["benign"], probabilities=[[1, 0, 0]], sweep_text=[])
    with pytest.raises(UsageError, match="is not text"):
        verifier.evaluate(TRIAGE, y_true=["benign"], probabilities=[[1, 0, 0]], sweep_text=["mu=0:1:3", 2])


def test_one_sweep_in_a_list_is_the_curve_as_before():
    symbolic = os.path.join(SPECS, "p-discounted-symbolic.yaml")
    one = verifier.evaluate(symbolic, y_true=["h", "b"], sets=[["h"], ["h", "b"]], sweep_text="r=0:1:3")
    listed = verifier.evaluate(symbolic, y_true=["h", "b"], sets=[["h"], ["h", "b"]], sweep_text=["r=0:1:3"])
    assert one.text == listed.text and one.record == listed.record and listed.surface is None


def test_the_picture_of_a_surface_comes_from_the_python_api():
    result = verifier.evaluate(TRIAGE, y_true=["benign", "malignant"], probabilities={"A": [[0.5, 0.25, 0.25],
                               [0.25, 0.25, 0.5]]}, sweep_text=["mu=1:2:3", "nu=1/10:1/2:3"])
    assert result.picture("svg").startswith(b"<?xml") and result.picture("png").startswith(b"\x89PNG")
    assert result.record["surface"]["cheapest"] is None and result.surface.excluded == []


def test_a_time_limit_stops_a_surface_and_keeps_the_points_done(monkeypatch):
    from verifier import limits
    from verifier.using.evaluate import cost_surface as module

    calls = []

    def stop(after: int):  # grid point `after` + 1 finds the bound passed
        def check():
            calls.append(1)
            if len(calls) > after:
                raise limits.TimeLimitReached(1.0)
        return check

    monkeypatch.setattr(module.limits, "check_time", stop(1))
    with pytest.raises(UsageError, match="before any classifier was scored"):  # no point done: nothing to show
        calls.clear()
        monkeypatch.setattr(module.limits, "check_time", stop(0))
        verifier.evaluate(TRIAGE, y_true=["benign"], probabilities=[[1, 0, 0]], sweep_text=["mu=1:2:3", "nu=1:2:3"])
    calls.clear()
    monkeypatch.setattr(module.limits, "check_time", stop(4))
    result = verifier.evaluate(TRIAGE, y_true=["benign"], probabilities=[[1, 0, 0]],
                               sweep_text=["mu=1:2:3", "nu=1:2:3"])
    cut = result.record["cut"]
    assert cut["points_done"] == 4 and cut["points"] == 9 and result.record["surface"]["not_reached"] == 5
    assert "Stopped: the time limit of 1 s (--time-limit) was reached: 4 of 9 grid points done" in result.text
    assert "4 admitted points" in " ".join(result.text.split())


def test_a_surface_shows_itself_in_a_notebook():
    result = verifier.evaluate(TRIAGE, y_true=["benign", "malignant"], probabilities={"A": [[0.5, 0.25, 0.25],
                               [0.25, 0.25, 0.5]], "B": [[1, 0, 0], [0, 0, 1]]}, sweep_text=["mu=1:2:2", "nu=1:2:2"])
    assert repr(result) == "<SurfaceReport mean cost of 2 classifiers over mu x nu (2 x 2 points)>"
    html, markdown = result._repr_html_(), result._repr_markdown_()
    assert "<svg" in html and "Cheapest (least exact mean cost) per admitted point: A at 0, B at 0, tied at 4" in html
    assert "mean cost 0 everywhere; lowest at (mu, nu) = (1, 1), (1, 2), (2, 1) and 1 more point(s)" in html
    assert markdown.startswith("### ") and "tied at 4" in markdown and "UseReport.picture()" in markdown


def test_points_where_a_cost_is_undefined_are_left_out_and_listed(tmp_path):
    """A power mean with exponent 1 - r < 0 of a zero cost is undefined: r = 2 is left out, r = 0 and 1 kept."""
    spec = tmp_path / "power.yaml"
    spec.write_text('name: power mean and an abstention price\nclasses: [h, b, n]\nparameters:\n  r: {}\n  nu: {}\n'
                    'assume: ["nu >= 0"]\ncost_matrix:\n  h: [0, 1, 2]\n  b: [1, 0, 2]\n  n: [4, 4, 0]\n'
                    'set_cost: "genmean(1 - r, [c(yh, y) for yh in Y]) + nu * (len(Y) - 1)"\n')
    result = verifier.evaluate(str(spec), y_true=["h", "n"], probabilities=[[0.5, 0.25, 0.25], [0.25, 0.25, 0.5]],
                               sweep_text=["r=0:2:3", "nu=-1:1:3"])
    s = result.surface
    assert s.excluded == [(r, F(-1)) for r in (0, 1, 2)] and s.undefined == [(2, 0), (2, 1)]
    assert [row.count(None) for row in s.classifiers[0].mean_cost] == [1, 1, 3]
    assert result.record["surface"]["undefined"] == [{"r": "2", "nu": "0"}, {"r": "2", "nu": "1"}]
    assert "2 grid points leave some cost undefined and are left out (e.g. r = 2, nu = 0)." in result.text
