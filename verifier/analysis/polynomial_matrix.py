"""Matrices of polynomials in the parameters, in flint: sympy's determinants and factorisations of the same
polynomials take a hundred to a thousand times longer (a 4-class set's 3,059 minors: 50 s in sympy, 0.3 s
here), and a design review of one or two parameters makes thousands of them.

Owns: `as_flint`, `determinant`, `as_sympy`, `primitive`. May import: nothing of verifier but sympy's wrapper.
"""

from __future__ import annotations

import math

import flint

from verifier.lazy_sympy import sympy as sp


def as_flint(matrix: list[list[sp.Expr]], symbols: list) -> list[list] | None:
    """The matrix in flint's rational polynomials over `symbols` (lex order, in that order), or None when an
    entry is not such a polynomial (a rational function, a root, a log)."""
    ctx = flint.fmpq_mpoly_ctx.get(tuple(s.name for s in symbols), "lex")
    out = []
    for row in matrix:
        converted = []
        for entry in row:
            try:
                poly = sp.Poly(entry, *symbols)
            except sp.PolynomialError:
                return None
            if not all(c.is_Rational for c in poly.coeffs()):
                return None
            converted.append(ctx.from_dict({m: flint.fmpq(int(c.p), int(c.q)) for m, c in poly.terms()}))
        out.append(converted)
    return out


def determinant(rows: list[list]):
    """The determinant of a small square matrix of flint polynomials, by expansion along the first row (K <= 5
    classes: at most 120 products)."""
    if len(rows) == 1:
        return rows[0][0]
    total = rows[0][0] * 0
    for j, entry in enumerate(rows[0]):
        if entry.is_zero():
            continue
        rest = [row[:j] + row[j + 1:] for row in rows[1:]]
        term = entry * determinant(rest)
        total = total + term if j % 2 == 0 else total - term
    return total


def primitive(poly) -> dict[tuple, int]:
    """The terms of the polynomial scaled to integers with no common factor and a positive leading coefficient in
    lex order: one representative of the polynomials equal to it up to a non-zero constant."""
    terms = poly.to_dict()
    denominator = 1
    for c in terms.values():
        denominator = denominator * int(c.q) // math.gcd(denominator, int(c.q))
    integers = {m: int(c.p) * (denominator // int(c.q)) for m, c in terms.items()}
    content = 0
    for v in integers.values():
        content = math.gcd(content, v)
    unit = content if integers[max(integers)] > 0 else -content  # lex order: the largest exponent tuple leads
    return {m: v // unit for m, v in integers.items()}


def as_sympy(poly, symbols: list) -> sp.Expr:
    """The flint polynomial (or `primitive`'s terms) as sympy's expanded expression."""
    terms = poly if isinstance(poly, dict) else poly.to_dict()
    return sp.Add(*[_number(c) * sp.Mul(*[x**e for x, e in zip(symbols, m)]) for m, c in terms.items()])


def _number(c) -> sp.Rational:
    return sp.Integer(c) if isinstance(c, int) else sp.Rational(int(c.p), int(c.q))
