"""--cross-check: every bundled spec's verdicts agree with a second, independent method; a disagreement is
loud (stderr) and fails the run (exit 1)."""

import io
import json
from pathlib import Path

from verifier.cli import check
from verifier.engines.vector import VectorEngine
from verifier.verdict import Verdict

SPECS = Path(__file__).resolve().parents[2] / "specs"


def test_all_bundled_specs_agree_under_cross_check():
    out, err = io.StringIO(), io.StringIO()
    code = check(["--cross-check", "--format", "json", str(SPECS)], out, err)
    assert code == 0, err.getvalue()
    assert "DISAGREEMENT" not in err.getvalue()
    reports = json.loads(out.getvalue())
    seconds = [c for r in reports for c in r["cross_check"]]
    assert len(seconds) == 10 * len(reports)
    assert all(c["agrees"] is not False for c in seconds)
    decided = [c for c in seconds if c["second"] is not None]
    assert len(decided) >= 0.8 * len(seconds)  # skips exist (log terms, open boundaries) but are the exception


def test_a_wrong_verdict_is_caught_loudly(monkeypatch):
    original = VectorEngine.decide  # numeric specs take the fast path

    def sabotaged(self, prop):  # pretend the engine got P3 wrong
        result = original(self, prop)
        if prop.id == "P3":
            result.verdict = Verdict.HOLDS if result.verdict is Verdict.FAILS else Verdict.FAILS
        return result

    monkeypatch.setattr(VectorEngine, "decide", sabotaged)
    out, err = io.StringIO(), io.StringIO()
    code = check(["--cross-check", str(SPECS / "ha-numeric.yaml")], out, err)
    assert code == 1
    assert "CROSS-CHECK DISAGREEMENT" in err.getvalue() and "P3" in err.getvalue()
    assert "DISAGREES" in out.getvalue()
