"""One entry point per job, each result displayed (issue 53, items 2 and 4): `abstention_curves`,
`operating_conditions`, `cost_surface` and `certainty` are exported lazily from `verifier` and `verifier.api`,
return typed results with a short repr, HTML with the console text in a monospace block (and tables where the
result is a table), JSON, text, and figures as picture objects; `extra_stats()` is a table too; `evaluate(...)`
forwards to the same entry points and gives the same JSON."""

import json
import os
import sys

import numpy as np
import pytest

import verifier
import verifier.api
from verifier.errors import UsageError
from verifier.report.output import PictureBytes

from conftest import ROOT, SPECS

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")
PROPORTION = os.path.join(ROOT, "examples", "operating-conditions", "cost-proportion.yaml")
TRIAGE = os.path.join(ROOT, "docs", "examples", "triage-two-costs.yaml")  # 3 classes, mu and nu symbolic
U65 = os.path.join(SPECS, "accuracy-u65.yaml")
NEW = ("abstention_curves", "operating_conditions", "cost_surface", "certainty", "AbstentionReport",
       "ConditionsReport", "SurfaceReport", "CertaintyReport")
PRE = '<pre class="console">'


def binary(n=30, seed=2):
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < 0.5
    return np.where(truth, "P", "N"), {"svm": rng.random(n) / 2 + truth / 2, "nb": rng.random(n) / 2 + truth / 4}


@pytest.mark.parametrize("name", NEW)
def test_the_new_names_are_exported_lazily_and_listed(name):
    assert name in verifier.__all__ and name in dir(verifier) and getattr(verifier, name) is not None
    assert name in verifier.api.__all__ and name in dir(verifier.api)
    assert getattr(verifier, name) is getattr(verifier.api, name)


def test_abstention_curves_display_as_a_typed_result_with_pictures():
    y_true, y_score = binary()
    result = verifier.abstention_curves(FRIEDEL, y_true, y_score, sweep=["mu=0:1:3", "nu=0:1:3"])
    assert isinstance(result, verifier.AbstentionReport) and isinstance(result, verifier.UseReport)
    assert repr(result).startswith("<AbstentionReport abstention cost curves of 2 classifiers") and \
        len(repr(result)) < 200
    assert result.curves is result.abstention and [c.name for c in result.curves.classifiers][:2] == ["svm", "nb"]
    html = result._repr_html_()
    assert PRE in html and "Abstention cost curves" in html
    json.dumps(result.to_json())
    one = verifier.abstention_curves(FRIEDEL, y_true, y_score["svm"], sweep=["mu=0:1:3", "nu=0:1:3"])
    figures = one.figures(formats=("svg",))  # one classifier: its maps only (each picture takes a while)
    assert figures and all(isinstance(p, PictureBytes) and p._repr_svg_().lstrip().startswith("<")
                           for p in figures.values())
    assert "<svg" in figures._repr_html_() and "bytes" in repr(next(iter(figures.values())))


def test_operating_conditions_and_cost_surfaces_display_too():
    y_true, y_score = binary()
    conditions = verifier.operating_conditions(PROPORTION, y_true, y_score, method="rate", uncertainty=[0, "inf"])
    assert isinstance(conditions, verifier.ConditionsReport) and conditions.result is conditions.conditions
    assert repr(conditions).startswith("<ConditionsReport ") and PRE in conditions._repr_html_()
    assert all(isinstance(p, PictureBytes) for p in conditions.figures(formats=("svg",)).values())
    surface = verifier.cost_surface(TRIAGE, ["benign", "malignant"], {"A": [[0.5, 0.25, 0.25], [0.25, 0.25, 0.5]]},
                                    sweep=["mu=1:2:2", "nu=1:2:2"])
    assert isinstance(surface, verifier.SurfaceReport) and repr(surface).startswith("<SurfaceReport ")
    assert PRE in surface._repr_html_() and isinstance(surface.picture("svg"), PictureBytes)


def test_evaluate_forwards_to_the_entry_points_with_the_same_json(tmp_path):
    y_true, y_score = binary()
    path = tmp_path / "scores.csv"
    path.write_text("true,svm\n" + "\n".join(f"{t},{float(s)!r}" for t, s in zip(y_true, y_score["svm"])) + "\n")
    by_evaluate = verifier.evaluate(FRIEDEL, scores=str(path), sweep_text=["mu=0:1:3", "nu=0:1:3"])
    by_entry = verifier.abstention_curves(FRIEDEL, y_score=str(path), sweep=["mu=0:1:3", "nu=0:1:3"])
    assert type(by_evaluate) is type(by_entry) and by_evaluate.to_json() == by_entry.to_json()
    probabilities = {"A": [[0.5, 0.25, 0.25], [0.25, 0.25, 0.5]]}
    surface = verifier.evaluate(TRIAGE, y_true=["benign", "malignant"], probabilities=probabilities,
                                sweep_text=["mu=1:2:2", "nu=1:2:2"])
    assert surface.to_json() == verifier.cost_surface(TRIAGE, ["benign", "malignant"], probabilities,
                                                      sweep=["mu=1:2:2", "nu=1:2:2"]).to_json()


def certainty_result():
    rng = np.random.default_rng(0)
    return verifier.certainty(U65, {"a": rng.dirichlet([1, 1, 1], size=20), "b": rng.dirichlet([2, 2, 2], size=20)},
                              rng.integers(0, 3, 20))


def test_certainty_is_a_table_with_a_short_repr_a_frame_and_a_picture():
    result = certainty_result()
    assert isinstance(result, verifier.CertaintyReport)
    line = repr(result)
    assert line.startswith("<CertaintyReport of 2 classifier(s), mean minimum certainty a 0.") and len(line) < 200
    html = result._repr_html_()
    assert "<table>" in html and "mean_min_certainty" in html and PRE in html and "Paired comparisons" in html
    assert [r["classifier"] for r in result.records()] == ["a", "b"] and result.records()[0]["rows"] == 20
    assert result.pair_records()[0]["first"] == "a"
    pandas = pytest.importorskip("pandas")
    frame = result.to_frame()
    assert isinstance(frame, pandas.DataFrame) and list(frame["classifier"]) == ["a", "b"]
    picture = result.picture("svg")
    assert isinstance(picture, PictureBytes) and picture._repr_svg_().lstrip().startswith("<")


def test_without_pandas_to_frame_says_how_to_get_it(monkeypatch):
    result = certainty_result()
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(UsageError, match=r"verify-set-costs\[frames\]"):
        result.to_frame()


def test_extra_stats_is_the_same_dict_shown_as_tables():
    truth = ["h", "b", "n"] * 10
    rng = np.random.default_rng(4)
    sets = {name: [[t] if rng.random() < 0.7 else ["h", "b", "n"] for t in truth] for name in ("x", "y", "z")}
    frame_rows = [{"true": t, "predicted": ",".join(s), "classifier": name}
                  for name, rows in sets.items() for t, s in zip(truth, rows)]
    pandas = pytest.importorskip("pandas")
    result = verifier.evaluate(U65, pandas.DataFrame(frame_rows))
    extra = result.extra_stats()
    assert isinstance(extra, dict) and "pairs" in extra and json.loads(json.dumps(extra)) == dict(extra)
    assert repr(extra).startswith("<ExtraStats pairs (3)") and len(repr(extra)) < 200
    html = extra._repr_html_()
    assert "<table>" in html and "p_bh" in html
    assert [r["section"] for r in extra.records()] == ["pairs"] * 3
    assert list(extra.to_frame().columns[:3]) == ["section", "a", "b"]
