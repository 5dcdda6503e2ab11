"""`verify SPEC --certificate FILE` and `Report.certificate()`: the evidence of every verdict, with the spec itself,
for the standalone checker `verifier_check` (docs/certificates.md), which derives every cost from the spec.

The certificate carries the spec (its parsed content as canonical JSON and the SHA-256 of the file's bytes), each
property's verdict with its evidence and, for a scheme without parameters, each set's Definition 4 status and
optimality with witnesses and Ville/LP dual certificates. It carries no matrix: the checker derives the cells.
A universal property that holds (and an existential one that fails) carries only its instance count; beyond
enumeration, a power-mean lemma. With parameters, a failing verdict names the exact admissible point where it
fails; a holding one carries a proof per instance valid at every admissible value (`for_all`).

Owns: `certificate`. May import: `analysis` and everything below it; nothing else of
`report`.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.pipeline import Analysis
from verifier.properties import QuantifierKind
from verifier.report.certificate.spec_content import spec_record
from verifier.verdict import EvidenceKind, Optimal, SetOptimality, SetPossibility, Truth, Verdict
from verifier.version import __version__

FORMAT, VERSION = "verify-certificate", 2
# set facts (each set's optimality against every other set) are written up to this many cells: 9 classes, 511
# sets, 4,599 cells are re-checked in about a second; a family of 505,000 cells would take hours of pairs
FACT_CELLS = 100_000
# beyond this many cells the checker is not asked to enumerate a property's instances: a lemma, where one applies
ENUMERATE_CELLS = 100_000


def certificate(analysis: Analysis) -> dict:
    """The certificate of one analysed spec, as a JSON-ready dict."""
    from verifier_check.spec import Spec

    a, s = analysis, analysis.scheme
    record = spec_record(a.spec)
    out = {"format": FORMAT, "version": VERSION, "tool": f"verify {__version__}", "spec": record}
    checked = Spec(_content(record["content"]))
    not_covered: list[dict] = []
    if s.symbolic or a.symbolic is not None:
        out["points"], out["properties"] = _points(a, checked, not_covered)
        out["also"] = _holding_points(a, out["points"])
    else:
        cells = (len(s.all_sets) if not (s.orbits is not None or s.partial) else
                 checked.family.count() + s.K) * s.K
        listed = not (s.orbits is not None or s.partial) and cells <= ENUMERATE_CELLS
        out["properties"] = {r.property.id: _numeric(r, s, listed, checked, not_covered) for r in a.results}
        if listed and cells <= FACT_CELLS:
            out["set_facts"] = _set_facts(a, not_covered)
    out["not_covered"] = not_covered
    return out


def _content(content):
    """The canonical content as the checker reads it (JSON numbers as exact rationals)."""
    import json

    from verifier_check.parse import content as read
    from verifier_check.parse import load

    return read(load(json.dumps(content)))


def rational(value) -> str:
    """An exact rational as "p/q" ("n" for an integer)."""
    q = Fraction(int(value.p), int(value.q)) if hasattr(value, "p") else Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _names(s, members) -> list[str]:
    return [s.classes[i] for i in sorted(members)]


def _instance(s, binding, with_y: bool = True) -> dict:
    out = {"Y": _names(s, binding.members)}
    if with_y and binding.y is not None:
        out["y"] = s.classes[binding.y]
    if with_y and binding.y2 is not None:
        out["y2"] = s.classes[binding.y2]
    return out


def _numeric(result, s, listed: bool, checked, not_covered: list) -> dict:
    """One property of a numeric scheme: its verdict and the evidence the checker needs."""
    from verifier_check.power_mean import SHAPES, formula_shape

    pid, verdict, e = result.property.id, result.verdict, result.evidence
    out = {"verdict": verdict.value}
    if verdict is Verdict.UNKNOWN:
        out["evidence"] = {"kind": "none", "reason": result.reason}
        return out
    universal = result.property.quantifiers[0].kind == QuantifierKind.FORALL
    if pid == "P1":
        out["evidence"] = _p1(result, s, listed)
    elif e.kind in (EvidenceKind.COUNTEREXAMPLE, EvidenceKind.WITNESS) and e.binding is not None:
        out["evidence"] = {"kind": e.kind,
                           **_instance(s, e.binding, pid != "P2" or e.kind != EvidenceKind.COUNTEREXAMPLE)}
    elif (verdict is Verdict.HOLDS) == universal and listed:
        out["evidence"] = {"kind": "enumerated", "instances": instances(result.property, s)}
    elif verdict is Verdict.HOLDS and pid in SHAPES and checked is not None and formula_shape(checked) is not None:
        out["evidence"] = {"kind": "lemma"}
    else:
        out["evidence"] = {"kind": "none", "reason": f"rests on {e.kind} evidence over a reduced scheme, which no "
                                                     "lemma the checker knows covers"}
    if out["evidence"]["kind"] == EvidenceKind.NONE:
        not_covered.append({"claim": pid, "reason": f"{pid} {verdict.value}: " + out["evidence"]["reason"]})
    return out


def _p1(result, s, listed: bool = True) -> dict:
    e = result.evidence
    if result.verdict is Verdict.HOLDS:
        entry = next((x for x in e.possibility if e.binding and x.members == e.binding.members), None)
        if entry is None or entry.witness is None:
            return {"kind": "none", "reason": "no witness distribution recorded"}
        return {"kind": "witness", "Y": _names(s, entry.members), "p": _distribution(entry.witness)}
    duals = [_dual(s, x) for x in e.possibility]
    if not listed or any(d is None for d in duals):
        return {"kind": "none", "reason": "some set has no impossibility certificate"}
    return {"kind": "impossibility", "sets": duals}


def _distribution(values) -> list[str]:
    return [rational(v) for v in values]


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


def _rational_point(values: dict) -> bool:
    """Whether every value of a point is rational (the checker reads rational points; an algebraic one is not)."""
    return all(getattr(v, "is_Rational", isinstance(v, (int, Fraction))) for v in values.values())


def _point(points: list[dict], values: dict) -> int:
    """The index of the point at these values, added when new (the checker derives its matrix)."""
    values = {k: rational(v) for k, v in (values or {}).items()}
    found = next((i for i, p in enumerate(points) if p["values"] == values), None)
    if found is None:
        points.append({"values": values})
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
        if r.verdict is not Verdict.FAILS or not r.holds_at or not _rational_point(r.holds_at):
            continue
        try:
            concrete = rebuild_at(a.scheme, r.holds_at)
        except SpecError:
            continue
        if concrete.symbolic or concrete.orbits is not None or concrete.partial:
            continue
        there = EnumerationEngine(concrete).decide(r.property)
        evidence = _numeric(there, concrete, True, None, [])["evidence"]
        if there.verdict is Verdict.HOLDS and evidence["kind"] != EvidenceKind.NONE:
            out.append({"property": r.property.id, "verdict": "holds", "at": _point(points, r.holds_at),
                        "evidence": evidence})
    return out


def _points(a: Analysis, checked, not_covered: list) -> tuple[list[dict], dict]:
    """A scheme with parameters: each failing verdict is checked at the exact point where it fails; each holding
    one carries proofs valid at every admissible value, or says why it has none."""
    from verifier.report.certificate.for_all import ForAllProver, NoProof

    s = a.scheme
    points: list[dict] = []
    props = {}
    prover = None
    for r in a.results:
        e = r.evidence
        out = {"verdict": r.verdict.value}
        concrete = e.concrete
        universal = r.property.quantifiers[0].kind == QuantifierKind.FORALL
        why = None
        if r.verdict is Verdict.FAILS and concrete is not None and not getattr(concrete, "symbolic", True) and \
                _rational_point(e.parameters or {}):
            out["at"] = _point(points, e.parameters)
            out["evidence"] = _numeric(r, concrete, True, None, [])["evidence"]
        elif r.verdict is Verdict.HOLDS and universal and instances(r.property, s) == 0:
            out["evidence"] = {"kind": "enumerated", "instances": 0}  # vacuous: no instance at any value
        elif r.verdict is Verdict.HOLDS:
            prover = prover or ForAllProver(checked)
            try:
                out["evidence"] = prover.evidence(r.property.id, _witnesses(a))
            except NoProof as exc:
                why = f"no proof valid at every admissible value was found ({exc})"
        else:
            why = r.reason or "undecided" if r.verdict is Verdict.UNKNOWN else \
                "it fails at an irrational value of the parameters only, and the checker reads rational points" \
                if concrete is not None else "the failing value was not recorded as an exact point"
        if why is not None:
            out["evidence"] = {"kind": "none", "reason": why}
            if r.verdict is not Verdict.UNKNOWN:
                not_covered.append({"claim": r.property.id, "reason": f"{r.property.id} {r.verdict.value}: {why}"})
        props[r.property.id] = out
    return points, props


def _witnesses(a: Analysis) -> list[list[Fraction]]:
    """Distributions the analysis found for possible sets (at points), to try as P1's witness at every value."""
    out = []
    for r in a.results:
        for entry in getattr(r.evidence, "possibility", None) or ():
            if entry.witness is not None and entry.status is Truth.TRUE:
                p = [Fraction(int(v.p), int(v.q)) if hasattr(v, "p") else Fraction(v) for v in entry.witness]
                if p not in out:
                    out.append(p)
    return out
