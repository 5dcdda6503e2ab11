"""`verify check CERT [--spec SPEC]`: the standalone checker (`verifier_check`, the standard library only), and
with --spec one more confirmation only the tool can give: that SPEC, read as the tool reads a spec, is the
content the certificate carries (the checker alone confirms SPEC's bytes by their SHA-256).

Owns: `check_command`. May import: `spec`, `report.certificate`, `verifier_check`.
"""

from __future__ import annotations

import json
from typing import TextIO


def check_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run the checker on argv; returns its exit status."""
    import verifier_check

    return verifier_check.main(argv, stdout, stderr, prog="verify check", confirm=_same_content)


def _same_content(cert: dict, path: str) -> str | None:
    """None when the file at `path`, read by the tool's spec reader, has the content the certificate carries."""
    from verifier.errors import SpecError
    from verifier.report.certificate.spec_content import canonical
    from verifier.spec.reader import load_spec
    from verifier_check.parse import content, load

    try:
        spec = load_spec(path)
    except SpecError as exc:
        return f"{path} is not a spec the tool reads ({str(exc).splitlines()[0][:200]})"
    mine = content(load(canonical(spec.content)))
    theirs = content(load(json.dumps(cert["spec"]["content"], default=lambda n: n.text)))
    if mine != theirs:
        return f"{path}, read by the tool, is not the content the certificate carries"
    return None
