"""Evidence in plain words, and exact numbers shown with their decimals (display only, never a decision)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from verifier.formula.notation import paper_text
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.properties import QuantifierKind
from verifier.report.text import PRINTER
from verifier.scheme import Scheme
from verifier.verdict import (
    Comparison,
    EvidenceKind,
    Optimal,
    PropertyResult,
    SetOptimality,
    SetPossibility,
    Truth,
    Verdict,
)

MAX_EXACT_CHARS = 28

NOTATION = ("Notation: c_Y(y) is the cost of predicting the set Y when the truth is y; mean_Y(y) is the mean of its "
            "members' costs c_ŷ(y), ŷ in Y; E_p[c_Y] = Σ_y p(y)·c_Y(y) is the expected cost under a distribution p. "
            "An instance is one choice of Y (and of y, y′ where the property names them). 'tight': P6 and P7 both "
            "hold, with equality everywhere; 'vacuous': nothing to check. `verify explain P4` states a property "
            "in full.")


@lru_cache(maxsize=100_000, typed=True)
def exact(value: sp.Expr) -> str:
    """sympy's text of an exact value, memoised: a 9-class matrix has 4,599 cells but a few hundred distinct
    values. Terms are printed in sympy's stored order: sorting them for display (`str`) costs ten times the
    printing itself on sums of radicals, and the value is the same."""
    return PRINTER.doprint(value)


@lru_cache(maxsize=100_000, typed=True)
def float_of(value: sp.Expr) -> float:
    """The exact value's correctly rounded float (`formula.rounded`), memoised: what JSON writes beside it."""
    return rounded(value)


@lru_cache(maxsize=100_000, typed=True)
def decimal(value: sp.Expr) -> str:
    """4 significant digits of the correctly rounded float: a display rounding, for text beside the exact value."""
    x = float_of(value)
    return f"{x:.4g}" if x != 0 else "0"


def number(value: sp.Expr, short: bool = False, bare: bool = False) -> str:
    """'1/4 (0.25)', '2', or for long irrational forms 'sqrt(2)/2 ≈ 0.7071' (short: decimals only)."""
    if isinstance(value, tuple):
        return "(" + ", ".join(number(v, short=True) for v in value) + ")"
    if not isinstance(value, sp.Rational) and symbolic(value):  # a power mean as M_p(...), never GenMean(...)
        return paper_text(value)
    if value.is_Integer:
        return exact(value)
    if short and not value.is_Rational:
        return decimal(value) if bare else "≈ " + decimal(value)
    text = exact(value)
    if short or len(text) > MAX_EXACT_CHARS:
        return ("" if value.is_Rational else "≈ ") + (text if value.is_Rational and len(text) <= 12
                                                     else decimal(value))
    return f"{text} ({decimal(value)})" if value.is_Rational else f"{text} ≈ {decimal(value)}"


@lru_cache(maxsize=100_000, typed=True)
def symbolic(value: sp.Expr) -> bool:
    """Whether the value has a free symbol (a parameter), memoised: a report shows the same margins and cells
    many times."""
    return bool(value.free_symbols)


def distribution(scheme: Scheme, values, over=None) -> str:
    """A distribution over the classes `over` (all by default) as "(a: 1/2, b: 1/2)"; for many classes only the nonzero
    values, a run of four or more equal neighbours said once."""
    over = list(range(scheme.K) if over is None else over)
    if len(over) <= 12:
        return "(" + ", ".join(f"{scheme.classes[i]}: {_text(values[k])}" for k, i in enumerate(over)) + ")"
    # many classes: the support only, and a run of at least 4 neighbouring classes with one value said once
    shown = [(k, i) for k, i in enumerate(over) if values[k] != 0]
    runs: list[list] = []  # [first class, last class, count, value]
    for k, i in shown:
        if runs and runs[-1][1] == i - 1 and runs[-1][3] == values[k]:
            runs[-1][1], runs[-1][2] = i, runs[-1][2] + 1
        else:
            runs.append([i, i, 1, values[k]])
    parts = []
    for first, last, count, value in runs:
        if count >= 4:
            parts.append(f"{scheme.classes[first]}, …, {scheme.classes[last]} ({count:,} classes): {_text(value)} "
                         "each")
        else:
            parts += [f"{scheme.classes[i]}: {_text(value)}" for i in range(first, last + 1)]
    return "(" + ", ".join(parts) + ("; 0 elsewhere)" if len(shown) < len(over) else ")")


def _text(value) -> str:
    """str(value); a rational through the memoised printer (the same text, without sympy's printer set-up
    for each of the thousands of probabilities a report shows)."""
    return exact(value) if isinstance(value, sp.Rational) else str(value)


def comparison(c: Comparison) -> str:
    """A comparison in words: its text, whether it is true, false or undecided, and the value of each side."""
    parts = [f"{side.label} = {number(side.value)}" for side in c.sides]
    verdict = {Truth.TRUE: "true", Truth.FALSE: "false", Truth.UNKNOWN: "undecided"}[c.truth]
    return f"{c.text} is {verdict} ({'; '.join(parts)})"


