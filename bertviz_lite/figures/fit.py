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
import textwrap
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

SMALLEST = 12  # px: the smallest type a back row reads
KEEPS_HEIGHT = {"keeps_height": True}  # a figure's layout.meta: its height is a row per token or per layer, which a
# shorter chart would squeeze below readable type (the head view, the model view); see `keeps_height`
CHAR_EM = 0.55  # a character's width, in ems
NUMBER = re.compile(r"[−-]?\d*\.?\d+")  # a number written as a cell's text
DIGIT_EM, POINT_EM, MINUS_EM = 0.52, 0.26, 0.62  # a digit's, a decimal point's and a minus sign's width, in ems
LINE_EM = 1.25  # a line's height, in ems
LABELLED_TRACES = ("heatmap", "bar", "scatter")  # traces whose category labels an axis writes
COLOUR_BAR_PX = 100  # a colour bar, its numbers and its title along it, right of the plot (measured: 100 at 20 px)
NARROW_LEGEND_PX = 560  # narrower than this, a legend goes under its plot, and a colour bar across under it
BARS_UNDER = "colour_bars_under"  # layout.meta: the colour bars lie across under the plot (a phone's figure)
BAR_UNDER_PX, BAR_GAP_PX = 72, 12  # a colour bar across under a narrow figure: its height with its title and
# numbers; the room between it and the labels above it
NUMBER_LINE_EM = 1.1  # a row of numbers' height, in ems: digits, no descenders, a little room between rows
NUMBER_GAP_PX = 6  # between two cells' numbers, at the least
TICK_GAP_PX = 12  # between an axis's labels and its plot: the tick and Plotly's standoff
COLOUR_BAR_THICKNESS = 16  # px
TITLE_LINE_EM = 1.6  # an axis title's line
LONGEST_LABEL = 14  # characters of a label written on an axis; a longer one ("0 <|begin_of_text|>") is cut there
LONGEST_ROW_LABEL = 20  # on a vertical axis, whose labels lie flat and take width, not height: a special token
# with "…" (its hover keeps it whole): rotated under a plot, it would take the plot's height


def fit(fig: go.Figure, width: float, smallest: int = SMALLEST, numbers: int = SMALLEST,
        tallest: float | None = None) -> go.Figure:
    """`fig` (drawn `width` px wide, at its own layout height) with every category axis's labels and every
    heatmap's numbers sized or thinned to fit, the numbers at `numbers` px or more where a decimal fewer allows
    (a lecture's back row); never taller than `tallest` px where it grows (a colour bar or legend laid under it);
    changed in place and returned."""
    _colour_bars_under(fig, width, tallest)  # first: the plot's width and height depend on it
    height = fig.layout.height or 450
    base = (fig.layout.font.size or 12) if fig.layout.font else 12
    if numbers > smallest:
        _room_for_numbers(fig, width, height, base, smallest, numbers)
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
    _place_bars_under(fig, base)
    for trace in fig.data:
        if trace.type == "heatmap" and trace.texttemplate:
            _fit_numbers(fig, trace, width, height, base, smallest, numbers)
    _fit_colour_bars(fig, width, height, base)
    _fit_title(fig, width, base)
    _fit_panel_titles(fig, width, height, base)
    _fit_bar_texts(fig, width, base)
    _fit_legend(fig, width, base)
    return fig


def _fit_bar_texts(fig: go.Figure, width: float, base: float) -> None:
    """A vertical bar's number written over it only where the bars are wide enough for it (on a phone, 30 px bars
    would write "+0.004" into "+0.007"); the hover still gives each."""
    for trace in fig.data:
        if trace.type != "bar" or trace.orientation == "h" or trace.text is None or not len(trace.text):
            continue
        pitch = (width - 120) / max(1, len(trace.text))  # the plot's width, less its labels, per bar
        size = trace.textfont.size or base
        if max(len(str(text)) for text in trace.text) * CHAR_EM * size > pitch - 2:
            trace.update(textposition="none")


def _fit_legend(fig: go.Figure, width: float, base: float) -> None:
    """A legend beside a plot on a wide screen, under it on a narrow one (a phone), where beside it would leave the
    plot a sliver; the figure grows by the legend's lines."""
    if width >= NARROW_LEGEND_PX or fig.layout.showlegend is False:
        return
    entries = [t for t in fig.data if getattr(t, "showlegend", False) is not False and getattr(t, "name", None)]
    if len(entries) < 2:
        return
    lines = len(entries)  # one entry a line: a phone's width holds one long name
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", y=-0.15, yanchor="top"),
                      height=(fig.layout.height or 450) + round(LINE_EM * base * lines) + 40)


