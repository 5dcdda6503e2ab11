"""A two-class spec's costs at each cost scenario, brought to Friedel et al.'s normal form (their Eq. 6): with P
the spec's first class, subtract each true class's cost of a right prediction and divide by the cost of a false
negative, C(P, n) - C(P, p); the false-positive cost becomes μ and the cost of abstaining (predicting {P, N}) ν.
Expected costs map back exactly: cost = m · c(a, μ, ν) + (|P| C(P, p) + |N| C(N, n)) / n.

The normal form needs a false negative costlier than a true positive, and a false positive and an abstention
at least as costly as a right prediction; a scenario that breaks this is refused, named, with the values that
break it. Abstaining may cost differently by the truth once normalised (ν_P on a P instance, ν_N on an N one):
the windows handle it (`windows`); VACC is over Friedel et al.'s (μ, ν) square whatever the spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from verifier.errors import SpecError, UsageError
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme

P, N = 0, 1


@dataclass(frozen=True)
class Scenario:
    """One grid point: the swept parameters' values, and, when admissible, the normal form and the map back."""

    values: tuple[Fraction, ...]
    mu: Fraction | None = None
    nu: Fraction | None = None  # ν_P: abstaining on a P instance
    nu_n: Fraction | None = None  # ν_N: abstaining on an N instance
    scale: Fraction | None = None  # m = C(P, n) - C(P, p)
    right: tuple[Fraction, Fraction] | None = None  # C(P, p), C(N, n)
    excluded: str | None = None  # why there is no normal form here (outside the assumptions)

    def spec_cost(self, normalised: Fraction, positives: int, negatives: int) -> Fraction:
        """The spec's own expected cost of a window whose Eq. 7 cost is `normalised`."""
        if self.scale == 1 and self.right == (0, 0):  # the spec is in the normal form already
            return normalised
        return (self.scale * normalised
                + (positives * self.right[0] + negatives * self.right[1]) / (positives + negatives))


def located(scheme: Scheme, keys: tuple[str, ...], text: str, expected: str) -> SpecError:
    """A refusal of the spec's costs, placed at the first of `keys` the spec has (e.g. its cost_matrix)."""
    spec = scheme.spec
    key = next((k for k in keys if k in spec.marks), keys[0])
    mark = spec.marks.get(key)
    return SpecError.at(text, mark, file=spec.path, key=key, expected=expected)


SINGLE = ("cost_matrix", "cost", "classes")  # where a spec writes the costs of single classes
SETS = ("set_costs", "set_cost", "cost_matrix", "cost")  # and of sets


def scenarios(scheme: Scheme, names: list[str], grids: list[list[Fraction]], path: str) -> list[Scenario]:
    """Every grid point (the first parameter varies slowest), in the normal form."""
    if scheme.K != 2:
        raise UsageError(f"--scores evaluates binary classifiers: {path} has {scheme.K} classes, not 2 (use "
                         "--probabilities for more)")
    both = frozenset((P, N))
    if both not in scheme.rows:
        raise UsageError(f"--scores needs the abstention set {scheme.label(both)} among the predictions of {path}")
    symbols = [next(s for s in scheme.symbols if s.name == name) for name in names]
    cells = {(pred, y): _evaluator(scheme.cost(pred, y), symbols)
             for pred in (frozenset((P,)), frozenset((N,)), both) for y in (P, N)}
    conditions = [(_condition(condition, symbols), text) for condition, text in scheme.assumptions]
    found = []
    for values in product(*grids):
        point = dict(zip(symbols, (sp.Rational(v.numerator, v.denominator) for v in values)))
        outside = [text for holds, text in conditions if holds(values, point, path) is False]
        if outside:
            found.append(Scenario(tuple(values), excluded=f"outside the assumption {outside[0]}"))
            continue
        cost = {key: f(values, point, path) for key, f in cells.items()}
        found.append(_normal(cost, tuple(values), names, scheme, path))
    return found


