"""The JSON report (DESIGN.md §4): exact values as strings, beside each its correctly rounded float."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import comb

from verifier import limits
from verifier.analysis.pipeline import Analysis
from verifier.analysis.remedy import how_to_fit
from verifier.lazy_sympy import sympy as sp
from verifier.properties.settings import TABLE_VIII
from verifier.report.check import words
from verifier.report.check.json_matrix import (
    MATRIX_SYMBOLIC_SETS,
    decimal_of,
    exact_text,
    matrix_rows,
    names_of,
    node_of,
)
from verifier.report.text import Streamed
from verifier.verdict import Comparison, EvidenceKind, Optimal, SetOptimality, SetPossibility, Truth
from verifier.version import __version__


def to_json(a: Analysis, streamed: bool = False) -> dict:
    """The JSON record; `streamed`: its per-set lists are made as `json_writer` writes them (nothing shared)."""
    s = a.scheme
    remedies = how_to_fit(a)
    made: dict | None = None if streamed else {}  # one rendering per set's optimality, shared by both lists
    large = len(s.all_sets) > MATRIX_SYMBOLIC_SETS  # witnesses list their nonzero classes only
    a.optimality  # decided (on first use) before the matrix's texts exist: their peaks never add up

    def listed(items: Callable[[], Iterable]) -> list | Streamed:
        return Streamed(items) if streamed else list(items())

    return {
        "spec": a.spec.path,
        "name": a.spec.name,
        "description": a.spec.description or None,
        "source": a.spec.source or None,
        "setting": a.spec.setting or None,
        "verify_version": __version__,
        "classes": list(s.classes),
        **({"predictions": s.spec.predictions.record(s.K)} if s.family_restricted else {}),
        "parameters": _parameters(a),
        "assumptions": [text for _, text in s.assumptions],
        "symbolic": a.symbolic is not None,
        "notes": list(s.notes),
        "symmetry": ({"sets": s.orbits.sets_represented(), "representatives": len(s.orbits.sets),
                      "moves_parameters": s.orbits.moves_parameters, "statement": s.orbits.describe()}
                     if s.orbits is not None else None),
        "power_mean": ({"exponent": str(s.lemma.exponent), "sets": 2 ** s.K - s.K - 1,
                        "built": len(s.indeterminate_sets), "statement": s.lemma.describe()}
                       if s.lemma is not None else None),
        "matrix": listed(lambda: matrix_rows(s)),
        "possibility": listed(lambda: (
            _possibility(s, e, large) | node_of(s, e.members)
            | {"optimal": _optimal(s, a.optimality.get(e.members), a.optimality_reason, made, large)}
            for e in _decimals_filled(s, a.possibility, large))) if a.symbolic is None else [
            {"Y": names_of(s, e.members), "status": e.status,
             "possible_at": _values(e.possible_at), "impossible_at": _values(e.impossible_at),
             "reason": e.undecided or None, "optimal": _optimal(s, a.optimality.get(e.members), _SYMBOLIC)}
            for e in a.symbolic.possibility],
        "optimality": listed(lambda: ({"Y": names_of(s, m)} | node_of(s, m) | _optimal(s, e, "", made, large)
                                      | _orbit(s, m) for m, e in a.optimality.items())),
        "determinate_never_strictly_optimal": a.determinate_never_alone if a.optimality else None,
        "properties": {r.property.id: _property(a, r) for r in a.results},
        "settings": {name: {"fits": fit.fits, "failing_necessary": fit.failing_necessary,
                            "unknown_necessary": fit.unknown_necessary, "warnings": fit.warnings,
                            "levels": TABLE_VIII[name],
                            "how_to_fit": _how_to_fit(remedies.get(name), a.scheme.orbits is not None)}
                     for name, fit in a.settings.items()},
        "decision": None if a.decision is None else {
            "variable": a.decision.variable,
            "regions": [{"from": str(r.low), "to": str(r.high), "optimal": [names_of(s, m) for m in r.optimal]}
                        for r in a.decision.regions]},
        "expect": {e.property_id: {"expected": e.expected, "actual": e.actual, "met": e.met}
                   for e in a.expectations},
        "expectations_met": a.expectations_met,
        "cross_check": [{"property": c.property_id, "reported": c.first, "second": c.second,
                         "agrees": None if c.second is None else not c.disagrees, "method": c.method,
                         "note": c.note or None, "cut": c.cut or None} for c in a.cross_checks],
        "notation": words.NOTATION,
        "seconds": round(a.seconds, 3),
    }


def streamed(a: Analysis) -> dict | None:
    """The record with `Streamed` per-set lists beyond `limits.STREAMED_FROM_CELLS` cells; None below."""
    return to_json(a, streamed=True) if len(a.scheme.all_sets) * a.scheme.K > limits.STREAMED_FROM_CELLS else None


def _orbit(s, members) -> dict:
    """By symmetry, one entry stands for every set of its size: how many share its status."""
    if s.orbits is None:
        return {}
    return {"sets_of_this_size": comb(s.K, len(members)), "same_status_as_every_set_of_this_size": True,
            "certificate_sets_stand_for": "every set with as many classes and as many of them in Y, in equal "
                                          "shares (the mixture averaged over the relabellings that fix Y)"}


def _parameters(a: Analysis) -> dict[str, str]:
    """Fixed values exactly; symbolic parameters as "symbolic"."""
    out = {}
    for name, value in a.scheme.parameters.items():
        values = value if isinstance(value, tuple) else (value,)
        names = [f"{name}[{c}]" for c in a.scheme.classes] if isinstance(value, tuple) else [name]
        out.update({n: "symbolic" if v.is_Symbol else str(v) for n, v in zip(names, values)})
    return out


def _values(values: dict | None) -> dict[str, str] | None:
    return None if values is None else {k: str(v) for k, v in values.items()}


def _decimals_filled(s, entries: list, large: bool) -> list:
    """The possibility entries, their witnesses' 4-digit margins made in one batch when there are thousands."""
    if large:
        from verifier.engines.vector.margin_decimals import fill_margin_decimals

        fill_margin_decimals(s, entries)
    return entries