def _fit_title(fig: go.Figure, width: float, base: float) -> None:
    """A title too long for the figure's width (a phone's) on as many lines as it needs, broken between words, each
    line taking its room above the plot: Plotly never wraps a title, and cuts it at the figure's edge."""
    title = fig.layout.title.text
    if not title:
        return
    size = (fig.layout.title.font.size or base * 1.1)  # a title is set a little larger than the figure's type
    per_line = max(12, int((width - 20) / (size * CHAR_EM)))
    given = title.split("<br>")
    lines = [wrapped for line in given for wrapped in textwrap.wrap(html.unescape(line), per_line) or [""]]
    if len(lines) > len(given):  # at the figure's top, the lines going down into the room made for them
        fig.update_layout(title=dict(text="<br>".join(html.escape(line, quote=False) for line in lines),
                                     yref="container", y=1, yanchor="top", pad_t=8),
                          margin_t=(fig.layout.margin.t or 0) + round(LINE_EM * size) * (len(lines) - len(given)))


def _fit_panel_titles(fig: go.Figure, width: float, height: float, base: float) -> None:
    """A panel's title (an annotation centred over its panel, as `grid_of_panels` sets it) longer than its panel is
    wide, on as many lines as it needs: on a phone, "attention of layer 1 (mean over heads)" ran past the figure's
    edge. The figure's top grows by the lines added to its first row."""
    panels = {round(sum(fig.layout[name].domain or (0, 1)) / 2, 6): fig.layout[name]
              for name in fig.layout if re.fullmatch(r"xaxis\d*", name)}
    added = 0
    for note in fig.layout.annotations:
        axis = panels.get(round(note.x, 6)) if note.xref == "paper" and note.yanchor == "bottom" else None
        if axis is None or not note.text:
            continue
        size = note.font.size or base
        per_line = max(8, int(_axis_length(fig, axis, width, height, True, base) / (size * CHAR_EM)))
        lines = textwrap.wrap(html.unescape(note.text), per_line) or [""]
        if len(lines) > 1 and "<" not in note.text:  # plain words only: a marked title ("<b>▸ …") is short
            note.text = "<br>".join(html.escape(line, quote=False) for line in lines)
            if note.y >= 1:
                added = max(added, len(lines) - 1)
    if added:
        fig.update_layout(margin_t=(fig.layout.margin.t or 0) + round(LINE_EM * base) * added)


def _fit_colour_bars(fig: go.Figure, width: float, height: float, base: float) -> None:
    """As many numbers on a colour bar as its length holds, a line and a half of room each upright (a short chart's
    bar would otherwise print 0.4, 0.2, 0 and −0.2 into one another), a number's width and a half across."""
    upright = max(2, int(_axis_length(fig, fig.layout.yaxis, width, height, False, base) / (LINE_EM * 1.5 * base)))
    for bar in _colour_bars(fig):
        across = max(2, int(width * (bar.len or 1) / (5 * CHAR_EM * base * 1.5)))
        room = across if bar.orientation == "h" else upright
        bar.update(nticks=min(bar.nticks or room, room), **_narrow_bar(bar))


def _narrow_bar(bar) -> dict:
    """A colour bar that leaves its plot the width: thin, its title written along it (a title set above it, as
    wide as "attention" at 20 px, took 100 px from the plot)."""
    return dict(thickness=min(bar.thickness or COLOUR_BAR_THICKNESS, COLOUR_BAR_THICKNESS),
                title_side=bar.title.side if bar.orientation == "h" else "right")  # upright: its title along it


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
        room = height - (margin.t or 0) - (margin.b or 0) - _label_room(fig, "x", base) - _bars_under_px(fig)
    domain = axis.domain or (0, 1)
    return max(1.0, room * (domain[1] - domain[0]))


def _colour_bar(fig: go.Figure) -> float:
    """The width a colour bar beside the plot takes (none, where it lies across under it)."""
    return COLOUR_BAR_PX if any(bar.orientation != "h" for bar in _colour_bars(fig)) else 0


def _colour_bars(fig: go.Figure) -> list:
    """The figure's colour bars: each heatmap's own, and the shared colour axis's."""
    bars = [t.colorbar for t in fig.data if t.type == "heatmap" and t.showscale is not False and not t.coloraxis]
    return bars + ([fig.layout.coloraxis.colorbar] if fig.layout.coloraxis.colorbar.title.text else [])


def _colour_bars_under(fig: go.Figure, width: float, tallest: float | None) -> None:
    """On a narrow screen (a phone), a colour bar across under the figure, the figure taller by it: beside the plot
    it took 100 of a phone's 360 px, and left a 12-token matrix a column 150 px wide. `_place_bars_under` sets its
    height once the labels above it are known."""
    upright = [bar for bar in _colour_bars(fig) if bar.orientation != "h"]
    if width >= NARROW_LEGEND_PX or not upright:
        return
    for bar in upright:
        bar.update(orientation="h", len=0.8, x=0.5, xanchor="center", yanchor="top", title_side="top", y=0)
    height = (fig.layout.height or 450) + BAR_UNDER_PX
    fig.update_layout(height=min(height, tallest or height), meta=_with_meta(fig, BARS_UNDER))


