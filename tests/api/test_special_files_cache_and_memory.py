"""Attacks on what the tool reads and on its limits: the test plants the FIFO, the device, the tampered or
foreign cache entry, the runaway formula and the tiny memory cap, then checks the outcome (a clear message and
exit status 2, or a correct verdict), that nothing hangs, and that nothing outside the temporary directory
changed.

Origin: hostile files and environments, issue 11; formerly test_hostile_inputs.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from verifier.formula import evaluate

from conftest import ROOT, SPECS

TABLE_VI = os.path.join(SPECS, "table-vi.yaml")


def _cli(args, tmp_path, stdin=None, env=None, timeout=60):
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=tmp_path, input=stdin, env=environment,
                          capture_output=True, text=True, timeout=timeout)


def _tree(folder) -> dict[str, bytes]:
    return {os.path.relpath(os.path.join(d, f), folder): open(os.path.join(d, f), "rb").read()
            for d, _, files in os.walk(folder) for f in files}


# -- special files ---------------------------------------------------------------------------------------------
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it for reading the usual way would block forever
    result = _cli([str(fifo)], tmp_path, timeout=30)
    assert result.returncode == 2
    assert "FIFO" in result.stderr and "not a regular file" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(device, cli):
    code, out, err = cli(device)
    assert code == 2 and "character device" in err and not out


def test_a_spec_can_be_piped_in_through_dash_or_dev_stdin(tmp_path):
    text = open(TABLE_VI, encoding="utf-8").read()
    for name in ("-", "/dev/stdin"):
        result = _cli([name, "--format", "json", "--no-cache"], tmp_path, stdin=text)
        assert result.returncode == 0, result.stderr
        record = json.loads(result.stdout)
        assert record["name"].startswith("Table VI") and record["properties"]["P9"]["verdict"] == "fails"


# -- the cache -------------------------------------------------------------------------------------------------
def _cached_run(cache):
    return _cli([TABLE_VI, "--format", "json"], cache.parent,
                env={"VERIFY_CACHE_DIR": str(cache), "VERIFY_NO_CACHE": ""})


def test_a_tampered_but_well_shaped_cache_entry_is_a_miss_not_a_lie(tmp_path):
    cache = tmp_path / "cache"
    first = _cached_run(cache)
    assert first.returncode == 0 and json.loads(first.stdout)["properties"]["P9"]["verdict"] == "fails"
    [entry] = [p for p in cache.iterdir() if p.suffix == ".json"]
    record = json.loads(entry.read_text())
    forged = json.dumps(record).replace('"fails"', '"holds"')  # every verdict flipped, shape intact
    entry.write_text(forged)
    again = _cached_run(cache)
    data = json.loads(again.stdout)
    assert again.returncode == 0 and "cached" not in data  # not believed: analysed afresh
    assert data["properties"]["P9"]["verdict"] == "fails"
    assert entry.read_text() != forged  # the forged entry was replaced by a freshly signed one


def test_an_entry_copied_under_another_key_or_a_swapped_secret_is_a_miss(tmp_path):
    cache = tmp_path / "cache"
    _cached_run(cache)
    [entry] = [p for p in cache.iterdir() if p.suffix == ".json"]
    hit = _cached_run(cache)
    assert "cached" in json.loads(hit.stdout)  # an intact entry is used
    (cache / "key").write_bytes(os.urandom(32))  # a secret that did not sign the entry
    assert "cached" not in json.loads(_cached_run(cache).stdout)
    other = _cli([os.path.join(SPECS, "table-vii.yaml"), "--format", "json"], tmp_path,
                 env={"VERIFY_CACHE_DIR": str(cache), "VERIFY_NO_CACHE": ""})
    entries = [p for p in cache.iterdir() if p.suffix == ".json"]
    assert other.returncode == 0 and len(entries) == 2
    vii = next(p for p in entries if p != entry)
    entry.write_bytes(vii.read_bytes())  # table-vii's signed result under table-vi's key
    data = json.loads(_cached_run(cache).stdout)
    assert "cached" not in data and data["name"].startswith("Table VI")


@pytest.mark.parametrize("plant", ["fifo", "symlink", "directory", "garbage"])
def test_odd_things_in_the_cache_directory_never_hang_or_crash(tmp_path, plant):
    cache = tmp_path / "cache"
    _cached_run(cache)
    outside = tmp_path / "outside.txt"
    outside.write_text("untouched")
    for path in [p for p in cache.iterdir()]:
        path.unlink()
        if plant == "fifo":
            os.mkfifo(path)
        elif plant == "symlink":
            path.symlink_to(outside)
        elif plant == "directory":
            path.mkdir()
        else:
            path.write_bytes(b"\x00\xff{" * 1000)
    result = _cached_run(cache)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["properties"]["P9"]["verdict"] == "fails"
    assert outside.read_text() == "untouched"


# -- limits ----------------------------------------------------------------------------------------------------
RUNAWAY = textwrap.dedent("""\
    name: runaway
    classes: [a, b, c]
    functions:
      f0(x): "x + 1"
    {levels}
    cost: "0 if y == yhat else 1"
    set_cost: "f24(1) if y in Y else 1"
    """)


def test_a_formula_with_exponential_work_ends_with_a_located_message(tmp_path, monkeypatch, cli):
    # two calls on different arguments at every level: a repeated call is answered once, these are all new
    levels = "\n".join(f'  f{i}(x): "f{i - 1}(2 * x) + f{i - 1}(2 * x + 1)"' for i in range(1, 25))
    spec = tmp_path / "runaway.yaml"
    spec.write_text(RUNAWAY.format(levels=levels))
    monkeypatch.setattr(evaluate, "MAX_STEPS", 200_000)  # the same bound, reached sooner
    before = _tree(tmp_path)
    code, out, err = cli(str(spec), "--no-cache")
    assert code == 2 and not out
    assert "runaway.yaml:" in err and "functions.f" in err and "200,000 steps" in err
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("megabytes", ["384", "400"])
def test_a_tight_memory_cap_is_a_message_or_a_verdict_never_a_crash(tmp_path, megabytes):
    result = _cli(["--memory", megabytes, os.path.join(SPECS, "ha.yaml"), "--no-cache"], tmp_path, timeout=300)
    assert result.returncode in (0, 2), result.stderr
    assert "Traceback" not in result.stderr and "Segmentation" not in result.stderr
    if result.returncode == 2:
        assert "memory" in result.stderr and "--memory" in result.stderr
    assert os.listdir(tmp_path) == []  # no core file, nothing written


def test_a_native_failure_under_the_cap_names_the_cap_and_without_a_cap_is_a_bug(monkeypatch, cli):
    # gmpy/z3 allocations that fail under RLIMIT_AS may return NULL without an exception: Python's SystemError
    from verifier import limits
    from verifier.api import entry as run_module  # the command runs verifier.api's verify

    def native_failure(*args, **kwargs):
        raise SystemError("error return without exception set")

    monkeypatch.setattr(run_module, "verify", native_failure)
    monkeypatch.setattr(limits, "MEMORY_MB", limits.MEMORY_MB)  # restored by undo()
    # the cap as the child sets it, without lowering this test process's address space
    monkeypatch.setattr(limits, "apply", lambda rlimit=None, memory_mb=None: setattr(limits, "MEMORY_MB", 400))
    code, out, err = cli(os.path.join(SPECS, "ha.yaml"), "--no-cache")
    assert code == 2 and "--memory 400" in err and "raise --memory" in err and "bug" not in err
    monkeypatch.undo()
    monkeypatch.setattr(run_module, "verify", native_failure)
    code, out, err = cli(os.path.join(SPECS, "ha.yaml"), "--no-cache")
    assert code == 2 and "internal error" in err and "SystemError" in err


def test_the_memory_cap_reaches_in_process_callers_through_the_child(tmp_path, cli):
    code, out, err = cli("--memory", "4000", TABLE_VI, "--no-cache")
    assert code == 0 and "Table VI" in out


def test_huge_values_hidden_in_irrational_arguments_are_located_errors(tmp_path, cli):
    spec = tmp_path / "huge.yaml"
    spec.write_text('name: huge\nclasses: [a, b]\ncost: "0 if y == yhat else 1"\n'
                    'set_cost: "exp(exp(100)) if y in Y else 1"\n')
    code, _, err = cli(str(spec), "--no-cache")
    assert code == 2 and "huge.yaml:4" in err and "exp of a huge argument" in err


# Found by an adversarial review of issue 11's reports (formerly in test_review_regressions.py).
def test_a_fifo_or_broken_link_in_a_spec_directory_is_an_error_not_skipped(tmp_path, cli):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "ok.yaml")
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "broken.yaml").symlink_to(tmp_path / "nowhere")
    code, out, err = cli(str(tmp_path), "--quiet")
    assert code == 2 and "Table VI" in out
    assert "fifo.yaml" in err and "FIFO" in err and "broken.yaml" in err
