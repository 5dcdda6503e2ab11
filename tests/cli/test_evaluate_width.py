"""`verify evaluate --width N` (issue 53, item 4): the text wraps at N columns, at the terminal's width in a terminal,
and in a pipe at COLUMNS when it is set, as `shutil.get_terminal_size` reads it; without COLUMNS a pipe gets the
text unwrapped, as before (the snapshots hold). `verify SPEC` honours COLUMNS in a pipe the same way."""

import io
import os
import shutil

import numpy as np
import pytest

import verifier
from verifier.cli import check

from conftest import SPECS

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")


@pytest.fixture
def scores(tmp_path):
    rng = np.random.default_rng(11)
    truth = rng.random(40) < 0.5
    path = tmp_path / "scores.csv"
    path.write_text("svm,nb,true\n" + "\n".join(f"{rng.normal() + t:.2f},{rng.normal() + t / 2:.2f},{'P' if t else 'N'}"
                                                for t in truth) + "\n")
    return str(path)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def evaluate(scores, *extra, stdout=None):
    out, err = stdout or io.StringIO(), io.StringIO()
    code = check(["evaluate", FRIEDEL, "--scores", scores, "--sweep", "mu=0:1:3", "--sweep", "nu=0:1:3", *extra],
                 out, err)
    assert code == 0, err.getvalue()
    return out.getvalue()


def wrapped_at(text: str, width: int) -> bool:
    return all(len(line) <= width or " " not in line.strip() for line in text.splitlines())


def test_a_pipe_without_columns_gets_the_text_as_the_api_gives_it(scores, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    plain = evaluate(scores)
    api = verifier.evaluate(FRIEDEL, scores=scores, sweep_text=["mu=0:1:3", "nu=0:1:3"])
    assert plain == api.shown() and max(map(len, plain.splitlines())) > 60


def test_width_wraps_the_text_at_spaces_never_inside_a_word(scores, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    plain, narrow = evaluate(scores), evaluate(scores, "--width", "60")
    assert narrow != plain and wrapped_at(narrow, 60) and narrow.split() == plain.split()


def test_columns_is_honoured_in_a_pipe_and_width_wins(scores, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    by_option = evaluate(scores, "--width", "60")
    monkeypatch.setenv("COLUMNS", "60")
    assert evaluate(scores) == by_option
    assert evaluate(scores, "--width", "90") != by_option and wrapped_at(evaluate(scores, "--width", "90"), 90)
    monkeypatch.delenv("COLUMNS")
    plain = evaluate(scores)
    monkeypatch.setenv("COLUMNS", "not a number")  # ignored, as shutil.get_terminal_size ignores it
    assert evaluate(scores) == plain


def test_a_terminal_wraps_at_its_width(scores, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((64, 24)))
    shown = evaluate(scores, stdout=Terminal())
    assert wrapped_at(shown, 64) and shown == evaluate(scores, "--width", "64")


def test_verify_itself_honours_columns_in_a_pipe(monkeypatch):
    spec = os.path.join(SPECS, "ha-numeric.yaml")

    def run(*argv):
        out, err = io.StringIO(), io.StringIO()
        check([spec, "--no-cache", *argv], out, err)
        return out.getvalue()

    monkeypatch.delenv("COLUMNS", raising=False)
    by_option, default = run("--width", "80"), run()
    assert by_option != default
    monkeypatch.setenv("COLUMNS", "80")
    assert run() == by_option
