"""What `--certainty` says: the certainty and doubt of each decision (Berenbeim et al.) as CSV columns, their
distribution on standard error, and JSON. A tie for the top class is infinite doubt: "inf" in the CSV and in
JSON (a string, JSON has no infinity), with a `tie` flag decided exactly. The values are floats (see
`using.certainty.rows`); what is exact is said so."""

from __future__ import annotations

import math
import textwrap

import numpy as np

from verifier.report.text import ShortestFloats
from verifier.using.certainty import BlockCertainty
from verifier.using.exact import exact_mean

HEADER = "top,min_certainty,max_doubt,doubt_cost,tie"
RAW_HEADER = "top,min_raw_certainty,max_raw_doubt,raw_doubt_cost,tie"  # --logits: on the logits themselves
OUTCOME_WORDS = {"right": "a singleton holding the truth", "wrong": "a singleton without it",
                 "indeterminate": "a set of two or more classes"}
LEVELS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
NOTE = ("certainty χ_i = p_top − p_i, doubt 1/χ_i (Berenbeim et al.); minimum certainty = p_top − second "
        "largest, "
        "maximum doubt its reciprocal (inf on an exact tie for the top), doubt cost θ = arcsin((1 − Π)/(1 + Π)), "
        "Π = Π_i≠top χ_i², in radians; values are floats, ties are decided exactly")
RAW_NOTE = ("raw certainty ξ_i = y_top − y_i on the logits y, raw doubt 1/ξ_i (Berenbeim et al.); minimum raw "
            "certainty = y_top − second largest logit, maximum raw doubt its reciprocal (inf on an exact tie for the "
            "top), raw doubt cost θ = arcsin((1 − Π)/(1 + Π)), Π = Π_i≠top ξ_i², in radians, in (−π/2, π/2] (ξ is "
            "not bounded by 1); the decisions are on softmax(y), exactly; values are floats, ties are decided exactly")
RAW_MARGIN = "With --logits, for two classes p_top − p_other = tanh(ξ/2), ξ the raw certainty."


def columns(classes: tuple[str, ...], c: BlockCertainty, cell, raw: bool = False) -> tuple[str, str, list, tuple]:
    """(header, %-format of the cells, one numpy array of values per column, the tie column's usual value and
    text) for the batch CSV; `cell` makes a
    class name spreadsheet-safe. The minimum certainty and the doubt cost in full (the shortest text that reads back
    as the same float, `report.text.float_text`: with many classes θ differs from π/2 only in late digits); the
    maximum doubt, its reciprocal, to 6 significant digits ("inf" on a tie). `raw`: the columns are the raw variants
    (--logits)."""
    names = np.array([cell(x) for x in classes], dtype=object)
    values = [names[c.top], ShortestFloats(c.min_certainty), c.max_doubt, ShortestFloats(c.theta),
              c.tied.astype(np.uint8)]  # lists block by block
    return RAW_HEADER if raw else HEADER, "%s,%s,%.6g,%s,%d", values, (0, "0")  # tie: 0 but on a tie


def _float(x: float) -> float | str:
    return "inf" if math.isinf(x) else float(x)


def quantiles(values: np.ndarray) -> dict[str, float | str]:
    """Quantiles that are values of the data (inverted CDF: no interpolation, so an infinite doubt stays inf)."""
    if len(values) == 0:
        return {}
    q = np.quantile(values, LEVELS, method="inverted_cdf")
    return {f"q{int(round(100 * level))}": _float(v) for level, v in zip(LEVELS, q.tolist())}


def summary_json(c: BlockCertainty, raw: bool = False) -> dict:
    """The distribution of a block's certainty; `raw`: on logits (the keys stay, the note says raw). Each mean
    is the exact mean of the rows' floats (the values printed per row), rounded once (`using.exact.float_mean`)."""
    finite = c.max_doubt[~c.tied]
    return {"rows": len(c), "ties": int(c.tied.sum()), "tie_share": int(c.tied.sum()) / len(c) if len(c) else 0.0,
            "min_certainty": {"mean": exact_mean(c.min_certainty),
                              "quantiles": quantiles(c.min_certainty)},
            "max_doubt": {"quantiles": quantiles(c.max_doubt),
                          "median_of_finite": float(np.median(finite)) if len(finite) else None},
            "doubt_cost": {"mean": exact_mean(c.theta), "quantiles": quantiles(c.theta)},
            "note": RAW_NOTE if raw else NOTE}