def _place_bars_under(fig: go.Figure, base: float) -> None:
    """The colour bars `_colour_bars_under` laid across: below the column labels and their title, in the plot's own
    (paper) units, whose bottom margin Plotly grows to hold them. Set from the figure's foot (`yref="container"`),
    a bar's title ran over it or away from it, or Plotly never finished drawing the page."""
    if not _bars_under_px(fig):
        return
    lowest = min((name for name in fig.layout if re.fullmatch(r"xaxis\d*", name)),  # the bottom row's labels
                 key=lambda name: (fig.layout["yaxis" + name[5:]].domain or (0, 1))[0])
    margin, labels = fig.layout.margin, _label_room(fig, "x", base, lowest)
    plot = fig.layout.height - BAR_UNDER_PX - (margin.t or 0) - (margin.b or 0) - labels
    for bar in _colour_bars(fig):
        bar.y = -(labels + BAR_GAP_PX) / max(plot, 1.0)


def _bars_under_px(fig: go.Figure) -> int:
    """The height the colour bars laid under the plot take (0 where they stand beside it)."""
    return BAR_UNDER_PX if isinstance(fig.layout.meta, dict) and fig.layout.meta.get(BARS_UNDER) else 0


def _with_meta(fig: go.Figure, key: str) -> dict:
    """The figure's layout.meta with `key` set (a dict, as `keeps_height` reads it)."""
    return {**(fig.layout.meta if isinstance(fig.layout.meta, dict) else {}), key: True}


def _label_room(fig: go.Figure, letter: str, base: float, axis_name: str = "") -> float:
    """How much the first `letter` axis's (or `axis_name`'s) labels and title take across the other axis."""
    axis = fig.layout[axis_name or f"{letter}axis"]
    labels = [str(label) for t in fig.data if t.type in LABELLED_TRACES and getattr(t, letter) is not None
              for label in getattr(t, letter)]
    size = axis.tickfont.size or base
    lines = [line for label in labels for line in label.split("<br>")]  # a sentence on two lines: its longer line
    cut = _longest(letter == "x") if len(lines) == len(labels) else max(map(len, lines), default=3)  # such labels
    # stay whole
    longest = min(max((len(line) for line in lines), default=3), cut) * CHAR_EM * size
    if letter == "x":  # labels under the plot: their height, rotated
        angle = math.radians(abs(axis.tickangle or 0))
        across = longest * math.sin(angle) + size * LINE_EM * math.cos(angle)
    else:
        across = longest
    lines = axis.title.text.count("<br>") + 1 if axis.title.text else 0
    return across + TICK_GAP_PX + TITLE_LINE_EM * base * lines


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
    if any(len(html.unescape(t)) > _longest(horizontal) for t in ticks.texts):
        texts = [_cut(t, _longest(horizontal)) for t in ticks.texts]
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
    """"(every 4th labelled)", "(every 4th column, every other row labelled)", "(every other row labelled)"."""
    if x == y:
        return f"({_nth(x)} labelled)"
    return "(" + ", ".join(f"{_nth(k)} {side}" for side, k in (("column", x), ("row", y)) if k > 1) + " labelled)"


def _say_thinned(fig: go.Figure, steps: dict[str, int]) -> None:
    """Say where only every k-th label is written, under the first panel's horizontal axis, which has the room
    ("key (every 4th labelled)", "(every other row labelled)"): a note on how the figure is drawn belongs with its
    axes, not in the figure's title, and once (a row of panels would write it into one another; a second line
    under a vertical axis's title ran into the figure's title)."""
    x, y = steps["x"], steps["y"]
    if x == y == 1:
        return
    note = _thinned_note(x, y)
    names = sorted((name for name in fig.layout if re.fullmatch(r"xaxis\d*", name)), key=lambda n: int(n[5:] or 1))
    shown = [fig.layout[name] for name in names if fig.layout[name].visible is not False
             and fig.layout[name].showticklabels is not False]  # the panels that write their labels
    axis = shown[0] if shown else fig.layout.xaxis
    if "labelled" not in (axis.title.text or ""):
        axis.title.text = f"{axis.title.text}<br>{note}" if axis.title.text else note


