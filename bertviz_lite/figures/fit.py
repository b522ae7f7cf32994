"""Type that fits the room a figure is drawn in: labels and cell numbers that never run into one another and are
never under 12 px, however many tokens a sentence has.

Plotly writes every label of a category axis at the size it is given, where the figure is told to label every
token, and a heatmap's numbers at one size whatever its cells' size: at 25 tokens in a 560-pixel chart the rows are
16 px apart and 18-px labels overlap. `fit` reads the figure's size (its height, and the width it will have on
the page), works out each axis's pitch (pixels per category) and each heatmap's cell size, and then, per axis:
the labels' type as large as the pitch allows, down to 12 px; below that, 12 px and only every k-th label (the
axis title says which), a label longer than 14 characters cut with "…" (the hover keeps it whole), a flat label
that would run into the next panel left out; per heatmap: the numbers as large as a cell allows, with one decimal
fewer where that makes them fit at 12 px, or none (the hover and the cell's explanation still give each value);
and per colour bar, as many numbers as its height holds.

The widths are estimates (a character is about 0.55 em wide, a line 1.25 em high, in the app's font); the
readability check in the browser (tests/test_readability.py) is what says they hold.
"""
from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass

import plotly.graph_objects as go

SMALLEST = 12  # px: the smallest type a back row reads
KEEPS_HEIGHT = {"keeps_height": True}  # a figure's layout.meta: its height is a row per token or per layer, which a
# shorter chart would squeeze below readable type (the head view, the model view); see `keeps_height`
CHAR_EM = 0.55  # a character's width, in ems
LINE_EM = 1.25  # a line's height, in ems
LABELLED_TRACES = ("heatmap", "bar", "scatter")  # traces whose category labels an axis writes
COLOUR_BAR_PX = 90  # a colour bar and its title, right of the plot
TITLE_LINE_EM = 1.6  # an axis title's line
LONGEST_LABEL = 14  # characters of a label written on an axis; a longer one ("0 <|begin_of_text|>") is cut there
# with "…" (its hover keeps it whole): rotated under a plot, it would take the plot's height


def fit(fig: go.Figure, width: float, smallest: int = SMALLEST) -> go.Figure:
    """`fig` (drawn `width` px wide, at its own layout height) with every category axis's labels and every
    heatmap's numbers sized or thinned to fit; changed in place and returned."""
    height = fig.layout.height or 450
    base = (fig.layout.font.size or 12) if fig.layout.font else 12
    thinned = {"x": 1, "y": 1}  # the step from one written label to the next, the largest on each side
    for axis_name in [name for name in fig.layout if re.fullmatch(r"[xy]axis\d*", name)]:
        axis = fig.layout[axis_name]
        ticks = _category_ticks(fig, axis_name)
        if ticks is None or axis.showticklabels is False or axis.visible is False:
            continue
        horizontal = axis_name.startswith("x")
        length = _axis_length(fig, axis, width, height, horizontal, base)
        step = _fit_axis(axis, ticks, length / ticks.categories, horizontal, (axis.tickfont.size or base), smallest)
        thinned[axis_name[0]] = max(thinned[axis_name[0]], step)
    _say_thinned(fig, thinned)
    for trace in fig.data:
        if trace.type == "heatmap" and trace.texttemplate:
            _fit_numbers(fig, trace, width, height, base, smallest)
    _fit_colour_bars(fig, width, height, base)
    return fig


def _fit_colour_bars(fig: go.Figure, width: float, height: float, base: float) -> None:
    """As many numbers on a colour bar as its height holds, a line and a half of room each (a short chart's bar
    would otherwise print 0.4, 0.2, 0 and −0.2 into one another)."""
    length = _axis_length(fig, fig.layout.yaxis, width, height, False, base)
    most = max(2, int(length / (LINE_EM * 1.5 * base)))
    for trace in fig.data:
        if trace.type == "heatmap" and trace.showscale is not False and not trace.coloraxis:
            trace.colorbar.nticks = min(trace.colorbar.nticks or most, most)
    if fig.layout.coloraxis.colorbar.title.text:
        fig.layout.coloraxis.colorbar.nticks = most


def keeps_height(fig: go.Figure) -> bool:
    """Whether the figure's height is set by its rows (`KEEPS_HEIGHT`) and must not be cut to fit a screen."""
    return isinstance(fig.layout.meta, dict) and bool(fig.layout.meta.get("keeps_height"))


