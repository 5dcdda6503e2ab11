"""`verify SPEC --certificate FILE` and `Report.certificate()`: everything needed to re-check a numeric scheme's
verdicts and set facts without a solver, read by the standalone `verifier_check.py` (docs/certificates.md).

The certificate holds the extended matrix (exact rationals; irrational cells as expressions with enclosures),
each property's verdict with its evidence, and each set's Definition 4 status and optimality with witnesses and
Ville/LP dual certificates. A universal property that holds (and an existential one that fails) carries only
its instance count: the checker enumerates the instances itself. Schemes with parameters carry what is decided
at exact points (the matrix there and the evidence) and list the verdicts that rest on for-all proofs.
"""

from __future__ import annotations

import copy

from verifier.analysis.pipeline import Analysis
from verifier.errors import UsageError
from verifier.properties import QuantifierKind
from verifier.report.certificate.cells import cell, rational
from verifier.verdict import EvidenceKind, Optimal, SetOptimality, SetPossibility, Truth, Verdict
from verifier.version import __version__

FORMAT, VERSION = "verify-certificate", 1
# every cell is written exactly and re-derived by the checker: 100,000 cells is a 9-class scheme twenty times
# over (ordinal-l1-9: 4,599 cells, 2.3 MB, re-checked in about 3 s); beyond, the file and the check grow too long
MAX_CELLS = 100_000


def certificate(analysis: Analysis) -> dict:
    """The certificate of one analysed spec, as a JSON-ready dict."""
    a, s = analysis, analysis.scheme
    out = {"format": FORMAT, "version": VERSION, "tool": f"verify {__version__}", "spec": a.spec.path,
           "name": a.spec.name, "classes": list(s.classes), "family": _family(a)}
    not_covered: list[dict] = []
    if s.symbolic or a.symbolic is not None:
        out["parameters"] = [str(x) for x in s.symbols]
        out["sets"] = [_names(s, m) for m in s.all_sets]
        out["points"], out["properties"] = _points(a, not_covered)
        out["also"] = _holding_points(a, out["points"])
    else:
        reduced = s.orbits is not None or s.partial
        out["matrix"] = _matrix(s)
        if reduced:  # rows for some sets only (symmetry, lemmas): nothing is enumerated from them
            out["partial"] = True
        out["properties"] = {r.property.id: _numeric(r, s, reduced, not_covered) for r in a.results}
        if not reduced:
            out["set_facts"] = _set_facts(a, not_covered)
    out["not_covered"] = not_covered
    return out


def _family(a: Analysis) -> dict:
    family = a.spec.predictions
    out = {"kind": family.kind}
    if family.max_size is not None:
        out["max_size"] = family.max_size
    return out


def _names(s, members) -> list[str]:
    return [s.classes[i] for i in sorted(members)]


def _too_large(path: str, cells: int) -> UsageError:
    return UsageError(f"--certificate: {path}'s matrix has {cells:,} cells; certificates are written for up to "
                      f"{MAX_CELLS:,} (the checker re-derives each one)")


def refuse_before_analysis(spec, exact: bool = False, symmetry: bool = False, lemmas: bool = False) -> None:
    """A spec whose every set will be enumerated (no symmetry or lemma route: a restricted family, or few
    enough classes) and whose matrix is beyond MAX_CELLS: refused from the class count and family alone, before
    any analysis (a 160-class intervals spec was analysed for 43 s, then refused)."""
    from verifier.analysis.pipeline import EXACT_MAX_CLASSES, FAST_MAX_CLASSES

    K = len(spec.classes)
    numeric = all(p.value is not None for p in spec.parameters.values())
    enumerable = FAST_MAX_CLASSES if numeric and not exact else EXACT_MAX_CLASSES
    cells = (spec.predictions.count(K) + K) * K
    if not (symmetry or lemmas) and (spec.predictions.restricted or K <= enumerable) and cells > MAX_CELLS:
        raise _too_large(spec.path, cells)


