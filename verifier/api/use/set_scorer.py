"""`scorer(spec)`: the verified scheme as a scikit-learn scorer, so that model selection optimises it.

    >>> from sklearn.model_selection import cross_val_score            # doctest: +SKIP
    >>> cross_val_score(model, X, y, scoring=verifier.scorer("specs/accuracy-u65.yaml"))   # doctest: +SKIP

A scorer is a callable `(estimator, X, y) -> float` (scikit-learn's protocol; scikit-learn itself is not
needed): it asks the fitted estimator for `predict_proba(X)`, predicts each row's optimal set under the scheme
exactly as `decide` does (ties: the smallest optimal set, then class order), and scores the sets against `y`.
Greater is better, as scikit-learn expects: the default measure, the mean cost, is returned negated
(`neg_mean_cost`, as scikit-learn's `neg_log_loss`); u65, u80 and the accuracies are returned as they are.
The estimator's `classes_` are matched to the spec's classes by name (or as indices 0..K-1); a class it never
saw in its training fold gets probability 0.
"""

from __future__ import annotations

import numpy as np

from verifier.api.use.report import Source
from verifier.api.use.route import use_route
from verifier.errors import UsageError
from verifier.formula.rounded import rounded
from verifier.numbers import shown
from verifier.using import column_order, predict_sets, rows_from_array, score

MEASURES = {"mean_cost": "negated mean cost (Eq. 4)", "u65": "u65", "u80": "u80",
            "discounted_accuracy": "discounted accuracy", "set_accuracy": "set accuracy"}


class SetScorer:
    """A scikit-learn scorer for the scheme of one spec (built once, reused for every fold)."""

    def __init__(self, source: Source, measure: str = "mean_cost"):
        if measure not in MEASURES:
            raise UsageError(f"measure {shown(measure)}: expected one of {', '.join(MEASURES)}")
        self.route = use_route(source, "verifier.scorer")  # the route verify decide --p-file decides on
        self.spec, self.scheme = self.route.spec, self.route.deciding_scheme()  # (its refusal, if it decides none)
        self.measure = measure

    def __repr__(self) -> str:
        return f"SetScorer({self.spec.name!r}, {MEASURES[self.measure]})"

    def __call__(self, estimator, X, y) -> float:
        """The score of the fitted `estimator` on `X` against the true classes `y`: its rows' optimal sets under
        the scheme, measured (greater is better; the mean cost negated)."""
        if not hasattr(estimator, "predict_proba"):
            raise UsageError(f"{type(estimator).__name__} has no predict_proba: the scorer decides sets from class "
                             "probabilities")
        classes = self.scheme.classes
        labels = [_plain(v) for v in getattr(estimator, "classes_", range(len(classes)))]
        y = [_plain(v) for v in y]
        # one reading for the estimator's labels and y together: by name, or as indices 0..K-1
        index = dict(zip(dict.fromkeys(labels + y), column_order(list(dict.fromkeys(labels + y)), classes,
                                                                 "estimator.classes_ and y")))
        order = [index[v] for v in labels]
        rows = rows_from_array(estimator.predict_proba(X), self.scheme.K, "predict_proba(X)", order)
        truth = np.array([index[v] for v in y], dtype=np.int64)
        decided = predict_sets(self.scheme, rows, truth, "estimator", "predict_proba(X)", self.route.decider)
        s = score(self.route.costs, decided.predictions)
        if self.measure == "mean_cost":
            return -rounded(s.mean_cost)  # the exact mean, rounded once
        return float(getattr(s, self.measure))


def _plain(v):
    return v.item() if hasattr(v, "item") else v


def scorer(source: Source, measure: str = "mean_cost") -> SetScorer:
    """A scikit-learn scorer (`scoring=` in cross_val_score, GridSearchCV) for the scheme of `source`."""
    return SetScorer(source, measure)