@dataclass(frozen=True)
class Ticks:
    """A category axis's written labels: their values, their texts, and how many categories the axis has."""
    values: list[str]
    texts: list[str]
    places: list[int]  # each written label's category, from 0
    categories: int
    every: int  # categories from one written label to the next


def _category_ticks(fig: go.Figure, axis_name: str) -> Ticks | None:
    """The labels a category axis is told to write (dtick 1: every one; an array: those), or None where Plotly
    chooses them itself."""
    axis = fig.layout[axis_name]
    letter, number = axis_name[0], axis_name[5:]
    ref = letter + number
    for trace in fig.data:
        if trace.type not in LABELLED_TRACES or (getattr(trace, letter + "axis") or letter) != ref:
            continue
        values = getattr(trace, letter)
        if values is None or len(values) == 0 or not isinstance(values[0], str):
            continue
        values = list(values)
        if isinstance(axis.dtick, int) and axis.dtick >= 1:  # every token, or every k-th (style.every_token)
            places = list(range(0, len(values), axis.dtick))
            return Ticks(values[::axis.dtick], values[::axis.dtick], places, len(values), axis.dtick)
        if axis.tickmode == "array" and axis.tickvals is not None and set(axis.tickvals) <= set(values):
            places = [values.index(v) for v in axis.tickvals]
            every = min((b - a for a, b in zip(places, places[1:])), default=len(values))
            return Ticks(list(axis.tickvals), [str(t) for t in (axis.ticktext or axis.tickvals)], places, len(values),
                         every)
        return None
    return None


def _axis_length(fig: go.Figure, axis, width: float, height: float, horizontal: bool, base: float) -> float:
    """The axis's length in px: the figure's size less its margins, the other axis's labels and title, a colour bar,
    times the axis's share of the plot (its domain)."""
    margin = fig.layout.margin
    if horizontal:
        room = width - (margin.l or 0) - (margin.r or 0) - _colour_bar(fig) - _label_room(fig, "y", base)
    else:
        room = height - (margin.t or 0) - (margin.b or 0) - _label_room(fig, "x", base)
    domain = axis.domain or (0, 1)
    return max(1.0, room * (domain[1] - domain[0]))


def _colour_bar(fig: go.Figure) -> float:
    shown = any(t.type == "heatmap" and t.showscale is not False and not t.coloraxis for t in fig.data)
    return COLOUR_BAR_PX if shown or fig.layout.coloraxis.colorbar.title.text else 0


def _label_room(fig: go.Figure, letter: str, base: float) -> float:
    """How much the first `letter` axis's labels and title take across the other axis."""
    axis = fig.layout[f"{letter}axis"]
    labels = [str(label) for t in fig.data if t.type in LABELLED_TRACES and getattr(t, letter) is not None
              for label in getattr(t, letter)]
    size = axis.tickfont.size or base
    longest = min(max((len(label) for label in labels), default=3), LONGEST_LABEL) * CHAR_EM * size
    if letter == "x":  # labels under the plot: their height, rotated
        angle = math.radians(abs(axis.tickangle or 0))
        across = longest * math.sin(angle) + size * LINE_EM * math.cos(angle)
    else:
        across = longest
    return across + (TITLE_LINE_EM * base if axis.title.text else 0)


def _fit_axis(axis, ticks: Ticks, pitch: float, horizontal: bool, size: float, smallest: int) -> int:
    """The largest label size up to `size` that the labels' spacing allows; below `smallest`, every k-th of them.
    Returns the step from one written token to the next, where it is to be said (1: nothing to say)."""
    angle = math.radians(abs(axis.tickangle or 0)) if horizontal else 0.0

    def largest(room: float) -> float:  # the largest type whose labels `room` px apart do not touch
        if horizontal and angle < 0.2:  # side by side: the longest label must fit
            return (room - 4) / (max(map(len, ticks.texts)) * CHAR_EM)
        across = room * (math.sin(angle) if horizontal else 1.0)  # rotated labels: their lines' distance
        return across / LINE_EM

    stated = ticks.every if axis.tickmode != "array" else 0  # an array is the figure's own choice, said by it
    if any(len(html.unescape(t)) > LONGEST_LABEL for t in ticks.texts):
        texts = [_cut(t) for t in ticks.texts]
        ticks = Ticks(ticks.values, texts, ticks.places, ticks.categories, ticks.every)
        axis.update(tickmode="array", tickvals=ticks.values, ticktext=texts, dtick=None)
    spacing = pitch * ticks.every
    fitted = largest(spacing)
    if fitted >= size:
        return max(stated, 1)
    if fitted >= smallest:
        axis.tickfont.size = math.floor(fitted)
        return max(stated, 1)
    k = math.ceil(smallest / max(fitted, 1e-6))
    size = max(smallest, min(size, math.floor(largest(spacing * k))))
    kept = [(v, t) for i, (v, t, place) in enumerate(zip(ticks.values, ticks.texts, ticks.places))
            if i % k == 0 and not (horizontal and angle < 0.2 and  # a flat label must end within its own axis
                                   (place + 0.5) * pitch + len(t) * CHAR_EM * size / 2 > pitch * ticks.categories)]
    axis.update(tickmode="array", tickvals=[v for v, _ in kept], ticktext=[t for _, t in kept], dtick=None,
                tickfont_size=size)
    return max(stated * k, 1)