def _fit_numbers(fig: go.Figure, trace, width: float, height: float, base: float, smallest: int,
                 numbers: int) -> None:
    """A heatmap's numbers: as large as a cell allows up to their size; at `numbers` px or more with two decimals,
    else one, and failing both at `smallest` px with two decimals, else one; else none."""
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
        joined = max(len(" ".join(cell)) for cell in lines)  # or on one line, where the cells are wide and low
        on_one_line = min(size, (cell_w - 2) / (joined * CHAR_EM), cell_h / LINE_EM)
        if count > 1 and smallest < numbers and fitted < numbers <= on_one_line:  # a lecture's larger numbers
            trace.update(text=[[str(text).replace("<br>", " ") for text in row] for row in trace.text])
            fitted = on_one_line
        if fitted < smallest and all(NUMBER.fullmatch(line) for cell in lines for line in cell):
            trace.update(texttemplate=None)  # numbers written as text (".037"): none, the hover gives each
            return
        trace.update(textfont_size=max(smallest, math.floor(fitted)))
        return
    written = re.search(r":\.(\d)f", template)
    if not written:
        return
    for floor in dict.fromkeys((max(numbers, smallest), smallest)):  # the larger floor first, each once
        for decimals, fitted in _number_sizes(trace, cell_w, cell_h, size, int(written.group(1))):
            if fitted >= floor:
                trace.update(texttemplate=template.replace(written.group(0), f":.{decimals}f"),
                             textfont_size=math.floor(fitted))
                return
    trace.update(texttemplate=None)


def _number_sizes(trace, cell_w: float, cell_h: float, size: float, most: int):
    """(decimals, the largest type a cell holds them in), from `most` decimals down to the fewest that still say
    something."""
    values = np.asarray(trace.z, dtype=np.float64)
    values = values[np.isfinite(values)]
    largest = float(np.abs(values).max()) if values.size else 0.0
    signed = bool(values.size and values.min() < 0)
    fewest = 0 if largest >= 10 else 1  # "12" says enough of a length; "0" of a share would say nothing
    for decimals in range(most, fewest - 1, -1):
        yield decimals, min(size, (cell_w - NUMBER_GAP_PX) / _number_em(largest, decimals, signed),
                            cell_h / NUMBER_LINE_EM)


def _room_for_numbers(fig: go.Figure, width: float, height: float, base: float, smallest: int, numbers: int) -> None:
    """Where a heatmap's numbers miss `numbers` px only for the height its rotated column labels take, those labels
    at `smallest` px: the back row reads the numbers, and the labels stay readable (a 12-token matrix of two
    panels under a lecture's result line)."""
    rotated = [fig.layout[name] for name in fig.layout if re.fullmatch(r"xaxis\d*", name)
               and fig.layout[name].tickangle and (fig.layout[name].tickfont.size or base) > smallest]
    if not rotated:
        return

    def fits() -> bool:
        for trace in fig.data:
            if trace.type != "heatmap" or not trace.texttemplate or not re.search(r":\.\df", trace.texttemplate):
                continue
            x_axis = fig.layout["xaxis" + (trace.xaxis or "x")[1:]]
            y_axis = fig.layout["yaxis" + (trace.yaxis or "y")[1:]]
            cell_w = _axis_length(fig, x_axis, width, height, True, base) / len(trace.z[0])
            cell_h = _axis_length(fig, y_axis, width, height, False, base) / len(trace.z)
            most = int(re.search(r":\.(\d)f", trace.texttemplate).group(1))
            if all(fitted < numbers for _, fitted in _number_sizes(trace, cell_w, cell_h, trace.textfont.size or base,
                                                                   most)):
                return False
        return True

    if fits():
        return
    sizes = [axis.tickfont.size for axis in rotated]
    for axis in rotated:
        axis.tickfont.size = smallest
    if not fits():  # the labels' height was not what stood in the way
        for axis, size in zip(rotated, sizes):
            axis.tickfont.size = size


def _number_em(largest: float, decimals: int, signed: bool) -> float:
    """How wide a number is written, in ems: its digits (half an em each in the app's fonts), the point (a quarter)
    and a minus sign (0.6, where any value is negative)."""
    whole = max(1, int(math.floor(math.log10(largest))) + 1) if largest >= 1 else 1
    return DIGIT_EM * (whole + decimals) + POINT_EM + (MINUS_EM if signed else 0.0)


def _longest(horizontal: bool) -> int:
    """The most characters a label is written with: a row's label whole up to a long special token's
    ("19 <|end_of_text|>"), so that each token is read whole at least once; a column's shorter, as it is rotated
    into the plot's height."""
    return LONGEST_LABEL if horizontal else LONGEST_ROW_LABEL


def _cut(label: str, longest: int = LONGEST_LABEL) -> str:
    """A label of more than `longest` characters cut with "…", counted and cut as drawn: a token escaped for
    Plotly ("&lt;F0 9F&gt;", style.plotly_text) is cut on its characters, never inside an entity."""
    shown = html.unescape(label)
    return label if len(shown) <= longest else html.escape(shown[:longest - 1], quote=False) + "…"
