"""The spec a certificate carries: the file's text, the SHA-256 of its bytes, and its parsed content as canonical
JSON (what the standalone checker reads; it confirms the content against the text with its own YAML reader).

Canonical JSON: keys sorted, no spaces, strings as JSON writes them (UTF-8, not escaped), integers as integers,
and every other number of the spec as the exact decimal it is (the YAML reader keeps 0.35 as 7/20, which is
written 0.35): a JSON number that the standalone checker reads as an exact rational from its text. A YAML
number written with a point keeps it (2.0, not 2), so the content says what the file says.

Owns: `spec_record`, `canonical`. May import: `spec`, `errors`.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from verifier.errors import UsageError


def spec_record(spec) -> dict:
    """{"path", "sha256", "content"} for a spec read from a file (its text is what was hashed)."""
    data = spec.text.encode("utf-8") if spec.text else b""
    if spec.path and not spec.text:
        raise UsageError("--certificate: the spec's text is not known (a spec given as data has no file to certify)")
    return {"path": spec.path, "sha256": hashlib.sha256(data).hexdigest(), "text": spec.text,
            "content": json.loads(canonical(spec.content))}


def file_digest(path: str) -> str:
    """The SHA-256 of a file's bytes."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def canonical(value) -> str:
    """The canonical JSON text of a spec's plain content (numbers exact)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return decimal(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(str(k), ensure_ascii=False) + ":" + canonical(value[k])
                              for k in sorted(value, key=str)) + "}"
    raise UsageError(f"--certificate: the spec holds a value JSON cannot carry exactly ({type(value).__name__})")


def decimal(q: Fraction) -> str:
    """The exact decimal of a rational whose denominator divides a power of ten, always with a point."""
    den, twos, fives = q.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den != 1:
        raise UsageError(f"--certificate: the spec's number {q} has no exact decimal")
    k = max(twos, fives)
    digits = str(abs(q.numerator) * 10 ** k // q.denominator).rjust(k + 1, "0")
    whole, fraction = digits[:len(digits) - k], digits[len(digits) - k:] or "0"
    return ("-" if q < 0 else "") + whole + "." + fraction
