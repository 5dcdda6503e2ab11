"""`verify explain [P]`: each property in plain words, with its formula and how the two settings judge it.

The statements are those of Yang, Destercke and Masson (2017), Section IV, with the quantifier conventions
the tool uses (they are the same definitions every engine reads, printed by `Property.statement`).
"""

from __future__ import annotations

import html
import re
import textwrap

from verifier.errors import UsageError, did_you_mean
from verifier.numbers import shown
from verifier.properties.catalogue import BY_ID, PROPERTIES, resolve
from verifier.properties.settings import LEVELS, SETTINGS, TABLE_VIII

NOTATION = """\
Notation. Ω is the set of K classes; a prediction Ŷ is a non-empty subset of Ω, indeterminate when it has two
or more classes. c_Ŷ(y) is the cost of predicting Ŷ when the truth is y (one row of the extended matrix per
Ŷ); the determinate costs c_ŷ(y) are its singleton rows. c̄_Ŷ(y) is the mean of c_ŷ(y) over the members ŷ
of Ŷ (the paper's Eq. 10), C_Ŷ(y) the sorted list of those member costs, and E_p[c_Ŷ] = Σ_y p(y) c_Ŷ(y) the
expected cost under a probability p over Ω. Every property quantifies over indeterminate Ŷ only. A property
whose quantifier has nothing to range over holds *vacuously* (with two classes no y lies outside Ŷ = Ω, so
P6 and P7 hold); P6 and P7 both hold, *tight*, when c_Ŷ(y) equals the mean for every y outside Ŷ."""

MEANING = {
    "P1": "Predicting a set must sometimes be the rational choice: for some indeterminate Ŷ there is a "
          "probability p under which Ŷ costs strictly less in expectation than each of its own members "
          "(Definition 4, 'Ŷ is possible'). If no set is possible, some member is always at least as good as "
          "any set, so an expected-cost minimiser never needs to predict a set. Being possible says nothing about "
          "other sets: a possible Ŷ may still never "
          "be the overall best prediction. By Ville's theorem Ŷ is impossible exactly when c_Ŷ dominates, "
          "element-wise, some mixture Σ λ_ŷ c_ŷ of its members' rows; the tool gives that λ as a certificate.",
    "P2": "No indeterminate row may be element-wise at least the mean of its members' rows, since such a set "
          "could never be possible (Proposition 1). Equivalently, for each indeterminate Ŷ there is a true "
          "class y at which Ŷ costs strictly less than the mean of its members.",
    "P3": "Being cautious and right must pay: whenever the truth is in Ŷ, the set costs strictly less than "
          "the mean of its members' costs. It implies P2.",
    "P4": "A set never costs less than its cheapest member: whatever the truth y, predicting Ŷ costs at "
          "least what the best of its members would have cost for that y, so hedging is never rewarded beyond "
          "the best guess it hedges between.",
    "P5": "The cost of a set depends only on the costs of its members, not on the names of the classes: two "
          "true classes y and y′ that see the same multiset of member costs get the same set cost.",
    "P6": "When the truth is outside Ŷ, the set costs at least the mean of its members' costs: being "
          "indeterminate and wrong is not cheaper than being determinate and wrong, on average.",
    "P7": "The opposite choice: when the truth is outside Ŷ, the set costs at most the mean of its members' "
          "costs, so that a cautious mistake is no worse than an average determinate one.",
    "P8": "A correct set costs the same whichever of its members is the truth (for instance, the cost of a "
          "later procedure that resolves the set does not depend on the answer).",
    "P9": "The opposite of P8: for some Ŷ, two members y ≠ y′ with different member costs C_Ŷ(y) ≠ C_Ŷ(y′) "
          "give different set costs, so that a correct set still reflects how bad its other members are.",
    "P10": "A set never costs more than its most expensive member, whatever the truth: whatever the decision "
           "maker finally chooses within Ŷ, the cost cannot exceed the worst one.",
}


