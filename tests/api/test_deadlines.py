"""One deadline for everything (issue 37, items 6, 7 and 9), as attacks: `verify design` and `verifier.design()`
under `--time-limit` / `time_limit=`, `--cross-check` under the same bound, and exact numbers that would grow
for minutes. Each test plants the spec, runs the command or call, and checks the outcome, the exit status, what
the output says was cut (or the located message), and that nothing outside its temporary directory changed.
No test asserts a wall-clock duration: a subprocess timeout is only a guard against a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import verifier
from verifier.errors import SpecError, UsageError

from conftest import ROOT

HANG_GUARD_S = 600  # far beyond any outcome below: only a hang reaches it


def _verify(*argv: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT, "VERIFY_NO_CACHE": "1"}
    return subprocess.run([sys.executable, "-m", "verifier", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD_S)


def _tree(folder) -> dict[str, int]:
    return {os.path.relpath(os.path.join(d, n), folder): os.path.getsize(os.path.join(d, n))
            for d, _, names in os.walk(folder) for n in names}


def _checkout() -> dict[str, int]:
    return {**_tree(os.path.join(ROOT, "specs")), **{k: v for k, v in _tree(os.path.join(ROOT, "verifier")).items()
                                                     if not k.endswith(".pyc")}}


@pytest.fixture
def sandbox(tmp_path):
    before = _checkout()
    yield tmp_path
    assert _checkout() == before


# -- item 9: exact numbers are bounded in bits ----------------------------------------------------------------

def _nested(folder, body: str, set_cost: str, name: str = "nested.yaml") -> str:
    lines = ["name: nested powers", "classes: [a, b, c]", "functions:", '  h1(x): "x**2 + 1"']
    lines += [f'  h{i}(x): "{body.format(f"h{i - 1}")}"' for i in range(2, 21)]
    lines += ['cost: "0 if yhat == y else 1"', f'set_cost: "{set_cost}"']
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("body", ["{0}(x)**2", "{0}(x)**3", "{0}(x) * {0}(x)"])
def test_exact_numbers_growing_beyond_the_bound_are_a_located_error(sandbox, body):
    path = _nested(sandbox, body, "1 if h20(1) > 0 else 0")
    before = _tree(sandbox)
    result = _verify(path, cwd=sandbox)
    assert result.returncode == 2 and not result.stdout, result.stderr
    err = result.stderr
    assert "Traceback" not in err
    assert err.startswith(f"{path}:") and "functions.h" in err  # file, key, then the formula text
    assert "the exact numbers grow beyond 200,000 bits" in err and "(text: 'h" in err
    assert "expected exact numbers of at most 200,000 bits" in err
    assert _tree(sandbox) == before


def test_the_bound_is_the_same_in_the_api_and_in_the_exact_engine(sandbox):
    path = _nested(sandbox, "{0}(x) * {0}(x)", "1 if h20(1) > 0 else 0")
    for exact in (False, True):
        with pytest.raises(SpecError) as caught:
            verifier.verify(path, exact=exact, cache=False)
        assert caught.value.key.startswith("functions.h") and "200,000 bits" in str(caught.value)


def test_numbers_below_the_bound_still_decide(sandbox):
    # h20 on the way to 2^(2^19) is refused, h12 (about 2^2048) is an ordinary exact number
    path = _nested(sandbox, "{0}(x) * {0}(x)", "(0 if y in Y else 1) if h12(1) > (2**1000)**2 else 1")
    report = verifier.verify(path, cache=False)
    assert report.verdicts["P3"] == "holds"  # with every cost 1 (the comparison false) P3 would fail


# -- item 7: --cross-check within the same deadline -------------------------------------------------------------

def _without_expect(folder, name: str) -> str:
    """A bundled spec copied without its expect: block (a stopped analysis may leave verdicts unknown)."""
    with open(os.path.join(ROOT, "specs", name), encoding="utf-8") as handle:
        text = handle.read()
    lines, skipping = [], False
    for line in text.splitlines():
        if line.startswith("expect:"):
            skipping = True
        elif skipping and not line.startswith((" ", "\t")):
            skipping = False
        if not skipping:
            lines.append(line)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


def test_the_cross_check_stops_at_the_time_limit_and_says_what_it_skipped(sandbox):
    # the cross-check of 10 interval classes takes minutes (P1 by z3 set by set, P2-P10 by brute force)
    path = _without_expect(sandbox, "ordinal-intervals-10.yaml")
    before = _tree(sandbox)
    text = _verify(path, "--cross-check", "--time-limit", "2", cwd=sandbox)
    assert text.returncode == 0, text.stderr  # a skip is no disagreement; nothing was expected
    assert "Traceback" not in text.stderr
    assert "cross-check stopped: the time limit of 2 s (--time-limit) was reached before" in text.stdout
    assert "disagree" not in text.stdout.lower()
    record = json.loads(_verify(path, "--cross-check", "--time-limit", "2", "--format", "json", cwd=sandbox).stdout)
    checks = {c["property"]: c for c in record["cross_check"]}
    assert len(checks) == 10
    cut = [c for c in checks.values() if c["cut"]]
    assert cut and all(c["second"] is None and c["agrees"] is None for c in cut)
    assert all(c["note"] == "skipped: the time limit of 2 s (--time-limit) was reached before it was re-checked"
               for c in cut)
    assert _tree(sandbox) == before


def test_a_cross_check_cut_by_the_time_limit_is_never_cached(sandbox, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(sandbox / "cache"))
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    path = _without_expect(sandbox, "ordinal-intervals-10.yaml")
    first = verifier.verify(path, cross_check=True, time_limit=1)
    assert any(c["cut"] for c in first.to_json()["cross_check"])
    second = verifier.verify(path, cross_check=True, time_limit=1)
    assert second.cached_at is None  # computed afresh: a cut result depends on the machine's speed


def test_the_cross_check_gets_only_what_is_left_of_the_run_s_bound(sandbox):
    from verifier.analysis.pipeline import analyse
    from verifier.api.entry import load
    from verifier.check.cross_check import cross_check

    analysis = analyse(load(_without_expect(sandbox, "ordinal-l1-9.yaml")))
    checks = cross_check(analysis, 20_000, seconds_left=0.0, time_limit_s=7)  # the analysis used it all
    assert [c.property_id for c in checks] == [r.property.id for r in analysis.results]
    assert all(c.second is None and not c.disagrees and c.cut == "the time limit of 7 s (--time-limit) was reached"
               for c in checks)


# -- item 6: verify design and verifier.design() under one deadline --------------------------------------------

def _ordinal(folder, K: int) -> str:
    """Ordinal costs with min(member costs) + delta (|Y| - 1): its comparisons vanish at many values of delta,
    so calibrating it takes seconds at 8 classes and minutes at 10 (403 s in issue 37)."""
    path = os.path.join(folder, f"ordinal-{K}.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"""name: ordinal min plus delta
