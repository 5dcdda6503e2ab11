"""Certificates (docs/certificates.md): every bundled spec writes one that the standalone checker accepts, run
with `python3 -S -I` in an empty environment (the standard library only); every kind of tampering is refused
at its exact place; a malformed file is exit 2 with a located message, never a traceback."""

import ast
import copy
import glob
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS, bundled

CHECKER = os.path.join(ROOT, "verifier_check.py")
# a system Python outside the venv proves that nothing installed is needed; else this one, isolated
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") and subprocess.run(
    ["/usr/bin/python3", "-c", "import sys; assert sys.version_info >= (3, 11)"]).returncode == 0 else sys.executable
_CACHE: dict[str, dict] = {}


def certificate(name: str) -> dict:
    if name not in _CACHE:
        _CACHE[name] = bundled(name[:-len(".yaml")]).certificate()  # verified once per session (conftest)
    return copy.deepcopy(_CACHE[name])


def check(tmp_path, cert, *options, raw: str | None = None):
    path = tmp_path / "cert.json"
    path.write_text(raw if raw is not None else json.dumps(cert))
    run = subprocess.run([PYTHON, "-S", "-I", CHECKER, str(path), *options], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, cwd=tmp_path, timeout=170)
    assert "Traceback" not in run.stderr + run.stdout
    return run


def lines(run) -> dict[str, str]:
    return {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in run.stdout.splitlines() if ": " in line}


BUNDLED = sorted(os.path.basename(p) for p in glob.glob(os.path.join(SPECS, "*.yaml")))


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_spec_writes_a_certificate_that_checks(tmp_path, name):
    cert = certificate(name)
    assert cert["format"] == "verify-certificate" and cert["version"] == 1
    run = check(tmp_path, cert)
    out = lines(run)
    if not cert["not_covered"]:
        assert run.returncode == 0, run.stdout + run.stderr
        assert all(out[f"P{i}"].startswith("checked") for i in range(1, 11)), run.stdout
        assert ": refuted:" not in run.stdout and ": not covered:" not in run.stdout
    else:  # parameters or lemmas: exactly the listed claims are not covered; the rest checks
        assert run.returncode == 3, run.stdout + run.stderr
        uncovered = {k.split(" ")[0] for k, v in out.items() if v.startswith("not covered")}
        assert uncovered == {c["claim"] for c in cert["not_covered"]}
        assert ": refuted:" not in run.stdout
        assert check(tmp_path, cert, "--partial-ok").returncode == 0


def test_a_changed_cell_is_refuted_at_its_instance(tmp_path):
    cert = certificate("ha-numeric.yaml")
    row = next(r for r in cert["matrix"] if r["set"] == ["a", "b"])
    row["costs"][0] = "-5"  # now below its cheapest member: P4 (holds, enumerated) breaks at Y={a,b}, y=a
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P4"] == "refuted: fails at Y={a,b}, y=a: the atom cost >= min is False there"


def test_a_changed_cell_under_a_counterexample_is_refuted(tmp_path):
    cert = certificate("ha-numeric.yaml")
    ev = cert["properties"]["P3"]["evidence"]
    row = next(r for r in cert["matrix"] if r["set"] == ev["Y"])
    row["costs"][cert["classes"].index(ev["y"])] = "-1"
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["P3"].startswith(f"refuted: the counterexample Y={{{','.join(ev['Y'])}}}, y={ev['y']} "
                                       "does not break the atom cost < mean")


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


def test_a_forged_optimality_certificate_is_refuted(tmp_path):
    from fractions import Fraction

    cert = certificate("obstacle-discounted.yaml")  # rational cells; some set is only ever tied
    fact = next(f for f in cert["set_facts"] if f["optimal"]["status"] == "tied")
    mine = next(r["costs"] for r in cert["matrix"] if r["set"] == fact["set"])
    other = next(r for r in cert["matrix"] if r["set"] != fact["set"] and any(
        Fraction(a) < Fraction(b) for a, b in zip(mine, r["costs"])))  # costs more than it somewhere
    fact["optimal"]["lambda"] = [{"set": other["set"], "weight": "1"}]
    run = check(tmp_path, cert)
    index = cert["set_facts"].index(fact)
    assert run.returncode == 1 and lines(run)[f"set_facts[{index}]"].startswith(
        f"refuted: tied certificate of {{{','.join(fact['set'])}}}: the dual certificate fails at y=")


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
    cert = certificate("ha-numeric.yaml")  # a set dropped from the matrix of the family of every set
    cert["matrix"] = [r for r in cert["matrix"] if r["set"] != ["a", "c"]]
    assert lines(check(tmp_path, cert))["matrix"] == "refuted: certificate.matrix: the all family lacks set {a,c}"
    cert = certificate("ha-numeric.yaml")  # a count that does not match the enumeration
    cert["properties"]["P4"]["evidence"]["instances"] -= 1
    assert lines(check(tmp_path, cert))["P4"] == \
        "refuted: the certificate counts 11 instances, the checker enumerated 12"
    cert = certificate("ha-numeric.yaml")
    cert["set_facts"].pop(3)
    assert lines(check(tmp_path, cert))["sets"] == "refuted: no set fact for {a,b}"


