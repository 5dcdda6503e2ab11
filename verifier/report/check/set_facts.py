"""The two facts every report gives about each predicted set, never conflated: possible and optimal.

`possible` is Definition 4 (the set is cheaper than each of its own members for some p); `optimal` says whether
the set is the best of all sets for some p (alone, only in ties, never). Console, Markdown and HTML share
these rows and sentences; JSON has the same facts as data.
"""

from __future__ import annotations

from math import comb

from verifier.analysis.pipeline import Analysis
from verifier.report.check import words
from verifier.report.check.tables import RowList, representatives
from verifier.verdict import Truth

STATUS = {Truth.TRUE: "possible", Truth.FALSE: "impossible", Truth.UNKNOWN: "undecided"}
OPTIMAL = {"alone": "alone", "tied": "only tied", "never": "never", "unknown": "undecided"}
HEADERS = ["Y", "Def. 4", "optimal", "evidence"]
LIST_ALL_UP_TO = 1023  # sets (K <= 10); beyond, reports list the sets that are not possible and give counts


def summary(a: Analysis) -> list[str]:
    """Plain sentences: how many sets are possible, how many optimal, and what that means."""
    if a.symbolic is not None:
        first = ("Possible (Definition 4): an indeterminate set Y is possible when some distribution p makes its "
                 "expected cost lower than that of each of its own members. Below, for every admissible parameter "
                 "value.")
        if not a.optimality:
            return [first + " Which sets are optimal among all sets is decided across the parameters for "
                    "polynomial costs on up to 6 classes (beyond, once per size when the classes are alike), and "
                    "across one parameter of any formula on up to 5; "
                    "here at fixed values only (fix them with value:)."]
        counts = {k: sum(e.status == k for e in a.optimality.values()) for k in OPTIMAL}
        one = len(a.scheme.symbols) == 1
        return [first, f"Optimal among all sets, across the parameter{'' if one else 's'}: {counts['alone']:,} of "
                f"{len(a.optimality):,} sets are the unique best prediction at some admissible value, "
                f"{counts['tied']:,} best only in ties, {counts['never']:,} never best for any admissible value"
                + (f", {counts['unknown']:,} undecided" if counts["unknown"] else "")
                + (" (each row says where)." if one else " (each row gives a point where it shows" +
                   (", or the conditions on the parameters where its status changes)." if any(
                       e.conditions for e in a.optimality.values()) else ")."))]
    if a.scheme.symbolic and a.scheme.lemma is not None:
        return ["Possible (Definition 4): on the power-mean route with a symbolic exponent, sets are built only at "
                "one admissible value per case of the exponent (see P1); which sets are optimal is not decided."]
    possible = sum(e.status is Truth.TRUE for e in a.possibility)
    counts = {k: sum(e.status == k for e in a.optimality.values()) for k in OPTIMAL}
    family = a.scheme.spec.predictions.describe(a.scheme.K)
    scope = (f"the sets of {possible:,} of the {len(a.possibility):,} sizes (one representative each, by symmetry)"
             if a.scheme.orbits is not None else
             f"{possible:,} of the {len(a.possibility):,} sets built (the power-mean route lists no others)"
             if a.scheme.lemma is not None and not a.scheme.lemma.every_set else
             f"{possible:,} of {len(a.possibility):,} indeterminate sets" + (f" allowed ({family.split(':')[0]})"
                                                                       if family else ""))
    lines = [f"Possible (Definition 4): {scope} are possible, i.e. "
             "some distribution p makes the set's expected cost lower than that of each of its own members. "
             "This compares a set with its members only, not with other sets."]
    if a.optimality and a.scheme.orbits is not None:
        sizes = sorted({len(m) for m in a.optimality})
        said = "; ".join(f"{'every single class' if n == 1 else f'every set of {n}'}: "
                         f"{OPTIMAL[a.optimality[frozenset(range(n))].status]}" for n in sizes)
        lines.append(f"Optimal among the allowed sets, one status per size (by symmetry): {said}.")
    elif a.optimality:
        lines.append(f"Optimal: {counts['alone']:,} of {len(a.optimality):,} sets (singletons included) are the unique "
                     f"best prediction for some p, {counts['tied']} best only in ties with other sets, "
                     f"{counts['never']} never best" + (f", {counts['unknown']} undecided" if counts["unknown"]
                                                          else "") + ".")
    elif a.scheme.orbits is not None:
        lines.append("Optimal among all sets: not decided on the symmetry route, which builds one set per size.")
    elif a.scheme.lemma is not None:
        lines.append("Optimal among all sets: not decided on the power-mean route"
                     + ("." if a.scheme.lemma.every_set else ", which builds a few sets only."))
    else:
        among = "the allowed sets" if a.scheme.family_restricted else "all sets"
        lines.append(f"Optimal among {among}: " + (a.optimality_reason or "not decided here") + ".")
    if len(a.scheme.all_sets) > LIST_ALL_UP_TO and a.scheme.orbits is None:
        shown = len(listed_sets(a))
        lines.append(f"With {len(a.scheme.all_sets):,} sets, the table lists only the indeterminate sets that are "
                     f"not possible ({shown:,}); every set, with its witness or certificate, is in the JSON report.")
    if a.determinate_never_alone:
        lines.append("Determinate predictions are never strictly optimal: whatever p, some indeterminate set "
                     "costs no more than the best single class.")
    return lines


