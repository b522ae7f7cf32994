"""Where a figure's room goes (figures/fit.py): the plot's length along each axis, less the margins, the other
axis's labels and title, and a colour bar beside or under it; estimated from the type's size (a character is about
0.55 em wide, a line 1.25 em high in the app's font), as the browser's readability check confirms."""
from __future__ import annotations

import math

import plotly.graph_objects as go

KEEPS_HEIGHT = {"keeps_height": True}  # a figure's layout.meta: its height is a row per token or per layer, which a
# shorter chart would squeeze below readable type (the head view, the model view); see `keeps_height`
CHAR_EM = 0.55  # a character's width, in ems
LINE_EM = 1.25  # a line's height, in ems
LABELLED_TRACES = ("heatmap", "bar", "scatter")  # traces whose category labels an axis writes
COLOUR_BAR_PX = 100  # a colour bar, its numbers and its title along it, right of the plot (measured: 100 at 20 px)
BARS_UNDER = "colour_bars_under"  # layout.meta: the colour bars lie across under the plot (a phone's figure)
BAR_UNDER_PX = 72  # a colour bar across under a narrow figure: its height with its title and numbers
TICK_GAP_PX = 12  # between an axis's labels and its plot: the tick and Plotly's standoff
TITLE_LINE_EM = 1.6  # an axis title's line
LONGEST_LABEL = 14  # characters of a label written on an axis; a longer one ("0 <|begin_of_text|>") is cut there
# with "…" (its hover keeps it whole): rotated under a plot, it would take the plot's height
LONGEST_ROW_LABEL = 20  # on a vertical axis, whose labels lie flat and take width, not height: a special token


def axis_length(fig: go.Figure, axis, width: float, height: float, horizontal: bool, base: float) -> float:
    """The axis's length in px: the figure's size less its margins, the other axis's labels and title, a colour bar,
    times the axis's share of the plot (its domain)."""
    margin = fig.layout.margin
    if horizontal:
        room = width - (margin.l or 0) - (margin.r or 0) - colour_bar_px(fig) - label_room(fig, "y", base)
    else:
        room = height - (margin.t or 0) - (margin.b or 0) - label_room(fig, "x", base) - bars_under_px(fig)
    domain = axis.domain or (0, 1)
    return max(1.0, room * (domain[1] - domain[0]))


def colour_bar_px(fig: go.Figure) -> float:
    """The width a colour bar beside the plot takes (none, where it lies across under it)."""
    return COLOUR_BAR_PX if any(bar.orientation != "h" for bar in colour_bars(fig)) else 0


def colour_bars(fig: go.Figure) -> list:
    """The figure's colour bars: each heatmap's own, and the shared colour axis's."""
    bars = [t.colorbar for t in fig.data if t.type == "heatmap" and t.showscale is not False and not t.coloraxis]
    return bars + ([fig.layout.coloraxis.colorbar] if fig.layout.coloraxis.colorbar.title.text else [])


def bars_under_px(fig: go.Figure) -> int:
    """The height the colour bars laid under the plot take (0 where they stand beside it)."""
    return BAR_UNDER_PX if isinstance(fig.layout.meta, dict) and fig.layout.meta.get(BARS_UNDER) else 0


def label_room(fig: go.Figure, letter: str, base: float, axis_name: str = "") -> float:
    """How much the first `letter` axis's (or `axis_name`'s) labels and title take across the other axis."""
    axis = fig.layout[axis_name or f"{letter}axis"]
    labels = [str(label) for t in fig.data if t.type in LABELLED_TRACES and getattr(t, letter) is not None
              for label in getattr(t, letter)]
    size = axis.tickfont.size or base
    lines = [line for label in labels for line in label.split("<br>")]  # a sentence on two lines: its longer line
    cut = longest_label(letter == "x") if len(lines) == len(labels) else max(map(len, lines), default=3)  # such labels
    # stay whole
    longest = min(max((len(line) for line in lines), default=3), cut) * CHAR_EM * size
    if letter == "x":  # labels under the plot: their height, rotated
        angle = math.radians(abs(axis.tickangle or 0))
        across = longest * math.sin(angle) + size * LINE_EM * math.cos(angle)
    else:
        across = longest
    lines = axis.title.text.count("<br>") + 1 if axis.title.text else 0
    return across + TICK_GAP_PX + TITLE_LINE_EM * base * lines


def longest_label(horizontal: bool) -> int:
    """The most characters a label is written with: a row's label whole up to a long special token's
    ("19 <|end_of_text|>"), so that each token is read whole at least once; a column's shorter, as it is rotated
    into the plot's height."""
    return LONGEST_LABEL if horizontal else LONGEST_ROW_LABEL


def keeps_height(fig: go.Figure) -> bool:
    """Whether the figure's height is set by its rows (`KEEPS_HEIGHT`) and must not be cut to fit a screen."""
    return isinstance(fig.layout.meta, dict) and bool(fig.layout.meta.get("keeps_height"))