def _nth(k: int) -> str:
    """2 → "every other", 3 → "every 3rd", 4 → "every 4th", 22 → "every 22nd"."""
    if k == 2:
        return "every other"
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"every {k}{suffix}"


def _thinned_note(x: int, y: int) -> str:
    """"every 4th labelled", "every 4th column, every other row labelled", "every other row labelled"."""
    if x == y:
        return f"{_nth(x)} labelled"
    return ", ".join(f"{_nth(k)} {side}" for side, k in (("column", x), ("row", y)) if k > 1) + " labelled"


def _say_thinned(fig: go.Figure, steps: dict[str, int]) -> None:
    """Say where only every k-th label is written: under the plot (the horizontal axis's title, which has room), or
    where panels stand side by side, each with its own title, in a line of the figure's title."""
    x, y = steps["x"], steps["y"]
    if x == y == 1:
        return
    note = _thinned_note(x, y)
    if "xaxis2" in fig.layout:
        fig.update_layout(title_text=f"{fig.layout.title.text}<br>{note}" if fig.layout.title.text else note,
                          margin_t=(fig.layout.margin.t or 0) + 30)
        return
    axis = fig.layout.xaxis
    axis.title.text = f"{axis.title.text}<br>({note})" if axis.title.text else note  # a line of its own: it fits


def _fit_numbers(fig: go.Figure, trace, width: float, height: float, base: float, smallest: int) -> None:
    """A heatmap's numbers: as large as a cell allows up to their size, one decimal fewer if that fits, else none."""
    rows, columns = len(trace.z), len(trace.z[0])
    x_axis = fig.layout["xaxis" + (trace.xaxis or "x")[1:]]
    y_axis = fig.layout["yaxis" + (trace.yaxis or "y")[1:]]
    cell_w = _axis_length(fig, x_axis, width, height, True, base) / columns
    cell_h = _axis_length(fig, y_axis, width, height, False, base) / rows
    size = (trace.textfont.size or base)
    template = trace.texttemplate
    if "%{text}" in template:  # words written in the cells (the lens's tokens): smaller type, never none
        lines = [str(text).split("<br>") for row in trace.text for text in row]
        chars, count = max(len(line) for cell in lines for line in cell), max(map(len, lines))
        fitted = min(size, (cell_w - 2) / (chars * CHAR_EM), cell_h / (LINE_EM * count))
        trace.update(textfont_size=max(smallest, math.floor(fitted)))
        return
    while True:
        decimals = re.search(r":\.(\d)f", template)
        chars = 3.5 + (int(decimals.group(1)) if decimals else 2)  # "−0." (a wide minus) and the decimals
        fitted = min(size, (cell_w - 4) / (chars * CHAR_EM), cell_h / LINE_EM)
        if fitted >= smallest:
            trace.update(texttemplate=template, textfont_size=math.floor(fitted))
            return
        if not decimals or decimals.group(1) in "01":
            trace.update(texttemplate=None)
            return
        template = template.replace(decimals.group(0), f":.{int(decimals.group(1)) - 1}f")


def _cut(label: str) -> str:
    """A label of more than LONGEST_LABEL characters cut with "…", counted and cut as drawn: a token escaped for
    Plotly ("&lt;F0 9F&gt;", style.plotly_text) is cut on its characters, never inside an entity."""
    shown = html.unescape(label)
    return label if len(shown) <= LONGEST_LABEL else html.escape(shown[:LONGEST_LABEL - 1], quote=False) + "…"
