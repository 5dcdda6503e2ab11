"""JSON text laid out as `json.dump(value, indent=2, ensure_ascii=False)` lays it out, made by orjson's C encoder
a slice at a time: Python's own encoder with an indent is pure Python (about 3.5 s for the 100-class interval
spec's 3.6 million values), and one `orjson.dumps` of the whole record would hold its whole text at once.

The record and its lists are walked to depth `WALK_DEPTH`; a long list there is written `SLICE` items at a time,
everything else in one call. Values orjson refuses (an integer beyond 64 bits, a string with a lone surrogate)
go through `json` instead, with the same layout. Numbers read back as the same values; a float's text is the
shortest that round-trips, written without an exponent down to 10^-6 (0.00001 where `json` writes 1e-05).

A `Streamed` list is written item by item as it is made (the command's JSON for a family of millions of cells).

Owns: `Streamed`, `json_pieces`, `write_json`, `json_text`. May import: nothing of the package.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

import orjson

SLICE = 256  # list items per call: 256 matrix rows of 1,000 classes are a few MB of text
WALK_DEPTH = 2  # the record (or the list of records), its keys, and their values' items
OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS


class Streamed:
    """A JSON array whose items are made as it is written (a family's per-set lists): `items()` is called
    once, by the writer, and each item is encoded and dropped before the next is made."""

    __slots__ = ("items",)

    def __init__(self, items: Callable[[], Iterable]):
        self.items = items


def json_pieces(value, depth: int = 0) -> Iterator[str]:
    """The text of `value` at indentation `depth`, in pieces of bounded size."""
    pad = "  " * depth
    if isinstance(value, Streamed):
        first = True
        for item in value.items():
            yield ("[\n" if first else ",\n") + pad + "  " + _encoded(item, depth + 1)
            first = False
        yield "[]" if first else "\n" + pad + "]"
    elif depth < WALK_DEPTH and isinstance(value, dict) and value:
        for i, (key, item) in enumerate(value.items()):
            yield ("{\n" if i == 0 else ",\n") + pad + "  " + _encoded(key if isinstance(key, str) else
                                                                       _key(key), depth) + ": "
            yield from json_pieces(item, depth + 1)
        yield "\n" + pad + "}"
    elif depth < WALK_DEPTH and isinstance(value, (list, tuple)) and value:
        for i, item in enumerate(value):
            yield ("[\n" if i == 0 else ",\n") + pad + "  "
            yield from json_pieces(item, depth + 1)
        yield "\n" + pad + "]"
    elif isinstance(value, (list, tuple)) and len(value) > SLICE:
        for start in range(0, len(value), SLICE):
            body = _encoded(list(value[start:start + SLICE]), depth)  # "[\n  a,\n  b\n]" at this depth
            yield ("[" if start == 0 else ",") + body[1:-2 - len(pad)]
        yield "\n" + pad + "]"
    else:
        yield _encoded(value, depth)


def write_json(value, out: TextIO) -> None:
    """`value` as indented JSON and a newline, written piece by piece."""
    for piece in json_pieces(value):
        out.write(piece)
    out.write("\n")


def json_text(value) -> str:
    """`value` as indented JSON and a newline, in one text (for a file written at once)."""
    return "".join(json_pieces(value)) + "\n"


def _encoded(value, depth: int) -> str:
    """One value's indented text, its inner lines indented for `depth`."""
    try:
        text = orjson.dumps(value, option=OPTIONS).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * depth) if depth and "\n" in text else text


def _key(key) -> str:
    """A key as `json` writes one that is not text (True as "true", 3 as "3")."""
    return json.dumps(key) if isinstance(key, (bool, type(None))) else str(key) if isinstance(key, int) \
        else float.__repr__(key) if isinstance(key, float) else str(key)
