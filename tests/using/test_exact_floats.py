"""Every float beside an exact value in a JSON record of `verify evaluate` and `verify decide` (and the API's
`to_json()`) is that exact value correctly rounded: float(Fraction(exact)), the nearest float, ties to even.

The scan pairs a number with the exact text it stands for by the record's own naming: `x_float` beside `x` or
`x_exact`, `x` beside `x_exact`, `float` or `value` beside `value` or `exact` (lists and dicts under those keys
element by element). Each mode must yield pairs, so that a renamed key cannot make the scan vacuous."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

import verifier
from verifier.formula.rounded import rounded

from conftest import ROOT, SPECS

RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")
OBSTACLE = f"{SPECS}/obstacle-discounted.yaml"
EXAMPLES = f"{ROOT}/docs/examples"


def _exact(text):
    return Fraction(text) if isinstance(text, str) and RATIONAL.fullmatch(text) else None


def _partners(key: str) -> list[str]:
    out = [key[:-len("_float")], key[:-len("_float")] + "_exact"] if key.endswith("_float") else []
    out.append(key + "_exact")
    if key in ("float", "value"):
        out += ["value", "exact"]
    return [k for k in out if k != key]


def exact_float_pairs(record, path: str = ""):
    """(where, exact text, float) for every float the record sets beside an exact value."""
    if isinstance(record, list):
        for i, item in enumerate(record):
            yield from exact_float_pairs(item, f"{path}[{i}]")
        return
    if not isinstance(record, dict):
        return
    for key, value in record.items():
        for partner in _partners(key):
            exact = record.get(partner)
            if isinstance(value, float) and _exact(exact) is not None:
                yield f"{path}.{key}", exact, value
            elif isinstance(value, list) and isinstance(exact, list) and len(value) == len(exact):
                yield from _zipped(exact, value, f"{path}.{key}")
            elif isinstance(value, dict) and isinstance(exact, dict):
                yield from ((f"{path}.{key}.{k}", exact.get(k), v) for k, v in value.items()
                            if isinstance(v, float) and _exact(exact.get(k)) is not None)
            else:
                continue
            break
        yield from exact_float_pairs(value, f"{path}.{key}")


def _zipped(exact: list, floats: list, path: str):
    """Element by element, through lists of lists (a surface's grid)."""
    for i, (e, v) in enumerate(zip(exact, floats)):
        if isinstance(e, list) and isinstance(v, list) and len(e) == len(v):
            yield from _zipped(e, v, f"{path}[{i}]")
        elif isinstance(v, float) and _exact(e) is not None:
            yield f"{path}[{i}]", e, v


def _wrong(record) -> tuple[int, list]:
    pairs = list(exact_float_pairs(record))
    return len(pairs), [(where, e, v) for where, e, v in pairs if float(Fraction(e)) != v]


def _json_record(cli, argv: list[str]) -> dict:
    code, out, err = cli(*argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _data_sets(tmp_path, count: int = 4, seed: int = 3):
    rng = np.random.default_rng(seed)
    rows = ["true,predicted,classifier,dataset"]
    for d in range(count):
        truth = rng.integers(0, 3, 20)
        for who, right in (("good", 0.85), ("fair", 0.6), ("poor", 0.45)):
            rows += [f"{'hbn'[t]},{'hbn'[t] if rng.random() < right else 'h|b|n'},{who},s{d}" for t in truth]
    path = tmp_path / "sets.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _certainty_files(tmp_path):
    (tmp_path / "A.csv").write_text("h,b,n\n0.65,0.35,0\n0.85,0.15,0\n0.6,0.3,0.1\n0.9,0.05,0.05\n0.5,0.25,0.25\n")
    (tmp_path / "B.csv").write_text("h,b,n\n0.55,0.45,0\n0.75,0.25,0\n0.5,0.4,0.1\n0.8,0.15,0.05\n0.45,0.3,0.25\n")
    (tmp_path / "T.csv").write_text("h\nh\nb\nh\nn\n")
    return [str(tmp_path / name) for name in ("A.csv", "B.csv", "T.csv")]


MODES = {
    "four data sets, extra statistics": lambda t: ["evaluate", OBSTACLE, str(_data_sets(t)), "--extra-stats"],
    "probabilities and certainty": lambda t: ["evaluate", f"{SPECS}/accuracy-u65.yaml", "--probabilities",
                                              _certainty_files(t)[0], "--probabilities", _certainty_files(t)[1],
                                              "--truth", _certainty_files(t)[2], "--certainty"],
    "surface over two parameters": lambda t: ["evaluate", f"{EXAMPLES}/triage-two-costs.yaml", "--probabilities",
                                              f"{EXAMPLES}/triage-forest.csv", "--probabilities",
                                              f"{EXAMPLES}/triage-logistic.csv", "--truth",
                                              f"{EXAMPLES}/triage-truth.txt", "--sweep", "mu=1:10:4", "--sweep",
                                              "nu=0.1:0.5:3"],
    "abstention curves": lambda t: ["evaluate", f"{SPECS}/friedel-abstention-symbolic.yaml", "--scores",
                                    f"{ROOT}/examples/breast-cancer/scores.csv", "--sweep", "mu=0:1:3", "--sweep",
                                    "nu=0:1:3"],
    "operating conditions": lambda t: ["evaluate", f"{ROOT}/examples/operating-conditions/cost-proportion.yaml",
                                       "--scores", f"{ROOT}/examples/breast-cancer/scores.csv", "--threshold-choice",
                                       "score", "--uncertainty", "0", "--uncertainty", "inf"],
    "decide a batch": lambda t: ["decide", f"{SPECS}/accuracy-u65.yaml", "--p-file", _certainty_files(t)[0]],
}


@pytest.mark.parametrize("mode", MODES)
def test_every_float_beside_an_exact_value_is_its_correct_rounding(tmp_path, mode, cli):
    pytest.importorskip("statsmodels")
    pytest.importorskip("scikit_posthocs")
    pytest.importorskip("baycomp")
    count, wrong = _wrong(_json_record(cli, MODES[mode](tmp_path)))
    assert count >= (30 if mode == "surface over two parameters" else 1) and wrong == []


def test_the_api_records_are_scanned_too(tmp_path):
    report = verifier.evaluate(OBSTACLE, predictions=str(_data_sets(tmp_path, count=6, seed=5)))
    count, wrong = _wrong(report.to_json())
    assert count >= 18 and wrong == []


def test_equal_exact_means_get_equal_floats_and_the_float_mean_is_not_used(tmp_path, cli):
    """Under u65 a pair holding the truth costs 7/20: one such instance among three is 7/60, whose float mean
    of per-instance floats is 0.11666666666666665 (what was printed) and whose correct rounding is ...67; six
    among eighteen is the same 7/60 and must print the same float."""
    rows = ["true,predicted,classifier,dataset"] + ['h,"h,b",A,s0'] + ["h,h,A,s0"] * 2
    rows += ['h,"h,b",A,s1'] * 6 + ["h,h,A,s1"] * 12
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    record = _json_record(cli, ["evaluate", f"{SPECS}/accuracy-u65.yaml", str(path)])
    means = {s["dataset"]: (s["mean_cost"], s["mean_cost_float"]) for s in record["scores"]}
    assert means == {"s0": ("7/60", 0.11666666666666667), "s1": ("7/60", 0.11666666666666667)}


def test_the_scan_finds_a_wrong_float():
    """The scan itself: a float one ulp off its exact value is reported, in every naming it knows."""
    off = float(np.nextafter(0.2, 1))
    record = {"a": {"mean_cost": "1/5", "mean_cost_float": off}, "b": {"value": off, "exact": "1/5"},
              "c": {"statistic": off, "statistic_exact": "1/5"}, "d": {"x_float": [0.5, off], "x": ["1/2", "1/5"]}}
    count, wrong = _wrong(record)
    assert count == 5 and len(wrong) == 4


def test_rounded_is_correct_for_irrationals_and_beyond_the_floats():
    sp = pytest.importorskip("sympy")
    import mpmath

    mpmath.mp.prec = 400
    for value in (sp.sqrt(2), sp.pi, sp.log(3), sp.exp(sp.Rational(-7, 3)), sp.sqrt(2) ** -3, 1 - sp.sqrt(2)):
        assert rounded(value) == float(mpmath.mpf(sp.N(value, 120)))
    assert rounded(Fraction(10) ** 400) == float("inf") and rounded(-Fraction(10) ** 400) == float("-inf")
    assert rounded(Fraction(1, 3)) == 1 / 3 and rounded(sp.Rational(1, 10)) == 0.1