def rows_json(classes: tuple[str, ...], c: BlockCertainty) -> dict:
    """Per row, in the JSON record (infinite doubt as the string "inf", with `tie` true)."""
    doubt = c.max_doubt.tolist()
    for i in np.flatnonzero(c.tied).tolist():
        doubt[i] = "inf"
    return {"top": np.array(classes, dtype=object)[c.top].tolist(), "min_certainty": c.min_certainty.tolist(),
            "max_doubt": doubt, "doubt_cost": c.theta.tolist(), "tie": c.tied.tolist()}


def _line(label: str, q: dict, digits: int = 4) -> str:
    shown = ", ".join(f"{k} {v if isinstance(v, str) else f'{v:.{digits}g}'}" for k, v in q.items())
    return f"  {label}: {shown}\n"


def summary_text(c: BlockCertainty, margin_text: str | None = None, raw: bool = False,
                 summary: dict | None = None) -> str:
    """A few lines for standard error: the distribution of minimum certainty, maximum doubt and doubt cost
    (`summary`: `summary_json(c)` when already made, so that a million rows are not ranked twice)."""
    summary = summary or summary_json(c, raw)
    what, r = ("Raw certainty and doubt, on the logits,", "raw ") if raw else ("Certainty and doubt", "")
    out = (f"{what} of {len(c):,} row(s), of each row's most probable class over the others (Berenbeim et al.; "
           "floats, ties exact):\n"
           f"  ties for the top class (infinite doubt): {int(c.tied.sum())}\n"
           + _line(f"minimum {r}certainty (quantiles)", summary["min_certainty"]["quantiles"])
           + _line(f"maximum {r}doubt (quantiles)", summary["max_doubt"]["quantiles"])
           + _line(f"{r}doubt cost θ, radians (quantiles; π/2 ≈ 1.570796327 on a tie)",
                   summary["doubt_cost"]["quantiles"], 10))
    if margin_text:
        out += "  " + margin_text + "\n"
    return out


def _f(x) -> str:
    return "—" if x is None else x if isinstance(x, str) else f"{x:.4g}"


def classifier_json(c, raw: bool = False) -> dict:
    """One classifier of `evaluate --certainty` (`using.evaluate.certainty_eval.ClassifierCertainty`)."""
    summary = summary_json(c.certainty, raw)
    if len(c.certainty):  # the exact minimum certainties' mean, rounded once (decide's batches: the floats')
        summary["min_certainty"]["mean"] = c.mean_min_certainty()
    return {"classifier": c.name, **summary, "by_outcome": c.by_outcome()}


def pair_json(p) -> dict:
    """A paired comparison of two classifiers' minimum certainties (the Wilcoxon signed-rank test) as JSON data."""
    return {"first": p.first, "second": p.second, "rows": p.rows, "rows_differing": p.nonzero,
            "median_difference_first_minus_second": p.median_difference, "statistic": p.statistic,
            "p_value": p.p_value, "test_favours": p.favours, "test": p.test, "why_not": p.why_not or None}


def favour_words(p) -> str:
    """The side the signed ranks favour, and the median's when that is the other one."""
    if p.favours is None:
        return "the signed ranks favour neither"
    median = p.first if p.median_difference > 0 else p.second if p.median_difference < 0 else None
    return f"the signed ranks favour {p.favours} (more certain)" + (
        f", yet the median difference favours {median}" if median not in (None, p.favours) else "")


SUMMARY_FROM = 3  # classifiers from which the default text is a table, one line per classifier


