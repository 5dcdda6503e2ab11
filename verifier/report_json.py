"""The JSON report (DESIGN.md §4): exact values as strings, decimals beside them."""

from __future__ import annotations

from . import __version__
from . import evidence_text as words
from .analysis import Analysis
from .desirability import TABLE_VIII
from .verdict import Comparison, SetPossibility, Truth


def _exact(value) -> str | list[str]:
    if isinstance(value, tuple):
        return [_exact(v) for v in value]
    return str(value)


def _decimal(value) -> float | list[float]:
    if isinstance(value, tuple):
        return [_decimal(v) for v in value]
    return float(words.decimal(value))


def to_json(a: Analysis) -> dict:
    s = a.scheme
    return {
        "spec": a.spec.path,
        "name": a.spec.name,
        "verify_version": __version__,
        "classes": list(s.classes),
        "parameters": _parameters(a),
        "notes": list(s.notes),
        "matrix": [{"Y": _names(s, m), "costs": [_exact(v) for v in s.rows[m]],
                    "decimal": [_decimal(v) for v in s.rows[m]], "from": s.origin[m]} for m in s.all_sets],
        "possibility": [_possibility(s, e) for e in a.possibility],
        "properties": {r.property.id: _property(a, r) for r in a.results},
        "settings": {name: {"fits": fit.fits, "failing_necessary": fit.failing_necessary,
                            "unknown_necessary": fit.unknown_necessary, "warnings": fit.warnings,
                            "levels": TABLE_VIII[name]} for name, fit in a.settings.items()},
        "decision": None if a.decision is None else {
            "variable": a.decision.variable,
            "regions": [{"from": str(r.low), "to": str(r.high), "optimal": [_names(s, m) for m in r.optimal]}
                        for r in a.decision.regions]},
        "expect": {e.property_id: {"expected": e.expected, "actual": e.actual, "met": e.met}
                   for e in a.expectations},
        "expectations_met": a.expectations_met,
        "seconds": round(a.seconds, 3),
    }


def _names(s, members) -> list[str]:
    return [s.classes[i] for i in sorted(members)]


def _parameters(a: Analysis) -> dict[str, str]:
    out = {}
    for name, value in a.scheme.parameters.items():
        if isinstance(value, tuple):
            out.update({f"{name}[{c}]": str(v) for c, v in zip(a.scheme.classes, value)})
        else:
            out[name] = str(value)
    return out


def _possibility(s, e: SetPossibility) -> dict:
    out = {"Y": _names(s, e.members),
           "status": {Truth.TRUE: "possible", Truth.FALSE: "impossible", Truth.UNKNOWN: "unknown"}[e.status],
           "method": e.method}
    if e.witness is not None:
        out["witness"] = {"p": {s.classes[i]: str(v) for i, v in enumerate(e.witness)},
                          "margin": str(e.margin), "margin_decimal": float(words.decimal(e.margin))}
    if e.certificate is not None:
        out["certificate"] = {"lambda": {s.classes[h]: str(v) for h, v in sorted(e.certificate.items())}}
    if e.reason:
        out["reason"] = e.reason
    return out


def _comparison(c: Comparison) -> dict:
    lhs, rhs = c.sides
    return {"comparison": c.text, "truth": c.truth.value, "lhs": _exact(lhs.value), "rhs": _exact(rhs.value),
            "lhs_decimal": _decimal(lhs.value), "rhs_decimal": _decimal(rhs.value)}


def _property(a: Analysis, r) -> dict:
    s, ev = a.scheme, r.evidence
    out = {"name": r.property.name, "verdict": r.verdict.value, "statement": r.property.statement(),
           "explanation": words.explain(r, s), "reason": r.reason or None, "tight": r.tight,
           "checked": r.checked, "check": r.check_note or None, "instances": ev.instances}
    if ev.binding is not None and ev.kind in ("counterexample", "witness"):
        item: dict = {"Y": _names(s, ev.binding.members)}
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
        out["witness" if ev.kind == "witness" else "counterexample"] = item
    if r.property.id == "P1" and ev.kind == "certificates":
        out["counterexample"] = {"certificates": [_possibility(s, e) for e in ev.possibility]}
    return out
