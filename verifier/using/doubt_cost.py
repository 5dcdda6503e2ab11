"""The doubt cost θ = π/2 − 2·arctan(t) of rows of certainties, t = Π_{i≠j} χ_i (or the raw ξ_i of logits),
within (2K + 20)·2^-53 relative of the exact θ, row by row.

In floats θ is 2·arctan(c) with c = (1 − t)/(1 + t) (the same number: π/2 − 2·arctan t = 2·arctan c), a form
whose relative error does not grow as θ shrinks, except through c itself. t̃ is the product of the K − 1
certainties' floats, each within e_i relative of its exact value, so t̃ is within γ = 1.01·(Σ e_i + (K − 2)·u)
relative of t (u = 2^-53; the caller gives Σ e_i per row), |ln t̃ − ln t| ≤ γ' = γ/(1 − γ). With t = e^s,
c = −tanh(s/2) and |d ln|c|/ds| = 1/|sinh s|, so c(t̃) is within γ'/sinh(|ln t̃| − γ') relative of c(t) (rows
with |ln t̃| ≤ 2γ', t near 1 where c cancels, are not proved); forming c rounds three times (3u); arctan's
condition number |c/((1 + c²)·arctan c)| is at most 1, and numpy's vectorised arctan adds at most 4 ulp (8u:
not only a correctly rounded one); doubling is exact. With two classes of probabilities c is p_s/p_j, one
division from the row's floats, which never cancels. A row whose θ̃ is within (2K + 20)·u relative by that
proof keeps it; every other row (t near 1, an overflowing product) is computed from its exact t in
python-flint balls, tightened until both ends round to the same float: the correctly rounded θ. The exact t
is the caller's (`exact_t(i)`), so the proof and the exact route meet here.

Owns: `bound_units`, `doubt_costs`, `exact_doubt_cost`. May import: numpy, python-flint.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import flint
import numpy as np

U = 2.0 ** -53
PRECISIONS = (64, 128, 256, 1024, 4096, 16384)
ATAN_ULPS = 4  # numpy's arctan on SIMD kernels is within a few ulp; 4 covers the ones it ships


def bound_units(K: int) -> int:
    """The documented relative bound on θ, in units of 2^-53: 2K + 20."""
    return 2 * K + 20


def doubt_costs(t: np.ndarray, K: int, term_errors, exact_t: Callable[[int], Fraction],
                c: np.ndarray | None = None) -> np.ndarray:
    """θ of every row from the float products `t` (see the module's docstring), `term_errors` the sum of its
    factors' relative errors (per row, or one for all); `exact_t(i)` is row i's exact t, asked for only where
    the floats cannot be proved within the bound. `c`: the rows' (1 − t)/(1 + t) when the caller has it
    without cancellation, `term_errors` then being its relative error (two classes: c = p_s/p_j)."""
    with np.errstate(invalid="ignore"):
        gamma = 1.01 * (np.asarray(term_errors, dtype=np.float64) + (0 if c is not None else max(K - 2, 0) * U))
        g = np.where(gamma < 0.5, gamma / (1 - gamma), np.inf)
    if c is not None:
        return _proved_or_exact(2 * np.arctan(c), np.isfinite(c), g, K, exact_t)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        t = np.asarray(t, dtype=np.float64)
        theta = 2 * np.arctan((1 - t) / (1 + t))
        s = np.abs(np.log(t))  # inf at t = 0: c = 1 exactly, nothing moves
        moved = np.where(s > 2 * g, g / np.sinh(s - g), np.inf)
        moved = moved * (1 + 2 * moved)  # ln-relative to relative: e^x − 1 ≤ x(1 + 2x) for x ≤ 1/2
    return _proved_or_exact(theta, np.isfinite(t), moved + 3 * U, K, exact_t)  # c: three roundings


def _proved_or_exact(theta: np.ndarray, finite: np.ndarray, c_error, K: int, exact_t) -> np.ndarray:
    """θ̃ = 2·arctan(c̃) where c̃ is within `c_error` relative of c: kept where that and arctan's 4 ulp (its
    condition number is at most 1) prove it within the bound, else computed from the exact t."""
    with np.errstate(invalid="ignore"):
        error = 1.01 * c_error + 2 * ATAN_ULPS * U  # relative, to the exact θ
        bound = bound_units(K) * U
        proved = finite & (c_error <= 0.5) & (error * (1 + bound) <= bound)
        proved &= np.abs(theta) > 1e-290  # an absolute 1e-300 from underflow stays relative too
    proved = np.broadcast_to(proved, np.shape(theta))
    theta = np.array(theta, dtype=np.float64)
    for i in np.flatnonzero(~proved).tolist():
        theta[i] = exact_doubt_cost(exact_t(i))
    return theta


def exact_doubt_cost(t: Fraction) -> float:
    """π/2 − 2·arctan(t) for an exact t ≥ 0, correctly rounded (0 exactly at t = 1, π/2's float at t = 0)."""
    if t == 1:
        return 0.0
    if t == 0:
        return math.pi / 2  # float(π) halved: exact halving of the correctly rounded π
    q = flint.fmpq(t.numerator, t.denominator)
    saved = flint.ctx.prec
    try:
        for prec in PRECISIONS:
            flint.ctx.prec = prec
            ball = flint.arb.pi() / 2 - 2 * flint.arb(q).atan()
            low, high = _float(ball.lower()), _float(ball.upper())
            if low == high:
                return low
    finally:
        flint.ctx.prec = saved
    return float(ball.mid())  # never reached for a rational t ≠ 0, 1: θ is transcendental, not a tie of floats


def _float(end) -> float:
    man, exp = (int(v) for v in end.man_exp())
    return float(Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp))
