"""`python3 -m verifier_check CERT`, or `python3 -S path/to/verifier_check CERT` (the folder run as a program, with
the Python standard library only, under any folder name, writing nothing: no bytecode cache either)."""

import os
import sys

if not __package__:  # run as a folder: load the package from it by its own name, never its modules top-level
    import importlib.util

    sys.dont_write_bytecode = True
    HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
    found = importlib.util.spec_from_file_location("verifier_check", os.path.join(HERE, "__init__.py"),
                                                   submodule_search_locations=[HERE])
    package = importlib.util.module_from_spec(found)
    sys.modules["verifier_check"] = package
    found.loader.exec_module(package)

from verifier_check.command import main  # noqa: E402 (after the package is found)

sys.exit(main())
