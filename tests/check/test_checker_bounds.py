"""Hostile certificates (issues 52 and 63): none makes the standalone checker crash, hang or exhaust memory. The
attacks now come through the spec a certificate carries (its text, digest and content kept consistent, so that
the checker reads the hostile formulas themselves) as well as through the claims. Each is run as a user would
(`python3 -S -I` on a copy of the checker's folder, in an empty directory, under a 1 GB address-space limit) and
ends with exit 2 and a message naming its place, or a refutation; nothing is written. The subprocess timeout
only guards against a hang; what is asserted is the outcome.

Origin: hostile certificates, issue 52; formerly test_certificate_attacks.py."""

import json
import os
import resource
import shutil
import subprocess
import sys

import pytest
from certificate_forgery import genuine, rewrite

from conftest import ROOT, SPECS

CHECKER = os.path.join(ROOT, "verifier_check")


def base(name="ha-numeric.yaml") -> dict:
    """A genuine certificate to attack (of ha-numeric.yaml unless named)."""
    return genuine(name)


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def check(tmp_path, text: str, *options: str):
    """Run a copy of the checker on the text in an empty directory; the directory holds nothing else after."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(CHECKER, work / "verifier_check", ignore=shutil.ignore_patterns("__pycache__"))
    (work / "c.json").write_text(text)
    run = subprocess.run([sys.executable, "-S", "-I", "-B", "verifier_check", "c.json", *options], cwd=work,
                         capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"},
                         preexec_fn=_capped)
    assert sorted(os.listdir(work)) == ["c.json", "verifier_check"]
    assert "Traceback" not in run.stdout + run.stderr and "MemoryError" not in run.stderr
    return run


def formula(text: str, key="set_cost") -> str:
    """ha-numeric's certificate, its spec's formula at `key` replaced (text, digest and content consistent)."""
    return json.dumps(rewrite(base(), lambda c: c.update({key: text})))


PLACE = "certificate.spec.content.set_cost"
ATTACKS = {  # name: (certificate text, what the message says)
    "exp of a million": (lambda: formula("exp(1000000)"), f"{PLACE}: exp of a value beyond 10000 in size"),
    "log 3 to the 10^9": (lambda: formula("log(3) ** 1000000000"),
                          f"{PLACE}: the exponent 1000000000 is beyond the checker's bound (1000)"),
    "3 to the 10^9": (lambda: formula("3 ** 1000000000"), f"{PLACE}: the exponent 1000000000 is beyond"),
    "a 10^9-th root": (lambda: formula("2 ** (1 / 1000000000)"), f"{PLACE}: a root of order 1000000000, beyond "
                                                                 "the checker's bound (100)"),
    "a 200-th root": (lambda: formula("3 ** (1 / 200)"), f"{PLACE}: a root of order 200, beyond the checker's bound"),
    "a formula of 200,000 logs": (lambda: formula(" + ".join(f"log({n})" for n in range(2, 20_000))),
                                  f"{PLACE}: expected a formula (text of at most 5,000 characters)"),
    "a value beyond 2^12000": (lambda: formula("(1000 ** 1000) ** 1000 if y in Y else 1"),
                               "beyond the checker's bound of 12000 bits"),
    "deep nesting": (lambda: formula("abs(" * 70 + "1" + ")" * 70), f"{PLACE}: more than 2000 nodes or 60 levels"),
    "a call of an attribute": (lambda: formula("().__class__"), f"{PLACE}: Attribute is not allowed in the formula "
                                                                "language"),
    "an unknown function": (lambda: formula("open('x')"), f"{PLACE}: 'x' is not a class"),
    "a million classes": (lambda: json.dumps(rewrite(base(), lambda c: c.update(classes=10 ** 6))),
                          "certificate.spec.content.classes: expected 2 to 1,000 classes"),
    "unions of 15 of 31 nodes": (lambda: json.dumps(rewrite(base(), lambda c: c.update(
        classes=[f"c{i}" for i in range(30)], predictions={"hierarchy": [f"c{i}" for i in range(30)], "unions": 15}))),
        "certificate.spec.content.predictions.unions: more than 5,000,000 choices of nodes"),
    "a rational of 10^6 digits": (lambda: json.dumps(base()).replace('"1/2"', '"' + "7" * 10 ** 6 + '/2"', 1),
                                  "a rational of 1,000,002 characters"),
    "a JSON integer of 10^6 digits": (lambda: json.dumps(base()).replace('"version": 2', '"version": ' + "9" * 10 ** 6),
                                      "certificate.version: expected 2"),
    "a JSON float of 10^6 digits": (
        lambda: json.dumps(base()).replace('"version": 2', '"version": 2.' + "5" * 10 ** 6),
        "certificate.version: expected 2"),
    "a repeated key": (lambda: json.dumps(base()).replace('"verdict": "holds"', '"verdict": "holds", "verdict": '
                                                          '"fails"', 1),
                       "certificate.properties.P1: the key 'verdict' appears twice"),
    "version true": (lambda: json.dumps({**base(), "version": True}), "certificate.version: expected 2"),
    "an instance count of 25 digits": (lambda: json.dumps(base()).replace('"instances": 12', '"instances": ' + "9" * 25,
                                                                        1),
                                       "evidence.instances: expected an exact rational written \"p/q\" (a string) or "
                                       "a short integer"),
    "five million empty objects": (lambda: "[" + "{}," * 5_000_000 + "{}]",  # 80 million would take 4 GB parsed
                                   "certificate: 5,000,002 JSON objects and arrays, beyond the checker's bound"),
    "enumeration over 2^40 sets": (lambda: json.dumps(
        {**base("ordinal-l1-40.yaml"), "properties": {**base("ordinal-l1-40.yaml")["properties"], "P4": {
            "verdict": "holds", "evidence": {"kind": "enumerated", "instances": 1}}}}),
        "1,099,511,627,735 indeterminate sets to list, beyond the checker's bound of 100,000"),
}


@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_certificate_ends_at_once_with_exit_2_and_its_place(tmp_path, name):
    text, said = ATTACKS[name]
    run = check(tmp_path, text())
    assert run.returncode == 2 and run.stdout == "", run
    assert run.stderr.startswith("verifier_check: c.json: malformed certificate: ") and said in run.stderr, run.stderr


def test_nested_exponentials_are_compared_without_bounds_where_they_cancel_and_never_bounded_beyond(tmp_path):
    """exp(exp(exp(exp(exp(1))))) as every set's cost: differences of equal costs cancel exactly; a comparison
    that would need its bounds (e^(3.8 million)) is not covered. No claim hangs, nothing is guessed."""
    run = check(tmp_path, formula("exp(exp(exp(exp(exp(1))))) if y in Y else eta[y]"))
    assert run.returncode == 1 and ": checked: " in run.stdout and ": refuted: " in run.stdout
    assert "not covered: exp of a value beyond 10000 in size" in run.stdout


def test_functions_that_call_each_other_twice_per_level_are_answered_once_per_argument(tmp_path):
    """f20(x) = f19(x) + f19(x) ... nested twenty times is 2^20 calls by the letter, 20 remembered ones here."""
    def change(c):
        c["functions"] = {"f0(x)": "x", **{f"f{i}(x)": f"f{i - 1}(x) + f{i - 1}(x)" for i in range(1, 21)}}
        c["set_cost"] = "f20(1) / 1048576 if y in Y else eta[y]"
    run = check(tmp_path, json.dumps(rewrite(base(), change)))
    assert run.returncode == 1 and "refuted" in run.stdout  # the rows changed; nothing malformed, nothing slow


def test_sums_of_long_rationals_stay_within_the_bound(tmp_path):
    """Nine probabilities with distinct 1,000-digit denominators: each is within the digit bound, their sum's
    denominator grows with every term: refused at the bound, with the place."""
    cert = base("hierarchy-animals.yaml")
    cert["properties"]["P1"]["evidence"]["p"] = [f"1/{10 ** 999 + 2 * k + 1}" for k in range(9)]
    run = check(tmp_path, json.dumps(cert))
    assert run.returncode == 2 and "a value beyond the checker's bound of 12000 bits" in run.stderr


def test_a_file_too_large_to_parse_within_bounded_memory_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:  # sparse: 300 MB that take no disk
        handle.truncate(300 << 20)
    run = subprocess.run([sys.executable, "-S", "-I", CHECKER, str(big)], capture_output=True, text=True, timeout=60,
                         preexec_fn=_capped)
    assert run.returncode == 2 and "cannot read it (314,572,800 bytes, more than 268,435,456)" in run.stderr


def test_the_checker_has_a_time_budget_of_its_own(tmp_path):
    cert = base("ordinal-l1-9.yaml")  # 4,599 cells: seconds of work
    run = check(tmp_path, json.dumps(cert), "--time-limit", "0.01")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("verifier_check: c.json: stopped after 0.01 s at certificate")
    assert run.stderr.rstrip().endswith("the check ran past its time budget (--time-limit)")
    (tmp_path / "again").mkdir()
    bad = check(tmp_path / "again", json.dumps(cert), "--time-limit", "0")
    assert bad.returncode == 2 and "--time-limit: expected a number of seconds above 0" in bad.stderr


def test_the_time_budget_of_one_check_is_not_left_behind_for_the_caller(tmp_path):
    """After `verify check` in process, the tool's own use of the checker (writing a certificate) has no deadline."""
    import io
    import math

    import verifier_check
    from verifier_check import algebra, arithmetic, bounds, limits

    path = tmp_path / "c.json"
    path.write_text(json.dumps(base()))
    for limit in ("60", "0.000001"):  # a check that ends, and one stopped by its budget
        verifier_check.main([str(path), "--time-limit", limit], io.StringIO(), io.StringIO())
        assert limits.DEADLINE[0] == math.inf
        assert bounds.sign(arithmetic.log(algebra.const(3), "t") - algebra.ONE, "t") == 1  # no OverBudget left