def test_an_irrational_cell_is_bounded_by_the_checker_itself(tmp_path):
    cert = certificate("abellan-masegosa.yaml")
    index, row = next((i, r) for i, r in enumerate(cert["matrix"]) if not isinstance(r["costs"][0], str))
    assert row["costs"][0]["expr"][0] in ("*", "log", "+")
    row["costs"][0]["expr"] = ["*", "3/2", ["log", "4"]]  # not the value its enclosure states
    run = check(tmp_path, cert)
    assert run.returncode == 1
    assert lines(run)["cells"].startswith(f"refuted: certificate.matrix[{index}].costs[0]: the value lies in")
    cert = certificate("abellan-masegosa.yaml")
    cert["matrix"][index]["costs"][0]["expr"] = None  # outside the grammar: claims reading it are not covered
    run = check(tmp_path, cert)
    assert run.returncode == 3 and "not covered: certificate.matrix" in run.stdout and ": refuted:" not in run.stdout


@pytest.mark.parametrize("raw, where", [
    ("{\"format\": ", "not JSON: line 1, column 12"),
    (json.dumps({"format": "other"}), "certificate.format: expected 'verify-certificate'"),
    (json.dumps({"format": "verify-certificate", "version": 9}), "certificate.version: expected 1, got 9"),
])
def test_a_malformed_file_is_exit_2_located(tmp_path, raw, where):
    run = check(tmp_path, None, raw=raw)
    assert run.returncode == 2 and where in run.stderr and run.stdout == ""


