"""Rendering a rich report to text: the one place that decides width and colour of console output."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TextIO

from rich.console import Console

DEFAULT_WIDTH = 120  # when the output is not a terminal


def console(file: TextIO, width: int | None = DEFAULT_WIDTH, color: bool = False) -> Console:
    """A rich console writing plain text to `file` (ANSI colours when `color`), never to a notebook's display."""
    # force_jupyter=False: inside a Jupyter kernel rich would otherwise send every line to the notebook as a
    # display of its own and write nothing to `file` (to_summary() returned "" there)
    return Console(file=file, width=width, force_terminal=color, no_color=not color, force_jupyter=False,
                   force_interactive=False, color_system="auto" if color else None, highlight=False, emoji=False,
                   soft_wrap=False)


def render_to_text(render: Callable[[Console], None], width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    """What `render` prints to a console of `width` columns, as text without the trailing spaces."""
    buffer = io.StringIO()
    render(console(buffer, width, color))
    # rich pads every table line to the full width: drop the trailing spaces (they wrap a narrower pager)
    return "\n".join(line.rstrip(" ") for line in buffer.getvalue().split("\n"))