def _matrix(s) -> list[dict]:
    cells = len(s.all_sets) * s.K
    if cells > MAX_CELLS:
        raise _too_large(s.spec.path, cells)
    written: dict = {}  # one encoding per distinct value: a 9-class matrix has 4,599 cells and 753 values

    def once(v):
        if v not in written:
            written[v] = cell(v)
        return copy.deepcopy(written[v])  # no two cells share an object: a caller may edit one

    return [{"set": _names(s, m), "costs": [once(v) for v in s.rows[m]]} for m in s.all_sets]


def _instance(s, binding, with_y: bool = True) -> dict:
    out = {"Y": _names(s, binding.members)}
    if with_y and binding.y is not None:
        out["y"] = s.classes[binding.y]
    if with_y and binding.y2 is not None:
        out["y2"] = s.classes[binding.y2]
    return out


def _distribution(values) -> list[str]:
    return [rational(v) for v in values]


def _numeric(result, s, reduced: bool, not_covered: list) -> dict:
    """One property of a numeric scheme: its verdict and the evidence the checker needs."""
    pid, verdict, e = result.property.id, result.verdict, result.evidence
    out = {"verdict": verdict.value}
    if verdict is Verdict.UNKNOWN:
        out["evidence"] = {"kind": "none", "reason": result.reason}
        return out
    universal = result.property.quantifiers[0].kind == QuantifierKind.FORALL
    if pid == "P1":
        out["evidence"] = _p1(result, s)
    elif e.kind in (EvidenceKind.COUNTEREXAMPLE, EvidenceKind.WITNESS) and e.binding is not None:
        out["evidence"] = {"kind": e.kind,
                           **_instance(s, e.binding, pid != "P2" or e.kind != EvidenceKind.COUNTEREXAMPLE)}
    elif (verdict is Verdict.HOLDS) == universal and not reduced:
        out["evidence"] = {"kind": "enumerated", "instances": instances(result.property, s)}
    else:
        out["evidence"] = {"kind": "none", "reason": f"rests on {e.kind} evidence over a reduced scheme"}
    if out["evidence"]["kind"] == EvidenceKind.NONE:
        not_covered.append({"claim": pid, "reason": f"{pid} {verdict.value}: " + (
            f"decided by the lemma '{e.lemma.name}' over the K x K costs, not by listing sets" if e.lemma else
            out["evidence"]["reason"])})
    return out


def _p1(result, s) -> dict:
    e = result.evidence
    if result.verdict is Verdict.HOLDS:
        entry = next((x for x in e.possibility if e.binding and x.members == e.binding.members), None)
        if entry is None or entry.witness is None:
            return {"kind": "none", "reason": "no witness distribution recorded"}
        return {"kind": "witness", "Y": _names(s, entry.members), "p": _distribution(entry.witness)}
    duals = [_dual(s, x) for x in e.possibility]
    if any(d is None for d in duals):
        return {"kind": "none", "reason": "some set has no impossibility certificate"}
    return {"kind": "impossibility", "sets": duals}


def _dual(s, entry: SetPossibility) -> dict | None:
    if entry.status is not Truth.FALSE or not entry.certificate:
        return None
    return {"Y": _names(s, entry.members),
            "lambda": {s.classes[h]: rational(v) for h, v in sorted(entry.certificate.items())}}


def instances(prop, s) -> int:
    """How many (Y, y, y′) instances the property's quantifiers range over (the checker counts them too)."""
    total = 0
    for members in s.indeterminate_sets:
        count = 1
        for q in prop.quantifiers[1:]:
            size = {"classes": s.K, "in Y": len(members), "not in Y": s.K - len(members)}[q.domain]
            count *= size - 1 if q.var == "y2" else size
        total += count
    return total


def _set_facts(a: Analysis, not_covered: list) -> list[dict]:
    s = a.scheme
    possible = {e.members: e for e in a.possibility}
    optimal = a.optimality
    out = []
    for m in s.all_sets:
        fact: dict = {"set": _names(s, m)}
        if len(m) > 1:
            fact["possible"] = _possible(s, possible.get(m))
        fact["optimal"] = _optimal(s, optimal.get(m))
        for key in ("possible", "optimal"):
            if key in fact and fact[key]["status"] == "unknown":
                not_covered.append({"claim": f"{key}({','.join(fact['set'])})",
                                    "reason": fact[key].get("reason", "undecided")})
        out.append(fact)
    return out


