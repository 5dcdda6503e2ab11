"""A plain, independent brute force for small schemes: random schemes of 2 and 3 classes (Hypothesis), the ten
properties' verdicts straight from the table of DESIGN.md §2 in `fractions.Fraction`, and one exact rational LP
per set (sympy's simplex) for Definition 4. Nothing from verifier computes an expected answer here; the tool
only reads the random spec (`analyse_data`). Shared by tests/engines/test_brute_force.py,
tests/engines/test_optimality.py and tests/analysis/test_families.py."""

from __future__ import annotations

import itertools
import os
import tempfile
from fractions import Fraction as F

import sympy as sp
import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from sympy.solvers.simplex import linprog

from verifier.analysis.pipeline import analyse_file

NAMES = "abc"
POOL = sorted({F(n, d) for n in range(9) for d in range(1, 5)})  # 0..8 over 1..4
TINY = [F(0), F(1, 2), F(1)]  # few values: many ties, so the equality cases are exercised
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def indeterminate(K: int) -> list[frozenset[int]]:
    return [frozenset(c) for n in range(2, K + 1) for c in itertools.combinations(range(K), n)]


@st.composite
def schemes(draw):
    """(K, det[h][y], rows[Y][y]); a set entry is a free value or exactly the mean, half the mean, min or max."""
    K = draw(st.sampled_from([2, 3]))
    values = draw(st.sampled_from([POOL, TINY]))
    det = [[draw(st.sampled_from(values)) for _ in range(K)] for _ in range(K)]
    rows = {}
    for Y in indeterminate(K):
        row = []
        for y in range(K):
            col = [det[h][y] for h in sorted(Y)]
            how = draw(st.sampled_from(["free", "free", "mean", "half", "min", "max"]))
            row.append(draw(st.sampled_from(values)) if how == "free" else
                       {"mean": sum(col) / len(col), "half": sum(col) / len(col) / 2, "min": min(col),
                        "max": max(col)}[how])
        rows[Y] = row
    return K, det, rows


def encode(v: F):
    """Three spellings the spec allows: an integer, an exact decimal, a formula string."""
    if v.denominator == 1:
        return v.numerator
    if v.denominator in (2, 4):
        return float(v)  # 0.25, 2.75: exact in binary and in decimal; the tool reads decimals exactly
    return f"{v.numerator}/{v.denominator}"


def analyse_data(K, det, rows):
    names = NAMES[:K]
    spec = {"name": "random", "classes": list(names),
            "cost_matrix": {names[h]: [encode(v) for v in det[h]] for h in range(K)},
            "set_costs": {",".join(names[i] for i in sorted(Y)): [encode(v) for v in row] for Y, row in rows.items()}}
    fd, path = tempfile.mkstemp(suffix=".yaml")
    try:
        with os.fdopen(fd, "w") as handle:
            yaml.safe_dump(spec, handle)
        return analyse_file(path)
    finally:
        os.unlink(path)


def frac(x) -> F:
    x = sp.Rational(x)
    return F(int(x.p), int(x.q))


# -- the brute force, straight from the §2 table ---------------------------------------------------------------
def brute_verdicts(K, det, rows) -> dict[str, str]:
    sets, classes = list(rows), range(K)

    def c(Y, y):
        return rows[Y][y]

    def col(Y, y):  # C_Y(y) before sorting
        return [det[h][y] for h in sorted(Y)]

    def mean(Y, y):
        return sum(col(Y, y)) / len(Y)

    def pairs(dom):
        return [(y, z) for y in dom for z in dom if y != z]

    truth = {
        "P2": all(any(c(Y, y) < mean(Y, y) for y in classes) for Y in sets),
        "P3": all(c(Y, y) < mean(Y, y) for Y in sets for y in Y),
        "P4": all(c(Y, y) >= min(col(Y, y)) for Y in sets for y in classes),
        "P5": all(sorted(col(Y, y)) != sorted(col(Y, z)) or c(Y, y) == c(Y, z)
                  for Y in sets for y, z in pairs(classes)),
        "P6": all(c(Y, y) >= mean(Y, y) for Y in sets for y in classes if y not in Y),
        "P7": all(c(Y, y) <= mean(Y, y) for Y in sets for y in classes if y not in Y),
        "P8": all(c(Y, y) == c(Y, z) for Y in sets for y in Y for z in Y),
        "P9": any(sorted(col(Y, y)) != sorted(col(Y, z)) and c(Y, y) != c(Y, z) for Y in sets for y, z in pairs(Y)),
        "P10": all(c(Y, y) <= max(col(Y, y)) for Y in sets for y in classes),
    }
    return {pid: "holds" if ok else "fails" for pid, ok in truth.items()}


