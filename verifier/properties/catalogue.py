"""The ten properties of Yang, Destercke and Masson, *The costs of indeterminacy: how to determine them?*
(IEEE Trans. Cybernetics, 2017), written once, as data: a quantifier prefix and an atom each (see
`statement`). Every engine and the checker read these definitions; none keeps its own copy.
"""

from __future__ import annotations

import re

from verifier.properties.statement import Both, Compare, Implies, Possible, Property, Quantifier, QuantifierKind, Term


def _all(var, domain):
    return Quantifier(QuantifierKind.FORALL, var, domain)


def _some(var, domain):
    return Quantifier(QuantifierKind.EXISTS, var, domain)


COST, MEAN, MIN, MAX, SORTED = Term("cost"), Term("mean"), Term("min"), Term("max"), Term("sorted")
COST2, SORTED2 = Term("cost", "y2"), Term("sorted", "y2")
EVERY_Y = _all("Y", "indeterminate")

PROPERTIES: tuple[Property, ...] = (
    Property("P1", "possibility", (_some("Y", "indeterminate"),), Possible(),
             "some indeterminate set is possible: for some p it costs less in expectation than each of "
             "its members (Definition 4)",
             everywhere="no indeterminate set is possible: for every p, some member costs no more in expectation"),
    Property("P2", "indeterminacy permissiveness", (EVERY_Y, _some("y", "classes")), Compare("<", COST, MEAN),
             "no indeterminate row is element-wise >= the mean of its members' rows",
             everywhere="every indeterminate set costs less than the mean of its members for at least one true class"),
    Property("P3", "reward rightful cautiousness", (EVERY_Y, _all("y", "in Y")), Compare("<", COST, MEAN),
             "a set containing the truth costs strictly less than the mean of its members' costs",
             everywhere="every set costs strictly less than the mean of its members whenever it contains the truth"),
    Property("P4", "non-dominance", (EVERY_Y, _all("y", "classes")), Compare(">=", COST, MIN),
             "a set never costs less than its cheapest member",
             everywhere="no set costs less than its cheapest member, whatever the true class"),
    Property("P5", "permutation invariance", (EVERY_Y, _all("y", "classes"), _all("y2", "classes")),
             Implies(Compare("==", SORTED, SORTED2), Compare("==", COST, COST2)),
             "true classes with the same multiset of member costs get the same set cost",
             everywhere="each set's cost depends only on the multiset of its members' costs, not on class names"),
    Property("P6", "mistake aversion", (EVERY_Y, _all("y", "not in Y")), Compare(">=", COST, MEAN),
             "a wrong set costs at least the mean of its members' costs",
             everywhere="every set that misses the truth costs at least the mean of its members' costs"),
    Property("P7", "cautiousness seeking", (EVERY_Y, _all("y", "not in Y")), Compare("<=", COST, MEAN),
             "a wrong set costs at most the mean of its members' costs",
             everywhere="every set that misses the truth costs at most the mean of its members' costs"),
    Property("P8", "correctness cost-insensitivity", (EVERY_Y, _all("y", "in Y"), _all("y2", "in Y")),
             Compare("==", COST, COST2),
             "a set costs the same whichever of its members is the truth",
             everywhere="every correct set costs the same whichever of its members is the truth"),
    Property("P9", "correctness cost-sensitivity",
             (_some("Y", "indeterminate"), _some("y", "in Y"), _some("y2", "in Y")),
             Both(Compare("!=", SORTED, SORTED2), Compare("!=", COST, COST2)),
             "some set's cost depends on which of its members is the truth, for two members whose own cost "
             "lists differ",
             everywhere="the cost of a correct set-valued prediction never depends on which member is true, even "
                        "between members whose own costs differ"),
    Property("P10", "upper boundedness", (EVERY_Y, _all("y", "classes")), Compare("<=", COST, MAX),
             "a set never costs more than its most expensive member",
             everywhere="no set costs more than its most expensive member, whatever the true class"),
)

BY_ID = {p.id: p for p in PROPERTIES}


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


_ALIASES = {_norm(p.id): p.id for p in PROPERTIES} | {_norm(p.name): p.id for p in PROPERTIES}
_ALIASES |= {f"property {p.number}": p.id for p in PROPERTIES} | {str(p.number): p.id for p in PROPERTIES}


def resolve(name: str) -> str | None:
    """Map 'P3', 'p3', '3', 'reward rightful cautiousness' or 'reward_rightful_cautiousness' to 'P3'."""
    return _ALIASES.get(_norm(str(name)))
