"""How `decide` and `evaluate` results (`UseReport`) show themselves in a notebook: a one-line repr with the main
answer (the prediction; the classifiers and their mean costs; the swept parameter), and HTML and Markdown with
the prediction and its expected costs, the scores table (best values in bold, compared exactly), the paired
comparisons, a sweep's exact curves and crossings, and its picture inline. The command's full text is kept in a
collapsed block. Every number comes from the result's record or scores."""

from __future__ import annotations

from fractions import Fraction

from verifier.report.output.notebook import box, details, e, fenced, items, md, md_table, pre, table
from verifier.report.use import score_table
from verifier.report.use.comparison import friedman_sentence
from verifier.report.use.notebook_answer import answer_html, answer_markdown
from verifier.report.use.scores import stretch_end

ROWS_SHOWN = 20  # rows of a batch shown; all of them are in .record and .text
PICTURE_BYTES = 300_000  # a sweep's picture is inlined up to this size (else: UseReport.picture())


def kind(r) -> str:
    """What an evaluation report answers: surface, abstention, conditions, sweep, scores, batch, credal batch, credal or
    decision."""
    record = r.record
    if getattr(r, "surface", None) is not None:
        return "surface"
    if getattr(r, "abstention", None) is not None:
        return "abstention"
    if getattr(r, "conditions", None) is not None:
        return "conditions"
    if r.sweep is not None:
        return "sweep"
    if r.scores:
        return "scores"
    if "predictions" in record:
        return "credal batch" if "rule" in record else "batch"
    return "credal" if "rule" in record else "decision"


def _set(names) -> str:
    return "{" + ", ".join(names) + "}"


def _cost(exact: str, value: float) -> str:
    """An exact mean cost with its decimal, or only the decimal when the exact value is long."""
    if len(exact) > 24:
        return f"{value:.4g}"
    return exact if "/" not in exact and "." not in exact else f"{exact} ≈ {value:.4g}"


def _p(record) -> str:
    return "(" + ", ".join(f"{c}={v}" for c, v in record.get("p", {}).items()) + ")"


def _counts(record) -> list[str]:
    return [f"{_set(x['set'])} {x['count']}" for x in record.get("summary", {}).get("predicted_sets", [])]


def answer(r) -> str:
    """The main answer of a UseReport, on one line."""
    record, k = r.record, kind(r)
    if k == "decision":
        tied = [_set(o) for o in record.get("optimal", []) if o != record["prediction"]]
        p = _p(record)
        return (f"decision {_set(record['prediction'])}" + (f" (tied with {items(tied, 40)})" if tied else "")
                + f" for p = {p if len(p) <= 80 else p[:79] + '…'}")
    if k == "credal":
        return f"decision by {record['rule']}: {_set(record['prediction'])}"
    if k in ("batch", "credal batch"):
        n = len(record["predictions"])
        rule = f" by {record['rule']}" if "rule" in record else ""
        return f"decisions{rule} for {n:,} row{'s' * (n != 1)}: {items(_counts(record), 90)}"
    if k == "scores":
        costs = [(s.name if s.dataset is None else f"{s.name} on {s.dataset}") + " "
                 + _cost(str(s.mean_cost), s.mean_cost_float) for s in r.scores]
        n = len(r.scores)
        return f"mean cost of {n:,} classifier{'s' * (n != 1)}: {items(costs, 120)}"
    if k == "abstention":
        real = [c for c in r.abstention.classifiers if c.name != "trivial"]
        vacc = [f"{c.label} {float(c.volume.low):.4g}" + ("" if c.volume.exact else f"-{float(c.volume.high):.4g}")
                for c in real]
        return f"abstention cost curves of {len(real):,} classifier{'s' * (len(real) != 1)}, VACC {items(vacc, 100)}"
    if k == "conditions":
        c = r.conditions
        shown = [f"{x.label} " + ", ".join(f"{'∞' if g is None else f'{g:g}'}: {x.losses[g].value:.4g}"
                                           for g in (c.gammas[0], c.gammas[-1])) for x in c.classifiers]
        return f"expected loss by certainty ({c.method} thresholds): {items(shown, 100)}"
    if k == "surface":
        (a, b), (ga, gb) = r.surface.parameters, r.surface.grids
        n = len(r.surface.classifiers)
        return f"mean cost of {n:,} classifier{'s' * (n != 1)} over {a} x {b} ({len(ga):,} x {len(gb):,} points)"
    s = r.sweep
    return (f"mean cost as {s.parameter} goes from {s.grid[0]} to {s.grid[-1]} ({len(s.grid):,} points): "
            f"{len(s.curves)} curve{'s' * (len(s.curves) != 1)}, {_flips(s)}")