def _normal(cost: dict, values: tuple, names: list[str], scheme: Scheme, path: str) -> Scenario:
    tp, fn = cost[(frozenset((P,)), P)], cost[(frozenset((N,)), P)]
    fp, tn = cost[(frozenset((P,)), N)], cost[(frozenset((N,)), N)]
    abstain_p, abstain_n = cost[(frozenset((P, N)), P)], cost[(frozenset((P, N)), N)]
    at = ", ".join(f"{name} = {v}" for name, v in zip(names, values))
    label = scheme.label
    if fn <= tp:
        raise located(scheme, SINGLE, f"at {at}, a false negative ({label(frozenset((N,)))} for "
                      f"{label(frozenset((P,)))}, {fn}) is not costlier than a true positive ({tp})",
                      "the first class to be the one whose misses cost (Friedel et al.'s normal form)")
    scale = fn - tp
    mu, nu_p, nu_n = fp - tn, abstain_p - tp, abstain_n - tn
    if scale != 1:
        mu, nu_p, nu_n = mu / scale, nu_p / scale, nu_n / scale
    if mu < 0:
        raise located(scheme, SINGLE, f"at {at}, a false positive ({fp}) costs less than a true negative ({tn})",
                      "mistakes that cost at least as much as right predictions")
    if nu_p < 0 or nu_n < 0:
        raise located(scheme, SETS, f"at {at}, abstaining costs less than a right prediction (once normalised, "
                      f"{nu_p} on the first class and {nu_n} on the second)",
                      "an abstention that costs at least as much as a right prediction")
    return Scenario(values, mu, nu_p, nu_n, scale, (tp, tn))


def _evaluator(expr: sp.Expr, symbols: list[sp.Symbol]):
    """A fast exact evaluator of one cost: a polynomial with rational coefficients where it is one, else exact
    substitution (refused where the value is not rational)."""
    try:
        poly = sp.Poly(expr, *symbols) if not expr.free_symbols - set(symbols) else None
    except sp.PolynomialError:
        poly = None
    if poly is not None and (poly.domain.is_QQ or poly.domain.is_ZZ):
        terms = [(tuple(m), Fraction(int(c.p), int(c.q))) for m, c in poly.terms()]
        if len(terms) == 1 and terms[0][1] == 1 and sorted(terms[0][0]) == [0] * (len(symbols) - 1) + [1]:
            at = terms[0][0].index(1)  # a parameter itself, the common case: no arithmetic

            def polynomial(values, point, path):
                return values[at]
        elif all(not any(m) for m, _ in terms):
            constant = sum((c for _, c in terms), Fraction(0))

            def polynomial(values, point, path):
                return constant
        else:
            def polynomial(values, point, path):
                return sum((c * _power(values, m) for m, c in terms), Fraction(0))
        polynomial.polynomial = True
        return polynomial

    def substituted(values, point, path):
        value = expr.subs(point)
        if not value.is_Rational:
            raise UsageError(f"{path}: the cost {expr} is {value} at "
                             f"{', '.join(f'{s} = {v}' for s, v in point.items())}, not a rational number; "
                             "abstention cost curves compare exact rational costs")
        return Fraction(int(value.p), int(value.q))
    return substituted


RELATIONS = {"<": lambda x: x < 0, "<=": lambda x: x <= 0, ">": lambda x: x > 0, ">=": lambda x: x >= 0,
             "==": lambda x: x == 0, "!=": lambda x: x != 0}


def _condition(condition, symbols: list[sp.Symbol]):
    """Whether an assumption holds at a point: exactly from the polynomial lhs - rhs where it is one, else by
    substitution (False only where sympy decides it false)."""
    if isinstance(condition, sp.core.relational.Relational) and condition.rel_op in RELATIONS:
        difference = _evaluator(condition.lhs - condition.rhs, symbols)
        if getattr(difference, "polynomial", False):
            test = RELATIONS[condition.rel_op]
            return lambda values, point, path: test(difference(values, point, path))
    return lambda values, point, path: False if condition.subs(point) is sp.false else None


def _power(values: tuple, exponents: tuple) -> Fraction:
    out = Fraction(1)
    for v, e in zip(values, exponents):
        if e:
            out *= v ** e
    return out
