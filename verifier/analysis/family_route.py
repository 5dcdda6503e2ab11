"""Schemes whose `predictions:` key restricts the prediction family: the family's own sets are enumerated.

Intervals of K classes are K(K-1)/2 sets, a hierarchy's nodes at most K - 1, so a restricted family is built
and decided like `all` at 16 classes (arrays, exact where it matters), at up to 1,000 classes. The symmetry,
power-mean and boolean-set routes reason about every subset of the classes, so they do not apply here: the
bounds are on the family's size, not on K, and they are enforced here, where the matrix is built (a decision
that never builds it, `using.family_decide`, is not bounded by them).

Owns: `family_scheme`. May import: `scheme`, `spec`, `errors`, `formula`.
"""

from __future__ import annotations

from verifier.errors import SpecError, UsageError
from verifier.formula.vector import NotVectorised
from verifier.scheme import Scheme, build_scheme
from verifier.scheme.lazy import build_fast_scheme
from verifier.spec import Spec
from verifier.spec.family import matrix_bound

# the routes that build the family's matrix, named in the refusal beyond the bounds
MATRIX_ROUTES = ("checking a spec, verify evaluate, and verify decide with costs that do not treat every class "
                 "alike (or with --p, --intervals) build the family's matrix; verify decide --p-file decides "
                 "without it when the costs treat every class alike (docs/decide-evaluate.md)")

EXACT_MAX_CELLS = 4095 * 12  # cell by cell (exact interpreter, symbolic parameters): what 12 classes of `all` cost


def family_scheme(spec: Spec, classes: tuple[str, ...] | None, exact: bool, reason: str, route: str) -> Scheme:
    """The scheme over the family's sets: on arrays when every formula vectorises, else cell by cell."""
    family = spec.predictions
    names = classes or spec.classes
    K = len(names)
    if route:
        raise UsageError(f"{route} reasons about every subset of the classes; {spec.path} restricts the "
                         f"predictions to {family.describe(len(spec.classes)).split(':')[0]}, whose sets are "
                         "enumerated instead (drop the option)")
    if len(names) != len(spec.classes) and family.kind in ("hierarchy", "sets"):
        raise UsageError(f"{spec.path} lists its allowed sets for its {len(spec.classes)} classes; a "
                         f"{family.kind} family cannot be checked at {K} classes")
    beyond = matrix_bound(family, K)
    if beyond is not None:
        raise _refused(spec, "predictions", f"{beyond[0]}: {MATRIX_ROUTES}", beyond[1])
    cells = (family.count(K) + K) * K
    numeric = all(p.value is not None for p in spec.parameters.values())
    why = reason
    if numeric and not exact and not reason:
        try:
            return build_fast_scheme(spec, classes)
        except NotVectorised as exc:
            why = str(exc)
    if cells > EXACT_MAX_CELLS and exact and not reason:
        raise UsageError(f"the cell-by-cell exact engine (--exact) is limited to {EXACT_MAX_CELLS:,} cells; "
                         f"{spec.path} has {cells:,} (its family's sets x classes)")
    if cells > EXACT_MAX_CELLS:
        work = "symbolic parameters are" if not numeric else f"this spec needs cell-by-cell exact work ({why}), " \
            "which is" if why else "the cell-by-cell exact engine is"
        raise _refused(spec, "parameters" if not numeric else "predictions",
                       f"{work} limited to {EXACT_MAX_CELLS:,} cells; the family has {cells:,}",
                       f"at most {EXACT_MAX_CELLS:,} cells (sets x classes) for such a spec: fixed parameter "
                       "values and formulas the fast path evaluates, or a smaller family")
    return build_scheme(spec, classes=classes)


def _refused(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key) or spec.marks.get("predictions")
    return SpecError(message, file=spec.path, key=key, line=mark.line if mark else None,
                     column=mark.column if mark else None, expected=expected)