def evaluation_summary(classifiers: list, pairs: list, alpha: float, raw: bool = False) -> str:
    """With many classifiers, the default text: one line per classifier (rows, ties, mean minimum certainty,
    median maximum doubt, rows right / wrong / indeterminate) and which pairs differ; the full text with -v."""
    r = "raw " if raw else ""
    rows = [["classifier", "rows", "ties", f"mean min {r}certainty", f"median max {r}doubt",
             "right/wrong/set"]]
    for c in classifiers:
        s, o = summary_json(c.certainty), c.by_outcome()
        mean = s["min_certainty"]["mean"] if not len(c.certainty) else c.mean_min_certainty()
        median = s["max_doubt"]["quantiles"].get("q50")
        rows.append([c.name, f"{len(c.certainty):,}", f"{s['ties']:,}", _f(mean), _f(median),
                     "/".join(f"{o[k]['rows']:,}" for k in ("right", "wrong", "indeterminate"))])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [("Raw certainty and doubt (on the logits; decisions on their softmax)" if raw else "Certainty and doubt")
             + " of each decision: of the most probable class over the others (Berenbeim et al.; floats, ties for "
             "the top class exact):"]
    lines += [("  " + "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))))
              .rstrip() for row in rows]
    lines.append("  right: a singleton holding the truth; wrong: a singleton without it; set: two or more classes")
    tested = [p for p in pairs if not p.why_not]
    differ = [f"{p.first} vs {p.second}: " + favour_words(p).removeprefix("the signed ranks favour ")
              for p in tested if p.p_value < alpha]
    lines += textwrap.wrap(f"Paired Wilcoxon on each row's minimum {r}certainty: {len(tested):,} of {len(pairs):,} "
                           f"pairs tested, {len(differ):,} differ at {alpha}" +
                           (": " + "; ".join(differ) if differ else "") + ".", 110, initial_indent="  ",
                           subsequent_indent="    ", break_on_hyphens=False, break_long_words=False)
    lines.append("  Quantiles, each outcome and each pair's test: verify evaluate -v, or --format json.")
    return "\n".join(lines) + "\n"


def evaluation_text(classifiers: list, pairs: list, alpha: float, raw: bool = False) -> str:
    """Per classifier: the distribution of minimum certainty and maximum doubt, and how they relate to being
    right; then each pair's paired test."""
    lines = [("Raw certainty and doubt (on the logits; decisions on their softmax)" if raw else "Certainty and doubt")
             + " of each decision: of the most probable class over the others (Berenbeim et al.; floats, ties for "
             "the top class exact):"]
    for c in classifiers:
        s = summary_json(c.certainty)
        lines.append(f"  {c.name}: {len(c.certainty):,} rows, {s['ties']:,} tie(s) for the top class (infinite doubt)")
        r = "raw " if raw else ""
        lines.append("  " + _line(f"minimum {r}certainty (quantiles)", s["min_certainty"]["quantiles"]).rstrip("\n"))
        lines.append("  " + _line(f"maximum {r}doubt (quantiles)", s["max_doubt"]["quantiles"]).rstrip("\n"))
        for label, o in c.by_outcome().items():
            lines.append(f"    {label} ({OUTCOME_WORDS[label]}): {o['rows']:,} rows, mean minimum {r}certainty "
                         f"{_f(o['mean_min_certainty'])}, median maximum "
                         f"{r}doubt {_f(o['median_max_doubt'])}")
    if pairs:
        lines.append(f"  Paired, on the same rows (level {alpha}):")
        lines.append(f"    {pairs[0].test}")
        for p in pairs:
            if p.why_not:
                lines.append(f"    {p.first} vs {p.second}: not tested: {p.why_not}")
                continue
            verdict = ("differ" if p.p_value < alpha else "no difference shown") + f" at {alpha}"
            lines.append(f"    {p.first} vs {p.second}: median difference {p.median_difference:.4g} "
                         f"({p.first} − {p.second}), {p.nonzero:,} rows differ, W = {p.statistic:.6g}, "
                         f"p = {p.p_value:.3g}: {verdict}; {favour_words(p)}")
    return "\n".join(lines) + "\n"
