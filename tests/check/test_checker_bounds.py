"""Hostile certificates (issue 52): none makes the standalone checker crash, hang or exhaust memory. Each is run
as a user would (`python3 -S -I verifier_check.py`, from a copy of the one file, in an empty directory, under a
1 GB address-space limit) and ends with exit 2 and a message naming its place; nothing is written. The
subprocess timeout only guards against a hang; what is asserted is the outcome.

Origin: hostile certificates, issue 52; formerly test_certificate_attacks.py."""

import copy
import json
import os
import resource
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS

CHECKER = os.path.join(ROOT, "verifier_check.py")
_BASE: dict = {}


def base() -> dict:
    if not _BASE:
        import verifier

        _BASE["c"] = verifier.verify(os.path.join(SPECS, "ha-numeric.yaml")).certificate()
    return copy.deepcopy(_BASE["c"])


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def check(tmp_path, text: str, *options: str):
    """Run a copy of the checker on the text in an empty directory; the directory holds nothing else after."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(CHECKER, work / "verifier_check.py")
    (work / "c.json").write_text(text)
    run = subprocess.run([sys.executable, "-S", "-I", "verifier_check.py", "c.json", *options], cwd=work,
                         capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"},
                         preexec_fn=_capped)
    assert sorted(os.listdir(work)) == ["c.json", "verifier_check.py"]
    assert "Traceback" not in run.stdout + run.stderr and "MemoryError" not in run.stderr
    return run


def cell(expr) -> str:
    cert = base()
    cert["matrix"][3]["costs"][0] = {"expr": expr, "enclosure": ["0", "1"]}
    return json.dumps(cert)


PLACE = "certificate.matrix[3].costs[0]"
ATTACKS = {  # name: (certificate text, what the message says)
    "exp of a million": (lambda: cell(["exp", "1000000"]), f"{PLACE}: exp of a value beyond 8000 in size"),
    "exp of a billion": (lambda: cell(["exp", "1000000000"]), f"{PLACE}: exp of a value beyond 8000 in size"),
    "five nested exp": (lambda: cell(["exp", ["exp", ["exp", ["exp", ["exp", "1"]]]]]),
                        f"{PLACE}: exp of a value beyond 8000 in size"),
    "log 3 to the 10^9": (lambda: cell(["^", ["log", "3"], 1000000000]),
                          f"{PLACE}.expr: the exponent 1000000000 is beyond the checker's bounds (at most 1000)"),
    "3 to the 10^9": (lambda: cell(["^", "3", 1000000000]), f"{PLACE}.expr: the exponent 1000000000 is beyond"),
    "a 10^9-th root": (lambda: cell(["root", ["log", "3"], 1000000000]),
                       f"{PLACE}.expr: the root order 1000000000 is beyond the checker's bounds (2 to 100)"),
    "200,000 distinct logs": (lambda: cell(["+", *(["log", str(n)] for n in range(2, 200_002))]),
                              f"{PLACE}.expr: more than 1000 nodes or 40 levels"),
    "a value beyond 2^12000": (lambda: cell(["^", ["^", "1000", 1000], 1000]), f"{PLACE}: a value beyond"),
    "a rational of 10^6 digits": (lambda: json.dumps(base()).replace('"2/5"', '"' + "7" * 10 ** 6 + '/5"', 1),
                                  "certificate.matrix[3].costs[0]: a rational of 1,000,002 characters"),
    "a JSON integer of 10^6 digits": (lambda: json.dumps(base()).replace('"version": 1', '"version": ' + "9" * 10 ** 6),
                                      "certificate.version: expected 1, got \"the JSON number 9999"),
    "a JSON float of 10^6 digits": (
        lambda: json.dumps(base()).replace('"version": 1', '"version": 1.' + "5" * 10 ** 6),
        "certificate.version: expected 1, got \"the JSON number 1.5555"),
    "a repeated key": (lambda: json.dumps(base()).replace('"verdict": "holds"', '"verdict": "holds", "verdict": '
                                                          '"fails"', 1),
                       "certificate.properties.P1: the key 'verdict' appears twice"),
    "version true": (lambda: json.dumps({**base(), "version": True}), "certificate.version: expected 1, got true"),
    "an unknown family kind": (lambda: json.dumps({**base(), "family": {"kind": "every", "max_size": 2}}),
                               "certificate.family.kind: expected all or intervals"),
    "a matrix of 10^6 classes": (lambda: json.dumps({**base(), "classes": [str(n) for n in range(10 ** 6)]}),
                                 "certificate.matrix: 7 sets of 1,000,000 classes, beyond the 100,000 cells"),
}


@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_certificate_ends_at_once_with_exit_2_and_its_place(tmp_path, name):
    text, said = ATTACKS[name]
    run = check(tmp_path, text())
    assert run.returncode == 2 and run.stdout == "", run
    assert run.stderr.startswith("verifier_check: c.json: malformed certificate: ") and said in run.stderr, run.stderr


def test_sums_of_long_rationals_stay_within_the_bound(tmp_path):
    """Nine probabilities with distinct 1,000-digit denominators: each is within the digit bound, their sum's
    denominator grows with every term (each addition slower): refused at the bound, with the place."""
    import verifier

    cert = verifier.verify(os.path.join(SPECS, "hierarchy-animals.yaml")).certificate()
    cert["properties"]["P1"]["evidence"]["p"] = [f"1/{10 ** 999 + 2 * k + 1}" for k in range(len(cert["classes"]))]
    run = check(tmp_path, json.dumps(cert))
    assert run.returncode == 2 and "certificate.properties.P1.evidence.p: a value beyond the checker's bound of " \
        "12000 bits" in run.stderr


def test_a_file_too_large_to_parse_within_bounded_memory_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:  # sparse: 300 MB that take no disk
        handle.truncate(300 << 20)
    run = subprocess.run([sys.executable, "-S", "-I", CHECKER, str(big)], capture_output=True, text=True, timeout=60,
                         preexec_fn=_capped)
    assert run.returncode == 2 and "cannot read it (314,572,800 bytes, more than 268,435,456)" in run.stderr


def test_the_checker_has_a_time_budget_of_its_own(tmp_path):
    import verifier

    cert = verifier.verify(os.path.join(SPECS, "ordinal-l1-9.yaml")).certificate()  # 4,599 cells: seconds of work
    run = check(tmp_path, json.dumps(cert), "--time-limit", "0.01")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("verifier_check: c.json: stopped after 0.01 s at certificate.")
    assert run.stderr.rstrip().endswith("the check ran past its time budget (--time-limit)")
    (tmp_path / "again").mkdir()
    bad = check(tmp_path / "again", json.dumps(cert), "--time-limit", "0")
    assert bad.returncode == 2 and "--time-limit: expected a number of seconds above 0" in bad.stderr


def test_the_checker_leaves_the_digit_limit_of_its_caller_alone():
    """`verify check` runs the checker in process: it must not lift Python's int digit limit for the tool."""
    import io

    import verifier_check

    before = sys.get_int_max_str_digits()
    verifier_check.main(["--help"], io.StringIO(), io.StringIO())
    verifier_check.main([os.devnull], io.StringIO(), io.StringIO())
    assert sys.get_int_max_str_digits() == before


