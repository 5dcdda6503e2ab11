"""The one palette of every figure: Okabe & Ito's eight colour-blind-safe colours, by name, with the orders in
which figures take them (regions, lines), the markers and dashes that keep lines apart in grey print, and the
figure widths of a two-column paper. Light on purpose: no matplotlib here, so a test or a report can name a
colour without loading it."""

from __future__ import annotations

BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
OKABE_ITO = (BLACK, ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILION, REDDISH_PURPLE)

# filled regions (one per predicted set): every colour but black, which the outlines and labels use
REGIONS = (ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILION, REDDISH_PURPLE)
# lines and points, one per classifier or per γ: yellow left out (too light for a thin line on white)
LINES = (BLUE, VERMILION, BLUISH_GREEN, REDDISH_PURPLE, ORANGE, SKY_BLUE, BLACK)
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
DASHES = ("-", "--", "-.", ":")
MISSING = "#d9d9d9"  # no value there (outside the assumptions, a threshold at ±∞): light grey, not a colour

ONE_COLUMN_WIDTH = 3.5  # inches: one column of a two-column paper (IEEE: 3.5 in)
TWO_COLUMN_WIDTH = 7.16  # inches: both columns (IEEE's text width)
MIN_WIDTH, MAX_WIDTH = 2.5, 12.0  # inches: narrower, the labels collide; wider, no page holds it
LAYOUTS = ("column", "grid", "row")  # the abstention maps' four panels: stacked, 2 x 2, side by side


def line_style(k: int) -> dict:
    """The k-th line's colour, marker and dash: a colour of `LINES`, and after every colour a new dash and a
    shifted marker, so that two lines (or two sets of points) never look alike, even with more than colours."""
    rounds = k // len(LINES)
    return {"color": LINES[k % len(LINES)], "marker": MARKERS[(k + rounds) % len(MARKERS)],
            "ls": DASHES[rounds % len(DASHES)]}
