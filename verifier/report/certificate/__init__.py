"""Certificates (`verify SPEC --certificate FILE`, `Report.certificate()`, docs/certificates.md): everything the
standalone checker `verifier_check.py` needs to re-check a numeric scheme's verdicts.

Owns: writing a certificate (`writer`) and the grammar of its cells (`cells`: exact rationals as "p/q", or an
irrational cell's text). May import: `analysis` and everything below it; nothing else of `report`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.certificate.writer import certificate, refuse_before_analysis

_FROM = {"certificate": "writer", "refuse_before_analysis": "writer"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