def _support(witness) -> list[int]:
    """The classes of nonzero weight, sympy's zero (one object) skipped without a call: thousands of witnesses of
    100 classes, most weights zero."""
    zero = sp.S.Zero
    return [i for i, v in enumerate(witness) if v is not zero and _nonzero(v)]


def _nonzero(v) -> bool:
    """v != 0 for a witness's weight; a sympy rational by its numerator (its `!=` sympifies: 2 s of a
    14-class record)."""
    numerator = getattr(v, "p", None)
    return numerator != 0 if isinstance(numerator, int) else v != 0


def _possibility(s, e: SetPossibility, large: bool = False) -> dict:
    out = {"Y": names_of(s, e.members),
           "status": {Truth.TRUE: "possible", Truth.FALSE: "impossible", Truth.UNKNOWN: "unknown"}[e.status],
           "method": e.method}
    if e.witness is not None and large and hasattr(e, "quick_margin"):  # thousands of sets: no irrational margins
        margin = e.quick_margin()  # beside a null margin, a display rounding (4 digits) of the exact one
        shown = words.float_of(margin) if margin is not None else e.margin_decimal()
        out["witness"] = {"p": {s.classes[i]: words.exact(e.witness[i]) for i in _support(e.witness)},
                          "margin": None if margin is None else words.exact(margin),
                          "margin_decimal": shown if shown is not None else float(words.decimal(e.margin))}
    elif e.witness is not None:
        out["witness"] = {"p": {s.classes[i]: words.exact(v) for i, v in enumerate(e.witness)},
                          "margin": words.exact(e.margin), "margin_decimal": words.float_of(e.margin)}
    if e.certificate is not None:
        out["certificate"] = {"lambda": {s.classes[h]: str(v) for h, v in sorted(e.certificate.items())}}
    if e.reason:
        out["reason"] = e.reason
    return out


