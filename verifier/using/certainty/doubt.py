"""The doubt cost θ = π/2 − 2·arctan(t) of rows (t = Π_{i≠j} χ_i, or the raw ξ_i of logits), correctly rounded
on every row: the same bits on every machine.

θ is 2·arctan(c) with c = (1 − t)/(1 + t) = u/(2 − u), u = 1 − t (the same number: π/2 − 2·arctan t =
2·arctan c). The caller gives u as a double word (`using.exact.double_word`) with a bound on its relative error, formed
without cancellation where it can (`using.certainty.doubt_inputs`). Here, in double words (IEEE +, −, ×, ÷ only, never a
library's arctan): c, then arctan|c| = arctan(b) + arctan(r) with b = k/64 the nearest of 65 points (their
arctangents made once, in python-flint balls, to 2^-106), r = (|c| − b)/(1 + |c|·b), |r| ≤ 2^-7 and |r| ≤ |c|,
and arctan r = r − r³/3 (double words) + r⁵(1/5 − r²/7 + r⁴/9 − r⁶/11 + r⁸/13) (floats, within 20u relative;
the series' rest is below |r|^15/15). With ε = 32u² (u = 2^-53) a double-word operation, the error relative to
arctan|c| is at most 2^-78 for the evaluation (4/π·(2^-79 + 2^-98 + 90u²): arctan c ≥ πc/4 on [0, 1]) plus
4/π times c's own relative error (arctan's slope is at most 1), c's being at most 2.01·(u's) + ε (|2 − u| ≥ |u|
for u ≤ 1). So θ's double word θ_hi + θ_lo is within ρ = 1.3·err_c + 2^-78 relative of θ; where that interval
lies strictly inside θ_hi's rounding cell (Ziv's test), θ_hi is the correctly rounded θ. Every other row (a
rounding too close to call, about one row in 10^7; u or c out of the double words' safe range) is computed from
its exact t in python-flint balls, tightened until both ends round to the same float. The exact t is the
caller's (`exact_t(i)`).

Owns: `doubt_costs`, `exact_doubt_cost`. May import: numpy, python-flint, `using.exact.double_word`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import flint
import numpy as np

from verifier.using.exact import double_word as dw

U = 2.0 ** -53
PRECISIONS = (64, 128, 256, 1024, 4096, 16384)
POINTS = 64  # arctan's table: b = k/64, k = 0..64
EVALUATION = 2.0 ** -78  # arctan's evaluation error relative to the value (see the module's docstring)


def _exact_float(end) -> Fraction:
    man, exp = (int(v) for v in end.man_exp())
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def _table() -> tuple[np.ndarray, np.ndarray]:
    """arctan(k/64) for k = 0..64 as double words (hi correctly rounded, lo the rest correctly rounded)."""
    saved = flint.ctx.prec
    try:
        flint.ctx.prec = 300
        values = [_exact_float(flint.arb(flint.fmpq(k, POINTS)).atan().mid()) for k in range(POINTS + 1)]
    finally:
        flint.ctx.prec = saved
    hi = [float(v) for v in values]
    return np.array(hi), np.array([float(v - Fraction(h)) for v, h in zip(values, hi)])


TABLE = _table()


def doubt_costs(u, err, exact_t: Callable[[int], Fraction]) -> np.ndarray:
    """θ of every row, correctly rounded: `u` = 1 − t as a double word (hi, lo) of arrays, `err` a bound on its
    relative error per row (inf where the caller has none); `exact_t(i)` is row i's exact t, asked for only
    where the double words do not settle the rounding."""
    uh, ul = (np.asarray(x, dtype=np.float64) for x in u)
    err = np.broadcast_to(np.asarray(err, dtype=np.float64), uh.shape)
    with np.errstate(all="ignore"):
        c = dw.div((uh, ul), dw.add(dw.double(np.full_like(uh, 2.0)), dw.neg((uh, ul))))
        err_c = 2.01 * err + dw.EPS
        sign = np.where(c[0] < 0, -1.0, 1.0)
        a = _arctan((c[0] * sign, c[1] * sign))
        theta = (2 * sign * a[0], 2 * sign * a[1])  # doubling is exact
        rho = (1.3 * err_c + EVALUATION) * (1 + 2.0 ** -40)
        safe = (np.abs(uh) <= 2.0 ** 899) & ((np.abs(c[0]) >= 2.0 ** -250) | (c[0] == 0)) & (err_c < 2.0 ** -60)
        settled = safe & ((theta[0] == 0) | _inside_cell(theta, rho))  # θ̃ = 0 within ρ < 1: θ = 0
    out = np.where(settled, theta[0], 0.0)
    for i in np.flatnonzero(~settled).tolist():
        out[i] = exact_doubt_cost(exact_t(i))
    return out


def _arctan(c):
    """arctan c for a double word 0 ≤ c ≤ 1 (see the module's docstring)."""
    k = np.clip(np.nan_to_num(np.rint(c[0] * POINTS)), 0, POINTS)  # a row out of range is not kept anyway
    b = k / POINTS  # exact
    r = dw.div(dw.add(c, dw.double(-b)), dw.add(dw.double(np.ones_like(b)), dw.mul(c, dw.double(b))))
    cube = dw.mul(dw.mul(r, r), r)
    s = r[0] * r[0]
    rest = r[0] * s * s * (1 / 5 - s * (1 / 7 - s * (1 / 9 - s * (1 / 11 - s / 13))))
    near = dw.add(dw.add(r, dw.neg(dw.div(cube, dw.double(np.full_like(b, 3.0))))), dw.double(rest))
    index = k.astype(np.intp)
    return dw.add((TABLE[0][index], TABLE[1][index]), near)


def _inside_cell(theta, rho) -> np.ndarray:
    """Whether every number within ρ·|θ_hi| (and a factor 2 for the rounding of this test) of θ_hi + θ_lo rounds
    to θ_hi: strictly inside the half gaps to its neighbours."""
    m = np.abs(theta[0])
    outward = theta[1] * np.where(theta[0] < 0, -1.0, 1.0)  # θ_lo, positive away from zero
    up = np.spacing(m) / 2
    down = (m - np.nextafter(m, 0.0)) / 2
    reach = 2 * rho * m
    return (up - outward > reach) & (down + outward > reach)


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
    return float(_exact_float(end))
