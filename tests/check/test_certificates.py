"""Certificates (docs/certificates.md): every bundled spec writes one that the standalone checker accepts with every
claim checked (the verdicts of schemes with parameters included), run with `python3 -S -I` on the checker's folder
in an empty environment (the standard library only); the checker derives the classes, the family and every cell
from the spec the certificate carries; a malformed file is exit 2 with a located message, never a traceback."""

import ast
import glob
import json
import os
import subprocess
import sys

import pytest
from certificate_forgery import genuine

from conftest import ROOT, SPECS

CHECKER = os.path.join(ROOT, "verifier_check")
# a system Python outside the venv proves that nothing installed is needed; else this one, isolated
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") and subprocess.run(
    ["/usr/bin/python3", "-c", "import sys; assert sys.version_info >= (3, 11)"]).returncode == 0 else sys.executable


def certificate(name: str) -> dict:
    """The certificate of a bundled spec (a path under specs/), written once per session."""
    return genuine(name)


def check(tmp_path, cert, *options, raw: str | None = None):
    path = tmp_path / "cert.json"
    path.write_text(raw if raw is not None else json.dumps(cert))
    run = subprocess.run([PYTHON, "-S", "-I", CHECKER, str(path), *options], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, cwd=tmp_path, timeout=170)
    assert "Traceback" not in run.stderr + run.stdout
    return run


def lines(run) -> dict[str, str]:
    return {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in run.stdout.splitlines() if ": " in line}


BUNDLED = sorted(os.path.relpath(p, SPECS) for pattern in ("*.yaml", "large/*.yaml", "design/ha-*.yaml")
                 for p in glob.glob(os.path.join(SPECS, pattern)))


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_spec_writes_a_certificate_whose_every_claim_checks(tmp_path, name):
    cert = certificate(name)
    assert cert["format"] == "verify-certificate" and cert["version"] == 2 and cert["not_covered"] == []
    assert cert["spec"]["path"] == os.path.join("specs", name) and "matrix" not in cert
    run = check(tmp_path, cert, "--spec", os.path.join(SPECS, name))
    out = lines(run)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith(f"spec: specs/{name} (sha256 {cert['spec']['sha256']})\nclasses: ")
    assert out["spec"].startswith("checked: the text carried has that SHA-256, and reads as the content carried")
    assert out["spec file"].startswith("checked:")
    for i in range(1, 11):  # each verdict: checked for every value, or at the point where it fails
        claim = next(v for k, v in out.items() if k == f"P{i}" or k.startswith(f"P{i} at "))
        assert claim.startswith("checked"), run.stdout
    assert ": refuted:" not in run.stdout and ": not covered:" not in run.stdout
    assert run.stdout.rstrip().endswith(" 0 refuted, 0 not covered")


def test_a_verdict_over_parameters_is_proved_for_every_value_and_names_its_method(tmp_path):
    out = lines(check(tmp_path, certificate("ha.yaml")))
    assert out["P4"] == ("checked: holds for every admissible value: 12 instances, each proved (12 by Farkas "
                         "multipliers)")
    assert out["P1"].startswith("checked: holds for every admissible value: p(theta) makes {a,b} possible")
    assert out["parameters"].startswith("delta, eta[a], eta[b], eta[c] (symbolic")
    out = lines(check(tmp_path, certificate("p-discounted-symbolic.yaml")))
    assert "power mean (bounds)" in out["P4"] and "power mean (inequality)" in out["P7"]
    out = lines(check(tmp_path, certificate("ordinal-l1-40.yaml")))
    assert out["P3"].startswith("checked: holds: by the power-mean inequality (q = 1/2 < 1, no cost equal to the "
                                "diagonal's in its column), re-derived on the 40 x 40 costs")
    assert out["family"].startswith("all: every set, 1,099,511,627,775 sets")


def test_a_changed_formula_is_refuted_at_its_instance(tmp_path):
    cert = certificate("ha-numeric.yaml")
    cert["spec"]["content"]["set_cost"] = "(0 if y in Y else eta[y]) + delta * (len(Y) - 1) - 10 * len(Y)"
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["spec"] == "refuted: the content carried is not what the text says (at the key 'set_cost')"
    cert["spec"]["text"] = cert["spec"]["text"].replace("delta * (len(Y) - 1)\"", "delta * (len(Y) - 1) - 10 * "
                                                        "len(Y)\"")
    assert lines(check(tmp_path, cert))["spec"] == "refuted: the text carried does not have the SHA-256 carried"