class Explanation(str):
    """The text of `explain` (a `str`: compare it, print it, split it), which a notebook shows rendered:
    headings, the formal statement in a code block and the Table VIII levels as a table (`_repr_html_`,
    `_repr_markdown_`); its `repr` is one line naming the property."""

    def __new__(cls, text: str, property_id: str | None = None):
        """The text, remembering the property it explains (None: the list of all ten)."""
        made = super().__new__(cls, text)
        made.property_id = property_id  # None: the list of all ten
        return made

    def __repr__(self) -> str:
        if self.property_id is None:
            return "<Explanation of the ten properties P1..P10 (Table VIII levels, notation)>"
        p = BY_ID[self.property_id]
        levels = ", ".join(f"{LEVELS[TABLE_VIII[s][p.id]]} for {s}" for s in TABLE_VIII)
        return f"<Explanation {p.id} {p.name}: {levels}>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain text: the text itself
        printer.text(str(self))

    def _repr_markdown_(self) -> str:
        notation = NOTATION.replace("\n", " ")
        if self.property_id is None:
            rows = [f"| {p.id} | {p.name} | " + " | ".join(LEVELS[TABLE_VIII[s][p.id]] for s in TABLE_VIII)
                    + f" | {_md_cell(p.plain)} |" for p in PROPERTIES]
            return "\n".join(["### The ten properties", "", "| | property | " + " | ".join(TABLE_VIII)
                              + " | in short |", "|:---|:---|" + ":---|" * (len(TABLE_VIII) + 1), *rows, "",
                              notation, ""])
        p = BY_ID[self.property_id]
        rows = [f"| {s} | {LEVELS[levels[p.id]]} | {_md_cell(SETTINGS[s])} |" for s, levels in TABLE_VIII.items()]
        return "\n".join([f"### {p.id} {p.name}", "", MEANING[p.id], "", "```text", p.statement(), "```", "",
                          "How the settings judge it (the paper's Table VIII):", "",
                          "| setting | level | the setting |", "|:---|:---|:---|", *rows, "", notation, ""])

    def _repr_html_(self) -> str:
        left = ' style="text-align:left;vertical-align:top"'  # inline: a notebook's right-aligned cells lose
        e = html.escape

        def table(head, rows):
            return ('<table style="margin:.5em 0 1em"><thead><tr>' + "".join(f"<th{left}>{e(h)}</th>" for h in head)
                    + "</tr></thead><tbody>"
                    + "".join("<tr>" + "".join(f"<td{left}>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
                    + "</tbody></table>")

        notation = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", e(NOTATION.replace("\n", " ")))
        if self.property_id is None:
            body = ("<h3>The ten properties</h3>" + table(["", "property", *TABLE_VIII, "in short"], [
                [p.id, p.name, *(LEVELS[TABLE_VIII[s][p.id]] for s in TABLE_VIII), p.plain] for p in PROPERTIES]))
        else:
            p = BY_ID[self.property_id]
            body = (f"<h3>{e(p.id)} {e(p.name)}</h3><p>{e(MEANING[p.id])}</p>"
                    f"<pre><code>{e(p.statement())}</code></pre><p>How the settings judge it (the paper's Table "
                    "VIII):</p>" + table(["setting", "level", "the setting"],
                                          [[s, LEVELS[levels[p.id]], SETTINGS[s]] for s, levels in TABLE_VIII.items()]))
        return f'<div class="verify-explain">{body}<p><small>{notation}</small></p></div>'


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def explain(name: str | None = None, width: int = 100) -> Explanation:
    """The text `verify explain` prints: one property in full, or the list of all ten (a `str`, which a
    notebook shows rendered), its prose wrapped at `width` columns without splitting a word."""
    notation = _wrap(NOTATION, width)
    if name is None:
        lines = [_wrap("The ten properties (verify explain P4 for one in full):", width), ""]
        for p in PROPERTIES:
            levels = ", ".join(f"{s}: {LEVELS[TABLE_VIII[s][p.id]]}" for s in TABLE_VIII)
            lines += [_wrap(f"  {p.id:<4} {p.name} ({levels})", width, "         "),
                      _wrap(f"       {p.plain}", width, "       ")]
        return Explanation("\n".join(lines + ["", notation, ""]))
    pid = resolve(name) if isinstance(name, str) else None
    if pid is None:
        raise UsageError(f"unknown property {shown(name)}; expected P1..P10 or a property name such as "
                         "'non-dominance' (verify explain lists them)" +
                         (did_you_mean(name, [p.name for p in PROPERTIES]) if isinstance(name, str) else ""))
    p = BY_ID[pid]
    lines = [f"{p.id} {p.name}", "", _wrap(MEANING[pid], width), "", _wrap(f"  {p.statement()}", width, "    "), "",
             _wrap("How the settings judge it (the paper's Table VIII):", width)]
    for setting, levels in TABLE_VIII.items():
        lines.append(_wrap(f"  {setting}: {LEVELS[levels[pid]]} ({SETTINGS[setting]})", width, "    "))
    return Explanation("\n".join(lines + ["", notation, ""]), pid)


def _wrap(text: str, width: int, indent: str = "") -> str:
    """`text` as one paragraph wrapped at `width` columns, continued with `indent`; a word longer than a line
    stays whole (a line split inside a word reads as two words)."""
    lead = text[:len(text) - len(text.lstrip())]
    return textwrap.fill(text.lstrip(), width, initial_indent=lead, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)