def _possible(s, entry: SetPossibility | None) -> dict:
    if entry is None:
        return {"status": "unknown", "reason": "not decided"}
    if entry.status is Truth.TRUE and entry.witness is not None:
        return {"status": "possible", "p": _distribution(entry.witness)}
    if entry.status is Truth.FALSE and entry.certificate:
        return {"status": "impossible", "lambda": _dual(s, entry)["lambda"]}
    return {"status": "unknown", "reason": entry.reason or "no evidence recorded"}


def _optimal(s, entry: SetOptimality | None) -> dict:
    if entry is None or entry.status == Optimal.UNKNOWN:
        return {"status": "unknown", "reason": (entry.reason if entry else "") or "not decided"}
    out: dict = {"status": entry.status}
    if entry.status in (Optimal.ALONE, Optimal.TIED):
        out["p"] = _distribution(entry.witness)
    if entry.status == Optimal.TIED:
        out["tied_with"] = [_names(s, z) for z in entry.tied_with]
    if entry.status in (Optimal.TIED, Optimal.NEVER):
        out["lambda"] = [{"set": _names(s, z), "weight": rational(v)} for z, v in entry.certificate.items()]
    return out


def _point(points: list[dict], values: dict, concrete) -> int:
    """The index of the point at these values, added (with the matrix there) when new."""
    values = {k: rational(v) for k, v in (values or {}).items()}
    found = next((i for i, p in enumerate(points) if p["values"] == values), None)
    if found is None:
        points.append({"values": values, "matrix": _matrix(concrete)})
        found = len(points) - 1
    return found


def _holding_points(a: Analysis, points: list[dict]) -> list[dict]:
    """A failing property also holds at some admissible values (`holds_at`): at each such exact point, the
    evidence that it holds there, decided by enumeration on the matrix at that value (for the reader of a
    calibration: it is not a verdict of the scheme, which fails)."""
    from verifier.engines.enumerate import EnumerationEngine
    from verifier.errors import SpecError
    from verifier.scheme.orbits import rebuild_at

    out = []
    for r in a.results:
        if r.verdict is not Verdict.FAILS or not r.holds_at:
            continue
        try:
            concrete = rebuild_at(a.scheme, r.holds_at)
        except SpecError:
            continue
        if concrete.symbolic or concrete.orbits is not None or concrete.partial:
            continue
        there = EnumerationEngine(concrete).decide(r.property)
        evidence = _numeric(there, concrete, False, [])["evidence"]
        if there.verdict is Verdict.HOLDS and evidence["kind"] != EvidenceKind.NONE:
            out.append({"property": r.property.id, "verdict": "holds", "at": _point(points, r.holds_at, concrete),
                        "evidence": evidence})
    return out


def _points(a: Analysis, not_covered: list) -> tuple[list[dict], dict]:
    """A scheme with parameters: each verdict decided at an exact point becomes a numeric claim on the matrix
    there; verdicts resting on for-all proofs are listed as not covered."""
    s = a.scheme
    points: list[dict] = []
    props = {}
    for r in a.results:
        e = r.evidence
        out = {"verdict": r.verdict.value}
        concrete = e.concrete
        universal = r.property.quantifiers[0].kind == QuantifierKind.FORALL
        # a failing verdict is existential over the parameters: one exact point decides it; a holding one is not
        if r.verdict is Verdict.FAILS and concrete is not None and not getattr(concrete, "symbolic", True):
            out["at"] = _point(points, e.parameters, concrete)
            out["evidence"] = _numeric(r, concrete, False, [])["evidence"]
        elif r.verdict is Verdict.HOLDS and universal and instances(r.property, s) == 0:
            out["evidence"] = {"kind": "enumerated", "instances": 0}  # vacuous: no instance at any value
        else:
            why = ("rests on the solvers' for-all proof over every admissible value" if r.verdict is not
                   Verdict.UNKNOWN else r.reason or "undecided")
            out["evidence"] = {"kind": "none", "reason": why}
            if r.verdict is not Verdict.UNKNOWN:
                not_covered.append({"claim": r.property.id, "reason": f"{r.property.id} {r.verdict.value}: {why}"})
        props[r.property.id] = out
    return points, props
