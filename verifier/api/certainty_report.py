"""`decide --certainty`: the decisions, with the certainty and doubt of each (Berenbeim et al.) and, for two
classes, the exact certainty margin below which the scheme predicts both (`using.margin`)."""

from __future__ import annotations

from verifier.using import BatchDecider, DistributionFile
from verifier.using.certainty import BlockCertainty, block_certainty, doubt_cost, pairwise
from verifier.using.decide import decide as decide_precise
from verifier.using.margin import two_class_margin
from verifier.api.use import UseReport, as_p
from verifier.errors import UsageError
from verifier.report.use import certainty as words
from verifier.report.use import decisions


def decide_with_certainty(scheme, p, p_file) -> UseReport:
    """`decide` for `p` or every row of `p_file`, with certainty columns, their summary and the margin."""
    if p is None and p_file is None:
        raise UsageError("--certainty goes with --p or --p-file (a precise distribution), not a credal set")
    margin = two_class_margin(scheme)
    margin_text = margin.text() if margin is not None else None
    if p is not None:
        d = decide_precise(scheme, as_p(p, scheme.classes))
        record = decisions.decision_json(scheme, d)
        j, chi, delta = pairwise(d.p)
        record["certainty"] = {"top": scheme.classes[j],
                               "pairwise_certainty": {c: str(x) for c, x in zip(scheme.classes, chi)},
                               "pairwise_doubt": {c: "inf" if x is None else str(x)
                                                  for c, x in zip(scheme.classes, delta)},
                               "tie": any(x is None for x in delta), "doubt_cost": doubt_cost(chi, j),
                               "note": words.NOTE}
        others = [x for i, x in enumerate(chi) if i != j]
        least = min(others) if others else None
        lines = [f"Certainty of {scheme.classes[j]} over each other class (exact): "
                 + ", ".join(f"{c} {x}" for i, (c, x) in enumerate(zip(scheme.classes, chi)) if i != j),
                 f"Minimum certainty {least}, maximum doubt "
                 + ("inf (a tie for the top class)" if least == 0 else f"{1 / least}" if least is not None else "0")
                 + f"; doubt cost θ ≈ {doubt_cost(chi, j):.6g} rad"]
        if margin is not None:
            record["certainty"]["margin"] = margin.to_json()
            lines.append(margin_text)
        return UseReport(decisions.decision_text(scheme, d) + "\n".join(lines) + "\n", record, record["prediction"])
    source, decider = DistributionFile(p_file, scheme.classes), BatchDecider(scheme)
    parts = []
    for rows in source.blocks():
        decider.add(rows)
        parts.append(block_certainty(rows))
    c = BlockCertainty.join(parts)
    summary = decider.result.summary()
    record = decisions.batch_json(scheme, decider.result, source.rescaled, summary)
    record["certainty"] = {"summary": words.summary_json(c), "rows": words.rows_json(scheme.classes, c)}
    if margin is not None:
        record["certainty"]["margin"] = margin.to_json()
    extra = words.columns(scheme.classes, c, lambda x: '"' + decisions.spreadsheet_safe(x).replace('"', '""') + '"')
    return UseReport(decisions.batch_csv(scheme, decider.result, extra), record, record["predictions"],
                     summary_text=decisions.summary_text(scheme, summary) + words.summary_text(c, margin_text))
