"""Certificates (`verify SPEC --certificate FILE`, `Report.certificate()`, docs/certificates.md): the spec itself and
the evidence of every verdict, for the standalone checker `verifier_check`, which derives every cost from the spec.

Owns: writing a certificate (`writer`), the spec it carries (`spec_content`: canonical JSON and the file's
SHA-256), and the proofs over every admissible value of the parameters (`for_all`, found by `proof_search`).
May import: `analysis` and everything below it, and `verifier_check` (its derivation, as data); nothing else
of `report`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.certificate.writer import certificate

_FROM = {"certificate": "writer"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
