"""Certificates (`verify SPEC --certificate FILE`, `Report.certificate()`, docs/certificates.md): everything the
standalone checker `verifier_check.py` needs to re-check a numeric scheme's verdicts.

Owns: writing a certificate (`writer`) and the grammar of its cells (`cells`: exact rationals as "p/q", or an
irrational cell's text). May import: `analysis` and everything below it; nothing else of `report`.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verifier.report.certificate.writer import certificate, refuse_before_analysis

_FROM = {"certificate": "writer", "refuse_before_analysis": "writer"}
__all__ = sorted(_FROM)


def __getattr__(name: str):
    """Loaded on first use, as in `verifier.using`: a name costs its own module only."""
    if name in _FROM:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The lazily loaded names too (PEP 562)."""
    return sorted(set(globals()) | set(__all__))
