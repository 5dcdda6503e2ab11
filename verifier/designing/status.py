"""What `verify design` concluded: the status of a design report (a `str`: its JSON writes the value)."""

from __future__ import annotations

from verifier.plain_enum import PlainStrEnum


class DesignStatus(PlainStrEnum):
    """`DesignReport.status` and the `status` of its JSON record."""

    DESIGNED = "designed"  # completion: the open cells were filled so that the scheme fits
    IMPOSSIBLE = "impossible"  # completion: no values of the open cells meet the firm demands
    CALIBRATED = "calibrated"  # calibration: a value of the parameter meets them
    NO_FIT = "no fit"  # calibration: no value does
    MAPPED = "mapped"  # two parameters: where the scheme fits
    STOPPED = "stopped"  # the time bound came before any answer
