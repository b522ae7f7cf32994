"""A figure's colour bars (figures/fit.py): thin, their titles along them, as many numbers as they hold; on a
narrow screen (a phone) laid across under the plot, which then has the screen's width."""
from __future__ import annotations

import re

import plotly.graph_objects as go

from .room import (BAR_UNDER_PX, BARS_UNDER, CHAR_EM, LINE_EM, axis_length, bars_under_px, colour_bars,
                   keeps_height, label_room)

NARROW_PX = 560  # narrower than this, a colour bar lies across under its plot (and a legend goes under it)
BAR_GAP_PX = 12  # between a colour bar laid under the plot and the labels above it
COLOUR_BAR_THICKNESS = 16  # px


def colour_bars_under(fig: go.Figure, width: float, tallest: float | None) -> None:
    """On a narrow screen (a phone), a colour bar across under the figure, the figure taller by it: beside the plot
    it took 100 of a phone's 360 px, and left a 12-token matrix a column 150 px wide. Its title above it; `place_bars_under`
    says where it lies once the labels above it are known."""
    upright = [bar for bar in colour_bars(fig) if bar.orientation != "h"]
    labels_on_top = any(fig.layout[name].side == "top" for name in fig.layout if re.fullmatch(r"xaxis\d*", name))
    if width >= NARROW_PX or len(upright) != 1 or labels_on_top:  # one bar, under the labels: room for one
        return
    for bar in upright:
        bar.update(orientation="h", len=0.8, x=0.5, xanchor="center", yanchor="top", title_side="top", y=0)
    height = (fig.layout.height or 450) + BAR_UNDER_PX
    capped = height if keeps_height(fig) else min(height, tallest or height)  # a row per token keeps its rows
    fig.update_layout(height=capped, meta=_with_meta(fig, BARS_UNDER))


def place_bars_under(fig: go.Figure, base: float) -> None:
    """The colour bars `colour_bars_under` laid across: below the column labels and their title, in the plot's own
    (paper) units, whose bottom margin Plotly grows to hold them. Set from the figure's foot (`yref="container"`),
    a bar's title ran over it or away from it, or Plotly never finished drawing the page."""
    if not bars_under_px(fig):
        return
    lowest = min((name for name in fig.layout if re.fullmatch(r"xaxis\d*", name)),  # the bottom row's labels
                 key=lambda name: _bottom(fig, name))
    margin, labels = fig.layout.margin, label_room(fig, "x", base, lowest)
    plot = fig.layout.height - BAR_UNDER_PX - (margin.t or 0) - (margin.b or 0) - labels
    for bar in colour_bars(fig):
        bar.y = -(labels + BAR_GAP_PX) / max(plot, 1.0)


def _bottom(fig: go.Figure, x_name: str) -> float:
    """Where an x axis's plot starts, in the figure's height (0 at the bottom): its anchor's domain."""
    anchor = fig.layout[x_name].anchor
    y_axis = fig.layout["yaxis" + anchor[1:]] if anchor and anchor.startswith("y") else None
    return (y_axis.domain or (0, 1))[0] if y_axis is not None else 0.0


def _with_meta(fig: go.Figure, key: str) -> dict:
    """The figure's layout.meta with `key` set (a dict, as `keeps_height` reads it)."""
    return {**(fig.layout.meta if isinstance(fig.layout.meta, dict) else {}), key: True}


def fit_colour_bars(fig: go.Figure, width: float, height: float, base: float) -> None:
    """As many numbers on a colour bar as its length holds, a line and a half of room each upright (a short chart's
    bar would otherwise print 0.4, 0.2, 0 and −0.2 into one another), a number's width and a half across."""
    upright = max(2, int(axis_length(fig, fig.layout.yaxis, width, height, False, base) / (LINE_EM * 1.5 * base)))
    for bar in colour_bars(fig):
        across = max(2, int(width * (bar.len or 1) / (5 * CHAR_EM * base * 1.5)))
        room = across if bar.orientation == "h" else upright
        bar.update(nticks=min(bar.nticks or room, room), **_narrow_bar(bar))


def _narrow_bar(bar) -> dict:
    """A colour bar that leaves its plot the width: thin, its title written along it (a title set above it, as
    wide as "attention" at 20 px, took 100 px from the plot)."""
    return dict(thickness=min(bar.thickness or COLOUR_BAR_THICKNESS, COLOUR_BAR_THICKNESS),
                title_side=bar.title.side if bar.orientation == "h" else "right")  # upright: its title along it
