"""Operating-condition uncertainty (Hernández-Orallo et al.): the paper's results as exact equalities on random
data with tied scores (Corollaries 1 and 2, Theorems 6 and 7, the rate-driven loss under certainty), K_v against
a Monte Carlo over the presumed value, the calibration against scipy's isotonic regression, instance losses that
add up to L, exact losses under a Beta weight, and the command line with its refusals."""

import json
import os
import random
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.using.abstention import Hull, Scores, staircase
from verifier.using.operating.evaluation import _instance_losses
from verifier.using.operating.identities import calibrated, identities
from verifier.using.operating.lines import Affine, Costs, Lines
from verifier.using.operating.methods import optimal_segments, rate_points, score_segments
from verifier.using.operating.uncertainty import Choice, Weight, loss

from conftest import ROOT

PAPER = Costs(Affine(F(0), F(0)), Affine(F(2), F(-2)), Affine(F(0), F(2)), Affine(F(0), F(0)))
SPEC = os.path.join(ROOT, "examples", "operating-conditions", "cost-proportion.yaml")
SCORES = os.path.join(ROOT, "examples", "breast-cancer", "scores.csv")

rows = st.lists(st.tuples(st.integers(0, 10), st.booleans()), min_size=2, max_size=40)


def setup(data):
    scores = [F(s, 10) for s, _ in data]
    labels = np.array([y for _, y in data])
    values = sorted(set(scores))
    ranks = np.array([values.index(v) for v in scores])
    stairs = staircase(ranks, labels, lambda r: values[r])
    return scores, labels, ranks, values, stairs, Lines(stairs, PAPER)


@settings(max_examples=120, deadline=None)
@given(rows)
def test_the_papers_identities_hold_exactly(data):
    scores, labels, _, _, stairs, lines = setup(data)
    ids = identities(stairs)
    w = Weight()
    score = Choice(lines, segments=score_segments(lines, stairs.scores))
    rate = Choice(lines, rate=rate_points(lines))
    optimal = Choice(lines, segments=optimal_segments(lines, Hull(stairs)))
    n = len(data)
    assert loss(score, None, w).exact_value == ids.brier == sum((s - y) ** 2 for s, y in zip(scores, labels)) / n
    assert loss(score, 0, w).exact_value == ids.mae == sum(abs(s - y) for s, y in zip(scores, labels)) / n
    assert loss(rate, 0, w).exact_value == ids.corollary_2
    assert loss(rate, None, w).exact_value == ids.rate_certain == ids.corollary_2 - F(1, 6)
    if labels.any() and not labels.all():
        assert optimal.affine_zero() == (ids.theorem_6, 0)  # a constant curve (Theorem 6)
    assert loss(optimal, 0, w).exact_value == 2 * loss(optimal, None, w).exact_value  # Theorem 7


def test_auc_counts_ties_as_one_half():
    _, _, _, _, stairs, _ = setup([(1, False), (1, True), (2, True), (0, False)])
    # pairs (class 1 above class 0): (1,T) vs (1,F) tie 1/2, vs (0,F) 1; (2,T) beats both: 3.5 of 4
    assert identities(stairs).auc == F(7, 8)


