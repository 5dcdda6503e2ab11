"""Cost lines: the expected cost of a fixed threshold as the spec's parameter θ varies. With the scores' staircase
(cut t predicts the spec's second class, the paper's class 0, for the t lowest distinct scores, and the first
class, class 1, above), the mean cost of cut t is h_t(θ) = l_t + k_t θ, a straight line when every cost of the
spec is affine in θ (which is refused otherwise: the paper's results are about straight cost lines).

The cost proportion c(θ) = c0 / (c0 + c1), with c0 the extra cost of calling a class-0 instance class 1 and c1 that
of calling a class-1 instance class 0, is where the Bayes threshold on a calibrated score lies; the paper's own
parametrisation (`examples/operating-conditions/cost-proportion.yaml`, costs 2θ and 2(1 - θ)) has c(θ) = θ and
the factor 2 that makes its identities read as printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.using.abstention import SINGLE, Staircase, located

ONE, ZERO = 0, 1  # the spec's first class is the paper's class 1 (scores estimate its probability)


@dataclass(frozen=True)
class Affine:
    """a + b θ, exactly."""

    a: Fraction
    b: Fraction

    def at(self, theta: Fraction) -> Fraction:
        """a + b θ at `theta`, exactly."""
        return self.a + self.b * theta


@dataclass(frozen=True)
class Costs:
    """C(true, predicted) for the four singleton cells, affine in θ."""

    one_as_one: Affine
    one_as_zero: Affine
    zero_as_one: Affine
    zero_as_zero: Affine

    def proportion(self, theta: Fraction) -> Fraction:
        """c(θ) = c0 / (c0 + c1)."""
        c0 = self.zero_as_one.at(theta) - self.zero_as_zero.at(theta)
        c1 = self.one_as_zero.at(theta) - self.one_as_one.at(theta)
        return c0 / (c0 + c1)

    @property
    def is_proportion(self) -> bool:
        """Whether c(θ) = θ for every θ (the parameter is the cost proportion itself): c0 and c1 are affine, so
        c0 (1 - θ) = c1 θ, a quadratic identity, holds everywhere when it holds at three points."""
        return all(self.proportion(Fraction(x, 3)) == Fraction(x, 3) for x in range(3)) and \
            self.proportion(Fraction(1, 7)) == Fraction(1, 7)


def affine(expr: sp.Expr, symbol: sp.Symbol, what: str, scheme: Scheme, keys=SINGLE) -> Affine:
    """A cost as a + b θ with rational a and b; refused (naming the cell, placed at the spec's key) otherwise."""
    expr = sp.expand(expr)
    try:  # exp(θ), a power mean of θ, ...: not a polynomial in θ at all
        poly = sp.Poly(expr, symbol) if expr.free_symbols <= {symbol} else None
    except sp.PolynomialError:
        poly = None
    if poly is None or poly.degree() > 1 or not (poly.domain.is_QQ or poly.domain.is_ZZ):
        raise located(scheme, keys, f"the cost of {what} is {expr}, not affine in {symbol} with rational "
                      "coefficients", "costs affine in the parameter: cost lines must be straight")
    coefficients = poly.all_coeffs() if poly.degree() >= 0 else [0]
    b, a = coefficients if len(coefficients) == 2 else (0, coefficients[0])
    return Affine(Fraction(int(sp.Rational(a).p), int(sp.Rational(a).q)),
                  Fraction(int(sp.Rational(b).p), int(sp.Rational(b).q)))


def costs(scheme: Scheme, parameter: str, path: str) -> Costs:
    """The four singleton cells of a two-class scheme, affine in `parameter`; refused (located) for K ≠ 2, a cost
    not affine, or a mistake cheaper than a right prediction (c0, c1 >= 0 and c0 + c1 > 0 at θ = 0, 1/2, 1)."""
    if scheme.K != 2:
        raise UsageError(f"--threshold-choice evaluates binary classifiers: {path} has {scheme.K} classes, not 2")
    symbol = next(s for s in scheme.symbols if s.name == parameter)
    label = scheme.label
    found = Costs(*(affine(scheme.cost(frozenset((predicted,)), true), symbol,
                           f"predicting {label(frozenset((predicted,)))} for {label(frozenset((true,)))}", scheme)
                    for true, predicted in ((ONE, ONE), (ONE, ZERO), (ZERO, ONE), (ZERO, ZERO))))
    for theta in (Fraction(0), Fraction(1, 2), Fraction(1)):
        c0 = found.zero_as_one.at(theta) - found.zero_as_zero.at(theta)
        c1 = found.one_as_zero.at(theta) - found.one_as_one.at(theta)
        if c0 < 0 or c1 < 0 or c0 + c1 <= 0:
            raise located(scheme, SINGLE, f"at {parameter} = {theta}, a mistake costs less than a right prediction "
                          f"(c0 = {c0}, c1 = {c1})", "mistakes that cost at least as much as right predictions")
    return found


@dataclass(frozen=True)
class Lines:
    """The n + 1 cost lines of one classifier (one per cut of its staircase), h_t(θ) = l_t + k_t θ, computed once
    (exactly, and as floats for the numerical integrals)."""

    stairs: Staircase
    costs: Costs

    def __post_init__(self):
        s, c = self.stairs, self.costs
        n1, n0 = s.p[-1], s.q[-1]
        coefficients = []
        for part in ("a", "b"):
            # n h_t = C10 O_t + C11 (n1 - O_t) + C01 (n0 - Z_t) + C00 Z_t, taken part by part (a: at 0, b: slope)
            c10, c11, c01, c00 = (getattr(x, part) for x in (c.one_as_zero, c.one_as_one, c.zero_as_one,
                                                            c.zero_as_zero))
            per_one, per_zero, constant = c10 - c11, c00 - c01, c11 * n1 + c01 * n0
            coefficients.append([(per_one * o + per_zero * z + constant) / s.n for o, z in zip(s.p, s.q)])
        object.__setattr__(self, "ls", coefficients[0])
        object.__setattr__(self, "ks", coefficients[1])
        object.__setattr__(self, "ls_float", np.array([float(x) for x in coefficients[0]]))
        object.__setattr__(self, "ks_float", np.array([float(x) for x in coefficients[1]]))

    def height(self, cut: int, theta: Fraction) -> Fraction:
        """h_cut(θ): the mean cost of predicting class 0 up to `cut` and class 1 above, at θ."""
        return self.ls[cut] + self.ks[cut] * theta

    def fractional(self, ones: Fraction, zeros: Fraction, theta: Fraction) -> Fraction:
        """The mean cost when `ones` class-1 and `zeros` class-0 instances (possibly fractional) are predicted
        class 0 and the rest class 1."""
        s, c = self.stairs, self.costs
        n1, n0 = s.p[-1], s.q[-1]
        total = (c.one_as_zero.at(theta) * ones + c.one_as_one.at(theta) * (n1 - ones)
                 + c.zero_as_one.at(theta) * (n0 - zeros) + c.zero_as_zero.at(theta) * zeros)
        return total / s.n

    def line(self, cut: int) -> tuple[Fraction, Fraction]:
        """(l, k): h_cut(θ) = l + k θ."""
        return self.ls[cut], self.ks[cut]
