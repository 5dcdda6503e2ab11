"""One deadline ends every process (issue 64, item 2): the work of `verify` runs in a forked child (under the
memory cap), and the child dies with its parent however the parent is stopped (SIGKILL, SIGTERM, Python's
`subprocess.run(timeout=)`), so no worker goes on and none writes the outputs after the parent is gone (before,
ten kills left seven workers running minutes later, and the reports were written 1-18 s after). An output keeps
its permission bits, and the temporary files of a write killed mid-way are swept by the next run."""

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from conftest import ROOT, SPECS

ENV = {**os.environ, "PYTHONPATH": ROOT}


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _frozen_worker(run_pid: int, deadline: float) -> list[int]:
    """The worker of the command `run_pid`, once seen, stopped (SIGSTOP), so that it cannot finish its work
    whatever the machine's speed: what the tests assert must not depend on how fast it runs."""
    workers: list[int] = []
    while not workers and time.monotonic() < deadline:
        time.sleep(0.02)
        workers = _children(run_pid)
    for w in workers:
        os.kill(w, signal.SIGSTOP)  # a stopped process still dies of the SIGKILL its parent's death sends
    return workers


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc to find the worker")
def test_ten_kills_leave_no_process_and_no_report_behind(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    command = [sys.executable, "-m", "verifier", os.path.join(SPECS, "ordinal-l1-9.yaml"), "-v", "--no-cache",
               "--report", str(out)]
    landed = 0
    for kill in range(10):
        run = subprocess.Popen(command, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        workers: list[int] = []
        deadline = time.monotonic() + 30
        while not workers and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
            workers = _children(run.pid)
        assert workers, "the command ended before its worker was seen"
        time.sleep(0.1 * kill)  # at another stage of the work each time (the first kills: before any output)
        for w in workers:  # frozen where it is, so that the kill lands mid-work on any machine
            if _running(w):
                os.kill(w, signal.SIGSTOP)
        written = [n for n in os.listdir(out) if not n.endswith(".tmp")]  # (renamed into place whole)
        if run.poll() is not None or written:  # a fast machine got past its outputs within the stage
            for w in workers:
                if _running(w):
                    os.kill(w, signal.SIGCONT)
            assert run.wait(timeout=60) == 0
            for name in os.listdir(out):
                os.unlink(out / name)
            continue
        landed += 1
        run.send_signal((signal.SIGKILL, signal.SIGTERM)[kill % 2])
        run.wait(timeout=30)
        time.sleep(2)
        assert not [w for w in workers if _running(w)], f"kill {kill}: a worker outlived verify"
        assert [n for n in os.listdir(out) if not n.endswith(".tmp")] == [], f"kill {kill}: a report was written"
    assert landed >= 2  # the kills at stage 0 and 1 land before the work can end (the worker is stopped first)
    finished = subprocess.run(command[:-2] + ["--report", str(out)], env=ENV, capture_output=True, timeout=300)
    assert finished.returncode == 0
    assert sorted(os.listdir(out)) == ["ordinal-l1-9.html", "ordinal-l1-9.json", "ordinal-l1-9.md"]  # swept


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc to find the worker")
def test_a_timeout_of_subprocess_run_ends_the_worker_too(tmp_path):
    import threading

    before = set(os.listdir("/proc"))
    command = [sys.executable, "-m", "verifier", os.path.join(SPECS, "ordinal-l1-9.yaml"), "-v", "--no-cache",
               "--certificate", str(tmp_path / "c.json")]
    seen: list[int] = []
    original = subprocess.Popen.__init__

    def spawned(self, *args, **kwargs):  # the run's own Popen: its worker is frozen once it appears
        original(self, *args, **kwargs)
        threading.Thread(target=lambda: seen.extend(_frozen_worker(self.pid, time.monotonic() + 30)),
                         daemon=True).start()

    subprocess.Popen.__init__ = spawned
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            subprocess.run(command, env=ENV, capture_output=True, timeout=3)
    finally:
        subprocess.Popen.__init__ = original
    time.sleep(2)
    assert seen, "the worker was never seen"
    assert not (tmp_path / "c.json").exists()
    late = [p for p in set(os.listdir("/proc")) - before if p.isdigit() and _running(int(p)) and
            "verifier" in open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace")]
    assert late == []


def test_an_output_keeps_its_mode_and_stale_temporaries_of_its_name_are_swept(tmp_path):
    cert = tmp_path / "s.cert.json"
    spec = os.path.join(SPECS, "table-vi.yaml")
    cert.write_text("{}")
    os.chmod(cert, 0o600)
    stale = tmp_path / ".s.cert.json.2147483646.0123456789ab.tmp"  # a writer (pid) that does not exist
    stale.write_text("half a certificate")
    other = tmp_path / ".other.json.2147483646.0123456789ab.tmp"  # another output's: not this run's to sweep
    other.write_text("x")
    done = subprocess.run([sys.executable, "-m", "verifier", spec, "--certificate", str(cert), "--no-cache"],
                          env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(os.stat(cert).st_mode) == 0o600 and cert.read_text().startswith("{")
    assert not stale.exists() and other.exists()
