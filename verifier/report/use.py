"""What `verify decide` and `verify evaluate` say, as text and as JSON: exact values as exact strings, the
statistical ones (bootstrap intervals, p-values) labelled as estimates."""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.use.batch import BatchDecision
from verifier.analysis.use.compare import Friedman, PairTest
from verifier.analysis.use.credal import CredalDecision, CredalSet
from verifier.analysis.use.curves import Sweep
from verifier.analysis.use.decide import Decision
from verifier.analysis.use.evaluate import Scores
from verifier.scheme import Scheme


def names(scheme: Scheme, members) -> list[str]:
    return [scheme.classes[i] for i in sorted(members)]


def _p(scheme: Scheme, p) -> str:
    return "(" + ", ".join(f"{c}={x}" for c, x in zip(scheme.classes, p)) + ")"


def decision_json(scheme: Scheme, d: Decision) -> dict:
    return {"prediction": names(scheme, d.prediction), "optimal": [names(scheme, m) for m in d.optimal],
            "ties": len(d.optimal) > 1, "undecided": [names(scheme, m) for m in d.undecided],
            "expected_costs": {scheme.label(m): str(v) for m, v in d.expected},
            "p": {c: str(x) for c, x in zip(scheme.classes, d.p)}}


def decision_text(scheme: Scheme, d: Decision) -> str:
    if d.undecided:  # optimal among the sets whose difference was decided; say so, never claim more
        lines = [f"Best prediction for p = {_p(scheme, d.p)} among the sets compared exactly: "
                 f"{scheme.label(d.prediction)}"]
    else:
        lines = [f"Optimal prediction for p = {_p(scheme, d.p)}: {scheme.label(d.prediction)}"]
    if len(d.optimal) > 1:
        lines.append("Tied optima (equal expected cost, exactly): " + ", ".join(scheme.label(m) for m in d.optimal)
                     + f"; {scheme.label(d.prediction)} is reported: {TIE_RULE}")
    if d.undecided:
        lines.append("Not decided against it (irrational costs no certified method separated; one of them may be "
                     "cheaper or tie): " + ", ".join(scheme.label(m) for m in d.undecided))
    lines.append("Expected costs of the best candidates (exact):")
    width = max(len(scheme.label(m)) for m, _ in d.expected)
    for m, v in d.expected:
        lines.append(f"  {scheme.label(m).ljust(width)}  {v}" + (f"  ≈ {float(v):.6g}" if not v.is_Rational else ""))
    return "\n".join(lines) + "\n"


def credal_json(scheme: Scheme, credal: CredalSet, d: CredalDecision) -> dict:
    prediction = d.prediction if isinstance(d.prediction, frozenset) else frozenset(d.prediction)
    out = {"rule": d.rule, "prediction": names(scheme, prediction),
           "credal_set": {"vertices": [[str(x) for x in v] for v in credal.vertices]}}
    if credal.bounds is not None:
        out["credal_set"]["intervals"] = {c: [str(lo), str(hi)] for c, (lo, hi) in zip(scheme.classes, credal.bounds)}
    out["dominances"] = [{"better": scheme.classes[c.better], "worse": scheme.classes[c.worse], "value": str(c.value),
                          "at": None if c.at is None else [str(x) for x in c.at]} for c in d.dominances]
    out["e_admissible_at"] = {scheme.classes[i]: [str(x) for x in p] for i, p in d.witnesses.items()}
    out["undecided"] = [scheme.classes[i] for i in d.undecided]
    out["expected_costs"] = {scheme.label(m): {"lower": str(lo), "upper": str(hi)} for m, (lo, hi) in d.bounds.items()}
    if d.rule == "gamma-maximin":
        out["ties"] = [names(scheme, m) for m in d.ties]
    return out


