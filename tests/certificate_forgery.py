"""Writing forged certificates for the tests: the spec a certificate carries, edited, with its text, digest and
content made consistent again (a certificate of another file that still names the original's path), so that
what a forgery tests is the checker's judgement of the claims and of the binding, not a malformed file."""

import copy
import hashlib
import json
import os
from fractions import Fraction

_GENUINE: dict = {}


def genuine(name: str) -> dict:
    """The tool's certificate of specs/<name> (written once per session, run from the repository's root so that it
    names `specs/<name>`); a fresh copy each time, for a test to forge."""
    if name not in _GENUINE:
        import verifier

        from conftest import ROOT

        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            _GENUINE[name] = verifier.verify(os.path.join("specs", name), cache=False, detail="summary",
                                                      certificate=True).certificate()
        finally:
            os.chdir(cwd)
    return copy.deepcopy(_GENUINE[name])


def emit(value, indent=0) -> str:
    """YAML text of plain spec data (block mappings, flow lists, JSON-quoted strings, exact decimals)."""
    if isinstance(value, dict):
        lines = []
        for key, v in value.items():
            head = " " * indent + json.dumps(key) + ":"
            lines.append(head + ("\n" + emit(v, indent + 2) if isinstance(v, dict) and v else " " + flow(v)))
        return "\n".join(lines)
    return " " * indent + flow(value)


def flow(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(v)


def rewrite(cert, change) -> dict:
    """The certificate of a spec whose content `change(content)` edits: text, digest and content made consistent
    (a certificate of another spec, still naming the original's path)."""
    from verifier.report.certificate.spec_content import canonical

    def exact(v):
        if isinstance(v, dict):
            return {k: exact(x) for k, x in v.items()}
        if isinstance(v, list):
            return [exact(x) for x in v]
        return Fraction(str(v)) if isinstance(v, float) else v

    content = json.loads(json.dumps(cert["spec"]["content"]))
    change(content)
    text = emit(content) + "\n"
    cert["spec"].update(text=text, sha256=hashlib.sha256(text.encode()).hexdigest(),
                        content=json.loads(canonical(exact(content))))
    return cert
