"""How to make a scheme fit a setting it does not fit: what to change, where and by how much.

Only the necessary properties decide the fit (Table VIII). For a parametric scheme the answer is the exact
condition on the parameters under which every necessary property holds (the regions derived per property,
conjoined). For a numeric scheme it is every failing cell: which entry c_Y(y) breaks which property, its
value, the bound it must meet and the exact change needed. Every number here is exact.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

import numpy as np

from verifier.analysis.conditions import joint_condition
from verifier.analysis.remedy_cells import ArrayRepairs, cell_sentence
from verifier.engines.terms import TermValues
from verifier.formula import certified
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.limits import MAX_DESIGN_CLASSES
from verifier.properties import Implies, Possible, Property, QuantifierKind
from verifier.verdict import Binding, Truth

MAX_LISTED = 1023  # beyond this many sets, the first this many failing cells are listed (with the total)
MAX_CELLS = 6  # failing cells listed per property (the count says how many there are)


@dataclass
class Remedy:
    """How to make the scheme fit one setting: for a parametric scheme the condition on the parameters, for a numeric
    one the failing cells per property (with their counts), and the steps in plain sentences."""

    setting: str
    condition: str | None = None  # parametric: where the scheme fits, as a condition on the parameters
    steps: list[str] = field(default_factory=list)  # plain sentences, one per failing property
    cells: dict[str, list[str]] = field(default_factory=dict)  # numeric: the failing places, per property
    # numeric: how many failing places each property has (cells lists all of them, or the first MAX_LISTED)
    counts: dict[str, int] = field(default_factory=dict)
    counts_are_lower_bounds: dict[str, bool] = field(default_factory=dict)


def how_to_fit(analysis, brief: bool = False) -> dict[str, Remedy]:
    """For each setting the scheme does not fit, what would make it fit. `brief`: list only the first few
    failing cells of a numeric scheme (the count still covers all of them): the compact console shows no
    more, and the full list costs an exact comparison per cell."""
    if hasattr(analysis, "part"):  # an `Analysis`: made once by its run, before it is sealed
        return analysis.part(("remedies", brief), lambda: _how_to_fit(analysis, brief),
                             "how to fit each setting" + (" (every failing cell)" if not brief else ""))
    return _how_to_fit(analysis, brief)


def _how_to_fit(analysis, brief: bool) -> dict[str, Remedy]:
    out = {}
    for setting, fit in analysis.settings.items():
        if fit.fits is not False:
            continue
        failing = [analysis.by_id[pid] for pid in fit.failing_necessary]
        parametric = analysis.symbolic is not None or analysis.scheme.symbolic  # (the power-mean route by cases)
        out[setting] = _parametric(analysis, setting, failing) if parametric \
            else _numeric(analysis, setting, failing, MAX_CELLS if brief else MAX_LISTED)
    return out


def _parametric(analysis, setting: str, failing) -> Remedy:
    remedy = Remedy(setting)
    regions = []
    for r in failing:
        name = f"{r.property.id} ({r.property.name})"
        if r.region:
            regions.append(r.region)
            remedy.steps.append(f"{name} holds exactly where {r.region}")
        elif r.holds_at is not None:
            remedy.steps.append(f"{name} holds at some admissible values (e.g. "
                                + ", ".join(f"{k} = {v}" for k, v in r.holds_at.items())
                                + "), but no exact condition could be derived")
        elif r.holds_nowhere:
            remedy.steps.append(f"{name} fails for every admissible parameter value: no choice of the parameters "
                                "makes the scheme fit; the formulas themselves must change")
        else:
            remedy.steps.append(f"{name} fails at some admissible values; the solver found no value where it "
                                "holds, but could not prove there is none")
    if len(regions) == len(failing):
        text, empty = joint_condition(analysis.scheme, [r.region_formula for r in failing], regions)
        remedy.condition = text
        if empty:
            where = "; ".join(f"{r.property.id} holds exactly where {c}" for r, c in zip(failing, regions))
            remedy.steps.insert(0, f"no admissible parameter value makes the scheme fit the {setting} setting "
                                   f"({where}: never all at once); the formulas themselves must change")
        else:
            remedy.steps.insert(0, f"the scheme fits the {setting} setting exactly for the admissible parameter "
                                   f"values where {text} (the other necessary properties hold for all of them)")
    elif _calibrates(analysis.spec):
        (name,) = [n for n, p in analysis.spec.parameters.items() if p.value is None]
        remedy.steps.append(f"`verify design {shlex.quote(str(analysis.spec.path))} --setting {setting}` derives the "
                            f"exact values of {name} where each property holds and where the scheme fits this setting")
    return remedy


def _calibrates(spec) -> bool:
    """Whether `verify design` calibrates this spec: one symbolic parameter in a set_cost, few classes."""
    symbolic = [p for p in spec.parameters.values() if p.value is None]
    return len(symbolic) == 1 and os.path.isfile(str(spec.path)) and spec.set_cost is not None and not spec.open_cells \
        and len(spec.classes) <= MAX_DESIGN_CLASSES


def _numeric(analysis, setting: str, failing, limit: int) -> Remedy:
    remedy = Remedy(setting)
    terms = TermValues(analysis.scheme)
    repairs = ArrayRepairs(analysis.scheme) if analysis.scheme.cells is not None else None
    for r in failing:
        step, cells, total, at_least = _property_fix(analysis, terms, r.property, limit, repairs)
        remedy.steps.append(step)
        if cells:
            remedy.cells[r.property.id] = cells
            remedy.counts[r.property.id] = total
            remedy.counts_are_lower_bounds[r.property.id] = at_least
    return remedy


def _property_fix(analysis, terms: TermValues, prop: Property, limit: int = MAX_LISTED,
                  repairs: ArrayRepairs | None = None) -> tuple[str, list[str], int, bool]:
    """The sentence, the failing places listed (at most `limit` when the arrays count them all), how many there
    are, and whether that is a lower bound. `repairs`: the fast path's arrays, which decide most places."""
    s = analysis.scheme
    name = f"{prop.id} ({prop.name})"
    if isinstance(prop.atom, Possible):
        return f"{name}: {_possibility_fix(s)}", [], 0, False
    candidates, counted, undecided = _candidates(s, prop, repairs)
    fixes: list[str] = []
    stopped = False
    for members in candidates:
        plan = repairs.plan(prop, members) if repairs is not None else None
        fixes += _fixes(s, terms, prop, members) if plan is None else _planned_fixes(s, terms, prop, members, plan)
        if len(fixes) >= limit and (len(s.all_sets) > MAX_LISTED or limit < MAX_LISTED):  # the first ones, exactly
            stopped = True
            break
    total = max(len(fixes), counted) if stopped else len(fixes)
    at_least = stopped and undecided  # some instances the arrays left open were not examined: a lower bound
    more = f"; and {'at least ' if at_least else ''}{total - MAX_CELLS:,} more" if total > MAX_CELLS else ""
    where = f"in at least {total:,} places" if at_least else f"at {total:,} place{'s' if total != 1 else ''}"
    if s.orbits is not None:  # one set per size: each place stands for its whole orbit
        where = (f"at {total:,} representative place{'s' if total != 1 else ''} (one set per size; by symmetry each "
                 "stands for every set of its size and every class placed alike)")
    elif s.lemma is not None and not s.lemma.every_set:  # a few sets built: the places found are a lower bound
        where, at_least = f"in at least {total:,} place{'s' if total != 1 else ''} among the sets built", True
        more = f"; and at least {total - MAX_CELLS:,} more" if total > MAX_CELLS else ""
    listed = f" (the first {len(fixes):,} are listed in the JSON report)" if stopped and limit == MAX_LISTED else ""
    lemma = _lemma_condition(s, prop.id)
    return (f"{name} fails {where}{listed}: " + "; ".join(fixes[:MAX_CELLS]) + more + lemma, fixes, total,
            at_least)


