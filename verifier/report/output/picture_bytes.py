"""What `picture()` and `figures()` return: the drawn bytes, which a notebook shows as the picture itself.

`PictureBytes` is `bytes` (every caller that writes it to a file, slices it or compares it keeps working; `.data`
and `bytes(p)` give the plain bytes) with `_repr_svg_` / `_repr_png_` / `_repr_pdf_` for Jupyter and a one-line
`repr`, so that a cell shows the picture, never 23 KB of SVG text. `NoPicture` is what comes back when there is
nothing to draw: empty bytes (false, like None was) that say why, in the notebook and in `repr`. `Figures` is the
{file name: picture} dict of `figures()`, shown in a notebook as its pictures one under the other (or why there
are none).
"""

from __future__ import annotations

import base64
import html

__all__ = ["Figures", "NoPicture", "PictureBytes", "why_no_use_picture"]


class PictureBytes(bytes):
    """A picture's bytes in its format (`format`: svg, pdf or png), displayed as the picture in a notebook."""

    def __new__(cls, data: bytes, fmt: str, title: str = ""):
        """The bytes `data` of a picture in format `fmt`, with its title."""
        made = super().__new__(cls, data)
        made.format, made.title = fmt, title
        return made

    @property
    def data(self) -> bytes:
        """The plain bytes (what a file of this picture holds)."""
        return bytes(self)

    def __reduce__(self):
        return PictureBytes, (bytes(self), self.format, self.title)

    def __repr__(self) -> str:
        title = f": {self.title[:80]}" if self.title else ""
        return f"<Picture {self.format}, {len(self):,} bytes{title}>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain text: the one line, not the bytes
        printer.text(repr(self))

    def _repr_svg_(self) -> str | None:
        return self.decode("utf-8") if self.format == "svg" else None

    def _repr_png_(self) -> bytes | None:
        return bytes(self) if self.format == "png" else None

    def _repr_pdf_(self) -> bytes | None:
        return bytes(self) if self.format == "pdf" else None

    def html(self) -> str:
        """The picture as an HTML fragment (inline SVG, or a PNG as a data URL; a PDF is named, not shown)."""
        if self.format == "svg":
            from verifier.report.figures import inline_svg  # matplotlib is loaded: the picture was drawn

            return inline_svg(bytes(self))
        if self.format == "png":
            return (f'<img alt="{html.escape(self.title)}" '
                    f'src="data:image/png;base64,{base64.b64encode(self).decode()}">')
        return f"<p>{html.escape(repr(self))}</p>"


class NoPicture(bytes):
    """Nothing to draw: empty bytes (false, so `if picture:` reads as before) and the reason (`reason`)."""

    def __new__(cls, reason: str):
        """Empty bytes that carry why there is no picture."""
        made = super().__new__(cls, b"")
        made.reason = reason
        return made

    def __reduce__(self):
        return NoPicture, (self.reason,)

    def __repr__(self) -> str:
        return f"<no picture: {self.reason}>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self))

    def _repr_markdown_(self) -> str:
        return f"No picture: {self.reason}"


class Figures(dict):
    """{file name: picture} (or {file name: path written}); a notebook shows the pictures, or why there are none
    (`reason`, empty when there are some)."""

    def __init__(self, items=(), reason: str = ""):
        super().__init__(items)
        self.reason = reason
        self.cut: str | None = None  # which were not drawn, when the time limit came first

    def __repr__(self) -> str:
        if not self:
            return f"<no figures: {self.reason}>" if self.reason else "{}"
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self.items()) + "}"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self))

    def _repr_html_(self) -> str | None:
        if not self:
            return f"<p>No figures: {html.escape(self.reason)}</p>" if self.reason else None
        shown = [(k, v) for k, v in self.items() if isinstance(v, PictureBytes) and v.format in ("svg", "png")]
        if not shown:
            return None  # paths written, or PDFs only: the plain repr says it
        return "".join(f"<figure><figcaption><code>{html.escape(k)}</code></figcaption>{v.html()}</figure>"
                       for k, v in shown)


def why_no_use_picture(result) -> str:
    """Why a `decide` or `evaluate` result (`UseReport`) has no picture: what would draw one, or why the
    comparison over several data sets has no diagram."""
    comparison = getattr(result, "comparison", None)
    if comparison is not None and getattr(comparison, "why_no_friedman", None):
        return comparison.why_no_friedman
    if "classifiers" not in result.record and not getattr(result, "scores", None):
        return "a decision has no picture; pictures come from verify evaluate (--sweep, --scores, or several data sets)"
    return ("a picture is drawn for --sweep NAME=FROM:TO:POINTS (the mean-cost curves; twice: the heat maps), for "
            "--scores (abstention cost curves), or for several classifiers on several data sets (the critical "
            "difference diagram); this evaluation has none of them")
