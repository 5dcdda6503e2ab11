"""A spec's YAML text, read here a second time (the tool reads it with PyYAML), so that the checker confirms that
the content a certificate carries is what the certified bytes say.

The subset read is what spec files are written in: block mappings and sequences (a sequence item may open a
mapping, `- key: value`), flow collections `[a, b]` and `{k: v}` over several lines, plain, 'single' and
"double" quoted scalars, folded `>` and literal `|` block scalars (with - or + chomping), comments. Plain
scalars are typed as PyYAML's safe loader types them (YAML 1.1: null, bools such as yes/off, integers, and
floats only with a point, such as 0.35 or 1.5e+3) and numbers are exact, as the tool reads them; a key is
its text. Anything else (anchors, aliases, tags, directives, tabs, a plain scalar over several lines,
several documents...) is `Unsupported`: the content is then not confirmed, and the checker says so.
"""

import re
from fractions import Fraction

from verifier_check.limits import tick

NULL = re.compile(r"~|null|Null|NULL|")
BOOL = re.compile(r"yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF")
INT = re.compile(r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                 r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")
FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                   r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
           "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
           "P": "\u2029"}
HEX = {"x": 2, "u": 4, "U": 8}


class Unsupported(Exception):
    """YAML beyond the subset this reader knows."""


def read(text):
    """The plain data of a spec's YAML text: a mapping of strings, Fractions, bools, None, lists and mappings."""
    if "\t" in text or "\r" in text or text.startswith("\ufeff") or len(text) > 4_000_000:
        raise Unsupported("tabs, carriage returns, a byte-order mark, or more than 4,000,000 characters")
    lines = text.split("\n")
    reader = Reader(lines[:-1] if lines[-1] == "" else lines)  # the text's last line break ends a line
    reader.final_break = lines[-1] == ""
    reader.skip()
    if reader.i < len(reader.lines) and reader.lines[reader.i].rstrip(" ") == "---":
        reader.i += 1
        reader.skip()
    if reader.i >= len(reader.lines) or reader.indent() != 0:
        raise Unsupported("a document that does not start with a mapping at column 1")
    value = reader.block(0)
    reader.skip()
    if reader.i < len(reader.lines) or not isinstance(value, dict):
        raise Unsupported(f"line {reader.i + 1}: text after the document's mapping")
    return value