def _lemma_condition(s, pid: str) -> str:
    """On the power-mean route, what the lemma says the property needs (the shorter, whole-scheme answer)."""
    lemmas = s.lemma.lemmas if s.lemma is not None else None
    condition = lemmas.condition(pid, s.classes) if lemmas is not None else None
    return f". {condition}" if condition else ""


def _candidates(s, prop: Property, repairs: ArrayRepairs | None) -> tuple[list, int, bool]:
    """The sets to repair and the number of failing instances the arrays certify: on the fast path, the sets
    its arrays do not certainly clear (the exact check below still decides each); otherwise every set."""
    if repairs is None or prop.quantifiers[0].kind != QuantifierKind.FORALL or len(prop.quantifiers) != 2:
        return s.indeterminate_sets, 0, False
    return repairs.candidates(prop)


def _possibility_fix(s) -> str:
    """A sufficient repair, exact: make some set cheaper on average over its own classes than each member is
    there; the uniform distribution on the set is then a Definition 4 witness. The set needing the least
    change is named."""
    best = None
    for members in _closest_sets(s):
        own = sorted(members)
        mine = sp.Add(*[s.rows[members][y] for y in own]) / len(own)
        rivals = [sp.Add(*[s.det(h, y) for y in own]) / len(own) for h in own]
        lowest = _least(rivals)
        gap = mine - lowest
        if best is None or certified.compare(gap, best[0]).value == -1:
            best = (gap, members, mine, lowest)
    gap, members, mine, lowest = best
    label = s.label(members)
    return (f"no indeterminate set is possible (each is dominated by a mixture of its members' rows; the "
            f"certificates are listed with the sets). A sufficient repair: lower the costs of {label} on its own "
            f"classes so that their mean, now {_num(mine)}, falls below {_num(lowest)}, the smallest such mean of "
            f"one of its members (a decrease of the mean by more than {_num(gap)}); the uniform distribution on "
            f"{label} then makes it possible")


