"""Rational bounds of the irrational numbers the formula language makes: roots, logarithms and exponentials.

Every bound is derived here in integers, rounded outward, with its series' remainder bounded: roots by
Newton's method, log by the atanh series of the mantissa in (1/2, 2) plus a multiple of log 2, exp by its
Taylor series on x/2^k squared k times. `b` asks for about 2^-b of width.
"""

import math
from fractions import Fraction


def grid(lo, hi, b):
    """Round outward to multiples of 2^-b (keeps the numbers short)."""
    return Fraction(math.floor(lo * (1 << b)), 1 << b), Fraction(math.ceil(hi * (1 << b)), 1 << b)


def iroot(n, k):
    """floor(n ** (1/k)) for an integer n >= 0 (Newton's method in integers)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // k)
    while (y := ((k - 1) * x + n // x ** (k - 1)) // k) < x:
        x = y
    return x


def atanh2(z, b):
    """Bounds of 2 atanh(z) = log((1+z)/(1-z)), |z| <= 1/3: the series in integers scaled by 2^(b+16), each term
    rounded outward, and its tail bounded by a geometric one (|z|^(2n+1) / ((2n+1)(1-z^2)), 1-z^2 >= 8/9)."""
    q, a = 1 << (b + 16), abs(z)
    lo, hi = (a * q).__floor__(), (a * q).__ceil__()  # a^(2n+1) q, from below and from above
    sq_lo, sq_hi, n, total_lo, total_hi = (a * a * q).__floor__(), (a * a * q).__ceil__(), 0, 0, 0
    while 9 * hi >= 8 * (2 * n + 1) << 16:  # until the tail is below 2^-b
        total_lo, total_hi = total_lo + lo // (2 * n + 1), total_hi - (-hi // (2 * n + 1))
        lo, hi, n = lo * sq_lo // q, -(-hi * sq_hi // q), n + 1
    total_hi += -(-9 * hi // (8 * (2 * n + 1)))
    ends = (Fraction(2 * total_lo, q), Fraction(2 * total_hi, q))
    return ends if z >= 0 else (-ends[1], -ends[0])


def log_bounds(x, b):
    """Bounds of log x, x > 0 rational: log m + e log 2 for x = m 2^e, m in (1/2, 2), by `atanh2` series."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    m = x / Fraction(2) ** e  # in (1/2, 2), so |(m-1)/(m+1)| < 1/3; log x = log m + e log 2
    lo, hi = atanh2((m - 1) / (m + 1), b)
    l2lo, l2hi = atanh2(Fraction(1, 3), b)
    return (lo + e * l2lo, hi + e * l2hi) if e >= 0 else (lo + e * l2hi, hi + e * l2lo)


def exp_bounds(x, b):
    """e^x for |x| <= MAX_EXP: the Taylor series of e^t, t = |x| / 2^k < 1/2, in integers scaled by 2^p (terms
    rounded outward, the tail at most twice the first omitted term), squared k times; then 1 / e^|x| if x < 0."""
    k = (abs(x).numerator // abs(x).denominator).bit_length() + 1
    p = b + k + 16
    q, t = 1 << p, abs(x) / (1 << k)
    t_lo, t_hi, lo, hi, n, total_lo, total_hi = (t * q).__floor__(), (t * q).__ceil__(), q, q, 0, 0, 0
    while 2 * hi >= 1 << 8:  # t^n / n! scaled, from below and above, until the tail is below 2^-(b+k+8)
        total_lo, total_hi, n = total_lo + lo, total_hi + hi, n + 1
        lo, hi = lo * t_lo // (q * n), -(-hi * t_hi // (q * n))
    lo, hi = total_lo, total_hi + 2 * hi
    for _ in range(k):  # e^|x| = (e^t)^(2^k)
        lo, hi = lo * lo >> p, -(-hi * hi >> p)
    return (Fraction(lo, q), Fraction(hi, q)) if x >= 0 else (Fraction(q, hi), Fraction(q, lo))


def root_bounds(x, k, b):
    """Bounds of the real k-th root of a rational x >= 0, 2^-b wide."""
    scale = 1 << b
    lo, hi = x * scale ** k, x * scale ** k
    top = math.ceil(hi)
    r = iroot(top, k)
    return Fraction(iroot(math.floor(lo), k), scale), Fraction(r + (r ** k != top), scale)