def possibility(scheme: Scheme, entry: SetPossibility) -> str:
    """Whether a set is possible (Definition 4), in words: the witness p, the certificate λ, or why it is undecided."""
    if entry.status is Truth.TRUE:
        p = distribution(scheme, entry.witness)
        return f"possible: p = {p} gives E_p[c_Y] below every member by {number(entry.margin, short=True)}"
    if entry.status is Truth.FALSE:
        order = sorted(entry.certificate)
        lam = distribution(scheme, [entry.certificate[h] for h in order], order)
        return f"impossible: c_Y ≥ Σ λ_ŷ c_ŷ element-wise with λ = {lam}"
    return f"undecided: {entry.reason}"


def optimality(scheme: Scheme, entry: SetOptimality) -> str:
    """Whether the set is a best prediction over all sets for some p, with its evidence."""
    if entry.status == Optimal.ALONE:
        p = distribution(scheme, entry.witness)
        by = "by at least" if entry.margin_is_bound else "by"
        gap = f", {by} {_short(entry.margin)} over the next best set" if entry.margin is not None else ""
        return f"the unique best prediction at p = {p}{gap}"
    mixture = " + ".join(f"{number(w, short=True)}·{scheme.named(z)}" for z, w in (entry.certificate or {}).items())
    if entry.status == Optimal.TIED:
        p = distribution(scheme, entry.witness)
        others = ", ".join(scheme.named(z) for z in entry.tied_with)
        return (f"a best prediction only in ties: at p = {p} it ties with {others}; it is never the unique best, "
                f"since {mixture} costs no more whatever the true class")
    if entry.status == Optimal.NEVER:
        return f"never a best prediction: {mixture} costs strictly less whatever the true class"
    return f"undecided: {entry.reason}"


def _short(value: sp.Expr) -> str:
    """A rational shown exactly when short, else as its 4-digit decimal (a bound with a huge denominator)."""
    text = str(value)
    return text if len(text) <= 12 else decimal(value)


def values(parameters: dict) -> str:
    """Parameter values as "a = 1, b = 1/2"."""
    return ", ".join(f"{k} = {number(v)}" for k, v in parameters.items())


def explain(result: PropertyResult, scheme: Scheme) -> str:
    """One paragraph: what was found, and on what it rests."""
    ev, verdict = result.evidence, result.verdict
    region = f"; it holds exactly where {result.region}" if result.region else (
        f"; it holds at other admissible values, e.g. {values(result.holds_at)}" if result.holds_at else "")
    if ev.kind == EvidenceKind.LEMMA and ev.parameters is None:
        return _by_lemma(result, scheme)
    if ev.kind == EvidenceKind.PROOF and verdict is Verdict.HOLDS:
        return "holds for every admissible parameter value (" + (result.check_note or result.reason) + ")"
    if ev.parameters is not None and verdict is Verdict.FAILS:
        concrete = PropertyResult(result.property, verdict, replace(ev, parameters=None), reason="")
        return f"fails at {values(ev.parameters)}: {explain(concrete, ev.concrete)}{region}"
    prop = result.property
    if verdict is Verdict.UNKNOWN:
        return f"undecided: {result.reason or 'no method decided it'}"
    if prop.id == "P1":
        if verdict is Verdict.HOLDS:
            entry = next(e for e in ev.possibility if e.members == ev.binding.members)
            count = sum(e.status is Truth.TRUE for e in ev.possibility)
            return (f"{scheme.named(ev.binding.members)} is {possibility(scheme, entry)}; "
                    + (f"the sets of {count:,} of the {len(ev.possibility):,} sizes are possible (by symmetry)"
                       if scheme.orbits is not None else
                       f"{count:,} of the {len(ev.possibility):,} sets built are possible (the others are not listed)"
                       if (scheme.lemma is not None and not scheme.lemma.every_set)
                       or getattr(scheme, "structured", None) is not None else
                       f"{count:,} of {len(ev.possibility):,} indeterminate sets are possible"))
        if scheme.orbits is not None:
            return (f"no indeterminate set is possible: the representative set of each of the {len(ev.possibility)} "
                    "sizes has a Ville certificate λ (listed with the sets); by symmetry so does every set")
        return (f"no indeterminate set is possible: each of the {len(ev.possibility):,} sets has a Ville "
                "certificate λ (listed with the sets)")
    where = binding_place(scheme, ev.binding) if ev.binding else ""
    if ev.kind == EvidenceKind.COUNTEREXAMPLE:
        if len(ev.comparisons) > 1 and prop.quantifiers[1].kind == QuantifierKind.EXISTS:
            rows = "; ".join(comparison(c) for c in ev.comparisons[:6])
            if len(ev.comparisons) > 6:  # many classes: every comparison is in the JSON report
                rows += f"; and {len(ev.comparisons) - 6:,} more classes alike"
            return f"fails at {where}: no class y satisfies it — {rows}"
        return f"fails at {where}: {comparison(ev.comparisons[-1])}"
    if ev.kind == EvidenceKind.WITNESS:
        return f"holds, witnessed at {where}: " + "; ".join(comparison(c) for c in ev.comparisons)
    if ev.instances == 0:
        return "holds vacuously: no class lies outside any indeterminate set, so there is nothing to check"
    extra = f"; {result.reason}" if result.reason else ""
    sets = scheme.indeterminate_sets
    scope = (f"for Y = {scheme.named(sets[0])}" if len(sets) == 1 else
             f"for all {len(sets):,} indeterminate sets")
    kind = "instance"
    if scheme.orbits is not None and scheme.orbits.symmetric:
        total = scheme.orbits.sets_represented()
        scope = (f"for all {total:,} indeterminate set{'s' if total != 1 else ''}, by symmetry one per size: "
                 f"{len(sets):,} representative set{'s' if len(sets) != 1 else ''}")
        kind = "representative instance"
    checked = f"{scope}, {ev.instances:,} {kind}{'s' if ev.instances != 1 else ''} checked exactly{extra}"
    if verdict is Verdict.HOLDS:
        return f"holds: {prop.everywhere} ({checked})"
    if prop.id == "P9" and _no_members_differ(scheme):
        return ("fails: no set has two members with different cost lists C_Y(y) ≠ C_Y(y′), so there is "
                f"nothing a set's cost could reflect ({checked})")
    return f"fails: {prop.everywhere} ({checked})"


