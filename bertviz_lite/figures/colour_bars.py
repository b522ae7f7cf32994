"""A figure's colour bars (figures/fit.py): thin, their titles along them, as many numbers as they hold; on a
narrow screen (a phone) laid across under the plot, which then has the screen's width."""
from __future__ import annotations

from .room import (BAR_UNDER_PX, BARS_UNDER, CHAR_EM, COLOUR_BAR_PX, LINE_EM, axes, axis_length, bars_under_px,
                   colour_bars, keeps_height, label_room, or_else)
from .sheet import Sheet, call

NARROW_PX = 560  # narrower than this, a colour bar lies across under its plot (and a legend goes under it)
BAR_GAP_PX = 12  # between a colour bar laid under the plot and the labels above it
COLOUR_BAR_THICKNESS = 16  # px

__all__ = ["COLOUR_BAR_PX", "NARROW_PX", "colour_bars_under", "fit_colour_bars", "place_bars_under"]


def colour_bars_under(s: Sheet, width: float, tallest: float | None) -> None:
    """On a narrow screen (a phone), a colour bar across under the figure, the figure taller by it: beside the plot
    it took 100 of a phone's 360 px, and left a 12-token matrix a column 150 px wide (and the model view's twelve
    heads 12 px each, their numbers run together). Its title above it; `place_bars_under` says where it lies once
    the labels above it are known."""
    fig = s.fig
    upright = [path for path, bar in colour_bars(fig) if bar.orientation != "h"]
    if width >= NARROW_PX or len(upright) != 1:  # one bar, under the labels: room for one
        return
    for path in upright:
        for key, value in dict(orientation="h", len=0.8, x=0.5, xanchor="center", yanchor="top", y=0).items():
            s.set((*path, key), value)
        s.set((*path, "title", "side"), "top")
    height = or_else(s.get("layout", "height"), 450) + BAR_UNDER_PX
    capped = height if keeps_height(fig) or not tallest else call("min", height, tallest)  # a row per token keeps
    # its rows
    s.set(("layout", "height"), capped)
    fig.update_layout(meta={**(fig.layout.meta if isinstance(fig.layout.meta, dict) else {}), BARS_UNDER: True})


def place_bars_under(s: Sheet, base: float) -> None:
    """The colour bars `colour_bars_under` laid across: below the column labels and their title, in the plot's own
    (paper) units, whose bottom margin Plotly grows to hold them. Set from the figure's foot (`yref="container"`),
    a bar's title ran over it or away from it, or Plotly never finished drawing the page."""
    fig = s.fig
    if not bars_under_px(fig):
        return
    lowest = min(axes(fig, "x"), key=lambda name: _bottom(fig, name))  # the bottom row's labels
    labels = 0 if fig.layout[lowest].side == "top" else s.bind(label_room(s, "x", base, lowest))  # none under it
    # where they are written above the plot (the model view's heads)
    plot = (s.get("layout", "height") - BAR_UNDER_PX - or_else(s.get("layout", "margin", "t"), 0)
            - or_else(s.get("layout", "margin", "b"), 0) - labels)
    for path, _ in colour_bars(fig):
        s.set((*path, "y"), -(labels + BAR_GAP_PX) / call("max", plot, 1.0))


def _bottom(fig, x_name: str) -> float:
    """Where an x axis's plot starts, in the figure's height (0 at the bottom): its anchor's domain."""
    anchor = fig.layout[x_name].anchor
    y_axis = fig.layout["yaxis" + anchor[1:]] if anchor and anchor.startswith("y") else None
    return (y_axis.domain or (0, 1))[0] if y_axis is not None else 0.0


def fit_colour_bars(s: Sheet, width: float, base: float) -> None:
    """As many numbers on a colour bar as its length holds, a line and a half of room each upright (a short chart's
    bar would otherwise print 0.4, 0.2, 0 and −0.2 into one another), a number's width and a half across."""
    upright = call("max", 2, call("int", axis_length(s, "yaxis", width, False, base) / (LINE_EM * 1.5 * base)))
    for path, bar in colour_bars(s.fig):
        across = max(2, int(width * (bar.len or 1) / (5 * CHAR_EM * base * 1.5)))
        room = across if bar.orientation == "h" else upright
        s.set((*path, "nticks"), room if bar.nticks is None else call("min", bar.nticks, room))
        s.set((*path, "thickness"), min(bar.thickness or COLOUR_BAR_THICKNESS, COLOUR_BAR_THICKNESS))
        s.set((*path, "title", "side"), bar.title.side if bar.orientation == "h" else "right")  # upright: along it
