"""The scores behind the abstention cost curves example of docs/decide-evaluate.md: the Wisconsin breast cancer
data that ships with scikit-learn (569 tumours, 212 malignant), five classifiers, ten-fold cross-validated
probabilities of "malignant" (P, the class whose misses cost most, as Friedel et al. take it), four decimals.

    pip install scikit-learn && python3 examples/breast-cancer/make_scores.py

writes examples/breast-cancer/scores.csv (one column per classifier, and `true`). The file is committed, so the
example runs without scikit-learn; regenerating it with another scikit-learn version may change the last digits.
"""

from __future__ import annotations

import os

from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSIFIERS = {
    "tree": DecisionTreeClassifier(min_samples_leaf=5, random_state=0),
    "nb": GaussianNB(),
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "forest": RandomForestClassifier(n_estimators=200, random_state=0),
    "svm": make_pipeline(StandardScaler(), CalibratedClassifierCV(SVC(), ensemble=False)),
}


def main() -> None:
    """Score every sample by 10-fold cross-validation with each classifier and write the CSV."""
    data = load_breast_cancer()
    malignant = data.target == 0  # scikit-learn codes malignant as 0
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    columns = {}
    for name, model in CLASSIFIERS.items():
        proba = cross_val_predict(model, data.data, malignant, cv=folds, method="predict_proba")
        columns[name] = proba[:, 1]
    with open(os.path.join(HERE, "scores.csv"), "w") as handle:
        handle.write(",".join(columns) + ",true\n")
        for i, is_malignant in enumerate(malignant):
            handle.write(",".join(f"{columns[name][i]:.4f}" for name in columns) + f",{'P' if is_malignant else 'N'}\n")


if __name__ == "__main__":
    main()