def test_the_time_budget_of_one_check_is_not_left_behind_for_the_caller(tmp_path):
    """After `verify check` in process, the tool's own use of the checker (writing cells) has no deadline."""
    import io
    import math

    import verifier_check

    path = tmp_path / "c.json"
    path.write_text(json.dumps(base()))
    for limit in ("60", "0.000001"):  # a check that ends, and one stopped by its budget
        verifier_check.main([str(path), "--time-limit", limit], io.StringIO(), io.StringIO())
        assert verifier_check.DEADLINE[0] == math.inf
        assert verifier_check.bounds(["log", "3"], 64, "t")[0] > 1  # no OverBudget from a spent budget


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
        if line.startswith(("verify check", "python3")):  # a run of the checker: every claim checks or is covered
            assert "checked, 0 refuted," in run.stdout, (line, run.stdout)


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


def test_a_certificate_too_large_for_the_checker_is_refused_before_the_analysis(tmp_path, monkeypatch):
    """A 160-class intervals spec has 2,060,800 cells, known from its class count and family: the refusal
    comes at once, not after the analysis (43 s before); nothing is written."""
    spec = tmp_path / "big.yaml"
    spec.write_text("name: big\nclasses: [" + ", ".join(f"c{i}" for i in range(160)) + "]\npredictions: intervals\n"
                    "cost: \"0 if yhat == y else 1\"\nset_cost: \"0 if y in Y else 1\"\n")
    import verifier.analysis.pipeline as pipeline
    from verifier.errors import UsageError
    from verifier.report.certificate import refuse_before_analysis
    from verifier.spec import load_spec

    with pytest.raises(UsageError, match="big.yaml's matrix has 2,060,800 cells; certificates are written for up to"):
        refuse_before_analysis(load_spec(str(spec)))
    refuse_before_analysis(load_spec(str(spec)), symmetry=True)  # a route that may certify fewer rows: not refused
    import io

    import verifier.api
    from verifier.cli import check as command

    def analysed(*args, **kwargs):
        raise AssertionError("the spec was analysed before the refusal")

    monkeypatch.setattr(verifier.api, "verify", analysed)
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert command([str(spec), "--certificate", "c.json"], out, err) == 2
    assert "matrix has 2,060,800 cells" in err.getvalue() and "analysed" not in err.getvalue() + out.getvalue()
    assert sorted(os.listdir(tmp_path)) == ["big.yaml"]
    # the bound follows the route: a 40-class scheme decided by lemmas has few rows and is certified
    assert pipeline.FAST_MAX_CLASSES < 40
    refuse_before_analysis(load_spec(os.path.join(SPECS, "ordinal-l1-40.yaml")))


def test_a_certificate_that_could_be_a_figure_is_refused_and_one_beside_new_reports_is_written(tmp_path):
    shutil.copy(os.path.join(SPECS, "table-vi.yaml"), tmp_path / "s.yaml")
    run = _verify(tmp_path, "s.yaml", "--figures", "figs", "--certificate", "figs/s-decisions.svg")
    assert run.returncode == 2 and "--certificate 'figs/s-decisions.svg' could be one of the figures --figures " \
        "'figs' writes" in run.stderr and sorted(os.listdir(tmp_path)) == ["s.yaml"]
    for option, folder in (("--report", "out"), ("--figures", "figs")):  # a directory this run makes is no error
        run = _verify(tmp_path, "s.yaml", option, folder, "--certificate", f"{folder}/s.cert.json")
        assert run.returncode == 0, run.stderr
        assert json.loads((tmp_path / folder / "s.cert.json").read_text())["format"] == "verify-certificate"