def _optimal(s, e: SetOptimality | None, reason: str = "", made: dict | None = None, large: bool = False) -> dict:
    """DESIGN §6 `optimal`: alone / tied / never with witness p or mixture certificate, or unknown. With `made`,
    a set's rendering is made once and its parts shared (a witness over 1,000 classes is a dict of 1,000).
    `large` (beyond 1,023 sets): a witness lists its nonzero classes only, as the possibility witnesses do."""
    if e is None:
        return {"status": "unknown", "reason": reason or "computed for numeric schemes only (fixed parameter values)"}
    if made is not None:
        if id(e) not in made:
            made[id(e)] = (e, _optimal(s, e, large=large))  # e kept beside its id: the id cannot be reused meanwhile
        return made[id(e)][1]
    out: dict = {"status": e.status}
    if e.witness is not None:
        out["witness"] = {"p": {s.classes[i]: words.exact(e.witness[i])
                                for i in (_support(e.witness) if large else range(len(e.witness)))}}
        if e.margin is not None:
            out["witness"] |= {"margin": words.exact(e.margin), "margin_decimal": words.float_of(e.margin),
                               "margin_is_lower_bound": e.margin_is_bound}
    if e.tied_with:
        out["tied_with"] = [names_of(s, z) for z in e.tied_with]
    if e.certificate:
        out["certificate"] = {"mixture": [{"Y": names_of(s, z), "weight": str(w)} for z, w in e.certificate.items()],
                              "dominates": "strictly" if e.status == Optimal.NEVER else "weakly"}
    if e.at:
        out["at"] = {name: str(v) for name, v in e.at.items()}
    if e.where is not None:
        out["where"] = [{"low": None if lo is None else str(lo), "high": None if hi is None else str(hi),
                         "status": status} for lo, hi, status in e.where]
    if e.conditions:  # each status where it holds (two or more parameters), a point there and its evidence
        out["conditions"] = [{"status": st, "where": text, "at": {n: str(v) for n, v in (at or {}).items()}} | {
            k: v for k, v in _optimal(s, found).items() if k in _EVIDENCE_KEYS} for st, text, at, found, _ in
            e.conditions]
    if e.reason:
        out["reason"] = e.reason
    return out


_EVIDENCE_KEYS = ("witness", "certificate")  # what a condition's point carries, as in `optimal`
_SYMBOLIC = ("decided across the parameters for polynomial costs on up to 6 classes (beyond, once per size when "
             "the classes are alike), and across one parameter bounded by interval assumptions on up to 5 classes; "
             "not for this scheme (fix the parameters with value: for a numeric answer)")


def _how_to_fit(remedy, representatives: bool) -> dict | None:
    return None if remedy is None else {"condition": remedy.condition, "steps": remedy.steps,
                                        "cells": remedy.cells, "cells_total": remedy.counts,
                                        "cells_total_is_lower_bound": remedy.counts_are_lower_bounds,
                                        "cells_are_representatives": representatives}


def _comparison(c: Comparison) -> dict:
    lhs, rhs = c.sides
    return {"comparison": c.text, "truth": c.truth.value, "lhs": exact_text(lhs.value), "rhs": exact_text(rhs.value),
            "lhs_decimal": decimal_of(lhs.value), "rhs_decimal": decimal_of(rhs.value)}


def _property(a: Analysis, r) -> dict:
    s, ev = a.scheme, r.evidence
    out = {"name": r.property.name, "verdict": r.verdict.value, "says": r.property.plain,
           "statement": r.property.statement(),
           "explanation": words.explain(r, s), "reason": r.reason or None, "tight": r.tight,
           "checked": r.checked, "check": r.check_note or None, "instances": ev.instances}
    if ev.lemma is not None:
        out["lemma"] = {"name": ev.lemma.name, "statement": ev.lemma.statement, "premises": list(ev.lemma.premises),
                        "exponent": str(ev.lemma.exponent)}
    if r.region or r.holds_at:
        out["region"] = r.region
        out["holds_at"] = _values(r.holds_at)
    if ev.parameters is not None:
        s = ev.concrete
    if ev.binding is not None and ev.kind in (EvidenceKind.COUNTEREXAMPLE, EvidenceKind.WITNESS):
        item: dict = {"Y": names_of(s, ev.binding.members)} | node_of(s, ev.binding.members)
        if ev.parameters is not None:
            item["parameters"] = _values(ev.parameters)
        if ev.binding.y is not None:
            item["y"] = s.classes[ev.binding.y]
        if ev.binding.y2 is not None:
            item["y2"] = s.classes[ev.binding.y2]
        if r.property.id == "P1":
            entry = next(e for e in ev.possibility if e.members == ev.binding.members)
            item.update(_possibility(s, entry))
        elif ev.comparisons:
            main = _comparison(ev.comparisons[-1])
            item.update({k: v for k, v in main.items() if k != "truth"})
            item["comparisons"] = [_comparison(c) for c in ev.comparisons]
        out["witness" if ev.kind == EvidenceKind.WITNESS else "counterexample"] = item
    if r.property.id == "P1" and ev.kind == EvidenceKind.CERTIFICATES:
        out["counterexample"] = {"certificates": [_possibility(s, e) for e in ev.possibility]}
        if ev.parameters is not None:
            out["counterexample"]["parameters"] = _values(ev.parameters)
    elif ev.parameters is not None and "counterexample" not in out:  # e.g. P9: no witness anywhere
        out["counterexample"] = {"parameters": _values(ev.parameters)}
    return out
