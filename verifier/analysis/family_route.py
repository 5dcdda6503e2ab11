"""Schemes whose `predictions:` key restricts the prediction family: the family's own sets are enumerated.

Intervals of K classes are K(K-1)/2 sets, a hierarchy's nodes at most K - 1, so a restricted family is built
and decided like `all` at 16 classes (arrays, exact where it matters), at up to 1,000 classes. The symmetry,
power-mean and boolean-set routes reason about every subset of the classes, so they do not apply here: the
bounds are on the family's size, not on K, and they are enforced here, where the matrix is built (a decision
that never builds it, `using.decide.family_decide`, is not bounded by them).

`{max_size: k}` is closed under relabelling the classes: when the scheme treats every class alike, it goes by
symmetry (one set per size up to k, `scheme.orbits`) beyond the bounds, or with --symmetry.

Owns: `family_scheme`. May import: `scheme`, `spec`, `errors`, `formula`.
"""

from __future__ import annotations

from dataclasses import replace

from verifier.errors import SpecError, UsageError
from verifier.formula.vector import NotVectorised
from verifier.scheme import Scheme, build_scheme
from verifier.scheme.lazy import build_fast_scheme
from verifier.scheme.orbits import NotSymmetric, Orbits, arrays_alike, blind_formulas, build_reduced_scheme
from verifier.spec import Spec
from verifier.spec.family import Family, matrix_bound

# the routes that build the family's matrix, named in the refusal beyond the bounds
MATRIX_ROUTES = ("checking a spec, and deciding rows of probabilities (verify decide, verify evaluate "
                 "--probabilities) with costs that do not treat every class alike (or with --p, --intervals) build "
                 "the family's matrix; verify decide --p-file and verify evaluate --probabilities decide without it "
                 "when the costs treat every class alike, and verify evaluate scores set predictions given in a file "
                 "at any size (docs/decide-evaluate.md)")

EXACT_MAX_CELLS = 4095 * 12  # cell by cell (exact interpreter, symbolic parameters): what 12 classes of `all` cost


def family_scheme(spec: Spec, classes: tuple[str, ...] | None, exact: bool, reason: str, route: str) -> Scheme:
    """The scheme over the family's sets: on arrays when every formula vectorises, else cell by cell."""
    family = spec.predictions
    names = classes or spec.classes
    K = len(names)
    beyond = matrix_bound(family, K)
    if family.kind == "max_size" and (route == "--symmetry" or beyond is not None):
        try:  # closed under relabelling: one set per allowed size, as `all` beyond enumeration
            fast = fast_orbits(spec, classes) if numeric_spec(spec) and not exact and not reason else None
            return fast or build_reduced_scheme(spec, classes)
        except NotSymmetric as exc:
            if route or beyond is None:
                raise UsageError(f"--symmetry does not apply to {spec.path}: {exc}") from None
            beyond = (beyond[0], beyond[1] + f"; the symmetry route does not apply ({exc})")
    if route:
        raise UsageError(f"{route} reasons about every subset of the classes; {spec.path} restricts the "
                         f"predictions to {family.describe(len(spec.classes)).split(':')[0]}, whose sets are "
                         "enumerated instead (drop the option)")
    if len(names) != len(spec.classes) and family.kind in ("hierarchy", "sets"):
        raise UsageError(f"{spec.path} lists its allowed sets for its {len(spec.classes):,} classes; a "
                         f"{family.kind} family cannot be checked at {K} classes")
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


def numeric_spec(spec: Spec) -> bool:
    """Whether every parameter has a fixed value (none is symbolic)."""
    return all(p.value is not None for p in spec.parameters.values())


def fast_orbits(spec: Spec, classes: tuple[str, ...] | None) -> Scheme | None:
    """`{max_size: k}` by symmetry on arrays: the singletons and one set {1..n} per size n <= k, built on the
    fast path (a thousand classes: a million cells, where the exact builder would take minutes), proved
    class-symmetric by the lemma of `scheme.orbits`, its second fact checked exactly on the arrays. None when
    a formula needs the exact builder; NotSymmetric when a class is singled out."""
    why = blind_formulas(spec)
    if why:
        raise NotSymmetric(why)
    named = replace(spec, classes=classes) if classes is not None else spec
    K, top = len(named.classes), min(spec.predictions.max_size, len(named.classes))
    representatives = tuple(tuple(range(n)) for n in range(2, top + 1))
    try:
        scheme = build_fast_scheme(replace(named, predictions=Family("sets", listed_sets=representatives)))
    except NotVectorised:
        return None
    why = blind_formulas(named, scheme) or arrays_alike(scheme.cells)
    if why:
        raise NotSymmetric(why)
    scheme.spec, scheme.partial = named, True  # the family is the spec's; the rows are its representatives
    scheme.orbits = Orbits(K, symmetric=True, top=top)
    scheme.notes.append(scheme.orbits.describe()[0].upper() + scheme.orbits.describe()[1:] + ".")
    return scheme


def _refused(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key) or spec.marks.get("predictions")
    return SpecError.at(message, mark, file=spec.path, key=key, expected=expected)
