"""Re-check a verdict proved by the boolean-set encoding (`analysis.structured_route`) without the engines.

The proof says: c_Y(y) is the z3 term the route stores for y (over the booleans b_i = "i in Y" and the size n),
and z3 found no set violating the property at any size. What can be re-derived independently is that the
terms are the set cost: at every set the route built and at sets chosen here (seeded, of every size up to K,
and the whole set of classes), each term, evaluated by substituting the set into it, equals the exact row that
the ordinary builder makes for that set (exact Fractions, no solver), and the singleton costs the questions
used are the scheme's singleton rows. The unsat answers themselves are z3's; `--cross-check` does not re-ask
them.

Owns: `STRUCTURED_LEMMA`, `is_structured`, `check_structured`. May import: `scheme`, `verdict`, z3.
"""

from __future__ import annotations

import random
from fractions import Fraction

from verifier.check.lemma import LemmaUnconfirmed
from verifier.scheme import Scheme, build_scheme
from verifier.verdict import LemmaProof

STRUCTURED_LEMMA = "boolean-set encoding"
SAMPLED_SETS = 12  # sets chosen here, besides the ones the route built


def is_structured(proof: LemmaProof | None) -> bool:
    """Whether the proof is the boolean-set encoding's (re-checked by `check_structured`)."""
    return proof is not None and proof.name == STRUCTURED_LEMMA


def check_structured(scheme: Scheme, proof: LemmaProof, memo: dict) -> str:
    """A confirmation note, or LemmaUnconfirmed saying what does not agree. `memo` keeps the agreement check
    for the other properties of the same scheme."""
    route = getattr(scheme, "structured", None)
    if route is None:
        raise LemmaUnconfirmed("the scheme carries no boolean-set encoding to re-check")
    if STRUCTURED_LEMMA not in memo:
        try:
            memo[STRUCTURED_LEMMA] = ("", _agreement(scheme, route))
        except LemmaUnconfirmed as exc:
            memo[STRUCTURED_LEMMA] = (str(exc), 0)
    problem, sets = memo[STRUCTURED_LEMMA]
    if problem:
        raise LemmaUnconfirmed(problem)
    return (f"re-evaluated the encoding of the set cost at {sets:,} sets against the exact rows of the ordinary "
            f"builder, and its {scheme.K} x {scheme.K} singleton costs against the scheme's; the unsat answers are "
            "z3's")


def _agreement(scheme: Scheme, route) -> int:
    import z3  # the solver stack, for this route only

    K = scheme.K
    for h in range(K):
        for y in range(K):
            if _fraction(scheme.det(h, y)) != route.singletons[h][y]:
                raise LemmaUnconfirmed(f"the encoding used c_{scheme.classes[h]}({scheme.classes[y]}) = "
                                       f"{route.singletons[h][y]}, not the scheme's {scheme.det(h, y)}")
    chosen = _sample(K)
    fresh = build_scheme(scheme.spec, sets=[m for m in chosen if m not in scheme.rows])
    sets = list(dict.fromkeys(scheme.indeterminate_sets + chosen))
    for members in sets:
        row = scheme.rows[members] if members in scheme.rows else fresh.rows[members]
        at = [(b, z3.BoolVal(i in members, b.ctx)) for i, b in enumerate(route.b)]
        at.append((route.n, z3.RealVal(len(members), route.n.ctx)))
        for y in range(K):
            value = z3.simplify(z3.substitute(route.terms[y], *at))
            if not z3.is_rational_value(value) or Fraction(value.as_fraction()) != _fraction(row[y]):
                raise LemmaUnconfirmed(f"the encoded c_{scheme.label(members)}({scheme.classes[y]}) is {value}, but "
                                       f"the builder gives {row[y]}")
    return len(sets)


def _sample(K: int) -> list[frozenset[int]]:
    """The whole set, and sets of random sizes, reproducibly."""
    rng = random.Random(f"structured-{K}")
    out = [frozenset(range(K))]
    for _ in range(SAMPLED_SETS - 1):
        out.append(frozenset(rng.sample(range(K), rng.randint(2, K))))
    return list(dict.fromkeys(out))


def _fraction(value) -> Fraction:
    if not getattr(value, "is_Rational", False):
        raise LemmaUnconfirmed(f"the cost {value} is not rational")
    return Fraction(int(value.p), int(value.q))