def _flips(s) -> str:
    n = sum(len(c.flips) for c in s.crossings)
    return "no crossing" if n == 0 else f"{n} crossing{'s' * (n != 1)}"


def use_repr(r) -> str:
    """A UseReport's one-line repr (named by its job's type), with its answer, cut at 200 characters."""
    line = f"<{getattr(r, 'repr_name', 'UseReport')} {answer(r)}>"
    return line if len(line) < 200 else line[:196] + "…>"


def _rows(r) -> tuple[str, list[str], list[list[object]], set[int]]:
    """The result's main table: (a sentence before it, its header, its rows, its numeric columns)."""
    record, k = r.record, kind(r)
    costs = record.get("expected_costs", {})
    if k == "decision":
        return (f"Expected costs (exact) under p = {_p(record)}, best first:", ["set", "expected cost", "≈"],
                [[y, c, f"{float(Fraction(c)):.4f}" if _rational(c) else ""] for y, c in costs.items()], {1, 2})
    if k == "credal":
        return ("Expected cost over the credal set (exact):", ["set", "lower", "upper"],
                [[y, c["lower"], c["upper"]] for y, c in costs.items()], {1, 2})
    if k == "batch":
        ties, undecided = record.get("tied_optima", []), set(record.get("undecided_rows", []))
        rows = [[i, _set(p), ties[i] if i < len(ties) else "", "yes" if i in undecided else ""]
                for i, p in enumerate(record["predictions"][:ROWS_SHOWN])]
        return "", ["row", "prediction", "tied optima", "undecided"], rows, {0, 2}
    rows = [[x.get("line", ""), _set(x["prediction"]), ", ".join(x.get("undecided", [])),
             f"[{x['expected_cost']['lower']}, {x['expected_cost']['upper']}]" if x.get("expected_cost") else ""]
            for x in record.get("rows", [])[:ROWS_SHOWN]]
    return "", ["line", "prediction", "undecided classes", "expected cost"], rows, {0}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rational(text: str) -> bool:
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        return False
    return True


def _more(r) -> str:
    n = len(r.record.get("predictions", []))
    return f"… and {n - ROWS_SHOWN:,} more rows (all in .record and .text)" if n > ROWS_SHOWN else ""


def _scores_rows(scores) -> tuple[list[str], list[list[str]], list[set[int]]]:
    """The scores table for a paper (as `score_table.table`): header, rows of text, and the bold cells."""
    ms = score_table.measures(scores)
    marks = {m.key: score_table.best(scores, m) for m in ms}
    level = int(round(scores[0].level * 100))
    has_dataset = any(s.dataset is not None for s in scores)
    head = ["classifier"] + (["dataset"] if has_dataset else []) + \
        [x for m in ms for x in ([m.title, f"{level}% CI"] if m.key == "mean_cost" else [m.title])]
    rows, bold = [], []
    for i, s in enumerate(scores):
        cells, strong = [s.name] + ([s.dataset or ""] if has_dataset else []), set()
        for m in ms:
            v = m.value(s)
            if i in marks[m.key]:
                strong.add(len(cells))
            cells.append("n/a" if v is None else f"{s.mean_cost_float if m.key == 'mean_cost' else float(v):.4f}")
            if m.key == "mean_cost":
                cells.append("not computed" if s.interval is None else  # one line (no-break space)
                             f"[{s.interval[0]:.3f},\u00a0{s.interval[1]:.3f}]")
        rows.append(cells)
        bold.append(strong)
    return head, rows, bold


