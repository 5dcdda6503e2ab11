"""Designing schemes (`verify design`): the paper's question "how to determine them?", answered exactly.

Owns: completing an extended matrix for a setting (`complete`: the request from Table VIII, the open cells as
unknowns, each property's own definition as linear conditions, exact optimisation with an explicit margin for
strict inequalities, the freedom left per cell, an irreducible conflict and the least repair when nothing
fits), and calibrating a one-parameter family (`calibrate`). May import: the pipeline (to verify what it
designs), engines, scheme, spec, formula, properties. Rendering lives in `report.design`.
"""