def test_a_wrong_witness_is_refuted(tmp_path):
    cert = certificate("ha-numeric.yaml")
    p1 = cert["properties"]["P1"]["evidence"]
    p1["p"] = ["1/2", "1/2", "1/10"]
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P1"] == ("refuted: certificate.properties.P1.evidence.p: not a probability distribution "
                                "(sums to 11/10)")
    cert = certificate("ha-numeric.yaml")
    cert["properties"]["P1"]["evidence"]["p"] = ["1", "0", "0"]  # a distribution, but a member is better there
    assert lines(check(tmp_path, cert))["P1"].startswith(
        f"refuted: witness p for set {{{','.join(p1['Y'])}}}: p does not make")


def test_a_forged_dual_certificate_is_refuted(tmp_path):
    cert = certificate("obstacle-discounted.yaml")  # P1 fails: one Ville certificate per set
    entry = cert["properties"]["P1"]["evidence"]["sets"][0]
    names = list(entry["lambda"])
    entry["lambda"] = {names[0]: "1", **{n: "0" for n in names[1:]}}
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P1"].startswith(f"refuted: impossibility certificate of {{{','.join(entry['Y'])}}}: the "
                                       "dual certificate fails at y=")
    cert = certificate("obstacle-discounted.yaml")
    entry = cert["properties"]["P1"]["evidence"]["sets"][0]
    entry["lambda"] = {k: "1" for k in entry["lambda"]}
    assert "the multipliers are not a distribution" in lines(check(tmp_path, cert))["P1"]


def test_an_alone_witness_that_ties_is_refuted(tmp_path):
    cert = certificate("ha-numeric.yaml")
    fact = next(f for f in cert["set_facts"] if f["optimal"]["status"] == "alone")
    fact["optimal"]["p"] = ["1/3", "1/3", "1/3"]
    run = check(tmp_path, cert)
    index = cert["set_facts"].index(fact)
    assert run.returncode == 1 and lines(run)[f"set_facts[{index}]"].startswith(
        f"refuted: certificate.set_facts[{index}].optimal.p: {{")


def test_a_dropped_instance_is_refuted(tmp_path):
    cert = certificate("obstacle-discounted.yaml")
    dropped = cert["properties"]["P1"]["evidence"]["sets"].pop(1)
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P1"] == f"refuted: no impossibility certificate for set {{{','.join(dropped['Y'])}}}"
    cert = certificate("ha-numeric.yaml")  # a count that does not match the enumeration
    cert["properties"]["P4"]["evidence"]["instances"] -= 1
    assert lines(check(tmp_path, cert))["P4"] == \
        "refuted: the certificate counts 11 instances, the checker enumerated 12"
    cert = certificate("ha-numeric.yaml")
    cert["set_facts"].pop(3)
    assert lines(check(tmp_path, cert))["sets"] == "refuted: no set fact for {a,b}"
    cert = certificate("ha.yaml")  # a for-all proof of one instance left out
    cert["properties"]["P4"]["evidence"]["instances"].pop(5)
    assert lines(check(tmp_path, cert))["P4"].startswith("refuted: certificate.properties.P4.evidence: no proof for "
                                                         "the instance Y=")


@pytest.mark.parametrize("raw, where", [
    ("{\"format\": ", "not JSON: line 1, column 12"),
    (json.dumps({"format": "other"}), "certificate.format: expected 'verify-certificate'"),
    (json.dumps({"format": "verify-certificate", "version": 9}), "certificate.version: expected 2 (a certificate "
                                                                 "of an earlier version does not carry its spec"),
    (json.dumps({"format": "verify-certificate", "version": 2, "matrix": []}),
     "certificate.matrix: not a key of a certificate (the checker derives the classes, the family and every cost"),
])
def test_a_malformed_file_is_exit_2_located(tmp_path, raw, where):
    run = check(tmp_path, None, raw=raw)
    assert run.returncode == 2 and where in run.stderr and run.stdout == ""


def test_a_decimal_probability_is_malformed_at_its_place(tmp_path):
    cert = certificate("ha-numeric.yaml")
    cert["properties"]["P1"]["evidence"]["p"][0] = "0.5"
    run = check(tmp_path, cert)
    assert run.returncode == 2
    assert 'certificate.properties.P1.evidence.p[0]: expected a rational written "p/q" or "n", got "0.5"' in run.stderr


