"""`decide --p 'h=1.5,b=-2,n=0' --logits`: one row of logits, decided exactly on its softmax by the machinery of
`--p-file --logits` (`using.LogitDecider`: floats screen under a proven bound; Lindemann–Weierstrass for exact
ties, arb balls otherwise), with `--certainty` the paper's raw certainty and doubt of the logits, exact."""

from __future__ import annotations

import math

import numpy as np

from verifier.api.use.report import UseReport
from verifier.report.use import TIE_RULE, names
from verifier.report.use import certainty as words
from verifier.using import LogitDecider, raw_certainty
from verifier.using.certainty import two_class_margin
from verifier.using.inputs import logit_row, raw_pairwise


def decide_logit_row(scheme, value, certainty: bool = False) -> UseReport:
    """The optimal set at p = softmax(y) for one row y of logits (text, a dict or a list)."""
    rows = logit_row(value, scheme.classes)
    decider = LogitDecider(scheme)
    decider.add(rows)
    result = decider.result
    y, prediction, count = rows.row(0), result.predictions[0], result.tied_optima[0]
    undecided = bool(result.undecided)
    shown = "(" + ", ".join(f"{c}={x}" for c, x in zip(scheme.classes, y)) + ")"
    with np.errstate(over="ignore"):  # 1e308 - (-1e308) is -inf here, and its weight 0 is right to a float
        weights = [math.exp(x) for x in (rows.floats[0] - rows.floats[0].max()).tolist()]  # for reading only
    approx = [w / sum(weights) for w in weights]
    how = ("compared exactly (Lindemann–Weierstrass for ties, certified balls otherwise)" if result.exact_rows
           else "separated by floats under a proven bound")
    lines = [f"{'Best prediction among the sets compared exactly' if undecided else 'Optimal prediction'} for "
             f"p = softmax(y), y = {shown}: {scheme.named(prediction)}",
             f"p is irrational; the decision is exact ({how}); p ≈ ("
             + ", ".join(f"{c}={x:.6g}" for c, x in zip(scheme.classes, approx)) + ")"]
    if count > 1:
        lines.append(f"Tied optima (equal expected cost, exactly): {count:,} sets; {scheme.named(prediction)} is "
                     f"reported: {TIE_RULE}")
    if undecided:
        lines.append("Some set was not separated from it (irrational costs no certified method separated)")
    record: dict = {"prediction": names(scheme, prediction), "ties": count > 1, "tied_optima": count,
                    "undecided": undecided, "logits": {c: str(x) for c, x in zip(scheme.classes, y)},
                    "p_approx": dict(zip(scheme.classes, approx)), "route": result.route,
                    "decided_exactly": bool(result.exact_rows)}
    if certainty:
        lines += _certainty(scheme, rows, y, record)
    return UseReport("\n".join(lines) + "\n", record, record["prediction"])


def _certainty(scheme, rows, y, record: dict) -> list[str]:
    """The raw certainty and doubt of the row (exact; the doubt cost a float), added to `record`."""
    j, xi, rho = raw_pairwise(y)
    theta = float(raw_certainty(rows).theta[0])
    others = [x for i, x in enumerate(xi) if i != j]
    least = min(others) if others else None
    record["certainty"] = {"top": scheme.classes[j], "raw": True,
                           "pairwise_raw_certainty": {c: str(x) for c, x in zip(scheme.classes, xi)},
                           "pairwise_raw_doubt": {c: "inf" if x is None else str(x)
                                                  for c, x in zip(scheme.classes, rho)},
                           "tie": any(x is None for x in rho), "raw_doubt_cost": theta, "note": words.RAW_NOTE}
    top = scheme.classes[j]
    about = "" if record["prediction"] == [top] else \
        f"; about {top}, not the optimal set {{{', '.join(record['prediction'])}}}"
    lines = [f"Raw certainty of the largest logit's class {top} over each other class (y_{top} − y_i, exact{about}): "
             + ", ".join(f"{c} {x}" for i, (c, x) in enumerate(zip(scheme.classes, xi)) if i != j),
             f"Minimum raw certainty {least}, maximum raw doubt "
             + ("inf (a tie for the top logit)" if least == 0 else f"{1 / least}" if least is not None else "0")
             + f"; raw doubt cost θ ≈ {theta:.6g} rad"]
    margin = two_class_margin(scheme)
    if margin is not None:
        record["certainty"]["margin"] = margin.to_json()
        lines.append(margin.text() + " " + words.RAW_MARGIN)
    return lines
