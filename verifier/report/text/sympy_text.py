"""sympy's text of exact values, faster: `PRINTER` writes exactly what `sp.sstr(value, order="none")` writes
(a test compares them on random expressions and on every cell and margin of a 9-class report).

Printing was a fifth of a 9-class JSON report: sympy's printer is made anew for every value, prints shared
sub-expressions again each time, and asks every product for its precedence by building its negative. Here one
printer remembers the text of each sub-expression, and a product of a rational and one factor, or a sum, is
written without those detours.
"""

from __future__ import annotations

from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

from verifier.lazy_sympy import sympy as sp


class MemoPrinter(StrPrinter):
    """sympy's str printer that remembers the text of every sub-expression: the cells of a power-mean matrix
    and the margins built from them share their terms ((1/3 + sqrt(2)/3)**2 ...), so most of a new value's
    text is already known. The text of a sub-expression does not depend on where it sits (its parent adds
    the parentheses), except for a Float at the top level, which is never remembered."""

    def __init__(self, settings: dict):
        super().__init__(settings)
        self._memo: dict = {}

    def _print(self, expr, **kwargs) -> str:
        if kwargs or not isinstance(expr, sp.Basic) or isinstance(expr, sp.Float):
            return super()._print(expr, **kwargs)
        text = self._memo.get(expr)
        if text is None:
            if len(self._memo) > 200_000:
                self._memo.clear()
            text = self._memo[expr] = super()._print(expr)
        return text

    def _print_Mul(self, expr) -> str:
        """A rational times one other factor (-2*(1/3 + sqrt(2)/3)**2/3, the terms of every margin) written
        directly: sympy's own route first rebuilds the product with a positive coefficient, which costs more
        than the printing. The text is sympy's (a test compares them); any other product goes to sympy."""
        args = expr.args
        if len(args) != 2 or not args[0].is_Rational or args[0] is sp.S.One or not self._plain_factor(args[1]):
            return super()._print_Mul(expr)
        c, factor = args
        level = PRECEDENCE["Add"] if c.p < 0 else PRECEDENCE["Mul"]  # sympy's precedence_Mul, without -expr
        text = "-" if c.p < 0 else ""
        if abs(c.p) != 1:
            text += str(abs(c.p)) + "*"
        text += self.parenthesize(factor, level, strict=False)
        return text + (f"/{c.q}" if c.q != 1 else "")

    def _print_Add(self, expr, order=None) -> str:
        """sympy's _print_Add, except that it does not ask a product for its precedence: that is Mul or Add,
        never below a sum's, so a product is never parenthesised, and asking builds -term (most of the time
        spent printing a margin)."""
        if order is not None or self.order != "none":
            return super()._print_Add(expr, order=order)
        level, parts = precedence(expr), []
        for term in expr.args:
            text = self._print(term)
            sign = "-" if text.startswith("-") and not term.is_Add else "+"
            text = text[1:] if sign == "-" else text
            low = term.is_Add or (not term.is_Mul and precedence(term) < level)
            parts.extend([sign, f"({text})" if low else text])
        sign = parts.pop(0)
        return ("" if sign == "+" else sign) + " ".join(parts)

    @staticmethod
    def _plain_factor(x) -> bool:
        """A factor sympy's _print_Mul puts in the numerator as it is: not a number, not an unevaluated
        integer power, not a power with a negative exponent, commutative."""
        if x.is_Number or not x.is_commutative or isinstance(x, (sp.Mul, sp.Add)) or hasattr(x, "precedence"):
            return False
        if x.is_Pow:
            return not all(a.is_Integer for a in x.args) and not bool(x.exp.as_coeff_Mul()[0] < 0)
        return True


PRINTER = MemoPrinter({"order": "none"})  # made once, not anew on every call as sp.sstr does
