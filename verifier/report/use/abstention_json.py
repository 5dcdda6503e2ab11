"""`verify evaluate SPEC --scores FILE --format json`: the abstention cost curves as data. Grids are flat lists
in scenario order (the first swept parameter varies slowest; `shape` gives the grid), exact values as strings
("3/8") beside floats; each scenario's normal form is mu, nu (abstaining on a P instance) and nu_n (on an N
one, the same as nu unless the spec's set {P, N} costs differ by the truth); null where a scenario lies outside
the spec's assumptions; thresholds "-inf" below every score and "inf" above every score."""

from __future__ import annotations

from fractions import Fraction

from verifier.using.abstention import AbstentionCurves, ClassifierCurves, Difference, Volume


def _exact(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def _float(x: Fraction | None) -> float | None:
    return None if x is None else float(x)


def abstention_json(curves: AbstentionCurves) -> dict:
    """The abstention cost curves as JSON data: the grids, the scenarios, each classifier's curves and the
    differences."""
    return {"method": "Friedel, Rückert & Kramer: optimal abstention windows, exact (ties: the narrowest window, "
                      "else the lowest threshold)",
            "parameters": curves.parameters, "shape": [len(g) for g in curves.grids],
            "grids": [[str(x) for x in g] for g in curves.grids],
            "scenarios": [{"values": [str(v) for v in s.values], "mu": _exact(s.mu), "nu": _exact(s.nu),
                           "nu_n": _exact(s.nu_n), "excluded": s.excluded} for s in curves.scenarios],
            "classifiers": [_classifier(c) for c in curves.classifiers],
            "differences": [_difference(d) for d in curves.differences], "pairs_note": curves.note}


def _volume(v: Volume) -> dict:
    return {"exact": v.exact, "method": v.method, "low": str(v.low), "high": str(v.high),
            "value": float(v.low) if v.exact else None, "low_float": float(v.low), "high_float": float(v.high),
            "abstaining_pays": {"low": str(v.pays_low), "high": str(v.pays_high), "low_float": float(v.pays_low),
                                "high_float": float(v.pays_high)}}


def _classifier(c: ClassifierCurves) -> dict:
    windows = c.windows
    return {"classifier": c.name, "dataset": c.dataset, "n": c.n, "positives": c.positives, "negatives": c.negatives,
            "vacc": _volume(c.volume),
            "recheck": {"checked": c.recheck.checked, "scenarios": c.recheck.scenarios,
                        "disagreement": c.recheck.disagreement, "beyond_lemma_1": c.recheck.beyond_lemma,
                        "lemma_1_holds": c.recheck.lemma_holds},
            "cost": [_exact(x) for x in c.costs], "cost_float": [_float(x) for x in c.costs],
            "normalised_cost": [None if w is None else str(w.cost) for w in windows],
            "abstention_rate": [None if w is None else str(Fraction(w.abstained, c.n)) for w in windows],
            "lower": [None if t is None else str(t[0]) for t in c.thresholds],
            "upper": [None if t is None else str(t[1]) for t in c.thresholds]}


def _difference(d: Difference) -> dict:
    out = {"first": d.first.name, "second": d.second.name, "dataset": d.first.dataset,
           "first_cheaper": d.count(-1), "second_cheaper": d.count(1), "equal": d.count(0),
           "largest_advantage": {who: None if e is None else {"by": str(e[0]), "scenario": e[1]}
                                 for who, e in (("first", d.extreme(-1)), ("second", d.extreme(1)))},
           "difference": [_exact(x) for x in d.values]}
    if d.first.volume.exact and d.second.volume.exact:
        out["vacc_difference"] = str(d.first.volume.low - d.second.volume.low)
    return out
