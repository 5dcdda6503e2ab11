import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "specs")
REPORTS = os.path.join(ROOT, "reports")
sys.path.insert(0, ROOT)

# Tests verify afresh: a report cached by one test must not show up (labelled "cached") in another.
os.environ["VERIFY_NO_CACHE"] = "1"
