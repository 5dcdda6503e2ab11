"""`verify explain [P]`: each property in plain words, with its formula and how the two settings judge it.

The statements are those of Yang, Destercke and Masson (2017), Section IV, with the quantifier conventions
the tool uses (they are the same definitions every engine reads, printed by `Property.statement`).
"""

from __future__ import annotations

from verifier.properties.catalogue import BY_ID, PROPERTIES, resolve
from verifier.properties.settings import LEVELS, SETTINGS, TABLE_VIII
from verifier.errors import UsageError, did_you_mean
from verifier.numbers import shown

NOTATION = """\
Notation. Ω is the set of K classes; a prediction Ŷ is a non-empty subset of Ω, indeterminate when it has two
or more classes. c_Ŷ(y) is the cost of predicting Ŷ when the truth is y (one row of the extended matrix per
Ŷ); the determinate costs c_ŷ(y) are its singleton rows. c̄_Ŷ(y) is the mean of c_ŷ(y) over the members ŷ
of Ŷ (the paper's Eq. 10), C_Ŷ(y) the sorted list of those member costs, and E_p[c_Ŷ] = Σ_y p(y) c_Ŷ(y) the
expected cost under a probability p over Ω. Every property quantifies over indeterminate Ŷ only. A property
whose quantifier has nothing to range over holds *vacuously* (with two classes no y lies outside Ŷ = Ω, so
P6 and P7 hold); P6 and P7 both hold, *tight*, when c_Ŷ(y) equals the mean for every y outside Ŷ."""

MEANING = {
    "P1": "Predicting a set must sometimes be the rational choice: for some indeterminate Ŷ there is a "
          "probability p under which Ŷ costs strictly less in expectation than each of its own members "
          "(Definition 4, 'Ŷ is possible'). If no set is possible, some member is always at least as good as "
          "any set, so an expected-cost minimiser never needs to predict a set. Being possible says nothing about other sets: a possible Ŷ may still never "
          "be the overall best prediction. By Ville's theorem Ŷ is impossible exactly when c_Ŷ dominates, "
          "element-wise, some mixture Σ λ_ŷ c_ŷ of its members' rows; the tool gives that λ as a certificate.",
    "P2": "No indeterminate row may be element-wise at least the mean of its members' rows, since such a set "
          "could never be possible (Proposition 1). Equivalently, for each indeterminate Ŷ there is a true "
          "class y at which Ŷ costs strictly less than the mean of its members.",
    "P3": "Being cautious and right must pay: whenever the truth is in Ŷ, the set costs strictly less than "
          "the mean of its members' costs. It implies P2.",
    "P4": "A set never costs less than its cheapest member: whatever the truth y, predicting Ŷ costs at "
          "least what the best of its members would have cost for that y, so hedging is never rewarded beyond "
          "the best guess it hedges between.",
    "P5": "The cost of a set depends only on the costs of its members, not on the names of the classes: two "
          "true classes y and y′ that see the same multiset of member costs get the same set cost.",
    "P6": "When the truth is outside Ŷ, the set costs at least the mean of its members' costs: being "
          "indeterminate and wrong is not cheaper than being determinate and wrong, on average.",
    "P7": "The opposite choice: when the truth is outside Ŷ, the set costs at most the mean of its members' "
          "costs, so that a cautious mistake is no worse than an average determinate one.",
    "P8": "A correct set costs the same whichever of its members is the truth (for instance, the cost of a "
          "later procedure that resolves the set does not depend on the answer).",
    "P9": "The opposite of P8: for some Ŷ, two members y ≠ y′ with different member costs C_Ŷ(y) ≠ C_Ŷ(y′) "
          "give different set costs, so that a correct set still reflects how bad its other members are.",
    "P10": "A set never costs more than its most expensive member, whatever the truth: whatever the decision "
           "maker finally chooses within Ŷ, the cost cannot exceed the worst one.",
}


def explain(name: str | None = None) -> str:
    """The text `verify explain` prints: one property in full, or the list of all ten."""
    if name is None:
        lines = ["The ten properties (verify explain P4 for one in full):", ""]
        for p in PROPERTIES:
            levels = ", ".join(f"{s}: {LEVELS[TABLE_VIII[s][p.id]]}" for s in TABLE_VIII)
            lines += [f"  {p.id:<4} {p.name} ({levels})", f"       {p.plain}"]
        return "\n".join(lines + ["", NOTATION, ""])
    pid = resolve(name) if isinstance(name, str) else None
    if pid is None:
        raise UsageError(f"unknown property {shown(name)}; expected P1..P10 or a property name such as "
                         "'non-dominance' (verify explain lists them)" +
                         (did_you_mean(name, [p.name for p in PROPERTIES]) if isinstance(name, str) else ""))
    p = BY_ID[pid]
    lines = [f"{p.id} {p.name}", "", _wrap(MEANING[pid]), "", f"  {p.statement()}", "", "How the settings judge it "
             "(the paper's Table VIII):"]
    for setting, levels in TABLE_VIII.items():
        lines.append(f"  {setting}: {LEVELS[levels[pid]]} ({SETTINGS[setting]})")
    return "\n".join(lines + ["", NOTATION, ""])


def _wrap(text: str, width: int = 100) -> str:
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(out + [line])