classes: {K}
parameters: {{delta: {{}}}}
assume: ["delta >= 0"]
cost: "abs(rank(yhat) - rank(y))"
set_cost: "min(c(v, y) for v in Y) + delta * (len(Y) - 1)"
""")
    return path


def test_design_stops_at_the_time_limit_and_says_what_was_cut(sandbox):
    path = _ordinal(sandbox, 10)
    before = _tree(sandbox)
    result = _verify("design", path, "--time-limit", "2", cwd=sandbox)
    assert result.returncode == 1, result.stderr  # no answer in time: as "no design", never a crash or exit 0
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    out = result.stdout
    assert "Stopped: the time limit of 2 s (--time-limit) was reached while " in out
    assert "(every property): the time limit of 2 s (--time-limit) was reached" in out  # what was cut
    assert "before the time limit" in out and "no admissible" not in out  # nothing claimed beyond the decided
    assert "Chosen:" not in out and "set_cost:" not in out  # no spec handed out unchecked
    record = json.loads(_verify("design", path, "--time-limit", "2", "--format", "json", cwd=sandbox).stdout)
    assert record["status"] == "stopped" and record["stopped"].startswith("Stopped: the time limit of 2 s")
    undecided = record["calibration"]["undecided"]
    assert undecided and "the time limit of 2 s (--time-limit) was reached" in undecided[-1]["reason"]
    assert undecided[-1]["high"] is None  # the stretch left runs to +inf (unbounded: null, not "None")
    assert _tree(sandbox) == before


def test_design_time_limit_option_is_checked_like_the_verify_one(sandbox):
    path = _ordinal(sandbox, 3)
    for bad in ("0", "-1", "nan", "inf", "1e999", "ten"):
        result = _verify("design", path, "--time-limit", bad, cwd=sandbox)
        assert result.returncode == 2 and not result.stdout
        assert result.stderr.startswith("verify design: usage error: argument --time-limit:"), result.stderr
    assert "--time-limit SECONDS" in _verify("design", "--help", cwd=sandbox).stdout
    for bad in (0, -1, float("nan"), True, "10"):
        with pytest.raises(UsageError, match="the time limit must be None or a number of seconds"):
            verifier.design(path, time_limit=bad)


def test_a_stop_keeps_the_pieces_decided_before_it(sandbox, monkeypatch):
    """Deterministic: the bound is made to pass at the 8th piece decided (no wall clock involved)."""
    from verifier import limits
    from verifier.designing import calibrate

    full = verifier.design(_ordinal(sandbox, 6), time_limit=None)  # carried evidence beyond 5 classes
    decided, calls = calibrate._decided, []

    def decide_until_the_bound(*args, **kwargs):
        calls.append(args[3:5])
        if len(calls) == 8:
            raise limits.TimeLimitReached(5)
        return decided(*args, **kwargs)

    monkeypatch.setattr(calibrate, "_decided", decide_until_the_bound)
    cut = verifier.design(_ordinal(sandbox, 6), time_limit=None)
    assert full.status == "no fit" and cut.status == "stopped" and not cut.ok
    assert "the time limit of 5 s (--time-limit) was reached while deciding the pieces" in cut.text
    pieces = cut.calibration.pieces
    assert pieces[-1].verdicts is None and pieces[-1].reason == "the time limit of 5 s (--time-limit) was reached"
    kept = [p for p in pieces if p.verdicts is not None]
    assert kept, "pieces decided before the bound are kept"
    truth = {(str(p.low), str(p.high)): p.verdicts for p in full.calibration.pieces}
    for piece in kept:  # every verdict kept agrees with the uncut calibration; P1 open pieces were not carried
        for pid, verdict in piece.verdicts.items():
            assert verdict is None or verdict == truth[(str(piece.low), str(piece.high))][pid]
        if not piece.point:
            assert piece.verdicts["P1"] is None and "before its evidence was carried" in piece.reason


def test_a_completion_cut_by_the_time_limit_designs_nothing_and_says_so(sandbox, monkeypatch):
    from verifier import limits
    from verifier.api import designer

    def never_in_time(*args, **kwargs):
        raise limits.TimeLimitReached(3)

    monkeypatch.setattr(designer, "complete", never_in_time)
    result = verifier.design(os.path.join(ROOT, "specs", "design", "obstacle-open.yaml"), time_limit=3)
    assert result.status == "stopped" and not result.ok and result.spec_text == ""
    assert "the time limit of 3 s (--time-limit) was reached before a matrix" in result.text
    assert result.to_json()["status"] == "stopped" and "nothing was designed" in result.to_json()["stopped"]
    assert "time limit" in repr(result)


def test_a_stop_wrapped_by_ctypes_is_still_a_stop():
    """The timer may fire while ctypes converts a z3 argument: ctypes re-raises it as an ArgumentError."""
    import ctypes

    from verifier import limits

    wrapped = ctypes.ArgumentError("argument 1: TimeLimitReached: the time limit of 0.8 s (--time-limit) was reached")
    stop = limits.stop_of(wrapped)
    assert isinstance(stop, limits.TimeLimitReached) and stop.seconds == 0.8
    other = ctypes.ArgumentError("argument 2: TypeError: wrong type")
    with pytest.raises(ctypes.ArgumentError, match="wrong type"):
        limits.stop_of(other)


def test_optimality_cut_by_the_time_bound_is_never_served_from_the_cache(sandbox, monkeypatch):
    """Every set's optimality is made by the run (issue 64: a result is a value); when the time bound cuts it,
    nothing of the result is stored, and the next run makes it again."""
    import verifier.analysis.optimality_route as route
    from verifier.verdict import SetOptimality

    monkeypatch.setenv("VERIFY_CACHE_DIR", str(sandbox / "cache"))
    monkeypatch.delenv("VERIFY_NO_CACHE", raising=False)
    calls = []

    def cut(scheme, hints, checker, budget_s):
        calls.append(budget_s)
        return route.CutShort({m: SetOptimality(m, "unknown", reason="not decided: the time ran out")
                               for m in scheme.all_sets})

    monkeypatch.setattr(route, "_large", cut)
    path = sandbox / "intervals-50.yaml"
    path.write_text('name: l1 on 50 ordered classes, intervals\nclasses: 50\ncost: "abs(rank(yhat) - rank(y))"\n'
                    'set_cost: "min([c(yh, y) for yh in Y]) + 1/10"\npredictions: intervals\n')
    first = verifier.verify(path)
    assert {o["status"] for o in first.to_json()["optimality"]} == {"unknown"} and len(calls) == 1
    second = verifier.verify(path)
    assert second.cached_at is None  # nothing of a cut result was kept
    assert len(calls) == 2  # every set's optimality was made again, not read back