def _closest_sets(s) -> list:
    """Every indeterminate set; on the fast path, only those that can be the least (their gap's lower bound is
    below the least upper bound): bounds from the certified cell enclosures, widened far beyond the rounding
    of these few float sums, so the exact comparison among the candidates still sees the least one."""
    if s.cells is None:
        return s.indeterminate_sets
    K, rows = s.K, s.cells.rows
    members = s.cells.members[K:]
    sizes = members.sum(axis=1)
    lo, hi = rows.lo, rows.hi
    mine_lo = np.where(members, lo[K:], 0.0).sum(axis=1) / sizes
    mine_hi = np.where(members, hi[K:], 0.0).sum(axis=1) / sizes
    m = members.astype(float)
    rival_lo = np.where(members, (m @ lo[:K].T) / sizes[:, None], np.inf).min(axis=1)
    rival_hi = np.where(members, (m @ hi[:K].T) / sizes[:, None], np.inf).min(axis=1)
    slack = 1e-9 * (np.abs(mine_lo) + np.abs(mine_hi) + np.abs(rival_lo) + np.abs(rival_hi)) + 1e-300
    gap_lo, gap_hi = mine_lo - rival_hi - slack, mine_hi - rival_lo + slack
    near = gap_lo <= gap_hi.min()
    return [s.indeterminate_sets[i] for i in np.flatnonzero(near)]


def _fixes(s, terms: TermValues, prop: Property, members) -> list[str]:
    quantifiers = prop.quantifiers[1:]
    ys = _domain(s, quantifiers[0].domain, members)
    atom = prop.atom
    if quantifiers[0].kind == QuantifierKind.EXISTS:  # P2: one class where the set is below the mean is enough
        gaps = [(terms.value(atom.lhs, members, y) - terms.value(atom.rhs, members, y), y) for y in ys]
        gap = _least([g for g, _ in gaps])
        y = next(y for g, y in gaps if g is gap)
        if certified.sign(gap).value in (-1, None):
            return []
        return [f"c_{s.label(members)} is nowhere below its members' mean; the cheapest repair lowers "
                f"c_{s.label(members)}({s.classes[y]}) by more than {_num(gap)}"]
    out = []
    for y in ys:
        if len(quantifiers) == 1:
            fix = _exact_cell_fix(s, terms, atom, members, y)
            if fix is not None:
                out.append(fix)
            continue
        for y2 in _domain(s, quantifiers[1].domain, members):
            if y2 <= y:
                continue
            binding = Binding(members, y, y2)
            if isinstance(atom, Implies):
                if terms.compare(atom.premise, binding).truth is not Truth.TRUE:
                    continue
                inner = atom.conclusion
            else:
                inner = atom
            comparison = terms.compare(inner, binding)
            if comparison.truth is Truth.FALSE:
                a, b = comparison.values
                out.append(f"c_{s.label(members)}({s.classes[y]}) {_is(a)} and c_{s.label(members)}"
                           f"({s.classes[y2]}) {_is(b)} must be equal (they differ by {_num(abs(a - b))})")
    return out


def _planned_fixes(s, terms: TermValues, prop: Property, members, plan) -> list[str]:
    """The places the arrays left: their sentences where the arrays wrote them, else decided exactly."""
    out = []
    for y, sentence in plan:
        fix = sentence if sentence is not None else _exact_cell_fix(s, terms, prop.atom, members, y)
        if fix is not None:
            out.append(fix)
    return out


def _exact_cell_fix(s, terms: TermValues, atom, members, y) -> str | None:
    """The repair of c_Y(y) when the comparison fails there, exactly; None when it holds."""
    comparison = terms.compare(atom, Binding(members, y, None))
    if comparison.truth is not Truth.FALSE:
        return None
    lhs, rhs = comparison.values
    gap = lhs - rhs
    tie = atom.op == "<" and certified.sign(gap).value == 0
    return cell_sentence(s.label(members), s.classes[y], atom.op, _is(lhs), _is(rhs), comparison.sides[1].label,
                         tie, _num(gap if atom.op in ("<", "<=") else -gap))


def _domain(s, domain: str, members) -> list[int]:
    if domain == "in Y":
        return sorted(members)
    if domain == "not in Y":
        return [c for c in range(s.K) if c not in members]
    return list(range(s.K))


def _least(values: list[sp.Expr]) -> sp.Expr:
    """The smallest value by certified comparison (floats could pick a wrong one among near-ties)."""
    best = values[0]
    for value in values[1:]:
        if certified.compare(value, best).value == -1:
            best = value
    return best


def _is(value: sp.Expr) -> str:
    return ("= " if value.is_Rational else "") + _num(value)


def _num(value: sp.Expr) -> str:
    """Rationals exactly; irrational values (exact in the JSON matrix) as a 4-digit decimal."""
    if value.is_Rational:
        return str(value)
    return f"≈ {rounded(value):.4g}"  # 4 digits of the correctly rounded float (display)
