"""Proofs that a set is alone (or a minimiser) wherever a condition on the parameters holds, by named witnesses
p(θ), so that z3 is only asked questions over the parameters.

"For every θ in the condition some p makes Y alone" is, by LP duality, "no θ in the condition has a mixture of
the other rows no worse than Y in every column": a question over θ and that mixture together, bilinear, which
z3's nonlinear arithmetic rarely settles (30 s without an answer on a 3-class scheme). Here the p is named.
At a point θ* the polytope {p in the simplex: (c_Z − c_Y)·p ≥ 0 for every Z} has vertices, each the solution
of K − 1 tight rows and Σp = 1, hence N_B(θ)/D_B(θ) by Cramer's rule for every θ. Witnesses, in this order:
- a constant rational p inside the polytope at θ* (the mean of K affinely independent vertices): where every
  (c_Z − c_Y)·p > 0 it makes Y alone, a condition linear in the costs;
- near a boundary where the polytope shrinks (z3's points crowd there, and no finite set of constant points
  covers it), p(θ) = Σ σ_i N_i(θ) / Σ σ_i D_i(θ), σ_i the sign of D_i at θ*: the mix of those vertices with
  weights |D_i| / Σ|D_j|; where every σ_i D_i > 0, Σ σ_i N_i ≥ 0 and every row at it is > 0, Y is alone;
- where the polytope is flat (a minimiser only), one vertex N/D with σD > 0, σN ≥ 0 and every row ≥ 0.
Each is a condition on θ alone, and implies the status by itself. Witnesses are named first at known points
(`seeds`), then z3 is asked for a θ in the condition that none covers; each answer gives a new witness (or
shows the condition wrong there), until z3 proves none is left (the proof) or MAX_WITNESSES are used. Every
sign at θ* is exact (flint's rationals; certified signs at an algebraic point). `status_at` reads the set's
status at a rational point from the same vertices.

Owns: `WitnessCover`. May import: scheme, engines.smt, limits, formula, verdict.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import flint
import z3

from verifier import limits
from verifier.analysis.polynomial_matrix import as_flint, as_sympy, determinant
from verifier.engines.smt.translate import Translator, model_value
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal

MAX_WITNESSES = 24  # named witnesses for one condition, before the proof is left to the caller
MAX_DENOMINATOR = 2**256  # a constant witness's denominators
MAX_SEEDED = 8  # witnesses named at known points before z3 is asked
CONSTANT_ROUNDS = 4  # witnesses that are constant points, before vertex formulas join them
# nonlinear questions over vertex formulas can run without spending z3's work budget: a shorter time backstop than
# elsewhere, since the caller then settles the same candidate by the set's exact region
BACKSTOP = 2


class WitnessCover:
    """For one set: its vertex formulas, and proofs "condition ⇒ alone / a minimiser" by named witnesses."""

    def __init__(self, scheme: Scheme, members: ClassSet):
        self.scheme, self.members, K = scheme, members, scheme.K
        rows = scheme.rows
        self.forms = [[sp.expand(rows[z][y] - rows[members][y]) for y in range(K)]
                      for z in scheme.all_sets if z != members]
        unit = [[sp.Integer(int(y == j)) for y in range(K)] for j in range(K)]
        self.rows = self.forms + unit  # every row r of the polytope: r·p >= 0
        # every choice of K - 1 tight rows; its vertex formula (Cramer's rule) is made when a vertex first uses it,
        # since a few of the hundreds of bases ever hold a vertex (a 4-class set: 816 bases, 2 s of sympy each 100)
        self.chosen = list(itertools.combinations(range(len(self.rows)), K - 1))
        self._formulas: dict[int, tuple[list[sp.Expr], sp.Expr]] = {}
        self._polynomial: list | None = None  # the rows in flint, when they are polynomials ([] when not)
        self.ctx = z3.Context()
        self.tr = Translator(self.ctx)
        self.assumed = [self.tr.boolean(c) for c, _ in scheme.assumptions]
        self.assumed += [self.tr.boolean(c) for c, _ in scheme.side_conditions]

    def _basis(self, index: int) -> tuple[list[sp.Expr], sp.Expr]:
        """The vertex formula of one choice of tight rows: p = adj(A) e_K / det A, A those rows over Σp = 1."""
        if index not in self._formulas:
            K, symbols = self.scheme.K, list(self.scheme.symbols)
            if self._polynomial is None:
                self._polynomial = as_flint(self.rows, symbols) or []
            if self._polynomial:  # N_y = (-1)^(K-1+y) times the minor of the tight rows without column y
                tight = [self._polynomial[i] for i in self.chosen[index]]
                minors = [determinant([row[:y] + row[y + 1:] for row in tight]) for y in range(K)]
                signed = [m if (K - 1 + y) % 2 == 0 else -m for y, m in enumerate(minors)]
                total = sum(signed[1:], signed[0])  # det A: the last row is all ones
                N = [as_sympy(n, symbols) for n in signed] if not total.is_zero() else []
                self._formulas[index] = (N, as_sympy(total, symbols))
            else:
                A = sp.Matrix([self.rows[i] for i in self.chosen[index]] + [[sp.Integer(1)] * K])
                D = sp.expand(A.det(method="berkowitz"))
                adjugate = A.adjugate() if D != 0 else None
                N = [sp.expand(adjugate[y, K - 1]) for y in range(K)] if adjugate is not None else []
                self._formulas[index] = (N, D)
        return self._formulas[index]

    def disagreement(self, condition: sp.Basic, strict: bool, ms: int, seeds=()):
        """None when z3 proves the set alone (strict) or a minimiser at every admissible θ where `condition`
        holds; the parameter values of a point where it holds and the set is not, when one is found; False when
        neither is settled within MAX_WITNESSES witnesses or z3's work budget. `seeds` are rational points
        ({symbol: value}) where the status is known to hold: witnesses are named there first, in order, each
        where none named so far works, which spares z3 the easy part of the search."""
        covered: list = []
        named: list = []
        for point in seeds:
            if len(named) >= MAX_SEEDED:
                break
            values = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
            if any(_holds(w, values) for w in named):
                continue
            witness = self._witness(point, strict, moving=False)
            if witness is not None and witness is not False:
                named.append(witness)
                covered.append(self.tr.boolean(witness))
        for round_ in range(MAX_WITNESSES):
            solver = z3.Solver(ctx=self.ctx)
            solver.set("timeout", limits.question_ms(ms * BACKSTOP))
            solver.set("rlimit", limits.work_budget(ms))
            solver.add(*self.assumed, *self.tr.side, self.tr.boolean(condition), *[z3.Not(w) for w in covered])
            answer = solver.check()
            if answer == z3.unsat:
                return None
            if answer != z3.sat:
                return False
            model = solver.model()
            point = {s: model_value(model.eval(self.tr.var(s.name), model_completion=True))
                     for s in self.scheme.symbols}
            witness = self._witness(point, strict, moving=round_ >= CONSTANT_ROUNDS)
            if witness is False:
                return False
            if witness is None:
                return {s.name: v for s, v in point.items()}  # no witness there: the condition is wrong there
            covered.append(self.tr.boolean(witness))
        return False

    def _witness(self, point: dict, strict: bool, moving: bool) -> sp.Basic | None | bool:
        """Where a witness named at this point works, as a condition on θ; None when the set is not alone
        (strict) or not a minimiser at the point; False when a sign there is undecided. A constant p inside
        the polytope (its condition is linear in the costs); with `moving` (z3's points crowd towards a
        boundary where the polytope shrinks, which no finite set of constant points covers) also a mix of
        vertex formulas N_B(θ)/D_B(θ); where the polytope is flat, a vertex formula alone."""
        vertices = self._vertices(point)
        if vertices is None:
            return False  # a sign at an algebraic point was not decided
        if not vertices:
            return None
        # the vertices whose formulas are simplest first: a lower degree for z3
        vertices.sort(key=lambda v: (sp.Poly(self._basis(v[0][0])[1], *self.scheme.symbols).total_degree(),
                                     sp.count_ops(self._basis(v[0][0])[0])))
        chosen = _independent(vertices, self.scheme.K)
        if strict and (chosen is None or self._flat(point)):
            return None  # not alone here: no witness to name
        parts = []
        if chosen is not None:
            inside = self._constant_inside(chosen, point)
            if inside is not None:
                parts.append(sp.And(*[sp.Gt(sp.expand(_dot(r, inside)), 0) for r in self.forms]))
            if moving or inside is None:
                parts.append(self._region(chosen, strict))
        elif strict:
            return None
        else:
            parts.append(self._region(vertices[:1], strict))
        witness = sp.Or(*parts)
        return None if witness == sp.false else witness  # false: no p works there (another row equals Y's)

    def status_at(self, point: dict) -> str | None:
        """The set's exact status at a parameter point: `alone` (the polytope has K affinely independent
        vertices and no other set's row equals Y's), `tied` (it has a vertex) or `never`."""
        vertices = self._vertices(point)
        if vertices is None:
            return None
        if not vertices:
            return Optimal.NEVER
        K = self.scheme.K
        return Optimal.TIED if self._flat(point) or _independent(vertices, K) is None else Optimal.ALONE

    def _flat(self, point: dict) -> bool:
        """Whether another set's row equals Y's at the point (then Y is never alone there)."""
        if all(v.is_Rational for v in point.values()):
            values = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
            return any(all(_at(c, values) == 0 for c in r) for r in self.forms)
        return any(all(_sign(c, point) == 0 for c in r) for r in self.forms)

    def _vertices(self, point: dict):
        """[((basis index, sign of its determinant), exact vertex at the point)] of the polytope at the point;
        None when a sign is undecided."""
        if all(v.is_Rational for v in point.values()):
            return self._rational_vertices(point)
        out = []
        for index in range(len(self.chosen)):
            N, D = self._basis(index)
            if D == 0:
                continue
            d = _sign(D, point)
            if d is None:
                return None
            if d == 0:
                continue
            at = [_value(n, point) / _value(D, point) for n in N]
            signs = [_sign(_dot(r, at), point) for r in self.rows]
            if None in signs:
                return None
            if all(x in (0, 1) for x in signs):
                out.append(((index, d), at))
        return out

    def _rational_vertices(self, point: dict):
        """`_vertices` at a rational point, exactly in flint's rationals: each basis's system solved."""
        values = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
        rows = [[_fmpq(_at(c, values)) for c in r] for r in self.rows]
        K, out = self.scheme.K, []
        last = flint.fmpq_mat(K, 1, [0] * (K - 1) + [1])
        every = flint.fmpq_mat(len(rows), K, [x for r in rows for x in r])  # every row's value at p in one product
        for index, chosen in enumerate(self.chosen):
            A = flint.fmpq_mat(K, K, [x for i in chosen for x in rows[i]] + [1] * K)
            det = A.det()
            if det == 0:
                continue
            solved = A.solve(last)
            p = [solved[y, 0] for y in range(K)]
            if all(x >= 0 for x in (every * solved).entries()):
                out.append(((index, 1 if det > 0 else -1), [sp.Rational(int(x.p), int(x.q)) for x in p]))
        return out

    def _constant_inside(self, chosen, point: dict):
        """A rational p strictly inside the polytope at the point (the mean of the chosen vertices, or a rational
        near it when that is irrational), proved by certified signs; None when no such p is found."""
        mean = [sp.Add(*[v[1][y] for v in chosen]) / len(chosen) for y in range(self.scheme.K)]
        candidates = [mean] if all(x.is_Rational for x in mean) else []
        for limit in (100, 10_000, 10**8):
            near = [sp.Rational(str(sp.N(x, 30))).limit_denominator(limit) for x in mean[:-1]]
            candidates.append(near + [1 - sp.Add(*near)])
        for p in candidates:
            if any(x.q > MAX_DENOMINATOR for x in p):
                continue  # z3 reads numbers as decimal text: keep them short
            if all(x >= 0 for x in p) and all(_sign(_dot(r, p), point) == 1 for r in self.forms):
                return p
        return None

    def _region(self, chosen, strict: bool) -> sp.Basic:
        """The θ where p(θ) = Σ σ_i N_i(θ) / Σ σ_i D_i(θ) is in the simplex and meets every row (strictly for
        alone), each D_i keeping its sign σ_i at the point. That p is the mix of the chosen vertices N_i/D_i
        with weights |D_i| / Σ|D_j| (all positive), so inside their hull; and its conditions have the degree of
        one vertex's, not of a common denominator's."""
        K = self.scheme.K
        formulas = [(*self._basis(index), d) for (index, d), _ in chosen]
        signs = [sp.Gt(D * d, 0) for N, D, d in formulas]
        p = [sp.expand(sp.Add(*[N[y] * d for N, D, d in formulas])) for y in range(K)]  # times Σ|D_i| > 0
        relation = sp.Gt if strict else sp.Ge
        rows = [relation(sp.expand(_dot(r, p)), 0) for r in self.forms] + [sp.Ge(v, 0) for v in p]
        return sp.And(*signs, *rows)


def _independent(vertices, K: int):
    """K affinely independent vertices, the first found in order (their mean is inside the polytope), or None
    when the polytope is flatter than that (the set is not alone there)."""
    chosen = [vertices[0]]
    for v in vertices[1:]:
        trial = chosen + [v]
        matrix = sp.Matrix([[x - y for x, y in zip(w[1], trial[0][1])] for w in trial[1:]])
        if matrix.rank() == len(trial) - 1:
            chosen = trial
            if len(chosen) == K:
                return chosen
    return None


def _fmpq(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _holds(formula: sp.Basic, values: dict) -> bool:
    """An and/or of polynomial relations at a rational point, exactly."""
    if isinstance(formula, sp.And):
        return all(_holds(a, values) for a in formula.args)
    if isinstance(formula, sp.Or):
        return any(_holds(a, values) for a in formula.args)
    if formula in (sp.true, sp.false):
        return formula == sp.true
    v = _at(sp.expand(formula.lhs - formula.rhs), values)
    return {sp.StrictGreaterThan: v > 0, sp.GreaterThan: v >= 0, sp.StrictLessThan: v < 0, sp.LessThan: v <= 0,
            sp.Equality: v == 0, sp.Unequality: v != 0}[type(formula)]


_COMPILED: dict = {}


def _at(expr: sp.Expr, values: dict) -> Fraction:
    """A polynomial's exact value at a rational point (its terms read once, then evaluated in Fractions)."""
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    if expr not in _COMPILED:
        symbols = sorted(expr.free_symbols, key=str)
        try:
            _COMPILED[expr] = (symbols, [(m, Fraction(int(c.p), int(c.q)))
                                         for m, c in sp.Poly(expr, *symbols).terms()])
        except sp.PolynomialError:  # not a polynomial (a parameter divides): sympy evaluates it
            _COMPILED[expr] = (symbols, None)
    symbols, terms = _COMPILED[expr]
    if terms is None:
        value = expr.subs({s: sp.Rational(values[s].numerator, values[s].denominator) for s in symbols})
        return Fraction(int(value.p), int(value.q))
    x = [values[s] for s in symbols]
    total = Fraction(0)
    for exponents, c in terms:
        term = c
        for v, e in zip(x, exponents):
            if e:
                term *= v ** e
        total += term
    return total


def _dot(r, p):
    return sp.Add(*[a * b for a, b in zip(r, p)])


def _value(expr, point):
    return expr.subs(point) if point else expr


def _sign(expr, point) -> int | None:
    value = sp.expand(_value(expr, point)) if point is not None else sp.expand(expr)
    if value.is_Rational:
        return int(sp.sign(value))
    return certified.sign(value).value
