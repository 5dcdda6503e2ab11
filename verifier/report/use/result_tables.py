"""Results shown as tables: the certainty and doubt of each classifier's decisions (`CertaintyReport`) and the
optional extra statistics (`UseReport.extra_stats()`), each as records (one flat dict per row), as HTML tables for
a notebook (with the console text in a monospace block) and as pandas data frames (pandas is optional: the
`frames` extra). Decides nothing: it reads the JSON records the results already hold.

May import: `report.output` (the notebook pieces) and errors.
"""

from __future__ import annotations

from verifier.errors import UsageError
from verifier.report.output.notebook import box, details, e, pre, table

FRAMES = ("to_frame() needs pandas, an optional dependency: pip install 'verify-set-costs[frames]' (or pandas), "
          "or use records()")
OUTCOMES = ("right", "wrong", "indeterminate")


def data_frame(records: list[dict]):
    """The records as a pandas DataFrame, one row each; without pandas a usage error says how to get it."""
    try:
        import pandas
    except ImportError:
        raise UsageError(FRAMES) from None
    return pandas.DataFrame.from_records(records)


def certainty_records(record: dict) -> list[dict]:
    """One row per classifier of `evaluate --certainty`'s record: rows, ties, the minimum certainty's mean and
    median, the maximum doubt's median, the doubt cost's mean, and the rows right, wrong and indeterminate."""
    out = []
    for c in record.get("classifiers", []):
        least, doubt, cost = c.get("min_certainty", {}), c.get("max_doubt", {}), c.get("doubt_cost", {})
        out.append({"classifier": c["classifier"], "rows": c["rows"], "ties": c["ties"],
                    "mean_min_certainty": least.get("mean"),
                    "median_min_certainty": least.get("quantiles", {}).get("q50"),
                    "median_max_doubt": doubt.get("quantiles", {}).get("q50"),
                    "mean_doubt_cost": cost.get("mean"),
                    **{f"rows_{o}": c.get("by_outcome", {}).get(o, {}).get("rows") for o in OUTCOMES}})
    return out


def certainty_pair_records(record: dict) -> list[dict]:
    """One row per pair of classifiers compared on the same rows (the paired test of the minimum certainty)."""
    keep = ("first", "second", "rows_differing", "median_difference_first_minus_second", "statistic", "p_value",
            "test_favours")
    return [{k: p.get(k) for k in keep} for p in record.get("pairs", [])]


def certainty_html(title: str, record: dict, text: str, verbose_text: str = "") -> str:
    """The certainty report in a notebook: a table of the classifiers, one of the pairs, then the console text in
    a monospace block (every detail folded below it)."""
    pairs = certainty_pair_records(record)
    return box(e(title), records_table(certainty_records(record))
               + (("<h3>Paired comparisons</h3>" + records_table(pairs)) if pairs else "")
               + pre(text) + (details("The full text", verbose_text) if verbose_text else ""))


class ExtraStats(dict):
    """What `extra_stats()` returns: the nested dict it always was (JSON as `--extra-stats --format json` writes
    it), shown in a notebook as one table per section, with `records()` and `to_frame()` (one row per pair and
    section) and a one-line repr."""

    def __repr__(self) -> str:
        sections = ", ".join(f"{key} ({len(rows):,})" for key, _, rows in extra_sections(self))
        return f"<ExtraStats {sections or 'without tables'}>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain text: the one line
        printer.text(repr(self))

    def _repr_html_(self) -> str:
        return extra_html(self)

    def records(self) -> list[dict]:
        """Every row of every section, flat, with the section's name (`section`)."""
        return extra_records(self)

    def to_frame(self):
        """The rows as a pandas DataFrame (pandas is optional: the `frames` extra)."""
        return data_frame(self.records())


def extra_sections(extra: dict) -> list[tuple[str, str, list[dict]]]:
    """(section key, its test or adjustment, its rows) for each table of `extra_stats()`."""
    out = []
    for key, section in extra.items():
        if not isinstance(section, dict):
            continue
        rows = next((v for v in section.values() if isinstance(v, list) and all(isinstance(r, dict) for r in v)),
                    None)
        if rows is not None:
            out.append((key, str(section.get("test") or section.get("adjustment") or ""), rows))
    return out


def extra_records(extra: dict) -> list[dict]:
    """Every row of every table of `extra_stats()`, flat, with the section it comes from."""
    return [{"section": key, **row} for key, _, rows in extra_sections(extra) for row in rows]


def extra_html(extra: dict) -> str:
    """`extra_stats()` in a notebook: one table per section, headed by what it is."""
    parts = [f"<h3>{e(key.replace('_', ' '))}</h3>" + (f"<p>{e(test)}</p>" if test else "") + records_table(rows)
             for key, test, rows in extra_sections(extra)]
    return box("Extra statistics", "".join(parts) or "<p>No tables.</p>")


def records_table(rows: list[dict]) -> str:
    """An HTML table of flat records: the keys (in order of first appearance) as columns, numbers right-aligned."""
    if not rows:
        return "<p>None.</p>"
    head = list(dict.fromkeys(k for row in rows for k in row))
    cells = [[cell(row.get(k)) for k in head] for row in rows]
    numeric = {i for i, k in enumerate(head)
               if all(isinstance(row.get(k), (int, float)) and not isinstance(row.get(k), bool)
                      for row in rows if row.get(k) is not None)}
    return table(head, cells, numeric)


def cell(value) -> str:
    """One value as a table shows it: floats to 4 significant digits, None empty, lists joined."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(cell(v) for v in value)
    return str(value)