def _blocks(page: str, heading: str | None = None) -> list[str]:
    """The command lines of a docs page's ```sh blocks (under one heading, if given)."""
    import re

    text = open(os.path.join(ROOT, "docs", page), encoding="utf-8").read()
    if heading:
        text = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return [line for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M) for line in block.splitlines()
            if line.strip()]


@pytest.mark.parametrize("page, heading, first", [
    ("certificates.md", None, 3),  # the commands that write a certificate and re-check it, in every documented way
    ("ci.md", "## Certificates", 2),  # a copy committed beside the spec, re-checked with no install
])
def test_every_documented_way_to_run_the_checker_works_from_an_empty_directory(tmp_path, page, heading, first):
    """Each command as the docs give it, in an empty directory holding only the specs it names, with the
    virtual environment's verify and python3 first on PATH (where verify is installed)."""
    lines = _blocks(page, heading)
    assert len([x for x in lines if x.startswith(("verify check", "python3"))]) == first, lines
    os.makedirs(tmp_path / "specs")
    for name in ("ha-numeric.yaml", "ha.yaml"):
        shutil.copy(os.path.join(SPECS, name), tmp_path / "specs" / name)
    if heading:
        subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True, timeout=60)
    env = {"PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin", "HOME": str(tmp_path),
           "VERIFY_NO_CACHE": "1", "GIT_CONFIG_NOSYSTEM": "1"}
    for line in lines:
        run = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                             env=env)
        assert run.returncode == 0, (line, run.stdout[-2000:], run.stderr[-2000:])
        if line.startswith(("verify check", "python3")):  # a run of the checker: every claim checks
            assert "checked, 0 refuted, 0 not covered" in run.stdout, (line, run.stdout)