def credal_text(scheme: Scheme, credal: CredalSet, d: CredalDecision) -> str:
    prediction = d.prediction if isinstance(d.prediction, frozenset) else frozenset(d.prediction)
    lines = [f"Credal set with {len(credal.vertices)} extreme points: " +
             "; ".join(_p(scheme, v) for v in credal.vertices)]
    lines.append(f"Prediction by {d.rule}: {scheme.label(prediction) if prediction else 'no class'}")
    if d.rule == "maximality":
        for c in d.dominances:
            lines.append(f"  {scheme.classes[c.better]} dominates {scheme.classes[c.worse]}: lower expectation of "
                         f"c_{scheme.classes[c.worse]} − c_{scheme.classes[c.better]} is {c.value} > 0, reached at "
                         f"{_p(scheme, c.at)}")
    elif d.rule == "interval-dominance":
        for c in d.dominances:
            lines.append(f"  {scheme.classes[c.better]} dominates {scheme.classes[c.worse]}: the lower expected cost of "
                         f"{scheme.classes[c.worse]} exceeds the upper one of {scheme.classes[c.better]} by {c.value}")
    elif d.rule == "e-admissibility":
        for i, p in d.witnesses.items():
            lines.append(f"  {scheme.classes[i]} is optimal at {_p(scheme, p)} (re-checked exactly)")
        for i in d.undecided:
            lines.append(f"  {scheme.classes[i]}: z3 gave no answer, so it is left out without being ruled out")
    else:
        if len(d.ties) > 1:
            lines.append("  Tied at the least upper expected cost: " + ", ".join(scheme.label(m) for m in d.ties) +
                         f"; {scheme.label(d.ties[0])} is reported: {TIE_RULE}")
        lines.append("  Expected cost of each set over the credal set, exact (gamma-maximin chooses the least upper "
                     "one):")
        rows = [(scheme.label(m), str(lo), str(hi)) for m, (lo, hi) in
                sorted(d.bounds.items(), key=lambda t: (t[1][1], len(t[0]), sorted(t[0])))]
        widths = [max(len(r[i]) for r in rows + [("set", "lower", "upper")]) for i in range(3)]
        lines.append("    " + "  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                                        for i, (h, w) in enumerate(zip(("set", "lower", "upper"), widths))))
        for row in rows:
            lines.append("    " + "  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                            for i, (v, w) in enumerate(zip(row, widths))))
    if d.rule != "gamma-maximin" and prediction in d.bounds:
        lo, hi = d.bounds[prediction]
        lines.append(f"Expected cost of {scheme.label(prediction)} over the credal set: [{lo}, {hi}] (exact)")
    return "\n".join(lines) + "\n"


def batch_json(scheme: Scheme, b: BatchDecision, rescaled: int) -> dict:
    return {"predictions": [names(scheme, m) for m in b.predictions], "optimal_counts": b.optimal_counts,
            "undecided_rows": b.undecided, "route": b.route, "rows_decided_exactly_one_by_one": b.exact_rows,
            "rows_rescaled": rescaled}


def batch_csv(scheme: Scheme, b: BatchDecision) -> str:
    """One row per instance. Class names are data: a cell a spreadsheet would run as a formula (=1+1, @SUM(A1),
    +, -, tab, carriage return first) gets a leading apostrophe (OWASP's rule against CSV injection)."""
    lines = ["row,prediction,tied_optima,undecided"]  # undecided 1: a set was not separated from it exactly
    undecided = set(b.undecided)
    for i, (m, count) in enumerate(zip(b.predictions, b.optimal_counts)):
        cell = spreadsheet_safe(",".join(names(scheme, m))).replace('"', '""')
        lines.append(f'{i},"{cell}",{count},{int(i in undecided)}')
    return "\n".join(lines) + "\n"


def spreadsheet_safe(text: str) -> str:
    """A cell that cannot start a spreadsheet formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


TIE_RULE = "among tied optima the smallest set is reported, then the first in class order"


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def scores_json(s: Scores) -> dict:
    return {"classifier": s.name, "n": s.n, "mean_cost": str(s.mean_cost), "mean_cost_float": s.mean_cost_float,
            "bootstrap_interval": {"level": s.level, "low": s.interval[0], "high": s.interval[1]},
            "determinacy": str(s.determinacy), "mean_set_size": str(s.mean_size),
            "single_set_accuracy": _frac(s.single_accuracy), "set_accuracy": str(s.set_accuracy),
            "discounted_accuracy": str(s.discounted_accuracy), "u65": str(s.u65), "u80": str(s.u80),
            "f_beta": {b: str(v) for b, v in s.f_beta.items()}}


def scores_text(scores: list[Scores]) -> list[str]:
    lines = []
    for s in scores:
        mean = str(s.mean_cost) if s.mean_cost.is_Rational else f"{s.mean_cost} ≈ {s.mean_cost_float:.6g}"
        lines += [f"{s.name} ({s.n} predictions)",
                  f"  mean cost (Eq. 4, exact)      {mean}" + (f" ≈ {s.mean_cost_float:.4f}" if s.mean_cost.is_Rational
                                                                and not s.mean_cost.is_Integer else ""),
                  f"  {int(s.level * 100)}% bootstrap interval        [{s.interval[0]:.4f}, {s.interval[1]:.4f}] "
                  "(a statistical estimate)",
                  f"  determinacy                   {s.determinacy} ≈ {float(s.determinacy):.4f}",
                  f"  mean set size                 {s.mean_size} ≈ {float(s.mean_size):.4f}",
                  "  single-set accuracy           " + ("n/a (no determinate prediction)" if s.single_accuracy
                                                          is None else f"{float(s.single_accuracy):.4f}"),
                  f"  set accuracy                  {float(s.set_accuracy):.4f}",
                  f"  discounted accuracy           {float(s.discounted_accuracy):.4f}",
                  f"  u65 / u80                     {float(s.u65):.4f} / {float(s.u80):.4f}"]
        lines += [f"  F{b}".ljust(32) + f"{float(v):.4f}" for b, v in s.f_beta.items()]
    return lines


def comparison_json(pairs: list[PairTest], friedman: Friedman | None, alpha: float) -> dict:
    """Every float is finite here (NaN is not JSON): undefined tests are left out or given as null."""
    out = {"alpha": alpha, "wilcoxon": [{"a": p.a, "b": p.b, "statistic": p.statistic, "p_value": p.p_value,
                                         "better": p.better, "note": p.note} for p in pairs]}
    if friedman is not None:
        out["friedman"] = {"statistic": friedman.statistic, "p_value": friedman.p_value,
                           "average_ranks": friedman.ranks, "nemenyi_critical_difference": friedman.critical_difference,
                           "different": [list(pair) for pair in friedman.different]}
    return out


def comparison_text(pairs: list[PairTest], friedman: Friedman | None, alpha: float) -> list[str]:
    lines = ["", f"Paired comparison of per-instance costs (Wilcoxon signed-rank, level {alpha}):"]
    for p in pairs:
        if p.p_value is None:
            lines.append(f"  {p.a} vs {p.b}: {p.note}")
        else:
            verdict = f"{p.better} costs less (significant)" if p.better else "no significant difference"
            lines.append(f"  {p.a} vs {p.b}: p = {p.p_value:.4g}; {verdict}")
    if friedman is None and len({p.a for p in pairs} | {p.b for p in pairs}) >= 3:
        lines.append("Friedman: not applicable (every classifier costs the same on every instance)")
    if friedman is not None:
        ranks = ", ".join(f"{name} {rank:.3f}" for name, rank in sorted(friedman.ranks.items(), key=lambda t: t[1]))
        lines.append(f"Friedman: p = {friedman.p_value:.4g}; average ranks (1 = cheapest): {ranks}; Nemenyi "
                     f"critical difference {friedman.critical_difference:.4f}")
        lines.append("  ranks differ significantly (Nemenyi, after a significant Friedman test): " +
                     ("; ".join(f"{a} vs {b}" for a, b in friedman.different) or "no pair"))
    return lines


def sweep_json(s: Sweep) -> dict:
    return {"parameter": s.parameter, "grid": [str(x) for x in s.grid], "excluded": [str(x) for x in s.excluded],
            "curves": [{"classifier": c.name, "mean_cost": str(c.expression), "values": c.values} for c in s.curves]}