def test_a_decimal_cell_is_malformed_at_its_place(tmp_path):
    cert = certificate("ha-numeric.yaml")
    cert["matrix"][4]["costs"][1] = "0.5"
    run = check(tmp_path, cert)
    assert run.returncode == 2
    assert ("certificate.matrix[4].costs[1]: expected a rational written \"p/q\" or \"n\", got \"0.5\""
            in run.stderr)


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
    assert run.returncode == 0 and json.loads(out.read_text())["name"]
    sub = subprocess.run([sys.executable, "-m", "verifier", "check", str(out)], env=env, capture_output=True,
                         text=True, timeout=170, cwd=tmp_path)
    alone = subprocess.run([PYTHON, "-S", "-m", "verifier_check", str(out)], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin"}, cwd=ROOT, timeout=170)
    assert sub.returncode == alone.returncode == 0 and sub.stdout == alone.stdout
    many = subprocess.run([sys.executable, "-m", "verifier", str(spec), str(spec), "--certificate", str(out)],
                          env=env, capture_output=True, text=True, timeout=170, cwd=tmp_path)
    assert many.returncode == 2 and "give one spec (got 2)" in many.stderr


def test_the_checker_imports_the_standard_library_only_and_ships_in_the_wheel():
    tree = ast.parse(open(CHECKER).read())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert names <= set(sys.stdlib_module_names) and names <= {"argparse", "fractions", "itertools", "json",
                                                              "math", "os", "stat", "sys", "time"}, names
    assert 'py-modules = ["verifier_check"]' in open(os.path.join(ROOT, "pyproject.toml")).read()


def test_the_checker_states_the_same_ten_properties_as_the_catalogue():
    import verifier_check
    from verifier.properties import PROPERTIES
    from verifier.properties.statement import Both, Compare, Implies

    def atom(a):
        if isinstance(a, Compare):
            return (a.op, a.lhs.kind + ("2" if a.lhs.cls == "y2" else ""),
                    a.rhs.kind + ("2" if a.rhs.cls == "y2" else ""))
        return ("implies" if isinstance(a, Implies) else "and", atom(a.premise if isinstance(a, Implies) else a.first),
                atom(a.conclusion if isinstance(a, Implies) else a.second))

    for p in PROPERTIES[1:]:
        assert isinstance(p.atom, Compare | Implies | Both)
        outer, inner, mine = verifier_check.PROPERTIES[p.id]
        assert outer == p.quantifiers[0].kind and mine == atom(p.atom)
        assert inner == [(q.kind, q.var, q.domain) for q in p.quantifiers[1:]]


def test_a_point_of_a_scheme_with_parameters_is_checked_on_its_own_matrix(tmp_path):
    cert = certificate("ha.yaml")
    claim = cert["properties"]["P3"]
    point = cert["points"][claim["at"]]
    ev = claim["evidence"]
    row = next(r for r in point["matrix"] if r["set"] == ev["Y"])
    row["costs"][cert["classes"].index(ev["y"])] = "-100"  # now below the mean: no counterexample there
    run = check(tmp_path, cert, "--partial-ok")
    name = next(k for k in lines(run) if k.startswith("P3 at "))
    assert run.returncode == 1 and lines(run)[name].startswith("refuted: the counterexample")
    assert {k.split(" ")[0] for k, v in lines(run).items() if v.startswith("not covered")} == {
        c["claim"] for c in cert["not_covered"]}


def test_an_existential_witness_and_a_for_every_y_counterexample_are_refuted_when_wrong(tmp_path):
    cert = certificate("obstacle-hand-filled.yaml")  # P9 holds with a witness (Y, y, y')
    ev = cert["properties"]["P9"]["evidence"]
    ev["y2"] = ev["y"]
    assert lines(check(tmp_path, cert))["P9"].endswith("lies outside the property's domain")
    cert = certificate("abellan-masegosa.yaml")  # P2 fails at one Y: the atom must be false for every y there
    ev = cert["properties"]["P2"]["evidence"]
    ev["Y"] = ["a", "b"]
    run = check(tmp_path, cert)
    assert run.returncode == 1 and lines(run)["P2"].startswith("refuted: the counterexample Y={a,b} fails at y=")


def test_a_scheme_too_large_for_a_certificate_is_refused_with_its_size(monkeypatch):
    import verifier
    from verifier.errors import UsageError
    from verifier.report.certificate import writer

    monkeypatch.setattr(writer, "MAX_CELLS", 20)
    with pytest.raises(UsageError, match=r"matrix has 21 cells; certificates are written for up to 20"):
        verifier.verify(os.path.join(SPECS, "ha-numeric.yaml")).certificate()


def test_certificates_are_deterministic():
    import verifier

    first = json.dumps(verifier.verify(os.path.join(SPECS, "abellan-masegosa.yaml"), cache=False).certificate())
    assert first == json.dumps(verifier.verify(os.path.join(SPECS, "abellan-masegosa.yaml"), cache=False).certificate())


def test_a_family_given_by_a_rule_is_recounted(tmp_path):
    cert = certificate("ordinal-intervals-10.yaml")  # predictions: intervals
    cert["matrix"] = [r for r in cert["matrix"] if r["set"] != ["3", "4", "5"]]
    assert lines(check(tmp_path, cert))["matrix"] == \
        "refuted: certificate.matrix: the intervals family lacks set {3,4,5}"
    cert = certificate("ordinal-intervals-10.yaml")
    cert["family"] = {"kind": "max_size", "max_size": 2}  # a relabelled family: its rule rejects a row
    assert lines(check(tmp_path, cert))["matrix"] == \
        "refuted: certificate.matrix: the max_size family has no set {1,2,3}"
    cert = certificate("hierarchy-animals.yaml")  # a hierarchy comes from the spec: said to be given
    assert lines(check(tmp_path, cert))["family"].startswith("given: hierarchy: 13 sets as the certificate lists them")


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
    """The issue's own test: an empty venv (no pip even), the checker copied out of the checkout."""
    venv = tmp_path / "empty"
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120,
                   env={"PATH": "/usr/bin:/bin"})
    python = venv / "bin" / "python"
    listed = subprocess.run([str(python), "-c", "import sys, os; print([p for p in sys.path if os.path.isdir(p) "
                             "and 'site-packages' in p and os.listdir(p)])"], capture_output=True, text=True,
                            timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert listed.stdout.strip() == "[]"  # nothing installed in it
    alone = tmp_path / "copy"
    alone.mkdir()
    (alone / "verifier_check.py").write_text(open(CHECKER).read())
    (alone / "c.json").write_text(json.dumps(certificate("abellan-masegosa.yaml")))
    run = subprocess.run([str(python), "verifier_check.py", "c.json"], cwd=alone, capture_output=True, text=True,
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
    # parameters: the for-all verdicts are not covered, so the certificate does not fully check
    ("[a, b]", "parameters: {d: {}}\nassume: ['d > 0', 'd < 1']\n", "d", "Checks", 1,
     "certificate expected checks, got not covered"),
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
    out = lines(check(tmp_path, cert, "--partial-ok"))
    assert out["P3 also at r=1/4"].startswith("checked: holds: 9 instances enumerated")
    assert out["P1 also at r=1/4"].startswith("checked: holds: witness p makes")
    point = cert["points"][also["P3"]["at"]]
    row = next(r for r in point["matrix"] if r["set"] == ["h", "b"])
    row["costs"][0] = "5"  # now above the mean at r = 1/4: P3 does not hold there
    run = check(tmp_path, cert, "--partial-ok")
    assert run.returncode == 1
    assert lines(run)["P3 also at r=1/4"] == "refuted: fails at Y={h,b}, y=h: the atom cost < mean is False there"


def test_the_checker_refuses_special_files_without_waiting_or_reading_without_end(tmp_path):
    """A device, a FIFO or a directory given as the certificate: exit 2 at once, named, no traceback."""
    import subprocess
    import sys as _sys

    fifo = tmp_path / "cert.fifo"
    os.mkfifo(fifo)
    for path, said in (("/dev/zero", "not a regular file"), (str(fifo), "not a regular file"),
                       (str(tmp_path), "cannot read it")):
        done = subprocess.run([_sys.executable, "-S", "-I", CHECKER, path], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and done.stdout == "", done
        assert f"verifier_check: {path}: malformed certificate: cannot read it" in done.stderr and said in done.stderr
        assert "Traceback" not in done.stderr
