"""The power-mean route with a symbolic exponent (p-discounted costs with r a parameter): by cases of p.

The lemmas of `engines.power_mean.lemmas` depend on p only through the signs of p and p - 1, so the reals split into
five cases (p < 0, p = 0, 0 < p < 1, p = 1, p > 1). z3 finds an admissible parameter value in each case the
assumptions allow, or proves the case empty. At each such value the numeric route decides every property
exactly. Then, for every admissible value at once:
  - a property failing at one of those values fails (the counterexample is there, at those values);
  - a "for every set" property the lemmas prove in every non-empty case holds: inside a case the lemmas'
    premises do not depend on p, and the empty cases hold no admissible value;
  - otherwise (P1, P8, P9 settled by a set found at one value only) it is unknown.
For P2, P3, P6 and P7 the lemmas are exact, so where it holds is the union of its cases.

Owns: `analyse_power_mean_symbolic`, `CASES`. May import: `engines`, `check`, `scheme`, `verdict`,
`properties`, `analysis.power_mean_route`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import z3

from verifier import limits
from verifier.analysis.power_mean_route import build_power_mean_scheme
from verifier.check.checker import check_results
from verifier.engines.power_mean.shapes import shape_of
from verifier.engines.smt.translate import Translator, Unsupported, model_value
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES, QuantifierKind
from verifier.scheme import Scheme
from verifier.verdict import Evidence, EvidenceKind, LemmaProof, PropertyResult, Verdict

CASES: tuple[tuple[str, Callable[[sp.Expr], sp.Basic]], ...] = (
    ("p < 0", lambda p: sp.Lt(p, 0)), ("p = 0", lambda p: sp.Eq(p, 0)),
    ("0 < p < 1", lambda p: sp.And(sp.Gt(p, 0), sp.Lt(p, 1))), ("p = 1", lambda p: sp.Eq(p, 1)),
    ("p > 1", lambda p: sp.Gt(p, 1)))


def admissible_points(scheme: Scheme, p: sp.Expr, timeout_ms: int):
    """[(case, value dict or None (empty case) or "unknown")] for the five cases of p."""
    translator = Translator(z3.Context())
    assumptions = [translator.boolean(c) for c, _ in scheme.assumptions]
    points = []
    for text, condition in CASES:
        solver = z3.Solver(ctx=translator.ctx)
        solver.set("timeout", limits.question_ms(timeout_ms))
        solver.add(*assumptions, translator.boolean(condition(p)), *translator.side)
        answer = solver.check()
        if answer == z3.unsat:
            points.append((text, None))
        elif answer == z3.sat:
            model = solver.model()
            values = {}
            for symbol in scheme.symbols:
                value = model.eval(translator.var(symbol.name), model_completion=True)
                values[symbol.name] = model_value(value)
            points.append((text, values if all(v.is_Rational for v in values.values()) else "unknown"))
        else:
            points.append((text, "unknown"))
    return points


def analyse_power_mean_symbolic(scheme: Scheme, timeout_ms: int,
                                decide: Callable[[Scheme], list[PropertyResult]]) -> list[PropertyResult]:
    """Every property for every admissible value; `decide(concrete)` runs the numeric route, checked."""
    p = scheme.lemma.exponent
    try:
        points = admissible_points(scheme, p, timeout_ms)
    except Unsupported as exc:
        return [PropertyResult(q, Verdict.UNKNOWN, Evidence("none"), reason=f"z3 cannot express the assumptions "
                               f"or the exponent ({exc})") for q in PROPERTIES]
    cases = []
    for text, values in points:
        if isinstance(values, dict):
            concrete = build_power_mean_scheme(scheme.spec, values=values)
            cases.append((text, values, concrete, {r.property.id: r for r in decide(concrete)}))
    undecided = [text for text, values in points if values == "unknown"]
    empty = tuple(text for text, values in points if values is None)
    out = []
    for prop in PROPERTIES:
        universal = prop.quantifiers[0].kind == QuantifierKind.FORALL
        failing = [c for c in cases if c[3][prop.id].verdict is Verdict.FAILS]
        if failing:
            text, values, concrete, results = failing[0]
            result = results[prop.id]
            evidence = replace(result.evidence, parameters=values, concrete=concrete)
            found = PropertyResult(prop, Verdict.FAILS, evidence, reason=result.reason, checked=result.checked,
                                   check_note=result.check_note, tight=result.tight)
            holding = [c for c in cases if c[3][prop.id].verdict is Verdict.HOLDS]
            if holding:
                found.holds_at = holding[0][1]
                shape = shape_of(prop)
                if shape is not None and shape.exact and not undecided:  # the lemmas alone decide it, by case
                    found.region = " or ".join(c[0] for c in holding) + f", where p = {p}"
            out.append(found)
            continue
        proofs = [(c[0], c[3][prop.id].evidence.lemma, c[2]) for c in cases
                  if c[3][prop.id].verdict is Verdict.HOLDS and c[3][prop.id].evidence.kind == EvidenceKind.LEMMA]
        if universal and cases and not undecided and len(proofs) == len(cases):
            proof = LemmaProof("power mean, by cases of p", "in each case of p the assumptions allow, the "
                               "lemma holds: " + "; ".join(f"{t}: the {lp.name} lemma" for t, lp, _ in proofs),
                               tuple(sorted({n for _, lp, _ in proofs for n in lp.premises})), p,
                               cases=tuple(proofs), excluded=empty)
            held = PropertyResult(prop, Verdict.HOLDS, Evidence("lemma", lemma=proof),
                                  reason=f"by the power-mean lemmas in every admissible case of p = {p}")
            check_results(scheme, [held])  # the cases re-checked: coverage and empty ones by z3, premises exactly
            out.append(held)
            continue
        why = (f"z3 could not settle whether p may be {', '.join(undecided)}" if undecided else
               "no admissible value was found" if not cases else
               "it holds at the values checked, one per case of p, but the lemmas do not prove it for every "
               "admissible value")
        out.append(PropertyResult(prop, Verdict.UNKNOWN, Evidence("none"), reason=f"undecided: {why}"))
    return out