def _scores_html(scores) -> str:
    head, rows, bold = _scores_rows(scores)
    names = 1 + any(s.dataset is not None for s in scores)
    cell = lambda i, j, t: (f'<td class="num">{"<strong>" + e(t) + "</strong>" if j in bold[i] else e(t)}</td>'  # noqa: E731
                            if j >= names else f"<td>{e(t)}</td>")
    exact = [f"{s.name}{'' if s.dataset is None else f' ({s.dataset})'}: {s.mean_cost}" for s in scores
             if not s.mean_cost.is_Integer]
    return ("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(cell(i, j, t) for j, t in enumerate(r)) + "</tr>" for i, r in enumerate(rows))
            + f"</tbody></table><p>Bold: {score_table.bold_scope(scores)}, compared exactly. CI: percentile "
            "bootstrap interval of the mean cost (a statistical estimate)."
            + (f" Mean cost, exact (Eq. 4): {e('; '.join(exact))}." if exact else "") + "</p>")


def _pairs(record) -> tuple[list[str], list[list[object]]]:
    pairs = record.get("comparison", {}).get("pairs", [])
    head = ["pair", "data set", "mean cost difference (exact)", "CI", "Wilcoxon p (Holm)", "significant",
            "the test favours"]
    return head, [[f"{p['a']} − {p['b']}", p.get("dataset") or "", p["mean_difference"],
                   f"[{p['ci']['low']:.4f}, {p['ci']['high']:.4f}]",
                   "n/a" if p.get("p_holm") is None else f"{p['p_holm']:.4g}", "yes" if p.get("significant") else "no",
                   _favours(p)] for p in pairs]


def _favours(p: dict) -> str:
    """The side of the signed ranks, and the lower mean cost beside it when that is the other classifier."""
    if p.get("p_holm") is None:
        return "n/a"
    if p["test_favours"] is None or p["lower_mean_cost"] in (None, p["test_favours"]):
        return p["test_favours"] or "neither"
    return f"{p['test_favours']} (yet {p['lower_mean_cost']} has the lower mean cost)"


def _crossings(r) -> list[str]:
    s, out = r.sweep, []
    for c in r.record.get("sweep", {}).get("crossings", []):
        if c["identical"]:
            says = f"the same mean cost for every {s.parameter}"
        elif c["undecided"]:
            says = f"undecided: {c['undecided']}"
        else:
            flips = [f"{s.parameter} = {f['value']}" if "value" in f else
                     f"{s.parameter} in [{f['enclosed_in'][0]}, {f['enclosed_in'][1]}]" for f in c["flips_at"]]
            says = "the order flips at " + ", ".join(flips) if flips else "no crossing"
            order = [f"{p['cheaper'] or 'equal or undecided'}{' costs less' * bool(p['cheaper'])} for "
                     f"{s.parameter} in ({_end(p['low'], True)}, {_end(p['high'], False)})" for p in c["pieces"]]
            order += [f"a zero not excluded within [{_end(lo, False)}, {_end(hi, True)}]" for lo, hi in
                      c["enclosed_zeros"]]
            says += "".join(f"; {x}" for x in order)
        out.append(f"{c['a']} vs {c['b']}: {says}")
    return out


def _end(text: str, up: bool) -> str:
    """An end of a range: exact when short, else its decimal rounded so the printed range never reaches past the
    proved one (`scores.stretch_end`)."""
    return stretch_end(Fraction(text), up)


def _curves(r) -> tuple[list[str], list[list[object]]]:
    return (["classifier", f"mean cost as a function of {r.sweep.parameter} (exact)"],
            [[c["classifier"], c["mean_cost_text"]] for c in r.record.get("sweep", {}).get("curves", [])])