def _verify(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "verifier", *map(str, args)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": ROOT})


@pytest.mark.parametrize("certificate, report", [("out/s.md", "out"), ("out/s.json", "out"),
                                                 ("out/../out/s.html", "out"), ("s.md", ".")])
def test_an_output_named_twice_in_one_run_is_refused_before_anything_is_written(tmp_path, certificate, report):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "s.yaml")
    before = sorted(os.listdir(tmp_path))
    for args in (("--certificate", certificate, "--report", report),
                 ("--report", report, "--certificate", certificate)):
        run = _verify(tmp_path, "s.yaml", *args)
        assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr, run.stderr
        assert f"--certificate writes {certificate!r} and --report {report!r} writes" in run.stderr
        assert "they name the same file" in run.stderr and sorted(os.listdir(tmp_path)) == before


def test_a_certificate_that_could_be_a_figure_is_refused_and_one_beside_new_reports_is_written(tmp_path):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "s.yaml")
    run = _verify(tmp_path, "s.yaml", "--figures", "figs", "--certificate", "figs/s-decisions.svg")
    assert run.returncode == 2 and "--certificate 'figs/s-decisions.svg' could be one of the figures --figures " \
        "'figs' writes" in run.stderr and sorted(os.listdir(tmp_path)) == ["s.yaml"]
    for option, folder in (("--report", "out"), ("--figures", "figs")):  # a directory this run makes is no error
        run = _verify(tmp_path, "s.yaml", option, folder, "--certificate", f"{folder}/s.cert.json")
        assert run.returncode == 0, run.stderr
        assert json.loads((tmp_path / folder / "s.cert.json").read_text())["format"] == "verify-certificate"


@pytest.mark.parametrize("text", [
    "name: x\nclasses: [a, b]\ncost: '0'\nset_cost: '0'\ndescription: 1.0e+100000000\n",  # Fraction() of 10^10^8
    "name: x\nclasses: [a, b]\ncost: '0'\nset_cost: '0'\na" + " " * 200_000 + "b\n",  # a pattern that backtracks
])
def test_a_hostile_spec_text_is_read_at_once(tmp_path, text):
    """The spec's text is read by the checker before anything else: no number or line makes that slow."""
    import hashlib

    cert = {"format": "verify-certificate", "version": 2, "tool": "verify 0.1.0", "properties": {},
            "spec": {"path": "x.yaml", "sha256": hashlib.sha256(text.encode()).hexdigest(), "text": text,
                     "content": {"name": "x"}}}
    run = check(tmp_path, json.dumps(cert), "--time-limit", "5")
    assert run.returncode == 2 and "certificate.spec.content.classes" in run.stderr
