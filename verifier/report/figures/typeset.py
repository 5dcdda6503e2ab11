"""Mathematical labels of the pictures, typeset with matplotlib's mathtext: c_{a,b}(a) as a c with a subscript,
parameters as symbols (mu as μ, eta[a] as η with subscript a), expressions in the paper's notation (a power mean
as M_p(...), never sympy's internal names).

Every name that comes from a spec is escaped and set as literal text (`\\text{...}`), so a class named `$x` or
`a_b` is shown as written; a label is checked by mathtext's own parser before it is used, and falls back to plain
text when it would not parse. Math parsing is switched on for the labelled text object only (`put`), never
globally (`picture` keeps `text.parse_math` off).
"""

from __future__ import annotations

import re
from functools import lru_cache

from sympy.printing.latex import LatexPrinter

from verifier.formula.notation import paper_text
from verifier.lazy_sympy import sympy as sp

GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
         "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta",
         "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"}


def literal(text: str) -> str:
    """Spec text as mathtext that shows exactly that text (inside \\text{...}, only \\ $ { } are special)."""
    escaped = str(text).replace("\\", "\\\\").replace("$", "\\$").replace("{", "\\{").replace("}", "\\}")
    return "\\text{" + escaped + "}"


def symbol(name: str) -> str:
    """A parameter's name as mathtext: Greek names as letters, `eta[a]` as η subscript a, others in italics."""
    base, sep, index = name.partition("[")
    if sep and index.endswith("]"):
        return symbol(base) + "_{" + literal(index[:-1]) + "}"
    if name in GREEK:
        return "\\" + name
    if re.fullmatch(r"[A-Za-z]", name):
        return name
    return "\\mathit{" + name.replace("\\", "").replace("_", "\\_").replace("$", "\\$").replace(
        "{", "").replace("}", "") + "}"


def set_label(classes, members) -> str:
    """{a, b} with the class names as written."""
    return "\\{" + ",\\,".join(literal(classes[i]) for i in sorted(members)) + "\\}"


def cell_label(classes, members, y: int) -> str:
    """c_{a,b}(a): the cost of predicting the set `members` when the truth is class `y`."""
    names = ",".join(literal(classes[i]) for i in sorted(members))
    return "c_{" + names + "}(" + literal(classes[y]) + ")"


class _Printer(LatexPrinter):
    """sympy's LaTeX with the paper's power mean M_p(...) and the parameters' own symbols."""

    def _print_GenMean(self, expr) -> str:
        p, *values = expr.args
        return "M_{" + self._print(p) + "}\\left(" + ", ".join(self._print(v) for v in values) + "\\right)"

    def _print_Symbol(self, expr, style="plain") -> str:
        return symbol(expr.name)


def expression(expr: sp.Basic) -> str:
    """An exact expression or relation in mathtext (no $); fractions in display size, to be read in a legend."""
    return _Printer().doprint(expr).replace("\\frac{", "\\dfrac{")


@lru_cache(maxsize=4096)
def parses(text: str) -> bool:
    """Whether matplotlib's mathtext parses the label."""
    from matplotlib.mathtext import MathTextParser

    try:
        MathTextParser("path").parse(text, 72)
    except Exception:  # noqa: BLE001 - any mathtext failure means: show the plain text instead
        return False
    return True


def math(body: str, plain: str) -> tuple[str, bool]:
    """(text, parse_math) for a label: `$body$` when mathtext parses it, else `plain` as plain text."""
    text = f"${body}$"
    return (text, True) if parses(text) else (plain, False)


def expression_label(expr: sp.Basic) -> tuple[str, bool]:
    """(text, parse_math) for an exact expression: mathtext where it prints and parses, else the paper's plain
    notation."""
    try:
        body = expression(expr)
    except Exception:  # noqa: BLE001 - a printer gap: the plain paper notation instead
        return paper_text(expr), False
    return math(body, paper_text(expr))


def number_label(x) -> tuple[str, bool]:
    """An exact number for a tick: a rational as written (1/3 reads better than a small typeset fraction), a
    short irrational typeset, anything longer (or a root sympy can only name) as a decimal marked ≈."""
    from fractions import Fraction

    if isinstance(x, Fraction) or (isinstance(x, sp.Basic) and x.is_Rational):
        return str(x), False
    if isinstance(x, sp.Basic) and not x.has(sp.CRootOf) and len(sp.latex(x)) < 40:
        label = expression_label(x)
        if label[1]:
            return label[0].replace("\\dfrac{", "\\frac{"), True
    return f"≈{float(sp.N(x, 20)) if isinstance(x, sp.Basic) else float(x):.3g}", False


def exact_ticks(ax, points, window, to_float, axis: str = "x", rows: int = 1) -> int:
    """Ticks at exact values, labelled exactly: the points in the order given (most important first), each put
    on the first of `rows` lines of labels where it is not too close to a label placed to be read (a second
    line: under the first, for an end close to another, such as 1/2 beside 1/3), else left out. Returns the
    number of lines used."""
    placed: list = []  # (value, label, line)
    inches = ax.get_position().width * ax.figure.get_figwidth()
    gap = (window[1] - window[0]) * 0.24 / max(inches, 0.5)  # about a quarter inch between two labels
    for exact in points:
        value = to_float(exact)
        if value is None or any(abs(value - v) < gap / 4 for v, _, _ in placed):
            continue  # the same point, or one no tick mark could tell apart
        line = next((k for k in range(rows) if all(abs(value - v) >= gap for v, _, on in placed if on == k)), None)
        if line is not None:
            placed.append((value, number_label(exact), line))
    placed.sort(key=lambda t: t[0])
    getattr(ax, f"set_{axis}ticks")([v for v, _, _ in placed])
    getattr(ax, f"set_{axis}ticklabels")(["\n" * line + text for _, (text, _), line in placed])
    for artist, (_, (_, parse), _) in zip(getattr(ax, f"get_{axis}ticklabels")(), placed):
        artist.set_parse_math(parse)
    ax.tick_params(axis=axis, labelsize=6.5)
    return 1 + max((line for _, _, line in placed), default=0)


def put(setter, *args, label: tuple[str, bool], **kwargs):
    """Call a matplotlib text maker (ax.set_xlabel, ax.text, ...) with math parsing for this text only."""
    text, parse = label
    return setter(*args, text, parse_math=parse, **kwargs)


def legend_math(legend, labels: list[tuple[str, bool]]) -> None:
    """Typeset a legend's entries (made with the plain texts) with math parsing for those texts only."""
    for artist, (text, parse) in zip(legend.get_texts(), labels):
        artist.set_parse_math(parse)
        artist.set_text(text)
