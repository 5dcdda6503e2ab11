"""Every result object answers the same everywhere: a plain interpreter and a real Jupyter kernel, fresh and
from the cache.

One script builds each kind of result (a report, a class sweep, an every-K sweep, a design, a decision, an
evaluation), calls every public method and property that needs no argument, and prints a digest of each answer.
The digests must agree across the four runs, texts must not be empty, and inside the kernel nothing may reach
the notebook but the script's own output (rich once sent every line of a summary there as a display of its own,
and to_summary() returned "").
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, SPECS

SCRIPT = textwrap.dedent(r"""
    import hashlib, inspect, json, os, sys
    sys.path.insert(0, ROOT)
    import numpy as np
    import verifier

    def digest(value):
        if isinstance(value, bytes):
            return ["bytes", len(value) > 0]
        if isinstance(value, str):
            return ["str", len(value), hashlib.sha256(value.encode()).hexdigest()[:16]]
        if isinstance(value, (dict, list, tuple)):
            if isinstance(value, dict):  # how long the run took is the one field a cached answer keeps apart
                value = sorted((str(k), str(v)) for k, v in value.items() if k != "seconds")
            text = json.dumps(value, default=str)
            return [type(value).__name__, hashlib.sha256(text.encode()).hexdigest()[:16]]
        if value is None or isinstance(value, (bool, int, float)):
            return value
        return ["object", type(value).__name__]

    SKIP = {"write", "figures", "analysis", "sweep", "completion", "calibration", "comparison", "scores",
            "to_frame", "cached_at"}

    def answers(name, result):
        out = {}
        for attr in sorted(dir(result)):
            if attr.startswith("__") or attr in SKIP or (attr.startswith("_") and not attr.startswith("_repr_")):
                continue
            member = inspect.getattr_static(result, attr)
            if attr in getattr(result, "__dict__", {}) or isinstance(member, property):  # data and properties
                out[f"{name}.{attr}"] = digest(getattr(result, attr))
            elif callable(member) and not isinstance(member, (classmethod, staticmethod)):
                if isinstance(member, property):
                    continue
                required = [p for p in list(inspect.signature(member).parameters.values())[1:]
                            if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
                if not required:
                    try:
                        out[f"{name}.{attr}()"] = digest(getattr(result, attr)())
                    except verifier.UsageError as exc:  # a refusal is an answer too: the same everywhere
                        out[f"{name}.{attr}()"] = ["refused", str(exc)]
        out[f"repr({name})"] = digest(repr(result))
        return out

    data = os.environ["RESULTS_DATA"]
    results = {
        "report": verifier.verify(os.path.join(SPECS, "ha.yaml")),
        "parametric": verifier.verify(os.path.join(SPECS, "friedel-abstention-symbolic.yaml")),
        "sweep": verifier.sweep_classes(os.path.join(SPECS, "ha.yaml"), "2..3"),
        "every_k": verifier.sweep_classes(os.path.join(SPECS, "accuracy-u65.yaml"), "2.."),
        "design": verifier.design(os.path.join(SPECS, "design", "ha-delta.yaml"), setting="filtering"),
        "decision": verifier.decide(os.path.join(SPECS, "obstacle-discounted.yaml"), "h=0.1,b=0.3,n=0.6"),
        "evaluation": verifier.evaluate(os.path.join(SPECS, "obstacle-discounted.yaml"),
                                        predictions=os.path.join(data, "m.npy"), truth=os.path.join(data, "t.npy")),
    }
    found = {}
    for name, result in results.items():
        found.update(answers(name, result))
    print("DIGESTS " + json.dumps(found, sort_keys=True))
""")


def _script(tmp_path) -> str:
    return f"ROOT = {ROOT!r}; SPECS = {SPECS!r}\n" + SCRIPT


@pytest.fixture(scope="module")
def setting(tmp_path_factory):
    import numpy as np

    data = tmp_path_factory.mktemp("data")
    truth = np.random.default_rng(3).integers(0, 3, size=30)
    masks = np.zeros((2, 30, 3), dtype=bool)
    masks[0, np.arange(30), truth] = True
    masks[1] = True
    np.save(data / "m.npy", masks)
    np.save(data / "t.npy", truth)
    env = {k: v for k, v in os.environ.items() if k != "VERIFY_NO_CACHE"}
    env.update(RESULTS_DATA=str(data), VERIFY_CACHE_DIR=str(tmp_path_factory.mktemp("cache")))
    return env


def _digests(output: str) -> dict:
    (line,) = [x for x in output.splitlines() if x.startswith("DIGESTS ")]
    return json.loads(line[len("DIGESTS "):])


def _plain(script: str, env: dict) -> dict:
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return _digests(run.stdout)


def _in_kernel(script: str, env: dict, runs: int) -> list[tuple[dict, list[str]]]:
    """Run the script `runs` times in one real IPython kernel: per run, its digests and the kinds of every other
    message it sent to the notebook."""
    manager = pytest.importorskip("jupyter_client.manager")
    pytest.importorskip("ipykernel")
    km, kc = manager.start_new_kernel(kernel_name="python3", env=env)
    out = []
    try:
        for _ in range(runs):
            msg_id = kc.execute(script)
            stdout, others = [], []
            while True:
                msg = kc.get_iopub_msg(timeout=600)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind = msg["msg_type"]
                if kind == "status" and msg["content"]["execution_state"] == "idle":
                    break
                if kind == "stream" and msg["content"]["name"] == "stdout":
                    stdout.append(msg["content"]["text"])
                elif kind in ("display_data", "execute_result", "error", "update_display_data"):
                    others.append(kind + ": " + str(msg["content"])[:300])
            out.append((_digests("".join(stdout)) if not others else {}, others))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return out


def test_every_answer_is_the_same_fresh_cached_plain_and_in_a_kernel(setting, tmp_path):
    script = _script(tmp_path)
    (kernel_fresh, others), (kernel_cached, more) = _in_kernel(script, setting, 2)  # the cache fills, then serves
    assert others == [] and more == [], others + more  # nothing but the script's own print reached the notebook
    cached = _plain(script, setting)  # the kernel's cache directory: every report comes from it
    fresh = _plain(script, {**setting, "VERIFY_NO_CACHE": "1"})
    texts = {k: v for k, v in fresh.items()  # what a method renders, and the text each result prints
             if isinstance(v, list) and v[0] == "str" and (k.endswith("()") or k.endswith(".text"))}
    assert texts and all(v[1] > 0 for v in texts.values()), [k for k, v in texts.items() if v[1] == 0]
    assert {"report.to_summary()", "report.to_text()", "parametric.to_summary()", "sweep.to_text()",
            "design.text", "evaluation.table()"} <= set(fresh)
    for name, other in (("cached", cached), ("fresh in a kernel", kernel_fresh), ("cached in a kernel", kernel_cached)):
        differ = sorted(k for k in fresh if other.get(k) != fresh[k])
        assert not differ and set(other) == set(fresh), (name, differ)
