"""Exact expressions written in the paper's notation for people: a power mean as M_p(x1, ..., xn) (Eqs. 12-13,
M_p = ((x1^p + ... + xn^p) / n)^(1/p)), never sympy's internal names such as GenMean(...); powers as ^."""

from __future__ import annotations

from sympy.printing.str import StrPrinter

from verifier.lazy_sympy import sympy as sp


class PaperPrinter(StrPrinter):
    """A sympy printer in the paper's notation: power means as M_p(...), powers with ^."""

    def _print_GenMean(self, expr) -> str:
        p, *values = expr.args
        return f"M_{{{self._print(p)}}}(" + ", ".join(self._print(v) for v in values) + ")"

    def _print_Pow(self, expr, rational=False) -> str:
        return super()._print_Pow(expr, rational).replace("**", "^")


def paper_text(expr: sp.Expr) -> str:
    """`expr` as a reader of the paper writes it (exact; terms in sympy's canonical order)."""
    return PaperPrinter().doprint(expr)


POWER_MEAN_LEGEND = ("M_p(x1, ..., xn) = ((x1^p + ... + xn^p) / n)^(1/p), the power mean of Eqs. 12-13 (at p = 0 "
                     "the geometric mean)")
