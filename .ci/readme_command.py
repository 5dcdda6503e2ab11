"""Print one of the README's two set-up commands (`main` or `test`), so that CI runs exactly what it says."""

import pathlib
import sys

text = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
section = text.split("## Set-up on a fresh machine", 1)[1].split("\n## ", 1)[0]
commands = [line.strip() for line in section.splitlines() if line.startswith("    ")]
if len(commands) != 2:
    sys.exit(f"README.md: expected exactly two set-up commands, found {len(commands)}")
print(commands[{"main": 0, "test": 1}[sys.argv[1]]])
