"""Where a figure's room goes (figures/fit.py): the plot's length along each axis, less the margins, the other
axis's labels and title, and a colour bar beside or under it; estimated from the type's size (a character is about
0.55 em wide, a line 1.25 em high in the app's font), as the browser's readability check confirms. Written as
expressions over a figure's leaves (figures/sheet.py), so that a site's browser works them out for a typed
sentence as the app does."""
from __future__ import annotations

import math
import re

import plotly.graph_objects as go

from ..ops.recipe import X
from .sheet import Sheet, call, when

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


def axis_length(s: Sheet, axis_name: str, width: float, horizontal: bool, base: float):
    """The axis's length in px: the figure's size less its margins, the other axis's labels and title, a colour bar,
    times the axis's share of the plot (its domain)."""
    margin = lambda side: or_else(s.get("layout", "margin", side), 0)  # noqa: E731
    if horizontal:
        room = width - margin("l") - margin("r") - colour_bar_px(s.fig) - label_room(s, "y", base)
    else:
        room = (or_else(s.get("layout", "height"), 450) - margin("t") - margin("b") - label_room(s, "x", base)
                - bars_under_px(s.fig))
    domain = s.fig.layout[axis_name].domain or (0, 1)
    return s.bind(call("max", 1.0, room * (domain[1] - domain[0])))


def axes(fig: go.Figure, letters: str = "xy") -> list[str]:
    """The figure's axes of `letters`, in one order whatever the process (x before y, then by number): the rules
    that fit one axis read the others' labels, and Plotly's layout lists them in an order that varies from one
    Python process to the next."""
    found = [name for name in fig.layout if re.fullmatch(rf"[{letters}]axis\d*", name)]
    return sorted(found, key=lambda name: (name[0], int(name[5:] or 1)))


def or_else(value, default):
    """A leaf's value, or `default` where the figure leaves it to Plotly (None), as an expression where the leaf is
    one (a template's, which a sentence may leave null)."""
    if isinstance(value, X):
        return when(call("==", value, None), default, value)
    return default if value is None else value


def colour_bar_px(fig: go.Figure) -> float:
    """The width a colour bar beside the plot takes (none, where it lies across under it)."""
    return COLOUR_BAR_PX if any(bar.orientation != "h" for _, bar in colour_bars(fig)) else 0


def colour_bars(fig: go.Figure) -> list[tuple[tuple, object]]:
    """The figure's colour bars, each with its path: each heatmap's own, and the shared colour axis's."""
    bars = [(("data", k, "colorbar"), t.colorbar) for k, t in enumerate(fig.data)
            if t.type == "heatmap" and t.showscale is not False and not t.coloraxis]
    shared = fig.layout.coloraxis.colorbar
    return bars + ([(("layout", "coloraxis", "colorbar"), shared)] if shared.title.text else [])


def bars_under_px(fig: go.Figure) -> int:
    """The height the colour bars laid under the plot take (0 where they stand beside it)."""
    return BAR_UNDER_PX if isinstance(fig.layout.meta, dict) and fig.layout.meta.get(BARS_UNDER) else 0


def label_room(s: Sheet, letter: str, base: float, axis_name: str = ""):
    """How much the first `letter` axis's (or `axis_name`'s) labels and title take across the other axis."""
    axis_name = axis_name or f"{letter}axis"
    size = or_else(s.get("layout", axis_name, "tickfont", "size"), base)
    longest = s.once(("longest", letter), lambda: longest_line(s, letter)) * CHAR_EM * size
    if letter == "x":  # labels under the plot: their height, rotated
        angle = math.radians(abs(s.fig.layout[axis_name].tickangle or 0))
        across = longest * math.sin(angle) + size * LINE_EM * math.cos(angle)
    else:
        across = longest
    return across + TICK_GAP_PX + TITLE_LINE_EM * base * line_count(s.get("layout", axis_name, "title", "text"))


def longest_line(s: Sheet, letter: str):
    """The most characters (as drawn) of a line of the `letter` axes' labels, a label cut at `longest_label`
    unless some label is on two lines (a sentence: such labels stay whole); 3 where there are none."""
    given = [s.get("data", k, letter) for k, t in enumerate(s.fig.data)
             if t.type in LABELLED_TRACES and getattr(t, letter) is not None]
    labels = call("cat", *given) if given else call("quote", [])
    found = call("lines", labels)
    longest = call("max_of", call("chars", found))
    cut = when(call("len", found) == call("len", labels), call("min", longest, longest_label(letter == "x")), longest)
    return when(call("len", found) == 0, 3, cut)


def line_count(text):
    """How many lines a title takes (none where there is none)."""
    return when(call("==", text, None), 0, when(call("==", text, ""), 0, call("len", call("lines", call("cat", text)))))


def longest_label(horizontal: bool) -> int:
    """The most characters a label is written with: a row's label whole up to a long special token's
    ("19 <|end_of_text|>"), so that each token is read whole at least once; a column's shorter, as it is rotated
    into the plot's height."""
    return LONGEST_LABEL if horizontal else LONGEST_ROW_LABEL


def keeps_height(fig: go.Figure) -> bool:
    """Whether the figure's height is set by its rows (`KEEPS_HEIGHT`) and must not be cut to fit a screen."""
    return isinstance(fig.layout.meta, dict) and bool(fig.layout.meta.get("keeps_height"))