@settings(max_examples=50, deadline=None)
@given(rows)
def test_the_calibration_is_scipys_isotonic_regression(data):
    from scipy.optimize import isotonic_regression

    _, labels, ranks, values, stairs, _ = setup(data)
    counts = np.bincount(ranks, minlength=len(values))
    ones = np.bincount(ranks, weights=labels.astype(float), minlength=len(values))
    fitted = isotonic_regression(ones / counts, weights=counts).x
    assert np.allclose([float(x) for x in calibrated(stairs)], fitted, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(rows, st.sampled_from([0, None]))
def test_instance_losses_add_up_to_the_loss(data, gamma):
    _, labels, ranks, values, stairs, lines = setup(data)
    choice = Choice(lines, segments=score_segments(lines, stairs.scores))
    scores = Scores(name="a", dataset=None, ranks=ranks, texts=tuple(str(v) for v in values), positive=labels)
    per = _instance_losses(choice, scores, gamma)
    assert sum(per) / len(per) == loss(choice, gamma, Weight()).exact_value


def test_the_expected_cost_curve_matches_a_monte_carlo_over_the_presumed_value():
    rng = np.random.default_rng(4)
    data = [(int(rng.integers(0, 11)), bool(rng.random() < 0.4)) for _ in range(60)]
    _, _, _, _, stairs, lines = setup(data)
    for method in ("score", "rate", "optimal"):
        choice = (Choice(lines, segments=score_segments(lines, stairs.scores)) if method == "score" else
                  Choice(lines, rate=rate_points(lines)) if method == "rate" else
                  Choice(lines, segments=optimal_segments(lines, Hull(stairs))))
        for c in (0.2, 0.5, 0.9):
            k = choice.uncertain(4.0, np.array([c]))[0]
            presumed = rng.beta(c * 4 + 1, (1 - c) * 4 + 1, size=4_000)
            sampled = np.array([float(_cost_at(choice, F(x).limit_denominator(10 ** 9), F(c))) for x in presumed])
            assert abs(sampled.mean() - k) < 5 * sampled.std() / np.sqrt(len(sampled)) + 1e-9, (method, c)


def _cost_at(choice, presumed, true):
    """Q(T(ĉ); c): the cost at the true value of what the method decides at the presumed one."""
    from verifier.using.operating.methods import rate_counts

    if choice.segments is not None:
        cut = next(cut for lo, hi, cut in choice.segments if lo <= presumed < hi or hi == 1 == presumed)
        return choice.lines.height(cut, true)
    return choice.lines.fractional(*rate_counts(choice.rate, presumed), true)


def test_a_beta_weight_is_exact_where_the_theorems_apply_and_numerical_beside():
    rng = random.Random(3)
    data = [(rng.randint(0, 10), rng.random() < 0.5) for _ in range(30)]
    _, _, _, _, stairs, lines = setup(data)
    choice = Choice(lines, segments=score_segments(lines, stairs.scores))
    w = Weight(F(2), F(3))
    exact = loss(choice, None, w)
    assert exact.exact_value is not None
    # the same integral by quadrature in the true value: ∫ Q(T(c); c) w(c) dc
    from scipy.integrate import quad
    from scipy.stats import beta

    cuts = sorted({float(lo) for lo, _, _ in choice.segments} | {1.0})
    numeric = sum(quad(lambda c: float(choice.certain(F(c))) * beta.pdf(c, 2, 3), a, b)[0]
                  for a, b in zip(cuts, cuts[1:]))
    assert abs(float(exact.exact_value) - numeric) < 1e-9
    middle = loss(choice, 2.0, w)
    assert middle.exact_value is None and middle.error < 1e-6


def test_the_command_line_checks_the_identities_on_the_breast_cancer_data(tmp_path, cli):
    code, out, err = cli("evaluate", SPEC, "--scores", SCORES, "--threshold-choice", "score", "--uncertainty", "0",
                         "--uncertainty", "inf", "--figures", str(tmp_path))
    assert code == 0, err
    flat = " ".join(out.split())  # five classifiers: the identities in one sentence; each of them with -v
    assert "hold exactly for all 5 classifiers: L(inf) = Brier score; L(0) = mean absolute error" in flat
    code, out, err = cli("evaluate", SPEC, "--scores", SCORES, "--threshold-choice", "score", "--uncertainty", "0",
                         "--uncertainty", "inf", "-v")
    flat = " ".join(out.split())
    assert code == 0 and flat.count("holds exactly") == 10 and "DOES NOT HOLD" not in flat
    assert "cost-proportion-cost-curves-svm.svg" in os.listdir(tmp_path)
    code, out, err = cli("evaluate", SPEC, "--scores", SCORES, "--threshold-choice", "optimal", "--format", "json")
    record = json.loads(out)["operating_conditions"]
    assert record["gammas"] == ["0", "1", "4", "16", "inf"] and record["paper_normalisation"]
    svm = next(c for c in record["classifiers"] if c["classifier"] == "svm")
    assert svm["loss"]["0"]["exact"] is not None and svm["loss"]["4"]["exact"] is None
    assert len(svm["curve"]["inf"]["values"]) == 101


@pytest.mark.parametrize("extra, expected", [
    (["--uncertainty", "-1"], "gamma is a number >= 0"),
    (["--uncertainty", "nan"], "gamma is a number >= 0"),
    (["--uncertainty", "lots"], "'lots' is not a number"),
    (["--uncertainty", "1e5"], "gamma is a number >= 0 and at most 1000"),  # mpmath no longer converges
    (["--uncertainty", "1e400"], "gamma is a number >= 0 and at most 1000"),  # not read as inf
    (["--weight", "beta:1e308,1e308"], "0 < A, B <= 100"),  # its exact polynomial: factorial(2e308)
    (["--weight", "beta:0,1"], "expected uniform or beta:A,B"),
    (["--sweep", "theta=0:1:3"], "not --sweep"),
])
def test_bad_options_are_refused(extra, expected, cli):
    code, out, err = cli("evaluate", SPEC, "--scores", SCORES, "--threshold-choice", "score", *extra)
    assert code == 2 and expected in " ".join(err.split()) and out == ""


def test_specs_that_do_not_fit_are_refused(tmp_path, cli):
    cases = []
    squared = tmp_path / "squared.yaml"
    squared.write_text(open(SPEC).read().replace("[0, 2*theta]", "[0, 2*theta**2]"))
    cases.append(([str(squared), "--threshold-choice", "score"], "not affine in theta"))
    scaled = tmp_path / "scaled.yaml"
    scaled.write_text(open(SPEC).read().replace("[0, 2*theta]", "[0, 4*theta]"))
    cases.append(([str(scaled), "--threshold-choice", "rate"], "must be the cost proportion itself"))
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(open(SPEC).read().replace("theta: {}", "theta: {value: 1/2}").replace(
        'assume: ["theta >= 0", "theta <= 1"]\n', ""))
    cases.append(([str(fixed), "--threshold-choice", "score"], "one symbolic cost parameter"))
    outside = tmp_path / "outside.yaml"
    outside.write_text(open(SPEC).read().replace('"theta <= 1"', '"theta <= 1/2"'))
    cases.append(([str(outside), "--threshold-choice", "score"], "excludes theta"))
    margins = tmp_path / "margins.csv"
    margins.write_text("a,true\n-2,P\n3,N\n")
    cases.append(([SPEC, "--threshold-choice", "score", "--scores", str(margins)], "outside [0, 1]"))
    for argv, expected in cases:
        argv = argv if "--scores" in argv else argv + ["--scores", SCORES]
        code, out, err = cli("evaluate", *argv)
        assert code == 2 and expected in " ".join(err.split()), (argv, err)
    code, _, err = cli("evaluate", SPEC, "--threshold-choice", "score")
    assert code == 2 and "evaluate binary scores (--scores FILE)" in " ".join(err.split())


def test_the_docs_table_is_what_the_tool_prints(cli):
    code, out, err = cli("evaluate", SPEC, "--scores", SCORES, "--threshold-choice", "score", "--uncertainty", "0",
                         "--uncertainty", "4", "--uncertainty", "inf")
    assert code == 0, err
    docs = open(os.path.join(ROOT, "docs", "decide-evaluate.md"), encoding="utf-8").read()
    part = docs[docs.index("On the breast cancer scores of the example above"):]
    table = part[part.index("```\n") + 4:]
    for line in table[:table.index("```")].strip("\n").splitlines():
        assert line in out.splitlines(), line


def test_results_show_themselves_in_a_notebook():
    import verifier

    result = verifier.evaluate(SPEC, scores=SCORES, threshold_choice="rate", uncertainty=["0", "inf"])
    assert repr(result).startswith("<ConditionsReport expected loss by certainty (rate thresholds): tree 0:")
    assert "<svg" in result._repr_html_() and "holds exactly" in result._repr_markdown_()


def test_equal_instance_losses_are_exact_zeros_for_the_paired_test(tmp_path):
    """Two classifiers that differ on three instances: the test sees exactly three differences (float noise in
    the instance losses once made thousands of tiny ones)."""
    from scipy.stats import wilcoxon

    import verifier

    rng = np.random.default_rng(9)
    a = np.round(rng.random(200), 3)
    b = a.copy()
    b[:3] = np.round(1 - b[:3], 3)
    truth = rng.random(200) < 0.5
    path = tmp_path / "two.csv"
    path.write_text("a,b,true\n" + "".join(f"{x},{y},{'P' if t else 'N'}\n" for x, y, t in zip(a, b, truth)))
    result = verifier.evaluate(SPEC, scores=str(path), threshold_choice="score", uncertainty=["0"])
    pair = result.conditions.pairs[0]
    three = [abs(x - t) - abs(y - t) for x, y, t in zip(a[:3], b[:3], truth[:3])]
    expected = wilcoxon(three + [0.0] * 197).pvalue  # scipy's own handling of the 197 exact zeros
    assert pair.p_value == pytest.approx(expected)


def _brute_set(p, sets, a, b, theta):
    """The Bayes-optimal set at θ by enumeration, exactly, with decide's tie rule (smallest, then class order)."""
    costs = [sum(py * (ay + by * theta) for py, ay, by in zip(p, a[s], b[s])) for s in range(len(sets))]
    least = min(costs)
    return min((s for s in range(len(sets)) if costs[s] == least), key=lambda s: (len(sets[s]), sorted(sets[s])))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9), st.integers(0, 2)),
                min_size=1, max_size=12), st.integers(0, 10 ** 6))
