"""Reports: what people and CI read, one subpackage per thing written, in floors (lowest first, an
import-linter contract in pyproject.toml):

    design | use          what `verify design` says | what `verify decide` and `verify evaluate` say
    output                the files, figure files and notebook pieces every report shares
    check | certificate   the check report of one spec in every format (console, Markdown, HTML, JSON, JUnit,
                          class sweeps, many specs at a glance) | certificates for `verifier_check.py`
    figures               every picture, drawing only what it is given
    text                  text utilities: terminal, grids, safe text, mathematics, sympy's text, floats, JSON

Owns: what people and CI read. Decides nothing: every number shown comes from the analysis, the design or the
use. May import: `designing`, `using`, `analysis` and everything below them.
"""
