"""Expected cost under operating-condition uncertainty (Definition 6): the presumed value ĉ is drawn from a Beta
distribution with mode c and certainty γ (α = cγ + 1, β = (1 - c)γ + 1), the true value c weighted by w.

K_v(c) is the paper's Lemma 1 sum over the cost lines each segment of ĉ selects, Σ [V(to|c) - V(from|c)] h(c),
and for the rate-driven method the same integral over its piecewise-linear counts. Exact rationals where the
paper's Theorems 2 and 3 apply: γ = 0 (V uniform: K is a straight line A + B c) and γ = ∞ (ĉ = c); L_v with w
uniform or Beta(a, b) then follows exactly (K affine for γ = 0; for γ = ∞ and segments, each piece's integral
of a polynomial). Otherwise floats: V is scipy's regularised incomplete beta (betainc), each K value carries a
stated bound on its rounding (its premise checked against mpmath at 40 digits at sample points), and L_v is a
Gauss-Legendre integral whose error is estimated by a rule of half the nodes, labelled as such.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial

import numpy as np

from verifier.errors import UsageError
from verifier.using.operating.lines import Lines
from verifier.using.operating.methods import rate_counts

EPS = 1e-13  # relative accuracy assumed of betainc per value (Cephes' incbet is documented near 1e-14)
NODES = 32


@dataclass(frozen=True)
class Weight:
    """w(c): uniform (a = b = 1) or Beta(a, b)."""

    a: Fraction = Fraction(1)
    b: Fraction = Fraction(1)

    @property
    def uniform(self) -> bool:
        """Whether w is uniform (a = b = 1)."""
        return self.a == 1 and self.b == 1

    @property
    def mean(self) -> Fraction:
        """The mean of w, a/(a + b), exactly."""
        return self.a / (self.a + self.b)

    @property
    def polynomial(self) -> list[Fraction] | None:
        """Coefficients of w(c) in powers of c when a and b are whole numbers (else None)."""
        if self.a.denominator != 1 or self.b.denominator != 1:
            return None
        a, b = int(self.a), int(self.b)
        norm = Fraction(factorial(a + b - 1), factorial(a - 1) * factorial(b - 1))  # 1 / B(a, b)
        coefficients = [Fraction(0)] * (a + b - 1)
        for j in range(b):
            coefficients[a - 1 + j] += norm * comb(b - 1, j) * (-1) ** j
        return coefficients

    def density(self, c: np.ndarray) -> np.ndarray:
        """w(c) at each point of `c`, in floats (ones when uniform)."""
        if self.uniform:
            return np.ones_like(c)
        from scipy.special import betaln

        a, b = float(self.a), float(self.b)
        return np.exp((a - 1) * np.log(c) + (b - 1) * np.log1p(-c) - betaln(a, b))


@dataclass(frozen=True)
class Loss:
    """L_v: exact (`low == high`, `exact`) or a float with an estimated error."""

    value: float
    exact_value: Fraction | None
    error: float
    method: str


class Choice:
    """What a threshold choice method selects at each ĉ: segments (from, to, cut) or rate points."""

    def __init__(self, lines: Lines, segments=None, rate=None):
        self.lines, self.segments, self.rate = lines, segments, rate

    def affine_zero(self) -> tuple[Fraction, Fraction]:
        """γ = 0: K(c) = A + B c (Theorem 2 summed over the cost lines)."""
        lines = self.lines
        if self.segments is not None:
            a = sum(((hi - lo) * lines.line(cut)[0] for lo, hi, cut in self.segments), Fraction(0))
            b = sum(((hi - lo) * lines.line(cut)[1] for lo, hi, cut in self.segments), Fraction(0))
            return a, b
        ones = zeros = Fraction(0)
        for (x0, o0, z0), (x1, o1, z1) in zip(self.rate, self.rate[1:]):
            ones += (x1 - x0) * (o0 + o1) / 2
            zeros += (x1 - x0) * (z0 + z1) / 2
        low = lines.fractional(ones, zeros, Fraction(0))
        return low, lines.fractional(ones, zeros, Fraction(1)) - low

    def certain(self, c: Fraction) -> Fraction:
        """γ = ∞: K(c) = Q(T(c); c)."""
        if self.segments is not None:
            starts = self._starts()
            lo, hi, cut = self.segments[max(0, bisect_right(starts, c) - 1)]
            return self.lines.height(cut, c)
        if not hasattr(self, "_rates"):
            self._rates = [p[0] for p in self.rate]
        ones, zeros = rate_counts(self.rate, c, self._rates)
        return self.lines.fractional(ones, zeros, c)

    def curve(self, gamma: float | None, grid: list[Fraction]) -> tuple[list, float]:
        """K at every grid point: Fractions for γ = 0 and γ = ∞ (None), else floats with their error bound."""
        if gamma == 0:
            a, b = self.affine_zero()
            return [a + b * c for c in grid], 0.0
        if gamma is None:
            return [self.certain(c) for c in grid], 0.0
        values = self.uncertain(gamma, np.array([float(c) for c in grid]))
        return values.tolist(), self.bound(gamma)

    def exact_certain(self, weight: Weight) -> Fraction | None:
        """L under certainty, exactly, where the paper's Theorem 3 (or Simpson's rule) gives it; else None."""
        if self.segments is not None and weight.polynomial is not None:
            return sum((_integral(self.lines.line(cut), lo, hi, weight.polynomial)
                        for lo, hi, cut in self.segments), Fraction(0))
        if self.rate is not None and weight.uniform:
            return _rate_certain(self)
        return None

    def _starts(self) -> list[Fraction]:
        if not hasattr(self, "_starts_cache"):
            self._starts_cache = [lo for lo, _, _ in self.segments]
        return self._starts_cache

    def _ends(self) -> list[Fraction]:
        return [lo for lo, _, _ in self.segments] if self.segments is not None else [p[0] for p in self.rate]

    def uncertain(self, gamma: float, c: np.ndarray) -> np.ndarray:
        """K(c) for 0 < γ < ∞, as floats."""
        from scipy.special import betainc, betaln

        alpha, beta = c * gamma + 1, (1 - c) * gamma + 1
        lines = self.lines
        if self.segments is not None:
            ends = np.array([float(lo) for lo, _, _ in self.segments] + [1.0])
            cuts = np.array([cut for _, _, cut in self.segments])
            mass = np.diff(betainc(alpha[:, None], beta[:, None], ends[None, :]), axis=1)
            heights = lines.ls_float[cuts][None, :] + lines.ks_float[cuts][None, :] * c[:, None]
            return (mass * heights).sum(axis=1)
        x = np.array([float(p[0]) for p in self.rate])
        ones = np.array([float(p[1]) for p in self.rate])
        zeros = np.array([float(p[2]) for p in self.rate])
        a, b = alpha[:, None], beta[:, None]
        mass = betainc(a, b, x[None, :])
        # ∫_0^x r v(r) dr = α/(α+β) I_x(α+1, β), and I_x(α+1, β) = I_x(α, β) - x^α (1-x)^β / (α B(α, β))
        with np.errstate(divide="ignore"):
            edge = np.exp(a * np.log(x[None, :]) + b * np.log1p(-x[None, :]) - np.log(a) - betaln(a, b))
        first = (alpha / (alpha + beta))[:, None] * (mass - edge)
        dm, d1 = np.diff(mass, axis=1), np.diff(first, axis=1)
        dx = np.diff(x)
        expected = {}
        for name, counts in (("ones", ones), ("zeros", zeros)):
            slope = np.divide(np.diff(counts), dx, out=np.zeros_like(dx), where=dx > 0)
            # ∫ (counts0 + slope (r - x0)) v(r) dr over each piece
            expected[name] = ((counts[:-1] - slope * x[:-1])[None, :] * dm + slope[None, :] * d1).sum(axis=1)
        costs = lines.costs
        n1, n0, n = lines.stairs.p[-1], lines.stairs.q[-1], lines.stairs.n
        cell = {name: float(getattr(costs, name).a) + float(getattr(costs, name).b) * c
                for name in ("one_as_zero", "one_as_one", "zero_as_one", "zero_as_zero")}
        ones, zeros = expected["ones"], expected["zeros"]
        return (cell["one_as_zero"] * ones + cell["one_as_one"] * (n1 - ones) + cell["zero_as_one"] * (n0 - zeros)
                + cell["zero_as_zero"] * zeros) / n

    def bound(self, gamma: float | None = None) -> float:
        """A bound on the rounding of each K value: every betainc within EPS of its value, summed over the pieces,
        with the largest cost line as the factor. The premise is checked (`_check_betainc`) at sample points."""
        if gamma not in (None, 0):
            _check_betainc(gamma, [float(x) for x in self._ends()])
        lines = self.lines
        pieces = len(self.segments) if self.segments is not None else len(self.rate)
        biggest = float(max(np.abs(lines.ls_float).max(), np.abs(lines.ls_float + lines.ks_float).max()))
        return 4 * EPS * pieces * max(biggest, 1e-300) + 1e-15


def loss(choice: Choice, gamma: float | None, weight: Weight) -> Loss:
    """L_v for the certainty γ (None: ∞) under w."""
    if gamma == 0:
        a, b = choice.affine_zero()
        value = a + b * weight.mean
        return Loss(float(value), value, 0.0, "exact (Theorem 2: K is a straight line)")
    if gamma is None:
        value = choice.exact_certain(weight)
        if value is not None:
            how = "Theorem 3: each cost line over its segment" if choice.rate is None else \
                "Simpson's rule on each quadratic piece"
            return Loss(float(value), value, 0.0, f"exact ({how})")
    nodes, weights = np.polynomial.legendre.leggauss(NODES)
    half_nodes, half_weights = np.polynomial.legendre.leggauss(NODES // 2)
    fine = _quadrature(choice, gamma, weight, nodes, weights)
    coarse = _quadrature(choice, gamma, weight, half_nodes, half_weights)
    error = abs(fine - coarse) + choice.bound(gamma)
    return Loss(fine, None, error, f"numerical (Gauss-Legendre, {NODES:,} nodes; error estimated against {NODES // 2})")


def _quadrature(choice: Choice, gamma, weight: Weight, nodes, weights) -> float:
    c = (nodes + 1) / 2
    if gamma is None:
        values = np.array([float(choice.certain(Fraction(x))) for x in c])
    else:
        values = choice.uncertain(gamma, c)
    return float((weights / 2 * values * weight.density(c)).sum())


def _integral(line: tuple[Fraction, Fraction], lo: Fraction, hi: Fraction, w: list[Fraction]) -> Fraction:
    """∫_lo^hi (l + k c) w(c) dc for w a polynomial."""
    l, k = line
    total = Fraction(0)
    for power, coefficient in enumerate(w):
        if coefficient:
            total += coefficient * (l * (hi ** (power + 1) - lo ** (power + 1)) / (power + 1)
                                    + k * (hi ** (power + 2) - lo ** (power + 2)) / (power + 2))
    return total


def _rate_certain(choice: Choice) -> Fraction:
    """∫_0^1 Q(T_rd(c); c) dc: the counts are linear and the costs affine on each piece between the rate points,
    so the integrand is quadratic there and Simpson's rule is exact; the counts at a piece's ends and middle
    are known without a search."""
    total = Fraction(0)
    cost = choice.lines.fractional
    for (x0, o0, z0), (x1, o1, z1) in zip(choice.rate, choice.rate[1:]):
        if x1 > x0:
            middle = cost((o0 + o1) / 2, (z0 + z1) / 2, (x0 + x1) / 2)
            total += (x1 - x0) * (cost(o0, z0, x0) + 4 * middle + cost(o1, z1, x1)) / 6
    return total


_CHECKED: set = set()


def _check_betainc(gamma: float, ends: list[float], samples: int = 60) -> None:
    """The premise of `Choice.bound`: scipy's betainc within EPS of mpmath's at 40 digits, at the cost curve's
    sample points (true values spread over [0, 1], piece ends spread over the segments). A UsageError when it
    fails (the bound would then be wrong, and nothing is reported)."""
    import mpmath
    from scipy.special import betainc

    key = (gamma, len(ends))
    if key in _CHECKED:
        return
    picked = [ends[i] for i in np.linspace(0, len(ends) - 1, min(samples, len(ends))).astype(int)]
    with mpmath.workdps(40):
        for c in (0.013, 0.37, 0.5, 0.81, 0.997):
            alpha, beta = c * gamma + 1, (1 - c) * gamma + 1
            for x in picked:
                try:
                    exact = mpmath.betainc(alpha, beta, 0, x, regularized=True)
                except (ValueError, ArithmeticError) as exc:  # mpmath's NoConvergence is an ArithmeticError
                    exact = exc
                if isinstance(exact, Exception) or abs(float(betainc(alpha, beta, x)) - float(exact)) > EPS:
                    raise UsageError(f"--uncertainty {gamma:g}: the incomplete beta function I_{x:g}({alpha:g}, "
                                     f"{beta:g}) could not be checked to within {EPS:g} against mpmath, so no error "
                                     "bound would hold; give a smaller certainty, or inf (computed exactly)")
    _CHECKED.add(key)
