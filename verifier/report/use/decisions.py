"""What `verify decide` says, as text, JSON and CSV: the optimal set for a distribution, for each row of a batch,
or for a credal set under a rule (one, or one per row of a file), and a batch's summary, every value exact; how a
tie was resolved is always said."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from verifier.errors import counted
from verifier.formula.rounded import rounded
from verifier.scheme import Scheme
from verifier.using import CredalDecision, CredalSet, Decision
from verifier.using.decide import BatchDecision, BatchSummary, CredalRow
from verifier.using.decide.credal import Rule
from verifier.using.inputs.probabilities import total_text


def names(scheme: Scheme, members) -> list[str]:
    """The names of a set's classes, in class order."""
    return [scheme.classes[i] for i in sorted(members)]


def _hierarchy(scheme: Scheme) -> bool:
    return scheme.hierarchy is not None


def _node(scheme: Scheme, members) -> dict:
    """Over a hierarchy, the predicted node's name beside its classes (null: unnamed, or a single class)."""
    return {"prediction_node": scheme.node(members) if members else None} if _hierarchy(scheme) else {}


def _p(scheme: Scheme, p) -> str:
    return "(" + ", ".join(f"{c}={x}" for c, x in zip(scheme.classes, p)) + ")"


def decision_json(scheme: Scheme, d: Decision) -> dict:
    """A decision for one distribution p as JSON data: the prediction, the tied optima, the undecided sets and the
    expected costs."""
    return {"prediction": names(scheme, d.prediction), "optimal": [names(scheme, m) for m in d.optimal],
            **_node(scheme, d.prediction), "ties": len(d.optimal) > 1,
            "undecided": [names(scheme, m) for m in d.undecided],
            "expected_costs": {scheme.label(m): str(v) for m, v in d.expected},
            "p": {c: str(x) for c, x in zip(scheme.classes, d.p)}}


def rescaled_sentence(total) -> str:
    """The line that says a typed distribution summed to 1 only within the tolerance, and what was decided on."""
    return (f"The given probabilities sum to {total_text(total)}, within 1e-6 of 1: p above is them divided by "
            "their exact sum.\n")


def decision_text(scheme: Scheme, d: Decision) -> str:
    """A decision for one distribution p in words: the prediction, any ties and undecided sets, and the expected costs
    of the best candidates."""
    if d.undecided:  # optimal among the sets whose difference was decided; say so, never claim more
        lines = [f"Best prediction for p = {_p(scheme, d.p)} among the sets compared exactly: "
                 f"{scheme.named(d.prediction)}"]
    else:
        lines = [f"Optimal prediction for p = {_p(scheme, d.p)}: {scheme.named(d.prediction)}"]
    if len(d.optimal) > 1:
        lines.append("Tied optima (equal expected cost, exactly): " + ", ".join(scheme.named(m) for m in d.optimal)
                     + f"; {scheme.named(d.prediction)} is reported: {TIE_RULE}")
    if d.undecided:
        lines.append("Not decided against it (irrational costs no certified method separated; one of them may be "
                     "cheaper or tie): " + ", ".join(scheme.named(m) for m in d.undecided))
    lines.append("Expected costs of the best candidates (exact):")
    width = max(len(scheme.named(m)) for m, _ in d.expected)
    for m, v in d.expected:
        lines.append(f"  {scheme.named(m).ljust(width)}  {v}" + (f"  ≈ {rounded(v):.6g}" if not v.is_Rational else ""))
    return "\n".join(lines) + "\n"


