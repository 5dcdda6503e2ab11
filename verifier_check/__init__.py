"""Re-check a `verify` certificate with nothing but the Python standard library (docs/certificates.md).

    python3 -S path/to/verifier_check CERT     python3 -m verifier_check CERT     verify check CERT

A certificate carries the spec it certifies (the file's text, the SHA-256 of its bytes and its parsed content),
the verdicts of Properties 1-10 with their evidence, and each set's Definition 4 status and optimality with
witnesses and dual certificates. The checker trusts nothing the tool computed: it confirms the content against
the text (its own YAML reader) and the text against the digest, derives the classes, the family of sets, every
cost from the spec's formulas (its own interpreter of the formula language) and the matrix at every point a
verdict names (after checking the point meets every assumption), then re-checks each claim exactly. Its
modules read top to bottom: limits, parse, yaml_text, reals, algebra, bounds, arithmetic, functions, formula,
family, spec, properties, one_matrix, polynomials, for_all, power_mean, command.
"""

from verifier_check.limits import MAX_DIGITS, Malformed, Refuted, Undecided
from verifier_check.parse import MAX_BYTES

FORMAT, VERSION = "verify-certificate", 2

from verifier_check.command import claims, main  # noqa: E402 (after FORMAT, which the command reads)

__all__ = ["FORMAT", "MAX_BYTES", "MAX_DIGITS", "VERSION", "Malformed", "Refuted", "Undecided", "claims", "main"]