class Reader:
    """Lines and a cursor; block structure by indentation, inline values character by character."""

    def __init__(self, lines):
        self.lines, self.i, self.final_break = lines, 0, True

    def skip(self):
        """Past empty and comment-only lines."""
        while self.i < len(self.lines) and (self.lines[self.i].strip(" ") == "" or
                                            self.lines[self.i].lstrip(" ").startswith("#")):
            tick()
            self.i += 1

    def indent(self):
        """The current line's indentation."""
        line = self.lines[self.i]
        return len(line) - len(line.lstrip(" "))

    def block(self, indent):
        """A block mapping or sequence whose lines start at `indent`."""
        line = self.lines[self.i][indent:]
        return self.sequence(indent) if line == "-" or line.startswith("- ") else self.mapping(indent)

    def mapping(self, indent):
        """A block mapping whose keys start at `indent`."""
        out = {}
        while True:
            self.skip()
            if self.i >= len(self.lines) or self.indent() != indent:
                break
            line = self.lines[self.i][indent:]
            if line == "-" or line.startswith("- "):
                break
            key, rest = self.key(line)
            if key in out:
                raise Unsupported(f"line {self.i + 1}: a key repeated")
            out[key] = self.value(rest, indent)
        return out

    def key(self, line):
        """(key text, the rest of the line after ': ')."""
        found = key_of(line)
        if found is None:
            raise Unsupported(f"line {self.i + 1}: not a 'key: value' line of the subset")
        return found

    def value(self, rest, indent, item=False):
        """The value after 'key:' (or '- ', an `item`): inline, a block scalar, or the nested block below."""
        text = strip_comment(rest).strip(" ")
        if text in ("", ):
            self.i += 1
            self.skip()
            if self.i < len(self.lines) and self.indent() > indent:
                return self.block(self.indent())
            if not item and self.i < len(self.lines) and self.indent() == indent and \
                    (self.lines[self.i][indent:] == "-" or self.lines[self.i][indent:].startswith("- ")):
                return self.sequence(indent)
            return None
        if text[0] in "|>":
            return self.literal(text, indent)
        value = self.inline(len(self.lines[self.i]) - len(rest.lstrip(" ")), rest.lstrip(" "))
        self.skip()
        if self.i < len(self.lines) and self.indent() > indent and isinstance(value, str) and \
                not self.lines[self.i].lstrip(" ").startswith(("- ", "#")):
            raise Unsupported(f"line {self.i + 1}: a plain scalar over several lines")
        return value

    def sequence(self, indent):
        """A block sequence whose dashes stand at `indent`."""
        out = []
        while True:
            self.skip()
            if self.i >= len(self.lines) or self.indent() != indent:
                break
            line = self.lines[self.i][indent:]
            if not (line == "-" or line.startswith("- ")):
                break
            rest = line[1:]
            inner = rest.lstrip(" ")
            if key_of(inner) is not None:  # "- key: v": a mapping at the item's column
                width = indent + 1 + len(rest) - len(inner)
                self.lines[self.i] = " " * width + inner
                out.append(self.mapping(width))
            else:
                out.append(self.value(rest, indent, item=True))
        return out

    def literal(self, header, indent):
        """A block scalar: `|` keeps line breaks, `>` folds them; chomping - strips, + keeps the final ones."""
        match = re.fullmatch(r"([|>])([-+]?)", header)
        if not match:
            raise Unsupported(f"line {self.i + 1}: a block scalar header other than | > |- >- |+ >+")
        style, chomp = match.groups()
        self.i += 1
        body, width = [], None
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if line.strip(" "):
                here = len(line) - len(line.lstrip(" "))
                if width is None:
                    width = here
                if here < width or width <= indent:
                    break
                body.append(line[width:])
            elif width is not None and len(line) > width:  # spaces beyond the block's indentation are text
                body.append(line[width:])
            elif width is None and len(line) > indent + 1:
                raise Unsupported("a block scalar that starts with a line of spaces")
            else:
                body.append("")
            self.i += 1
        trailing = len(body) - len("\n".join(body).rstrip("\n").split("\n")) if any(body) else len(body)
        if self.i >= len(self.lines) and not self.final_break:  # the text ends inside it, with no last line break
            if chomp == "+" or trailing:
                raise Unsupported("a block scalar that keeps final line breaks at the end of a text without one")
            chomp = "-"  # no line break follows its last line: none is kept
        lines = body[:len(body) - trailing] if any(body) else []
        if style == "|":
            text = "\n".join(lines)
        else:
            if any(x.startswith(" ") for x in lines):
                raise Unsupported("a folded block scalar with more-indented lines")
            text, blank = "", 0
            for j, x in enumerate(lines):
                if not x:
                    blank += 1
                    continue
                text += ("\n" * blank if j == blank or blank else " ") + x
                blank = 0
        if chomp == "-" or not lines:
            return text if chomp != "+" else text + "\n" * (trailing + (1 if lines else 0))
        return text + "\n" + ("\n" * trailing if chomp == "+" else "")

    def inline(self, column, text):
        """A scalar or flow collection starting on the current line, perhaps ending on a later one."""
        if text[0] in "[{":
            joined = "\n".join(self.lines[self.i:])
            start = len(self.lines[self.i]) - len(text)
            value, end = Flow(joined).collection(start)
            consumed = joined[:end].count("\n")
            tail = joined[end:].split("\n", 1)[0]
            self.i += consumed
            if strip_comment(tail).strip(" "):
                raise Unsupported(f"line {self.i + 1}: text after a flow collection")
            self.i += 1
            return value
        if text[0] in "'\"":
            value, end = quoted(text, 0)
            if strip_comment(text[end:]).strip(" "):
                raise Unsupported(f"line {self.i + 1}: text after a quoted scalar")
            self.i += 1
            return value
        if text[0] in "&*!%@`?":
            raise Unsupported(f"line {self.i + 1}: anchors, aliases, tags and other indicators")
        self.i += 1
        plain = strip_comment(text).strip(" ")
        if re.search(r":( |$)", plain) or re.match(r"[-?:]( |$)", plain):
            raise Unsupported(f"line {self.i}: a mapping inside a plain scalar")
        return typed(plain)


