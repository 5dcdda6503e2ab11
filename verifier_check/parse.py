"""Reading a certificate: a regular file of bounded size, JSON with repeated keys refused and numbers kept as
their text, and the spec it carries (its parsed content, where JSON numbers are the spec's exact numbers).

Outside the spec's content every number of a certificate is a string "p/q": a JSON number there is refused
where it is read (`Number`), so that no reader's float conversion ever touches a value.
"""

import json
import os
import re
import stat
from fractions import Fraction

from verifier_check.limits import Malformed, bad, field

MAX_BYTES = 1 << 28  # 256 MB; JSON parsing needs about 13 bytes of memory per byte
MAX_CONTENT_NODES = 1_000_000  # the spec's values, as the tool's reader bounds them
MAX_CONTAINERS = 4_000_000  # JSON objects and arrays: a proof for each of 500,000 instances, about 400 MB parsed
DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


class Number:
    """A JSON number kept as its text: never converted, so that a million digits cost nothing. The spec's
    content reads it as an exact decimal; anywhere else it is refused where it is read."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"the JSON number {self.text[:20]}" + (f"... ({len(self.text):,} characters)" if len(self.text) > 20
                                                       else "")


class Twice(dict):
    """A JSON object that repeats a key (refused with its place once the whole document is read)."""


def read_regular(path):
    """The bytes of a regular file of at most MAX_BYTES. Opened without blocking and checked after opening, so
    that a FIFO, a device (/dev/zero) or a directory is refused, never waited on or read without end."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Malformed("cannot read it (not a regular file)")
        if info.st_size > MAX_BYTES:
            raise Malformed(f"cannot read it ({info.st_size:,} bytes, more than {MAX_BYTES:,})")
        data = handle.read(info.st_size + 1)  # never a buffer of MAX_BYTES for a small file
    if len(data) > MAX_BYTES:
        raise Malformed(f"cannot read it (more than {MAX_BYTES:,} bytes)")
    return data


def load(data):
    """The certificate's JSON: numbers other than short integers kept as text, repeated keys refused. Objects and
    arrays are counted before the text is parsed, so that memory follows the checker's bounds (250 MB of `{}`
    would be 80 million objects)."""
    containers = data.count("{") + data.count("[")  # an upper bound: brackets inside strings count too
    if containers > MAX_CONTAINERS:
        raise Malformed(f"certificate: {containers:,} JSON objects and arrays, beyond the checker's bound of "
                        f"{MAX_CONTAINERS:,}")

    def pairs(items):
        out = dict(items)
        if len(out) < len(items):
            seen = set()
            out = Twice(out)
            out.key = next(k for k, _ in items if k in seen or seen.add(k))
            found.append(out)
        return out
    found = []
    cert = json.loads(data, object_pairs_hook=pairs, parse_float=Number, parse_constant=Number,
                      parse_int=lambda t: int(t) if len(t.lstrip("-")) <= 18 else Number(t))
    stack = [(cert, "certificate")] if found else []
    while stack:  # where the repeated key is: the path of the first such object found
        node, path = stack.pop()
        if isinstance(node, Twice):
            raise Malformed(f"{path}: the key {node.key!r} appears twice (JSON readers disagree on which counts)")
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((v, f"{path}.{k}" if isinstance(node, dict) else f"{path}[{k}]") for k, v in items)
    return cert


def exact_numbers_only(cert):
    """Malformed at the first JSON number outside the spec's content that is not a short integer (a float, or an
    integer of more than 18 digits): a certificate writes its numbers as strings "p/q"."""
    stack = [(cert, "certificate")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, Number):
            bad(path, 'an exact rational written "p/q" (a string) or a short integer', node)
        if path == "certificate.spec" and isinstance(node, dict):
            node = {k: v for k, v in node.items() if k != "content"}
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((v, f"{path}.{k}" if isinstance(node, dict) else f"{path}[{k}]") for k, v in items)


def spec_of(cert):
    """The spec a certificate carries: (path, SHA-256 of the file's bytes, its text, content with exact numbers)."""
    spec = field(cert, "spec", dict, "certificate")
    alien = next((k for k in spec if k not in ("path", "sha256", "text", "content")), None)
    if alien is not None:
        raise Malformed(f"certificate.spec.{alien}: not a key of the spec's record")
    path = field(spec, "path", str, "certificate.spec")
    digest = field(spec, "sha256", str, "certificate.spec")
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        bad("certificate.spec.sha256", "64 lowercase hexadecimal digits", digest)
    text = field(spec, "text", str, "certificate.spec")
    return path, digest, text, content(field(spec, "content", dict, "certificate.spec"))


def content(tree):
    """The spec's content: plain JSON values, an integer as an int, any other JSON number the exact rational of the
    decimal written (a YAML number written with a point: the tool refuses it where a whole number belongs)."""
    budget = [MAX_CONTENT_NODES]

    def walk(node, where, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > 100:
            raise Malformed(f"{where}: the spec has more than {MAX_CONTENT_NODES:,} values or 100 levels, beyond "
                            "the checker's bounds")
        if isinstance(node, dict):
            return {k: walk(v, f"{where}.{k}", depth + 1) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(node)]
        if isinstance(node, Number):
            return exact(node.text, where)
        return node  # a string, an integer, true, false or null

    return walk(tree, "certificate.spec.content", 0)


def exact(text, where):
    """A JSON number of the spec as the exact rational it writes (400 characters, exponents within +-1000)."""
    match = DECIMAL.fullmatch(text)
    if not match or len(text) > 2400 or (match.group(3) and abs(int(match.group(3)[1:])) > 1000):
        bad(where, "a number of the spec: an exact decimal of at most 2,400 characters", text)
    return int(text) if not match.group(2) and not match.group(3) else Fraction(text)
