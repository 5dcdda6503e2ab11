"""The polynomials whose signs decide a set's optimality at every parameter value: the irreducible factors of the
minors of its comparison matrix.

"Y is the unique minimiser at some p" is "∃p ≥ 0: (c_Z − c_Y)·p > 0 for every other set Z" (a minimiser: ≥ 0,
p ≠ 0): which sign vectors the linear forms v_Z = c_Z − c_Y and the coordinates p_y take together is the
oriented matroid of the vectors {v_Z} ∪ {e_y}, fixed by the signs of their K×K determinants (the e_y make the
rank K everywhere). Those determinants are, up to sign, the square minors of the matrix whose rows are the v_Z.
So Y's status is the same wherever every such minor keeps its sign, and the factors below are all a condition
on the parameters needs to mention. Nothing here decides a status: `analysis.sign_cells` samples and proves.

Owns: `decisive_factors`, `comparison_rows`, `square_minors`, `Factor`, `TooManyFactors`, `NotPolynomial`.
May import: scheme.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import flint

from verifier.analysis.polynomial_matrix import as_flint, as_sympy, primitive
from verifier.errors import DoesNotApply
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme

MAX_MINORS = 4_000  # square minors of one set's comparison matrix (3 classes: 83; 4 classes: about 3,000)


class TooManyFactors(DoesNotApply):
    """The comparison matrix has more minors than MAX_MINORS (many classes): no cell decomposition is tried."""


class NotPolynomial(TooManyFactors):
    """A minor is not a polynomial in the parameters (a quotient or a root of them): no factors, and no cell
    decomposition, as with too many minors."""


@dataclass(frozen=True)
class Factor:
    """One irreducible polynomial in the parameters, primitive with a positive leading coefficient: as sympy
    writes it, its terms {exponents: coefficient}, and the same polynomial in flint for fast exact evaluation."""
    expr: sp.Expr
    terms: tuple[tuple[tuple[int, ...], Fraction], ...]
    flint: object

    def sign_at(self, point: tuple) -> int | None:
        """The exact sign at a point (-1, 0 or 1): Fractions in flint; sympy numbers (algebraic ones from a z3
        model) by certified signs, None when undecided."""
        if all(isinstance(x, Fraction) for x in point):
            value = self.flint(*[_fmpq(x) for x in point])
            return (value > 0) - (value < 0)
        by_name = {s.name: s for s in self.expr.free_symbols}
        values = {by_name[n]: sp.Rational(x.numerator, x.denominator) if isinstance(x, Fraction) else x
                  for n, x in zip(self.flint.context().names(), point) if n in by_name}
        return certified.sign(self.expr.subs(values)).value

    def along(self, fixed: int, value: Fraction) -> flint.fmpq_poly:
        """With two parameters: the polynomial in the other one, parameter `fixed` set to `value`."""
        coefficients: dict[int, Fraction] = {}
        for exponents, c in self.terms:
            k = exponents[1 - fixed]
            coefficients[k] = coefficients.get(k, Fraction(0)) + c * value ** exponents[fixed]
        degree = max(coefficients, default=0)
        return flint.fmpq_poly([_fmpq(coefficients.get(k, Fraction(0))) for k in range(degree + 1)])


def comparison_rows(scheme: Scheme, members: ClassSet, against: list[ClassSet] | None = None) -> list[list]:
    """Y's comparison matrix: a row c_Z − c_Y for every set Z it is compared with (`against`; default: every
    other set), expanded."""
    rows, K = scheme.rows, scheme.K
    others = [z for z in scheme.all_sets if z != members] if against is None else against
    return [[sp.expand(rows[z][y] - rows[members][y]) for y in range(K)] for z in others]


def decisive_factors(scheme: Scheme, members: ClassSet, against: list[ClassSet] | None = None) -> list[Factor]:
    """The distinct irreducible factors, with parameters, of every square minor of Y's comparison matrix (with
    the sets `against`, default every other set), in a fixed order (degree, then sympy's sort key). Polynomial
    costs with rational coefficients (every cost a design review writes) go through flint, each minor built from
    the smaller ones it expands into (Laplace along its first row) and each distinct minor factored once; other
    costs through sympy, minor by minor."""
    K, symbols = scheme.K, list(scheme.symbols)
    V = comparison_rows(scheme, members, against)
    count = sum(_binomial(len(V), k) * _binomial(K, k) for k in range(1, K + 1))
    if count > MAX_MINORS:
        raise TooManyFactors(f"{count:,} minors of its comparison matrix (more than {MAX_MINORS:,})")
    ctx = flint.fmpq_mpoly_ctx.get(tuple(s.name for s in symbols), "lex")
    polynomials = as_flint(V, symbols)
    found = _flint_factors(polynomials, K, symbols) if polynomials is not None else _sympy_factors(V, K, symbols)
    ordered = sorted(found, key=lambda f: (sp.Poly(f, *symbols).total_degree(), sp.default_sort_key(f)))
    out = []
    for f in ordered:
        terms = tuple((tuple(m), Fraction(int(c.p), int(c.q))) for m, c in sp.Poly(f, *symbols).terms())
        out.append(Factor(f, terms, ctx.from_dict({m: _fmpq(c) for m, c in terms})))
    return out


def square_minors(V: list[list], K: int) -> dict[tuple[tuple[int, ...], tuple[int, ...]], object]:
    """Every square minor of a matrix of flint polynomials with K columns, keyed by (rows, columns): level by
    level, a k x k minor from the (k-1) x (k-1) ones of the rows below its first (Laplace along its first row)."""
    level: dict[tuple, object] = {((), ()): None}
    out: dict[tuple, object] = {}
    for k in range(1, K + 1):
        made = {}
        for r in itertools.combinations(range(len(V)), k):
            for c in itertools.combinations(range(K), k):
                if k == 1:
                    minor = V[r[0]][c[0]]
                else:
                    minor = sum((V[r[0]][c[j]] * level[(r[1:], c[:j] + c[j + 1:])] * (1 if j % 2 == 0 else -1)
                                 for j in range(k)), V[0][0] * 0)
                made[(r, c)] = minor
        out.update(made)
        level = made
    return out


def _flint_factors(V: list[list], K: int, symbols: list) -> dict[sp.Expr, None]:
    """Every square minor (`square_minors`), each distinct non-constant one factored; the factors normalised as
    sympy's path does (integer, primitive, positive leading coefficient in lex order)."""
    distinct: dict[tuple, object] = {}
    for minor in square_minors(V, K).values():
        if not minor.is_constant():
            distinct.setdefault(tuple(sorted(primitive(minor).items())), minor)
    found: dict[sp.Expr, None] = {}
    for minor in distinct.values():
        for factor, _ in minor.factor()[1]:
            if not factor.is_constant():
                found.setdefault(as_sympy(primitive(factor), symbols))
    return found


def _sympy_factors(V: list[list[sp.Expr]], K: int, symbols: list) -> dict[sp.Expr, None]:
    matrix = sp.Matrix(V)
    found: dict[sp.Expr, None] = {}
    for k in range(1, K + 1):
        for r in itertools.combinations(range(matrix.rows), k):
            for c in itertools.combinations(range(K), k):
                minor = sp.expand(matrix.extract(list(r), list(c)).det(method="berkowitz"))
                if minor.free_symbols & set(symbols):
                    for factor in _factors(minor, symbols):
                        found.setdefault(factor)
    return found


def _factors(minor: sp.Expr, symbols: list) -> list[sp.Expr]:
    out = []
    try:
        factored = sp.factor_list(minor, *symbols)[1]
    except sp.PolynomialError as exc:
        raise NotPolynomial(f"a minor of its comparison matrix is not a polynomial: {exc}") from exc
    for factor, _ in factored:
        if not factor.free_symbols & set(symbols):
            continue
        poly = sp.Poly(factor, *symbols).primitive()[1]
        if poly.LC() < 0:
            poly = -poly
        out.append(poly.as_expr())
    return out


def _fmpq(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _binomial(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out
