"""`--memory MB`: run the work in a forked child under the address-space cap, so that running out of memory is
a clear message and exit status 2, never a segfault or an abort of the tool itself.

Native libraries (z3, FLINT, BLAS) do not all survive a failed allocation: some crash the process. The cap is
therefore applied in a child; its output comes back through pipes (so in-process callers with StringIO streams
get it too), and a child killed by a signal is reported as the memory limit being exceeded. The child dies with
its parent (`_die_with`): killing `verify` by its PID ends the work too, and nothing is written after.
"""

from __future__ import annotations

import os
import selectors
import signal
import sys
from collections.abc import Callable
from typing import TextIO

from verifier import limits
from verifier.cli.exit_codes import ExitCode


def run_capped(memory_mb: int, rlimit: int | None, work: Callable[[TextIO, TextIO], int],
               stdout: TextIO, stderr: TextIO, default: bool = False) -> int:
    """Run `work` in a child under the cap (`default`: the command's own cap, not --memory); its exit status."""
    for stream in (stdout, stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    watch_read, watch_write = os.pipe()  # held open by the parent only: end of file there means it is gone
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(out_read)
        os.close(err_read)
        os.close(watch_write)
        _die_with(parent, watch_read)
        _child(memory_mb, rlimit, work, out_write, err_write, default)
    os.close(out_write)
    os.close(err_write)
    os.close(watch_read)
    try:
        _forward({out_read: stdout, err_read: stderr})
    finally:
        _, status = os.waitpid(pid, 0)  # Ctrl-C reaches the child too: wait for it, leave no zombie
        os.close(watch_write)
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
    if default:
        limits.DEFAULT_CAP_MB = memory_mb
    else:
        limits.MEMORY_MB = memory_mb
    print(f"verify: the verification stopped ({name}): {limits.memory_words()} was exceeded before a verdict",
          file=stderr)
    return ExitCode.INVALID


def _die_with(parent: int, watch_fd: int) -> None:
    """The child dies with its parent, however the parent ends (SIGKILL too, as CI runners and notebooks stop a
    job): the kernel's parent-death signal where it has one (Linux); elsewhere a thread that kills the child when
    the parent's end of a pipe closes (on Linux no thread: a second thread's stack and malloc arena would count
    under the memory cap, and OpenBLAS then failed inside its own allocation instead of raising MemoryError).
    So no worker goes on, and none writes after the parent is gone."""
    import threading

    try:
        import ctypes

        asked = ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL) == 0  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        asked = False
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(ExitCode.INTERRUPTED)
    if asked:  # the kernel kills the child: no thread, whose stack and malloc arena would count under the cap
        os.close(watch_fd)
        return

    def watch():
        while True:
            try:
                if not os.read(watch_fd, 1):
                    break
            except InterruptedError:
                continue
            except OSError:
                break
        os.kill(os.getpid(), signal.SIGKILL)

    threading.stack_size(1 << 16)  # a small stack: it counts against the address-space cap
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _child(memory_mb: int, rlimit: int | None, work, out_fd: int, err_fd: int, default: bool) -> None:
    code = ExitCode.INVALID
    out = open(out_fd, "w", encoding="utf-8", errors="replace", closefd=True)
    err = open(err_fd, "w", encoding="utf-8", errors="replace", closefd=True)
    try:
        sys.stdout, sys.stderr = out, err
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash under the cap leaves no core file behind
        if default:
            limits.apply(rlimit=rlimit)
            limits.cap_address_space(memory_mb)
            limits.DEFAULT_CAP_MB = memory_mb
        else:
            limits.apply(rlimit=rlimit, memory_mb=memory_mb)
        code = work(out, err)
    except MemoryError:
        print(f"verify: {limits.memory_words()} was exceeded before a verdict", file=err)
    except KeyboardInterrupt:  # the parent says "interrupted"
        code = ExitCode.INTERRUPTED
    except BrokenPipeError:
        code = ExitCode.OK
    except SystemError as exc:  # a native allocation that failed under the cap without setting an error
        print(f"verify: a native library failed under {limits.memory_words()} ({exc}); no verdict", file=err)
    except BaseException as exc:  # noqa: BLE001 - the child must always exit through os._exit
        print(f"verify: internal error: {type(exc).__name__}: {exc}", file=err)
        code = 70
    finally:
        for stream in (out, err):
            try:
                stream.flush()
            except (OSError, ValueError, MemoryError):
                pass
        os._exit(code)


def _forward(pipes: dict[int, TextIO]) -> None:
    """Copy the child's output to our streams as it comes (both pipes at once: neither can fill and block)."""
    selector = selectors.DefaultSelector()
    decoders = {}
    for fd in pipes:
        selector.register(fd, selectors.EVENT_READ)
        decoders[fd] = _Decoder()
    open_pipes = set(pipes)
    while open_pipes:
        for key, _ in selector.select():
            chunk = os.read(key.fd, 65536)
            if not chunk:
                selector.unregister(key.fd)
                os.close(key.fd)
                open_pipes.discard(key.fd)
                text = decoders[key.fd].finish()
            else:
                text = decoders[key.fd].feed(chunk)
            if text:
                try:
                    pipes[key.fd].write(text)
                    pipes[key.fd].flush()
                except (BrokenPipeError, ValueError):
                    pass
    selector.close()


class _Decoder:
    """UTF-8 across chunk boundaries."""

    def __init__(self):
        import codecs

        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, chunk: bytes) -> str:
        return self._decoder.decode(chunk)

    def finish(self) -> str:
        return self._decoder.decode(b"", final=True)