def _picture(r) -> str:
    if r.sweep is None and getattr(r, "surface", None) is None and getattr(r, "abstention", None) is None and \
            getattr(r, "conditions", None) is None and (r.comparison is None or r.comparison.friedman is None):
        return ""
    svg = r.picture("svg")
    if not svg:
        return ""
    if len(svg) > PICTURE_BYTES:
        return f"<p>The picture ({len(svg) // 1000} kB) is left out here: UseReport.picture() draws it.</p>"
    from verifier.report.figures import inline_svg  # matplotlib is loaded already: the picture was drawn

    return f"<figure>{inline_svg(svg)}</figure>"


def _title(r) -> str:
    k = kind(r)
    if k in ("decision", "credal"):
        rule = "" if k == "decision" else f" by {r.record['rule']}"
        tied = [_set(o) for o in r.record.get("optimal", []) if o != r.record["prediction"]]
        return f"Optimal prediction{rule}: {_set(r.record['prediction'])}" + \
            (f" (tied with {', '.join(tied)})" if tied else "")
    if k in ("batch", "credal batch"):
        return _sentence(answer(r))
    if k == "scores":
        n = len(r.scores)
        return f"Scores of {n:,} classifier{'s' * (n != 1)} under {r.record.get('spec', 'the scheme')}"
    return r.title or answer(r)


def use_html(r) -> str:
    """A UseReport as HTML for a notebook, laid out by its kind (table, scores, curves or the text)."""
    k = kind(r)
    parts = []
    if k in ("decision", "credal", "batch", "credal batch"):
        before, head, rows, numeric = _rows(r)
        parts += [f"<p>{e(before)}</p>" if before else "", pre(r.summary_text) if r.summary_text else "",
                  table(head, [[str(c) for c in row] for row in rows], numeric), f"<p>{e(_more(r))}</p>" if _more(r)
                  else ""]
    elif k == "scores":  # over several data sets the answer first, as on the console
        parts += [answer_html(r), _scores_html(r.scores)]
        if r.comparison is not None:
            parts += ["<h3>Paired comparisons</h3>", table(*_pairs(r.record), {2, 3, 4})] + \
                ([] if parts[0] else [f"<p>{e(friedman_sentence(r.record.get('comparison', {})))}</p>"])
    elif k in ("surface", "abstention", "conditions"):
        parts.append(pre(r.text))
    else:
        head, rows = _curves(r)
        parts += [f"<p>{e(_sentence(answer(r)))}.</p>", table(head, rows),
                  "<ul>" + "".join(f"<li>{e(x)}</li>" for x in _crossings(r)) + "</ul>"]
    parts += [_picture(r), details("The full text", r.shown(verbose=True))]
    return box(e(_title(r)), "".join(parts))


def use_markdown(r) -> str:
    """A UseReport as Markdown, laid out by its kind (table, scores, curves or the text)."""
    k = kind(r)
    parts = [f"### {md(_title(r))}", ""]
    if k in ("decision", "credal", "batch", "credal batch"):
        before, head, rows, numeric = _rows(r)
        parts += ([md(before), ""] if before else []) + ([fenced(r.summary_text), ""] if r.summary_text else []) + \
            [md_table(head, rows, numeric), ""] + ([_more(r), ""] if _more(r) else [])
    elif k == "scores":
        first = answer_markdown(r)
        parts += first + [score_table.table(r.scores, "markdown")] + (["**Paired comparisons**", "", md_table(
            *_pairs(r.record), {2, 3, 4}), ""] + ([] if first else [md(friedman_sentence(r.record["comparison"])), ""])
            if r.comparison is not None else [])
    elif k in ("surface", "abstention", "conditions"):
        parts += [fenced(r.shown(verbose=True)), "", "The pictures: `UseReport.picture()` and `UseReport.figures()`.",
                  ""]
    else:
        parts += [md(_sentence(answer(r))) + ".", "", md_table(*_curves(r)), ""] + \
            [f"- {md(x)}" for x in _crossings(r)] + [""]
        parts += ["The picture: `UseReport.picture()`.", ""]
    return "\n".join(parts)
