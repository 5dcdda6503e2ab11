"""Saving a matplotlib figure as the bytes of an SVG (deterministic: fixed hash salt, no date) or a PNG."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# text from a spec (class names, the scheme's name, classifiers) is never mathtext: '$\foo$' in a class name
# would otherwise be parsed, and raise, while the figure is drawn
plt.rcParams.update({"svg.hashsalt": "verify", "svg.fonttype": "none", "font.size": 9, "text.parse_math": False})


def figure_bytes(fig, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "svg":
        fig.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    else:
        fig.savefig(buffer, format="png", dpi=150, metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()
