#!/usr/bin/env bash
# Times the test suite as CI and a developer run it (measured, not asserted; results go in benchmarks/suite.md):
#   1. the README's test command's pytest part with CI's Hypothesis profile (what .ci/run runs, after the install),
#   2. the inner loop, `pytest -m "not slow"`, with the default (dev) profile.
# Run from the repository root with the project installed in .venv, on a quiet machine:
#   benchmarks/time_suite.sh [extra pytest options]
set -euo pipefail
cd "$(dirname "$0")/.."
command=$(python3 .ci/readme_command.py test)
options=${command#*.venv/bin/python -m pytest}
[ "$options" = "$command" ] && { echo "the README's test command does not run pytest" >&2; exit 1; }
count() { .venv/bin/python -m pytest --collect-only -q -o addopts= -p no:cacheprovider "$@" 2>/dev/null | tail -1; }
echo "whole suite: $(count)"
echo "inner loop:  $(count -m 'not slow')"
start=$(date +%s)
# shellcheck disable=SC2086  # the README's options, split as the shell splits them there
HYPOTHESIS_PROFILE=ci .venv/bin/python -m pytest -p no:cacheprovider $options "$@" | tail -3
echo "README test command (ci profile): $(( $(date +%s) - start )) s"
start=$(date +%s)
HYPOTHESIS_PROFILE=dev .venv/bin/python -m pytest -p no:cacheprovider -m "not slow" "$@" | tail -3
echo "pytest -m 'not slow' (dev profile): $(( $(date +%s) - start )) s"