def lp_possible(K, det, row, Y) -> bool:
    """max t s.t. Σ_y p_y (c_Y(y) − c_ŷ(y)) + t <= 0 (ŷ in Y), p in the simplex; possible iff t* > 0.

    t is written s − M with s >= 0 and M a bound on |t|: sympy's simplex can cycle ("oscillating system")
    when a free t is split as t+ − t-.
    """
    M = 1 + sum(abs(v) for v in row) + sum(abs(v) for r in det for v in r)

    def R(v):
        return sp.Rational(v.numerator, v.denominator)

    A = [[R(row[y] - det[h][y]) for y in range(K)] + [1] for h in sorted(Y)]
    optimum, _ = linprog([0] * K + [-1], A=A, b=[R(M)] * len(A), A_eq=[[1] * K + [0]], b_eq=[1])
    return -optimum - M > 0


def optimum(all_rows: dict, Y) -> F:
    """t* = max t such that E_p[c_Y − c_Z] + t <= 0 for every other set Z, p in the simplex: Y is alone iff
    t* > 0, tied iff t* = 0, never iff t* < 0 (DESIGN.md §6)."""
    K = len(all_rows[Y])
    R = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731
    M = 1 + sum(abs(v) for row in all_rows.values() for v in row) * 2
    A = [[R(all_rows[Y][y] - all_rows[Z][y]) for y in range(K)] + [1] for Z in all_rows if Z != Y]
    best, _ = linprog([0] * K + [-1], A=A, b=[R(M)] * len(A), A_eq=[[1] * K + [0]], b_eq=[1])
    return frac(-best - M)


def _linear_cell(draw, parameters) -> str:
    constant = draw(st.integers(0, 3))
    return " + ".join([str(constant), *[f"{draw(st.integers(-2, 2))}*{name}" for name in parameters]])


@st.composite
def parametric_schemes(draw, counts: tuple[int, ...] = (1, 2)):
    """Spec data of three classes a, b, c with one or two parameters t, s in [0, 1] (as many as `counts` allows),
    every off-diagonal cell a + b·t (+ c·s) with small integers: the random schemes of issue 55."""
    parameters = ["t", "s"][:draw(st.integers(min(counts), max(counts))) if len(counts) > 1 else counts[0]]
    return _unit_box_scheme(draw, parameters, _linear_cell)


def _polynomial_cell(draw, parameters) -> str:
    """A small integer polynomial of degree up to 3 in the parameters: a constant and up to two monomials."""
    terms = [str(draw(st.integers(0, 3)))]
    for _ in range(draw(st.integers(0, 2))):
        c = draw(st.integers(-2, 2))
        if c:
            terms.append(f"{c}*" + "*".join(draw(st.sampled_from(parameters)) for _ in range(draw(st.integers(1, 3)))))
    return " + ".join(terms)


@st.composite
def polynomial_schemes(draw):
    """Spec data of three classes with one or two parameters t, s in [0, 1], every cell (but the zero diagonal) a
    polynomial of degree up to 3 with small integer coefficients: the random schemes of issue 63."""
    return _unit_box_scheme(draw, ["t", "s"][:draw(st.integers(1, 2))], _polynomial_cell)


def _unit_box_scheme(draw, parameters: list[str], cell) -> dict:
    """Three classes a, b, c, the parameters in [0, 1], every cell but the zero diagonal drawn by `cell`."""
    sets = [c for n in (1, 2, 3) for c in itertools.combinations(range(3), n)]
    cells = {Y: [("0" if len(Y) == 1 and Y[0] == y else cell(draw, parameters)) for y in range(3)] for Y in sets}
    return {"name": "random", "classes": list(NAMES), "parameters": {p: {} for p in parameters},
            "assume": [f"{p} >= 0" for p in parameters] + [f"{p} <= 1" for p in parameters],
            "cost_matrix": {NAMES[Y[0]]: cells[Y] for Y in sets if len(Y) == 1},
            "set_costs": {",".join(NAMES[i] for i in Y): cells[Y] for Y in sets if len(Y) > 1}}
