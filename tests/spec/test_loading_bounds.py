"""Attacks on reading a spec: long files within the documented bounds load and are never called an alias bomb,
a real alias bomb is refused as one with its place, reading counts against the time limit, and the family
bounds are refused with the bound named. Outcomes only: times live in benchmarks/bench_inputs.py."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier
from verifier.errors import SpecError
from verifier.spec import family, source, spec_from_text, yaml_nodes

from conftest import ROOT


def _listed_sets(K: int, n: int) -> str:
    """n listed sets of K classes: every pair, then every triple, then sets of four, as [a, b, ...]."""
    names = [f"c{i}" for i in range(K)]
    lines = ["name: many listed sets", f"classes: [{', '.join(names)}]", 'cost: "0 if yhat == y else 1"',
             'set_cost: "0 if y in Y and len(Y) == 1 else (0.5 if y in Y else 1)"', "predictions:", "  sets:"]
    sets = itertools.chain.from_iterable(itertools.combinations(names, size) for size in range(2, K + 1))
    lines += [f"    - [{', '.join(s)}]" for s in itertools.islice(sets, n)]
    return "\n".join(lines) + "\n"


def _snapshot(folder) -> dict:
    return {name: os.stat(os.path.join(folder, name)).st_mtime_ns for name in sorted(os.listdir(folder))}


def test_the_value_budget_admits_the_documented_family_bound():
    assert source.MAX_SETS_LISTED == family.MAX_FAMILY_SETS
    # each listed set of four classes is five values; the rest of a spec is a few hundred more
    assert source.MAX_NODES >= family.MAX_FAMILY_SETS * 5 + 1000


def test_a_hundred_thousand_listed_sets_without_an_alias_load(tmp_path):
    # 100,000 listed sets (2.2 MB, without an alias) were refused as an "alias bomb"; here the family bound
    # exactly: 99,955 listed sets and 45 singletons of 45 classes (4.5 million cells), 2.6 MB
    text = _listed_sets(45, 99_955)
    spec = spec_from_text(text, str(tmp_path / "sets.yaml"))
    assert spec.predictions.kind == "sets" and spec.predictions.count(45) + 45 == family.MAX_FAMILY_SETS
    assert len(spec.content["predictions"]["sets"]) == 99_955


def test_too_many_values_without_aliases_are_not_called_an_alias_bomb(tmp_path, monkeypatch, cli):
    monkeypatch.setattr(source, "MAX_NODES", 1000)  # the same check as at 1,000,000, on a small file
    path = tmp_path / "sets.yaml"
    path.write_text(_listed_sets(20, 400), encoding="utf-8")
    before = _snapshot(tmp_path)
    code, _, err = cli(str(path), "--no-cache")
    assert code == 2, err
    assert "more than 1,000 values" in err and "alias" not in err, err
    assert f"{path}:" in err and "key 'predictions.sets[" in err, err
    assert "Traceback" not in err and _snapshot(tmp_path) == before


def test_a_real_alias_bomb_names_the_alias_and_its_anchor(tmp_path, cli):
    # under a key the spec knows (the value of an unknown key is never read: the key alone is the error)
    text = 'name: t\nclasses: [a, b]\nexpect:\n  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    prev = "l0"
    for i in range(1, 10):
        text += f"  l{i}: &l{i} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = f"l{i}"
    path = tmp_path / "bomb.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = cli(str(path), "--no-cache")
    assert code == 2 and "alias bomb" in err and "copied values" in err, err
    assert f"{path}:8:" in err and "key 'expect.l5[0]'" in err, err  # l5's first alias copies l4, on line 8


def test_an_anchor_used_a_few_times_is_still_a_spec(tmp_path, cli):
    path = tmp_path / "anchors.yaml"
    path.write_text('name: &n anchors\ndescription: *n\nclasses: [a, b, c]\ncost: "0 if yhat == y else 1"\n'
                    'set_cost: "(0 if y in Y else 1) + 0.1 * (len(Y) - 1)"\nexpect: &e {P1: holds}\n', encoding="utf-8")
    code, out, err = cli(str(path), "--no-cache", "--format", "json")
    assert code in (0, 1) and '"description": "anchors"' in out, err


def test_invalid_yaml_keeps_its_located_message(tmp_path, cli):
    path = tmp_path / "open.yaml"
    path.write_text('name: t\nclasses: [a, b\ncost: "0"\n', encoding="utf-8")
    code, _, err = cli(str(path))
    assert code == 2 and "the list [...] opened at line 2, column 10 is not closed" in err, err
    assert f"{path}:3:" in err


def test_reading_counts_against_the_time_limit(tmp_path, monkeypatch):
    import verifier.api.entry as entry

    def slow(path, open_cells=False):  # a reader that would never end
        while True:
            time.sleep(0.05)

    monkeypatch.setattr(entry, "load_spec", slow)
    path = tmp_path / "spec.yaml"
    path.write_text("name: t\n", encoding="utf-8")
    with pytest.raises(verifier.SpecError, match=r"reading the spec took longer than the time limit of 1 s") as info:
        verifier.verify(str(path), time_limit=1, cache=False)
    assert info.value.path == str(path)


def test_an_alias_bomb_from_another_process_ends_with_exit_2(tmp_path):
    # the command as a user runs it, with a generous hang guard (not a time assertion)
    text = "name: t\nclasses: [a, b]\nexpect:\n  x0: &x0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
    for i in range(1, 8):
        text += f"  x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]\n"
    path = tmp_path / "bomb.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "verifier", str(path), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, PYTHONPATH=ROOT))
    assert done.returncode == 2 and "alias bomb" in done.stderr and "Traceback" not in done.stderr, done.stderr


# -- item 11: the family bounds are what finishes, and running out of memory is a message ----------------------

def _intervals(K: int, r: str = "0.5") -> str:
    return (f"name: intervals\nclasses: {K}\nparameters:\n  r: {{value: {r}}}\ncost: \"abs(rank(yhat) - rank(y))\"\n"
            "set_cost: \"genmean(1 - r, [c(yh, y) for yh in Y])\"\npredictions: intervals\n")


def test_a_family_just_over_the_cell_bound_is_refused_naming_it(tmp_path, cli):
    cells = lambda K: (K * (K - 1) // 2 + K) * K  # noqa: E731 - intervals and singletons, times the classes
    K = next(k for k in range(2, 1001) if cells(k) > family.MAX_FAMILY_CELLS)
    spec_from_text(_intervals(K - 1), "under.yaml")  # just under: read without a word
    path = tmp_path / "over.yaml"
    path.write_text(_intervals(K), encoding="utf-8")
    code, _, err = cli(str(path), "--no-cache")
    assert code == 2 and f"({cells(K):,} cells)" in err, err
    assert f"at most {family.MAX_FAMILY_SETS:,} sets and {family.MAX_FAMILY_CELLS:,} cells" in err, err
    assert f"{path}:7:" in err and "key 'predictions'" in err, err


def _capped(megabytes: int):
    def limit() -> None:  # as `ulimit -v`: the command's default cap is then this, not the machine's memory
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return limit


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux", reason="address-space limits: Linux")
def test_running_out_of_memory_under_the_default_cap_is_a_message(tmp_path):
    path = tmp_path / "intervals.yaml"
    path.write_text(_intervals(215, r="0"), encoding="utf-8")  # 5 million cells: about 2 GB, far over the cap
    # (r = 0: rational cells, built fast, so the cap is reached in seconds rather than a minute)
    before = _snapshot(tmp_path)
    done = subprocess.run([sys.executable, "-m", "verifier", str(path), "--no-cache"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, preexec_fn=_capped(450),
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert done.returncode == 2, done.stderr
    assert "the default memory limit of 450 MB" in done.stderr and "--memory MB sets another" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert _snapshot(tmp_path) == before


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux", reason="address-space limits: Linux")
def test_an_explicit_memory_cap_names_the_option(tmp_path):
    path = tmp_path / "intervals.yaml"
    path.write_text(_intervals(215, r="0"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "verifier", str(path), "--no-cache", "--memory", "450"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert done.returncode == 2 and "the memory limit --memory 450" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# -- libyaml composes, the pure-Python parser words the errors: both must read every text alike -----------------


_TOKENS = ["a", "b", ": ", ":", "- ", "-", "[", "]", "{", "}", ", ", ",", "\n", "  ", "'x'", '"y"', "0.35", "1e3",
           "&k ", "*k", "#c", "? ", "!!str ", "null", "~", "\t", "|\n  t", ">\n  t", "---\n", "é", "1_0"]


def _read(text: str, fast: bool):
    saved = yaml_nodes._Fast
    if not fast:
        yaml_nodes._Fast = None
    try:
        located = source.load_yaml(text, "t.yaml")
        # an empty value (null) has no text: where it "starts" differs between the parsers by a column or a line
        return "ok", located.plain(), [(v.mark, v.source) for v in _walk(located) if v.source]
    except SpecError as exc:
        return "error", str(exc), None
    finally:
        yaml_nodes._Fast = saved


def _walk(located):
    yield located
    children = located.value.values() if isinstance(located.value, dict) else \
        located.value if isinstance(located.value, list) else ()
    for child in children:
        yield from _walk(child)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=30))
def test_libyaml_and_the_pure_parser_read_every_text_alike(tokens):
    text = "".join(tokens)
    fast, pure = _read(text, True), _read(text, False)
    if fast[0] == "error" and pure[0] == "ok":  # libyaml stricter: the pure parser's reading is the one used
        return
    assert fast == pure, text


def test_a_tag_that_contradicts_its_value_is_a_located_error_not_a_traceback(tmp_path, cli):
    """`!!str` on a mapping (found by the test above with a random seed): the converter took the mapping's node
    pairs for a string, and `verify` ended in `internal error (AttributeError ...)`."""
    for text in ("!!str #c|\n  t: ", "a: !!str\n  b: 1\n", "a: !!map 1\n"):
        assert _read(text, True)[0] == _read(text, False)[0] == "error"
    spec = tmp_path / "tag.yaml"
    spec.write_text("!!str #c|\n  t: ")
    code, out, err = cli(spec)
    assert code == 2 and "a YAML tag that does not fit its value" in err and "internal error" not in err