def _no_members_differ(scheme: Scheme) -> bool:
    """True when, for every set, all members' cost lists C_Y(y) are equal as multisets (exact, rational only)."""
    if scheme.cells is not None:  # the fast path's exact multiset keys, all sets at once
        if not scheme.cells.singletons.exact.all():
            return False
        import numpy as np

        from verifier.engines.vector.pairs import multiset_ids
        from verifier.engines.vector.terms import CHUNK_CELLS, TermArrays

        terms = TermArrays(scheme.cells, lambda *_: False)
        det_ids, step = terms.det_ids(), max(1, CHUNK_CELLS // scheme.K)
        for start in range(0, terms.count, step):  # a chunk of sets at a time: ids compare within a set only
            members = terms.members[start:start + step]
            ids = multiset_ids(members, det_ids)  # equal within a set exactly when the multisets are
            first = ids[np.arange(len(members)), np.argmax(members, axis=1)]
            if not ((ids == first[:, None]) | ~members).all():
                return False
        return True
    for members in scheme.indeterminate_sets:
        lists = [scheme.members_costs(members, y) for y in sorted(members)]
        if not all(v.is_Rational for costs in lists for v in costs):
            return False
        if len({tuple(sorted(costs)) for costs in lists}) > 1:
            return False
    return True


def binding_place(scheme: Scheme, binding) -> str:
    """'Y = {a, b}, y = c': where a counterexample binds its quantifiers."""
    parts = [f"Y = {scheme.named(binding.members)}"]
    if binding.y is not None:
        parts.append(f"y = {scheme.classes[binding.y]}")
    if binding.y2 is not None:
        parts.append(f"y′ = {scheme.classes[binding.y2]}")
    return ", ".join(parts)


def _by_lemma(result: PropertyResult, scheme: Scheme) -> str:
    """A verdict for every set at once, from a lemma and premises checked on the K x K costs."""
    from verifier.engines.power_mean.lemmas import SHAPE_PREMISES, premise_words  # wording kept beside the premises

    proof, sets = result.evidence.lemma, 2 ** scheme.K - scheme.K - 1
    if proof.cases:
        empty = f"; no admissible value has {' or '.join(proof.excluded)}" if proof.excluded else ""
        shown = "; ".join(f"{text} (e.g. {values(_values_of(concrete))}): the {at.name} lemma" for text, at, concrete
                          in proof.cases)
        return (f"holds for every admissible value and all {sets:,} indeterminate sets, by cases of p = "
                f"{proof.exponent}: {shown}{empty}")
    own = [name for name in proof.premises if name not in SHAPE_PREMISES]  # the shape ones are in the notes
    premises = "; ".join(premise_words(name, proof.exponent) for name in own) or "none beyond the shape (see notes)"
    if result.verdict is Verdict.HOLDS:
        head = f"holds for all {sets:,} indeterminate sets"
    elif result.property.id == "P1":
        head = f"fails: none of the {sets:,} indeterminate sets is possible"
    else:
        head = f"fails: {result.property.everywhere} (all {sets:,} indeterminate sets)"
    if getattr(scheme, "structured", None) is not None:  # a z3 proof over sets encoded as booleans, no premises
        return f"{head}, by the {proof.name} ({proof.statement})"
    return f"{head}, by the {proof.name} lemma ({proof.statement}); premises checked exactly: {premises}"


def _values_of(scheme: Scheme) -> dict:
    return {name: value for name, value in scheme.parameters.items() if not isinstance(value, tuple)}