def test_the_command_writes_and_checks_a_certificate_and_never_overwrites_the_spec(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text(open(os.path.join(SPECS, "table-vi.yaml")).read())
    env = {**os.environ, "PYTHONPATH": ROOT}
    before = sorted(os.listdir(tmp_path))
    run = subprocess.run([sys.executable, "-m", "verifier", str(spec), "--certificate", str(spec)], env=env,
                         capture_output=True, text=True, timeout=170, cwd=tmp_path)
    assert run.returncode == 2 and "--certificate would write" in run.stderr
    assert spec.read_text() == open(os.path.join(SPECS, "table-vi.yaml")).read() and \
        sorted(os.listdir(tmp_path)) == before
    out = tmp_path / "s.cert.json"
    run = subprocess.run([sys.executable, "-m", "verifier", str(spec), "--certificate", str(out)], env=env,
                         capture_output=True, text=True, timeout=170, cwd=tmp_path)
    assert run.returncode == 0 and json.loads(out.read_text())["spec"]["content"]["name"]
    sub = subprocess.run([sys.executable, "-m", "verifier", "check", str(out)], env=env, capture_output=True,
                         text=True, timeout=170, cwd=tmp_path)
    alone = subprocess.run([PYTHON, "-S", "-m", "verifier_check", str(out)], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin"}, cwd=ROOT, timeout=170)
    assert sub.returncode == alone.returncode == 0 and sub.stdout == alone.stdout
    many = subprocess.run([sys.executable, "-m", "verifier", str(spec), str(spec), "--certificate", str(out)],
                          env=env, capture_output=True, text=True, timeout=170, cwd=tmp_path)
    assert many.returncode == 2 and "give one spec (got 2)" in many.stderr


def test_the_checker_imports_the_standard_library_only_and_ships_in_the_wheel():
    for path in glob.glob(os.path.join(CHECKER, "*.py")):
        tree = ast.parse(open(path).read())
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert names <= set(sys.stdlib_module_names) | {"verifier_check"}, (path, names)
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    assert '"verifier_check"' in text and "py-modules" not in text


def test_the_checker_states_the_same_ten_properties_as_the_catalogue():
    from verifier.properties import PROPERTIES
    from verifier.properties.statement import Both, Compare, Implies
    from verifier_check.properties import PROPERTIES as MINE

    def atom(a):
        if isinstance(a, Compare):
            return (a.op, a.lhs.kind + ("2" if a.lhs.cls == "y2" else ""),
                    a.rhs.kind + ("2" if a.rhs.cls == "y2" else ""))
        return ("implies" if isinstance(a, Implies) else "and", atom(a.premise if isinstance(a, Implies) else a.first),
                atom(a.conclusion if isinstance(a, Implies) else a.second))

    for p in PROPERTIES[1:]:
        assert isinstance(p.atom, Compare | Implies | Both)
        outer, inner, mine = MINE[p.id]
        assert outer == p.quantifiers[0].kind and mine == atom(p.atom)
        assert inner == [(q.kind, q.var, q.domain) for q in p.quantifiers[1:]]


def test_certificates_are_deterministic():
    import verifier

    def made(name: str) -> str:
        report = verifier.verify(os.path.join(SPECS, name), cache=False, detail="summary", certificate=True)
        return json.dumps(report.certificate())

    for name in ("abellan-masegosa.yaml", "ha.yaml"):
        assert made(name) == made(name)


@pytest.mark.parametrize("pid, forged", [
    ("P9", {"kind": "counterexample", "Y": ["a", "b"], "y": "a", "y2": "b"}),  # one false instance proves no "fails"
    ("P2", {"kind": "witness", "Y": ["a", "b"]}),  # nor one instance a "for every"
    ("P4", {"kind": "counterexample", "Y": ["a", "b"], "y": "a"}),
])
def test_evidence_of_the_wrong_kind_for_the_verdict_is_malformed(tmp_path, pid, forged):
    cert = certificate("ha-numeric.yaml")
    cert["properties"][pid] = {"verdict": "fails" if pid == "P9" else "holds", "evidence": forged}
    run = check(tmp_path, cert)
    assert run.returncode == 2
    assert f"certificate.properties.{pid}.evidence.kind: expected 'enumerated' for {pid}" in run.stderr


def test_the_checker_runs_in_a_virtual_environment_with_nothing_installed(tmp_path):
    """An empty venv (no pip even), the checker's folder copied out of the checkout under another name."""
    import shutil

    venv = tmp_path / "empty"
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120,
                   env={"PATH": "/usr/bin:/bin"})
    python = venv / "bin" / "python"
    listed = subprocess.run([str(python), "-c", "import sys, os; print([p for p in sys.path if os.path.isdir(p) "
                             "and 'site-packages' in p and os.listdir(p)])"], capture_output=True, text=True,
                            timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert listed.stdout.strip() == "[]"  # nothing installed in it
    alone = tmp_path / "copy"
    shutil.copytree(CHECKER, alone / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    (alone / "c.json").write_text(json.dumps(certificate("ha.yaml")))
    run = subprocess.run([str(python), "checker", "c.json"], cwd=alone, capture_output=True, text=True,
                         timeout=170, env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and run.stdout.endswith("c.json: 13 checked, 0 refuted, 0 not covered\n"), run.stdout


EXPECTING = """name: expect a certificate
classes: {classes}
{parameters}cost: "0 if yhat == y else 1"
set_cost: "{inside} if y in Y else 1"
expect: {{certificate: {want}, P1: holds}}
"""


@pytest.mark.parametrize("classes, parameters, inside, want, status, said", [
    ("[a, b, c]", "", "0.25", "checks", 0, "expect: all 2 met"),
    # parameters: the for-all verdicts carry proofs over every admissible value, so the certificate checks too
    ("[a, b]", "parameters: {d: {}}\nassume: ['d > 0', 'd < 1/2']\n", "d", "Checks", 0, "expect: all 2 met"),
])
def test_expect_can_require_that_the_certificate_checks(tmp_path, classes, parameters, inside, want, status, said):
    spec = tmp_path / "s.yaml"
    spec.write_text(EXPECTING.format(classes=classes, parameters=parameters, inside=inside, want=want))
    run = subprocess.run([sys.executable, "-m", "verifier", str(spec), "--no-cache"], capture_output=True, text=True,
                         timeout=170, env={**os.environ, "PYTHONPATH": ROOT}, cwd=tmp_path)
    assert run.returncode == status and said in run.stdout, run.stdout + run.stderr
    junit = subprocess.run([sys.executable, "-m", "verifier", str(spec), "--no-cache", "--format", "junit"],
                           capture_output=True, text=True, timeout=170, env={**os.environ, "PYTHONPATH": ROOT})
    assert 'name="certificate"' in junit.stdout and ("<failure" in junit.stdout) == bool(status)


def test_expect_certificate_takes_checks_only_located(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text(EXPECTING.format(classes="[a, b]", parameters="", inside="0.25", want="holds"))
    run = subprocess.run([sys.executable, "-m", "verifier", str(spec)], capture_output=True, text=True,
                         timeout=170, env={**os.environ, "PYTHONPATH": ROOT})
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "s.yaml:5:23: invalid spec at key 'expect.certificate'" in run.stderr and "expected checks" in run.stderr


@pytest.mark.parametrize("target, said", [(".", "a directory; give a file name"),
                                          ("missing/c.json", "the directory 'missing' does not exist")])
def test_a_certificate_path_that_cannot_be_written_is_refused_before_any_work(tmp_path, target, said):
    spec = tmp_path / "s.yaml"
    spec.write_text(open(os.path.join(SPECS, "table-vi.yaml")).read())
    before = sorted(os.listdir(tmp_path))
    run = subprocess.run([sys.executable, "-m", "verifier", str(spec), "--certificate", target], cwd=tmp_path,
                         capture_output=True, text=True, timeout=170, env={**os.environ, "PYTHONPATH": ROOT})
    assert run.returncode == 2 and said in run.stderr and run.stdout == "" and "Traceback" not in run.stderr
    assert sorted(os.listdir(tmp_path)) == before


def test_a_failing_property_of_a_scheme_with_parameters_is_also_certified_where_it_holds(tmp_path):
    cert = certificate("p-discounted-symbolic.yaml")
    also = {c["property"]: c for c in cert["also"]}
    assert {"P1", "P3", "P9"} <= set(also) and also["P3"]["evidence"]["kind"] == "enumerated"
    assert cert["points"][also["P3"]["at"]]["values"] == {"r": "1/4"}
    out = lines(check(tmp_path, cert))
    assert out["P3 also at r=1/4"].startswith("checked: holds: 9 instances enumerated")
    assert out["P1 also at r=1/4"].startswith("checked: holds: witness p makes")
    cert["points"][also["P3"]["at"]]["values"]["r"] = "0"  # at r = 0 P3 fails: the fact is false there
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P3 also at r=0"] == "refuted: fails at Y={h,b}, y=h: the atom cost < mean is False there"


def test_the_checker_refuses_special_files_without_waiting_or_reading_without_end(tmp_path):
    """A device, a FIFO or a directory given as the certificate: exit 2 at once, named, no traceback."""
    fifo = tmp_path / "cert.fifo"
    os.mkfifo(fifo)
    for path, said in (("/dev/zero", "not a regular file"), (str(fifo), "not a regular file"),
                       (str(tmp_path), "cannot read it")):
        done = subprocess.run([sys.executable, "-S", "-I", CHECKER, path], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and done.stdout == "", done
        assert f"verifier_check: {path}: malformed certificate: cannot read it" in done.stderr and said in done.stderr
        assert "Traceback" not in done.stderr
