"""A hostile input is refused and leaves its directory as it was: `snapshot(folder)` records every entry,
`located(tmp_path, argv, *expected)` runs the command and checks the refusal (the attack tests of issues 37
and 52, now beside the features they test, share these)."""

from __future__ import annotations

import os

from conftest import run_verify


def snapshot(folder) -> dict:
    """Every entry under `folder`: its kind, bytes (or link target) and modification time in nanoseconds."""
    state = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if os.path.islink(path):
                state[path] = ("link", os.readlink(path), info.st_mtime_ns)
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    state[path] = ("file", handle.read(), info.st_mtime_ns, info.st_ino)
            else:
                state[path] = ("dir", info.st_mtime_ns)
    return state


def located(tmp_path, argv, *expected) -> str:
    """`verify ARGV` exits 2 with every `expected` text in its one message, no internal error and no traceback,
    and nothing in tmp_path changed; returns the message."""
    before = snapshot(tmp_path)
    code, out, err = run_verify(*argv)
    assert code == 2, (code, out, err)
    assert "internal error" not in err and "Traceback" not in err, err
    for text in expected:
        assert text in err, (text, err)
    assert snapshot(tmp_path) == before
    return err
