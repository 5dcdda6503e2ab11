import os
import sys

from hypothesis import settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "specs")
REPORTS = os.path.join(ROOT, "reports")
sys.path.insert(0, ROOT)

# Tests verify afresh: a report cached by one test must not show up (labelled "cached") in another.
os.environ["VERIFY_NO_CACHE"] = "1"

# Hypothesis: CI runs are reproducible (derandomized: the same examples on every run, no example database),
# developers explore new random examples each run. `CI=true` (set by .ci/run's caller) picks the first;
# HYPOTHESIS_PROFILE chooses either explicitly. Each test's own max_examples and deadline still apply.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