class Flow:
    """A flow collection, character by character, over the rest of the text."""

    def __init__(self, text):
        self.text = text

    def space(self, k):
        """Past spaces, line breaks and comments from k."""
        while k < len(self.text):
            if self.text[k] in " \n":
                k += 1
            elif self.text[k] == "#" and (k == 0 or self.text[k - 1] in " \n"):
                k = self.text.find("\n", k) if "\n" in self.text[k:] else len(self.text)
            else:
                break
        return k

    def collection(self, k):
        """The flow sequence or mapping opening at k: (value, index after it)."""
        opening = self.text[k]
        closing, out = ("]", []) if opening == "[" else ("}", {})
        k = self.space(k + 1)
        while k < len(self.text) and self.text[k] != closing:
            if opening == "{":
                key, k = self.scalar(k, key=True)
                k = self.space(k)
                if k >= len(self.text) or self.text[k] != ":":
                    raise Unsupported("a flow mapping entry without ':'")
                value, k = self.item(self.space(k + 1))
                if key in out:
                    raise Unsupported("a key repeated")
                out[key] = value
            else:
                value, k = self.item(k)
                if self.text[k:k + 1] == ":":
                    raise Unsupported("a mapping inside a flow sequence")
                out.append(value)
            k = self.space(k)
            if k < len(self.text) and self.text[k] == ",":
                k = self.space(k + 1)
            elif k < len(self.text) and self.text[k] != closing:
                raise Unsupported("a flow collection's entries not separated by commas")
        if k >= len(self.text):
            raise Unsupported("a flow collection never closed")
        return out, k + 1

    def item(self, k):
        """A flow collection or a scalar at k."""
        if k < len(self.text) and self.text[k] in "[{":
            return self.collection(k)
        return self.scalar(k)

    def scalar(self, k, key=False):
        """A quoted or plain scalar at k (a key stays text)."""
        if k < len(self.text) and self.text[k] in "'\"":
            value, end = quoted(self.text, k)
            return value, self.space(end)
        match = re.compile(r"[^,\[\]{}\n#:]*(?::[^ ,\[\]{}\n][^,\[\]{}\n#:]*)*").match(self.text, k)
        plain = match.group(0).strip(" \n")
        if not plain or plain[0] in "&*!%@`?|>" or re.match(r"-( |$)", plain):
            raise Unsupported("an empty or indicator-led plain scalar in a flow collection")
        return (plain if key else typed(plain)), match.end()


def key_of(line):
    """(key, rest after ':') when the line is 'key: value' (or 'key:'), else None. Found by scanning for the first
    ': ' (linear in the line: no pattern that backtracks)."""
    if line[:1] in ("'", '"'):
        try:
            key, end = quoted(line, 0)
        except Unsupported:
            return None
        return (key, line[end + 1:]) if re.match(r":(?: |$)", line[end:]) else None
    at = 0
    while True:
        at = line.find(":", at)
        if at < 0:
            return None
        if at + 1 == len(line) or line[at + 1] == " ":
            break
        at += 1
    key = line[:at].rstrip(" ")
    if not key or key[0] in "#:[]{},&*!|>'\"%@`? " or (key[0] == "-" and key[1:2] in ("", " ")) or \
            any(ch in "[]{},#" for ch in key):
        return None
    return key, line[at + 1:]


def quoted(text, k):
    """A 'single' or "double" quoted scalar on one line starting at k: (value, index after the quote)."""
    quote, out, j = text[k], [], k + 1
    while j < len(text):
        ch = text[j]
        if ch == "\n":
            raise Unsupported("a quoted scalar over several lines")
        if quote == "'" and ch == "'":
            if text[j + 1:j + 2] == "'":
                out.append("'")
                j += 2
                continue
            return "".join(out), j + 1
        if quote == '"' and ch == '"':
            return "".join(out), j + 1
        if quote == '"' and ch == "\\":
            code = text[j + 1:j + 2]
            if code in ESCAPES:
                out.append(ESCAPES[code])
                j += 2
            elif code in HEX and re.fullmatch(r"[0-9a-fA-F]+", text[j + 2:j + 2 + HEX[code]] or "-"):
                out.append(chr(int(text[j + 2:j + 2 + HEX[code]], 16)))
                j += 2 + HEX[code]
            else:
                raise Unsupported("an escape of a double-quoted scalar outside the subset")
            continue
        out.append(ch)
        j += 1
    raise Unsupported("a quoted scalar never closed")


def strip_comment(text):
    """The text before a comment: a # at its start or after a space (inside a plain scalar, quotes are text)."""
    match = re.search(r"(^| )#", text)
    return text[:match.start()] if match else text


def typed(plain):
    """A plain scalar as the tool reads it: None, a bool, an exact number, or the text."""
    if NULL.fullmatch(plain):
        return None
    if BOOL.fullmatch(plain):
        return plain.lower() in ("yes", "true", "on")
    cleaned = plain.replace("_", "")
    if len(cleaned) > 400 and (INT.fullmatch(plain) or FLOAT.fullmatch(plain)):
        raise Unsupported("a number of more than 400 characters, which the tool refuses")
    if INT.fullmatch(plain):
        for base in (0, 10):
            try:
                return int(cleaned, base)
            except ValueError:
                pass
        raise Unsupported(f"the integer {plain!r}, which the tool refuses")
    if FLOAT.fullmatch(plain):
        exponent = re.search(r"[eE]([+-]?[0-9]+)$", cleaned)
        if exponent and abs(int(exponent.group(1))) > 1000:
            raise Unsupported(f"the number {plain[:40]!r}, whose exponent the tool refuses")
        try:
            return Fraction(cleaned)
        except (ValueError, ZeroDivisionError):
            raise Unsupported(f"the number {plain!r}, which the tool refuses") from None
    return plain
