"""`verify --classes 2.. SPEC`: a verdict for every class count at once, for a formula spec that treats every
class alike (`engines.every_k`), re-checked at several class counts by the symmetry route, an independent
interpreter of the same formulas (`scheme.orbits`, `engines.enumerate`).

The verdict for every K >= LO is proved when each property's answers settle beyond the exactly checked sizes
(z3 over all sizes from the tail on); otherwise the report says which sizes stayed open and why.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from verifier.analysis.pipeline import Analysis, analyse
from verifier.engines.every_k import FIRST, SECOND, TAIL, EveryK, decide_every_k, new_atoms
from verifier.errors import SpecError
from verifier.formula.by_size import NotBySize, SizeEvaluator
from verifier.formula.equivariance import class_blind
from verifier.properties import PROPERTIES
from verifier.scheme.exact import _parameter_values
from verifier.scheme.orbits import NotSymmetric, _syntactic
from verifier.spec import Spec
from verifier.verdict import Truth, Verdict

BY_SIZE = ("formulas over len(Y), y in Y, c(v, y) and comprehensions over Y, with numbers, arithmetic, "
           "sum/mean/prod/min/max of a list or of numbers, genmean, abs, sqrt, log and exp")
RECHECK_UP_TO = 6  # class counts re-checked by the symmetry route: LO..6, every change, and one beyond the tail


@dataclass
class EveryKResult:
    """The verdicts at every class count from `low` on, with the analyses at the class counts re-checked and any
    disagreement between the two routes."""

    low: int
    every: list[EveryK]
    rechecked: dict[int, Analysis] = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)

    def by_id(self, pid: str) -> EveryK:
        """The property's verdicts at every class count."""
        return next(e for e in self.every if e.property.id == pid)

    def first_failure(self, pid: str) -> int | None:
        """The smallest class count from `low` on at which the property fails, or None when it fails at none."""
        e = self.by_id(pid)
        for K in range(self.low, e.last + 1):
            if e.at(K) is Truth.FALSE:
                return K
        return e.last + 1 if e.beyond is Truth.FALSE else None

    def runs(self, pid: str) -> list[tuple[int, int | None, Truth]]:
        """(first K, last K or None for 'and beyond', verdict) in order."""
        e, out = self.by_id(pid), []
        for K in range(self.low, e.last + 2):
            t = e.at(K)
            if out and out[-1][2] is t:
                out[-1] = (out[-1][0], K, t)
            else:
                out.append((K, K, t))
        first, _, last = out[-1]
        out[-1] = (first, None, last)
        return out


def analyse_every_k(spec: Spec, low: int, timeout_ms: int, step=None) -> EveryKResult:
    """A verdict for every class count from `low` on (see the module docstring); refused (a SpecError) for a spec that
    restricts the predictions, singles a class out, uses K, or has symbolic or per-class parameters."""
    if spec.predictions.restricted:
        raise _refused(spec, "predictions", "a verdict for every class count reasons about every subset of the "
                       "classes; this spec restricts the predictions to "
                       f"{spec.predictions.describe(len(spec.classes)).split(':')[0]}",
                       "a range of class counts (--classes LO..HI), each checked over the family, or no "
                       "'predictions' key")
    try:
        _syntactic(spec)
        if spec.cost is None:
            raise NotSymmetric("the determinate costs are not a formula")
        why = class_blind(spec.cost, spec.functions, set())
        if why:
            raise NotSymmetric(why)
    except NotSymmetric as exc:
        raise _refused(spec, "set_cost", f"a verdict for every class count needs a scheme that treats every class "
                       f"alike, for every K; here {exc}", "formulas that never single out a class") from None
    uses_k = [f.key for f in [spec.cost, spec.set_cost] + [fn.body for fn in spec.functions.values()]
              if f is not None and any(isinstance(x, ast.Name) and x.id == "K" for x in ast.walk(f.tree))]
    if uses_k:
        raise _refused(spec, uses_k[0], f"a verdict for every class count needs costs that do not change with the "
                       f"class count; {uses_k[0]} uses K", "no K in the formulas, or a range such as --classes 2..12")
    unfit = [name for name, p in spec.parameters.items() if p.value is None or p.per_class]
    if unfit:
        raise _refused(spec, "parameters", f"a verdict for every class count is computed for fixed parameter values "
                       f"that are the same for every class; '{unfit[0]}' is symbolic or per-class",
                       "fixed values, or a range such as --classes 2..12")
    params = _parameter_values(spec, {})
    evaluator = SizeEvaluator(spec.cost, spec.set_cost, params, spec.functions)
    try:  # one size, every placement: what the formulas use that a size-wise reading cannot follow
        for y in (FIRST, SECOND):
            evaluator.row(frozenset({FIRST}), 3, y)
            evaluator.row(frozenset({FIRST, SECOND}), 3, y)
            evaluator.det(FIRST, y)
    except NotBySize as exc:
        raise _refused(spec, "set_cost", f"a verdict for every class count is not available: {exc}",
                       BY_SIZE) from None
    atoms = new_atoms(evaluator, timeout_ms)
    every = []
    for prop in PROPERTIES:
        if step is not None:
            step(f"{prop.id} for every class count")
        try:
            every.append(decide_every_k(prop, evaluator, timeout_ms, atoms))
        except NotBySize as exc:
            raise _refused(spec, "set_cost", f"a verdict for every class count is not available: {exc}",
                           BY_SIZE) from None
    result = EveryKResult(low, every)
    _recheck(spec, result, timeout_ms, step)
    return result


def _refused(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key.split(".")[0]) or spec.marks.get("set_cost") or spec.marks.get("classes")
    return SpecError.at(message, mark, file=spec.path, key=key, expected=expected)


def _recheck(spec: Spec, result: EveryKResult, timeout_ms: int, step) -> None:
    """Class counts LO..RECHECK_UP_TO, every K where a verdict changes, and TAIL + 2 (the constant tail), by
    the symmetry route; a disagreement turns the property unknown from there on, loudly."""
    counts = set(range(result.low, max(result.low, RECHECK_UP_TO) + 1)) | {TAIL + 2}
    for e in result.every:
        counts |= {K for K in range(result.low + 1, e.last + 2) if e.at(K) is not e.at(K - 1)}
    for K in sorted(counts):
        if step is not None:
            step(f"re-checking K = {K} set by set")
        analysis = analyse(spec, timeout_ms, classes=tuple(str(i) for i in range(1, K + 1)), optimality=False,
                           symmetry=True)
        result.rechecked[K] = analysis
        for r in analysis.results:
            e = result.by_id(r.property.id)
            mine = Verdict.of(e.at(K))
            if mine is not Verdict.UNKNOWN and r.verdict is not Verdict.UNKNOWN and mine is not r.verdict:
                result.disagreements.append(f"{r.property.id} at K = {K}: {mine.value} by set size, "
                                            f"{r.verdict.value} set by set")
                for k in list(e.verdicts):
                    if k >= K:
                        e.verdicts[k] = Truth.UNKNOWN
                e.beyond = Truth.UNKNOWN
