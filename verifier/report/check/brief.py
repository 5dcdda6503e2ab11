"""One line per verdict: what the compact console, the directory summary and the Markdown summary say about a
property, in the paper's terms. Only what the evidence shows (the full evidence is in `words.explain`, behind
`-v` and in every report file); a line that does not fit the width ends with "…", never with a guess."""

from __future__ import annotations

from verifier.errors import counted
from verifier.report.check import words
from verifier.scheme import Scheme
from verifier.verdict import EvidenceKind, PropertyResult, Verdict

MARK = {Verdict.HOLDS: "✓", Verdict.FAILS: "✗", Verdict.UNKNOWN: "?"}


def reason(result: PropertyResult, scheme: Scheme) -> str:
    """Why, in one clause: where it fails, what witnesses it, what proves it, or why it is undecided."""
    ev, verdict, prop = result.evidence, result.verdict, result.property
    region = f"; holds exactly where {result.region}" if result.region else ""
    if verdict is Verdict.UNKNOWN:
        return "undecided: " + (result.reason or "no method decided it")
    if ev.kind == EvidenceKind.LEMMA and ev.parameters is None:
        if getattr(scheme, "structured", None) is not None:
            found = "counterexample" if verdict is Verdict.HOLDS else "set that has it"
            return (f"{'holds' if verdict is Verdict.HOLDS else 'fails'} for every set: z3 finds no {found} over "
                    f"sets encoded as {scheme.K} booleans (unsat at every size)")
        lemma = ev.lemma.name if ev.lemma is not None else "a lemma"
        return (f"{'holds' if verdict is Verdict.HOLDS else 'fails'} for every set, by the {lemma} lemma "
                f"(premises checked on the {scheme.K} x {scheme.K} costs)")
    if ev.kind == EvidenceKind.PROOF and verdict is Verdict.HOLDS:
        return "for every admissible parameter value (proof)"
    if ev.parameters is not None and verdict is Verdict.FAILS:
        at = words.values(ev.parameters)
        where = (f", {words.binding_place(ev.concrete, ev.binding)}" if ev.binding is not None
                 and ev.concrete is not None else "")
        return f"fails at {at}{where}{region}"
    if prop.id == "P1":
        if verdict is Verdict.HOLDS and ev.binding is not None:
            return f"{scheme.named(ev.binding.members)} is possible: some p makes it strictly cheaper than each member"
        return "no indeterminate set is possible (a Ville certificate for each)"
    if ev.kind == EvidenceKind.COUNTEREXAMPLE and ev.binding is not None:
        return f"fails at {words.binding_place(scheme, ev.binding)}" + (f" ({_cells(ev)})" if _cells(ev) else "")
    if ev.kind == EvidenceKind.WITNESS and ev.binding is not None:
        return f"witnessed at {words.binding_place(scheme, ev.binding)}"
    if ev.instances == 0:
        return "holds vacuously: nothing to check"
    scope = (f"{scheme.orbits.sets_represented():,} sets by symmetry" if scheme.orbits is not None and
             scheme.orbits.symmetric else f"all {len(scheme.indeterminate_sets):,} indeterminate sets")
    checked = f"{scope}, {ev.instances:,} instances checked exactly"
    return (checked if verdict is Verdict.HOLDS else f"fails everywhere: {checked}") + \
        (" (tight: equality everywhere)" if result.tight else "")


def _cells(ev) -> str:
    if len(ev.comparisons) != 1:
        return ""
    return words.comparison(ev.comparisons[0])


def fit_line(fit) -> str:
    """'fits', or what keeps the scheme from fitting, in one clause."""
    if fit.fits is True:
        return "fits" + (f", with {counted(len(fit.warnings), 'warning')}: " + "; ".join(fit.warnings)
                         if fit.warnings else "")
    if fit.fits is False:
        return "does not fit: necessary " + ", ".join(fit.failing_necessary) + \
            (" fail" if len(fit.failing_necessary) > 1 else " fails")
    return "undecided: necessary " + ", ".join(fit.unknown_necessary) + " undecided"


def clip(text: str, width: int) -> str:
    """One line of at most `width` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[:max(1, width - 1)].rstrip() + "…"
