"""`PlainStrEnum`: the documented string fields as enums that read like the strings they stand for.

A `StrEnum` member is already its value wherever it is written (`str`, f-strings, JSON); only its `repr` gives
it away (`<Verdict.HOLDS: 'holds'>`). The records the API returns (`Report.to_json()`) hold members when fresh
and plain strings when read back from the cache, so a notebook printing one would show the two differently;
here a member's `repr` is its value's, and a record reads the same either way.

Owns: `PlainStrEnum`. May import: nothing of the package.
"""

from enum import StrEnum


class PlainStrEnum(StrEnum):
    """A `StrEnum` whose members print, format and `repr` exactly as their values."""

    def __repr__(self) -> str:
        return repr(self.value)