def listed_sets(a: Analysis) -> list:
    """Every set, or for many sets those whose Definition 4 status is not `possible`; by symmetry, the first class
    and the representative set of each size (every other set has the facts of its size's representative)."""
    if a.scheme.orbits is not None:
        return representatives(a.scheme)
    if len(a.scheme.all_sets) <= LIST_ALL_UP_TO:
        return a.scheme.all_sets
    return [e.members for e in a.possibility if e.status is not Truth.TRUE]


def rows(a: Analysis) -> RowList:
    """[Y, possible, optimal, evidence] for each listed set, singletons first (numeric schemes); made when shown."""
    s = a.scheme
    possibility = {e.members: e for e in a.possibility}

    def row(members) -> list[str]:
        entry, optimal = possibility.get(members), a.optimality.get(members)
        evidence = []
        if entry is not None:
            evidence.append("Def. 4: " + words.possibility(s, entry).split(": ", 1)[1])
        if optimal is not None:
            evidence.append("optimal: " + words.optimality(s, optimal))
        if s.orbits is not None and s.orbits.symmetric:
            evidence.insert(0, stands_for(s, members))
        return [s.named(members), STATUS[entry.status] if entry else "n/a",
                OPTIMAL[optimal.status] if optimal else "—", "; ".join(evidence)]

    return RowList(listed_sets(a), row)


def stands_for(s, members) -> str:
    """'stands for all 499,500 sets of 2, by symmetry' for a representative set of a scheme proved symmetric."""
    n = len(members)
    kind = "single classes" if n == 1 else f"sets of {n}"
    return f"stands for all {comb(s.K, n):,} {kind}, by symmetry"


def symbolic_rows(a: Analysis) -> list[list[str]]:
    """One row [set, status, evidence] per set of a symbolic scheme: where it is possible or impossible, and where
    optimal."""
    s = a.scheme
    out = []
    for e in a.symbolic.possibility:
        example = []
        if e.possible_at:
            example.append(f"possible at {words.values(e.possible_at)}")
        if e.impossible_at:
            example.append(f"impossible at {words.values(e.impossible_at)}")
        optimal = a.optimality.get(e.members)
        if optimal is not None and optimal.conditions:
            example.append("optimal: " + conditions_text(optimal.conditions))
        elif optimal is not None and (optimal.where or optimal.at):
            at = f" (e.g. at {words.values(optimal.at)})" if optimal.at else ""
            pieces = f"; by piece: {where_text(s.symbols[0], optimal.where)}" if optimal.where else ""
            example.append(f"optimal: {OPTIMAL[optimal.status]}{at}{pieces}")
        out.append([s.label(e.members), e.status, "; ".join(example) or e.undecided])
    return out


def conditions_text(conditions) -> str:
    """'alone where nu < mu/(mu + 1) (e.g. at mu = 1, nu = 1/4); only tied where …': each status with its exact
    condition on the parameters and the point where it was checked."""
    return "; ".join(f"{OPTIMAL[status]} where {text}" + (f" (e.g. at {words.values(at)})" if at else "")
                     for status, text, at, *_ in conditions)


def where_text(theta, where: list) -> str:
    """'alone for r in [0, 1/3); tied at r = 1/3; never for r in (1/3, 2]': the pieces merged into runs."""
    runs: list[list] = []
    for low, high, status in where:
        if runs and runs[-1][4] == status:
            runs[-1][1], runs[-1][3] = high, low == high
        else:
            runs.append([low, high, low == high, low == high, status])
    parts = []
    for low, high, low_in, high_in, status in runs:
        word = OPTIMAL[status]
        if low == high:
            parts.append(f"{word} at {theta} = {low}")
        else:
            parts.append(f"{word} for {theta} in {'[' if low_in else '('}{'-∞' if low is None else low}, "
                         f"{'∞' if high is None else high}{']' if high_in else ')'}")
    return "; ".join(parts)