def credal_json(scheme: Scheme, credal: CredalSet, d: CredalDecision) -> dict:
    """A decision under a credal set as JSON data: the prediction by its rule, the dominances and witnesses, and the
    expected cost bounds."""
    prediction = d.prediction if isinstance(d.prediction, frozenset) else frozenset(d.prediction)
    out = {"rule": d.rule, "prediction": names(scheme, prediction), **_node(scheme, prediction),
           "credal_set": {"vertices": [[str(x) for x in v] for v in credal.vertices]}}
    if credal.bounds is not None:
        out["credal_set"]["intervals"] = {c: [str(lo), str(hi)] for c, (lo, hi) in zip(scheme.classes, credal.bounds)}
    out["dominances"] = [{"better": scheme.classes[c.better], "worse": scheme.classes[c.worse], "value": str(c.value),
                          "at": None if c.at is None else [str(x) for x in c.at]} for c in d.dominances]
    out["e_admissible_at"] = {scheme.classes[i]: [str(x) for x in p] for i, p in d.witnesses.items()}
    out["undecided"] = [scheme.classes[i] for i in d.undecided]
    out["expected_costs"] = {scheme.label(m): {"lower": str(lo), "upper": str(hi)} for m, (lo, hi) in d.bounds.items()}
    if d.rule == Rule.GAMMA_MAXIMIN:
        out["ties"] = [names(scheme, m) for m in d.ties]
    if scheme.family_restricted:
        out["in_family"] = len(prediction) == 1 or prediction in scheme.rows
    return out


