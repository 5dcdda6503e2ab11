"""The paper's Table VIII: how each property is judged in the filtering and the choice settings.

N necessary, D desirable, A the analyst's choice, U undesirable. A scheme fits a setting when every necessary
property holds; a failing desirable or a holding undesirable property is a warning (`analysis.fit` judges).
"""

from __future__ import annotations

from verifier.plain_enum import PlainStrEnum


class Setting(PlainStrEnum):
    """The two settings of Table VIII (a `str`: reports and JSON write the value)."""

    FILTERING = "filtering"
    CHOICE = "choice"


class Level(PlainStrEnum):
    """How a setting judges a property in Table VIII."""

    N = "N"  # necessary: the scheme fits the setting only if it holds
    D = "D"  # desirable: a warning when it fails
    A = "A"  # the analyst's choice
    U = "U"  # undesirable: a warning when it holds


LEVELS = {"N": "necessary", "D": "desirable", "A": "analyst's choice", "U": "undesirable"}
SETTINGS = {
    "filtering": "the set prediction filters the classes before a costlier procedure decides among them, so it "
                 "must contain the true class, or that procedure runs for nothing",
    "choice": "the set prediction is a cautious answer given to a decision maker, who may choose within it or "
              "gather more information; a set is valuable information even when it misses the true class",
}
TABLE_VIII = {
    "filtering": dict(zip([f"P{i}" for i in range(1, 11)], "N D N N D N U D U A".split())),
    "choice": dict(zip([f"P{i}" for i in range(1, 11)], "N D N N D A A U D N".split())),
}
