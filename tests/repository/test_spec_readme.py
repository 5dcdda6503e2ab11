"""specs/README.md is the spec-format reference: every complete example in it verifies, and meets its
`expect:`; every top-level key the reader accepts is documented there."""

import os
import re

import pytest

import verifier
from verifier.spec import TOP_KEYS

from conftest import SPECS

TEXT = open(os.path.join(SPECS, "README.md"), encoding="utf-8").read()
EXAMPLES = [block for block in re.findall(r"```yaml\n(.*?)```", TEXT, re.S) if block.startswith("name:")]


def test_the_reference_has_examples():
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.splitlines()[0][6:] for e in EXAMPLES])
def test_each_example_verifies_and_meets_its_expectations(example):
    report = verifier.verify(example, cache=False, detail="summary")
    assert report.expectations, "each example pins what it shows"
    assert report.expectations_met, report.expectations


def test_every_key_is_documented():
    for key in TOP_KEYS:
        assert f"| `{key}` |" in TEXT, key


def test_the_reference_stands_alone():
    # links into the repository's own docs/ are fine; nothing outside the repository
    assert "../shared" not in TEXT and "DESIGN" not in TEXT
    assert all(link.startswith("../docs/") for link in re.findall(r"\]\((\.\./[^)]*)\)", TEXT))