def credal_text(scheme: Scheme, credal: CredalSet, d: CredalDecision) -> str:
    """A decision under a credal set in words: its extreme points, the prediction by its rule and why each class is kept
    or dominated."""
    prediction = d.prediction if isinstance(d.prediction, frozenset) else frozenset(d.prediction)
    lines = [f"Credal set with {len(credal.vertices):,} extreme points: " +
             "; ".join(_p(scheme, v) for v in credal.vertices)]
    lines.append(f"Prediction by {d.rule}: {scheme.named(prediction) if prediction else 'no class'}")
    if scheme.family_restricted and len(prediction) > 1 and prediction not in scheme.rows:
        lines.append("  Note: this set of undominated classes is not an allowed prediction of the spec's family "
                     f"({scheme.spec.predictions.describe(scheme.K).split(':')[0]}); gamma-maximin chooses among "
                     "the allowed sets")
    if d.rule == Rule.MAXIMALITY:
        for c in d.dominances:
            lines.append(f"  {scheme.classes[c.better]} dominates {scheme.classes[c.worse]}: lower expectation of "
                         f"c_{scheme.classes[c.worse]} − c_{scheme.classes[c.better]} is {c.value} > 0, reached at "
                         f"{_p(scheme, c.at)}")
    elif d.rule == Rule.INTERVAL_DOMINANCE:
        for c in d.dominances:
            lines.append(f"  {scheme.classes[c.better]} dominates {scheme.classes[c.worse]}: the lower expected cost "
                         f"of {scheme.classes[c.worse]} exceeds the upper one of {scheme.classes[c.better]} "
                         f"by {c.value}")
    elif d.rule == Rule.E_ADMISSIBILITY:
        for i, p in d.witnesses.items():
            lines.append(f"  {scheme.classes[i]} is optimal at {_p(scheme, p)} (re-checked exactly)")
        for i in d.undecided:
            lines.append(f"  {scheme.classes[i]}: z3 gave no answer, so it is left out without being ruled out")
    else:
        if len(d.ties) > 1:
            lines.append("  Tied at the least upper expected cost: " + ", ".join(scheme.named(m) for m in d.ties) +
                         f"; {scheme.named(d.ties[0])} is reported: {TIE_RULE}")
        lines.append("  Expected cost of each set over the credal set, exact (gamma-maximin chooses the least upper "
                     "one):")
        rows = [(scheme.named(m), str(lo), str(hi)) for m, (lo, hi) in
                sorted(d.bounds.items(), key=lambda t: (t[1][1], len(t[0]), sorted(t[0])))]
        widths = [max(len(r[i]) for r in rows + [("set", "lower", "upper")]) for i in range(3)]
        lines.append("    " + "  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                                        for i, (h, w) in enumerate(zip(("set", "lower", "upper"), widths))))
        for row in rows:
            lines.append("    " + "  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                            for i, (v, w) in enumerate(zip(row, widths))))
    if d.rule != Rule.GAMMA_MAXIMIN and prediction in d.bounds:
        lo, hi = d.bounds[prediction]
        lines.append(f"Expected cost of {scheme.named(prediction)} over the credal set: [{lo}, {hi}] (exact)")
    return "\n".join(lines) + "\n"


def batch_json(scheme: Scheme, b: BatchDecision, rescaled: int, summary: BatchSummary) -> dict:
    """A batch of decisions as JSON data: each row's prediction, the ties and undecided rows, the route taken and the
    summary."""
    shown: dict = {}  # a set's names, made once per distinct set (a million rows predict a few hundred sets)
    predictions = [shown[m] if m in shown else shown.setdefault(m, names(scheme, m)) for m in b.predictions]
    nodes = {",".join(names(scheme, m)): scheme.node(m) for m in shown} if _hierarchy(scheme) else None
    return {"predictions": predictions, **({"nodes": nodes} if nodes is not None else {}), "tied_optima": b.tied_optima,
            "undecided_rows": b.undecided, "route": b.route, "rows_decided_exactly_one_by_one": b.exact_rows,
            "rows_rescaled": rescaled, "summary": summary_json(scheme, summary)}


CSV_BLOCK = 10_000  # lines formatted at a time: a million rows never hold a million line texts at once


def batch_csv(scheme: Scheme, b: BatchDecision,
              extra: tuple[str, str, list] | tuple[str, str, list, tuple] | None = None) -> str:
    """The whole CSV of `batch_csv_blocks`, as one text."""
    return "".join(batch_csv_blocks(scheme, b, extra))


def batch_csv_blocks(scheme: Scheme, b: BatchDecision,
                     extra: tuple[str, str, list] | tuple[str, str, list, tuple] | None = None) -> Iterator[str]:
    """The batch CSV as texts of `CSV_BLOCK` lines (the header first), made as they are read: the command line
    writes each and lets it go, never holding a million lines at once. One row per instance. Class names are
    data: a cell a spreadsheet would run as a formula (=1+1, @SUM(A1), +, -, tab, carriage return first) gets a
    leading apostrophe (OWASP's rule against CSV injection). `extra`:
    (header, %-format of its cells, one list or numpy array of values per column[, (v, text): the last column's
    usual value and its text]) appended to every line (the certainty columns; a block whose last column is v
    throughout has the text in its format instead: the `tie` column, 0 but on a tie for the top class). Each line
    is one %-format of its values, block by block (no text per cell, no join per line, and Python numbers made for
    one block at a time: a million rows)."""
    head = "row,prediction,tied_optima,undecided"  # undecided 1: a set was not separated from it exactly
    n = len(b.predictions)
    cells = {m: _set_cell(scheme, m) for m in set(b.predictions)}  # each distinct set's cell, made once
    common = {m: cell + ",1,0" for m, cell in cells.items()}  # with its usual tied_optima 1 and undecided 0
    undecided: dict[int, list[int]] = {}  # block -> its rows with an undecided comparison (offsets in the block)
    for i in b.undecided:
        undecided.setdefault(i // CSV_BLOCK, []).append(i % CSV_BLOCK)
    line, columns, usual = "%d,%s", [range(n), b.predictions], None
    if extra is not None:
        head += "," + extra[0]
        line += "," + extra[1]
        columns += extra[2]
        usual = extra[3] if len(extra) > 3 else None
    fmt = (line + "\n").__mod__
    plain = (line.rsplit(",", 1)[0] + "," + usual[1] + "\n").__mod__ if usual is not None else None
    yield head + "\n"
    for start in range(0, n, CSV_BLOCK):
        block = [c[start:start + CSV_BLOCK] for c in columns]
        same = usual is not None and bool(np.all(block[-1] == usual[0]))  # the last column's usual value throughout
        block = [x.tolist() if hasattr(x, "tolist") else x for x in (block[:-1] if same else block)]  # numbers for %
        block[1] = [common[m] for m in block[1]]
        ties = b.tied_optima[start:start + CSV_BLOCK]
        unsure = undecided.get(start // CSV_BLOCK, [])
        for i in [i for i, t in enumerate(ties) if t != 1] + unsure:  # the few rows with tied optima or unsure
            block[1][i] = f"{cells[b.predictions[start + i]]},{ties[i]},{int(i in unsure)}"
        yield "".join(map(plain if same else fmt, zip(*block)))


def _set_cell(scheme: Scheme, members) -> str:
    return '"' + spreadsheet_safe(",".join(names(scheme, members))).replace('"', '""') + '"'


def credal_batch_json(scheme: Scheme, rule: str, rows: list[CredalRow], lines: list[int],
                      summary: BatchSummary) -> dict:
    """A batch of credal decisions as JSON data: each row's prediction, undecided classes and expected cost bounds, with
    the summary."""
    detail = []
    for r, line in zip(rows, lines):
        item = {"line": line, "prediction": names(scheme, r.prediction),
                "undecided": [scheme.classes[i] for i in r.undecided],
                "expected_cost": None if r.cost is None else {"lower": str(r.cost[0]), "upper": str(r.cost[1])}}
        if rule == Rule.GAMMA_MAXIMIN:
            item["ties"] = [names(scheme, m) for m in r.ties]
        detail.append(item)
    out = {"rule": rule, "predictions": [d["prediction"] for d in detail], "rows": detail,
           "summary": summary_json(scheme, summary)}
    if scheme.family_restricted:  # undominated classes need not form an allowed set; gamma-maximin's always do
        out["outside_family"] = sum(len(r.prediction) > 1 and frozenset(r.prediction) not in scheme.rows
                                    for r in rows)
    return out


def credal_batch_csv(scheme: Scheme, rule: str, rows: list[CredalRow]) -> str:
    """One row per credal set: the prediction (spreadsheet-safe), the rule, how many sets tie at gamma-maximin's
    optimum (1 otherwise) and how many classes z3 left undecided (e-admissibility)."""
    lines = ["row,prediction,rule,tied_sets,undecided_classes"]
    for i, r in enumerate(rows):
        lines.append(f"{i},{_set_cell(scheme, r.prediction)},{rule},{max(1, len(r.ties))},{len(r.undecided)}")
    return "\n".join(lines) + "\n"


def summary_json(scheme: Scheme, s: BatchSummary) -> dict:
    """A batch's summary as JSON data: the sets predicted and how often, determinacy, mean set size, ties and undecided
    rows."""
    return {"rows": s.rows, "predicted_sets": [{"set": names(scheme, m), "count": n}
                                                   | ({"node": scheme.node(m)} if _hierarchy(scheme) else {})
                                                   for m, n in s.predicted],
            "determinacy": str(s.determinacy), "determinacy_float": float(s.determinacy),
            "mean_set_size": str(s.mean_size), "mean_set_size_float": float(s.mean_size),
            "rows_with_ties": s.rows_with_ties, "rows_with_undecided": s.rows_with_undecided}


SHOWN_SETS = 20  # sets listed in the text summary (the JSON lists them all)


def summary_text(scheme: Scheme, s: BatchSummary) -> str:
    """A few lines for standard error, so that the CSV on standard output stays clean."""
    shown = ", ".join(f"{scheme.named(m)} {n}" for m, n in s.predicted[:SHOWN_SETS])
    more = f", and {len(s.predicted) - SHOWN_SETS:,} more" if len(s.predicted) > SHOWN_SETS else ""
    return (f"Summary of {counted(s.rows, 'row')}:\n"
            f"  predicted sets, most frequent first: {shown}{more}\n"
            f"  determinacy (single-class predictions): {s.determinacy} ≈ {float(s.determinacy):.4f}\n"
            f"  mean set size: {s.mean_size} ≈ {float(s.mean_size):.4f}\n"
            f"  rows with ties: {s.rows_with_ties}; rows with undecided comparisons: {s.rows_with_undecided}\n")


def spreadsheet_safe(text: str) -> str:
    """A cell that cannot start a spreadsheet formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


TIE_RULE = "among tied optima the smallest set is reported, then the first in class order"