def test_probabilities_follow_each_rows_bayes_set_at_the_presumed_value(rows, seed):
    from verifier.analysis.pipeline import build
    from verifier.api.entry import load
    from verifier.using.operating.sets import RowChoice, affine_costs, row_pieces

    spec = load(os.path.join(ROOT, "docs", "examples", "triage-two-costs.yaml"))
    text = open(spec.path).read().replace("  mu: {}", "  mu: {value: 3}").replace(
        'assume: ["mu > 0", "nu > 0"]', 'assume: ["nu >= 0", "nu <= 1"]')
    scheme = build(load(text))
    sets, a, b = affine_costs(scheme, "nu", "triage")
    probabilities = [[F(x, x + y + z), F(y, x + y + z), F(z, x + y + z)] for x, y, z, _ in rows]
    truth = np.array([t for *_, t in rows])
    rng = random.Random(seed)
    for p in probabilities:  # each piece's set is the brute-force optimum inside it
        for lo, hi, s in row_pieces(p, a, b):
            inside = lo + (hi - lo) * F(rng.randint(1, 99), 100)
            assert s == _brute_set(p, sets, a, b, inside)
    choice = RowChoice(probabilities, truth, a, b)
    for c in (F(0), F(1, 3), F(7, 10), F(1)):  # under certainty: each row pays its Bayes set's cost at c
        expected = sum(a[s][y] + b[s][y] * c for s, y in
                       ((_brute_set(p, sets, a, b, c), y) for p, y in zip(probabilities, truth))) / len(rows)
        assert choice.certain(c) == expected or any(  # a tie at c itself may pick either tied set
            c in (lo, hi) for lo, hi, *_ in choice.pieces)
