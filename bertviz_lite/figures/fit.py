"""Type that fits the room a figure is drawn in: labels and cell numbers that never run into one another and are
never under 12 px, however many tokens a sentence has.

Plotly writes every label of a category axis at the size it is given, where the figure is told to label every
token, and a heatmap's numbers at one size whatever its cells' size: at 25 tokens in a 560-pixel chart the rows are
16 px apart and 18-px labels overlap. `fit` reads the figure's size (its height, and the width it will have on
the page), works out each axis's pitch (pixels per category) and each heatmap's cell size, and then, per axis:
the labels' type as large as the pitch allows, down to 12 px; below that, 12 px and only every k-th label (the
axis title says which), a label longer than 14 characters (20 on a vertical axis) cut with "…" (the hover keeps it
whole), a flat label
that would run into the next panel left out; per heatmap: the numbers as large as a cell allows, with one decimal
fewer where that makes them fit at 12 px, or none (the hover and the cell's explanation still give each value);
and per colour bar, as many numbers as its height holds, and on a narrow screen the bar across under the plot.
The parts: `room.py` (where a figure's room goes), `colour_bars.py`, `cell_numbers.py`.

The widths are estimates (a character is about 0.55 em wide, a line 1.25 em high, in the app's font); the
readability check in the browser (tests/test_readability.py) is what says they hold.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import plotly.graph_objects as go

from ..ops.figure_words import cut, escaped, unescaped, wrapped
from ..ops.recipe import X, call, tree_of, var, when
from .template import value_of

from .cell_numbers import fit_numbers, room_for_numbers
from .colour_bars import NARROW_PX, colour_bars_under, fit_colour_bars, place_bars_under
from .room import KEEPS_HEIGHT, CHAR_EM, LABELLED_TRACES, LINE_EM, axis_length, keeps_height, longest_label

__all__ = ["KEEPS_HEIGHT", "SMALLEST", "fit", "keeps_height"]

SMALLEST = 12  # px: the smallest type a back row reads


def fit(fig: go.Figure, width: float, smallest: int = SMALLEST, numbers: int = SMALLEST,
        tallest: float | None = None) -> go.Figure:
    """`fig` (drawn `width` px wide, at its own layout height) with every category axis's labels and every
    heatmap's numbers sized or thinned to fit, the numbers at `numbers` px or more where a decimal fewer allows
    (a lecture's back row); never taller than `tallest` px where it grows (a colour bar or legend laid under it);
    changed in place and returned."""
    colour_bars_under(fig, width, tallest)  # first: the plot's width and height depend on it
    height = fig.layout.height or 450
    base = (fig.layout.font.size or 12) if fig.layout.font else 12
    if numbers > smallest:
        room_for_numbers(fig, width, height, base, smallest, numbers)
    thinned = {"x": 1, "y": 1}  # the step from one written label to the next, the largest on each side
    for axis_name in [name for name in fig.layout if re.fullmatch(r"[xy]axis\d*", name)]:
        axis = fig.layout[axis_name]
        ticks = _category_ticks(fig, axis_name)
        if ticks is None or axis.showticklabels is False or axis.visible is False:
            continue
        horizontal = axis_name.startswith("x")
        length = axis_length(fig, axis, width, height, horizontal, base)
        step = _fit_axis(axis, ticks, length / ticks.categories, horizontal, (axis.tickfont.size or base), smallest)
        thinned[axis_name[0]] = max(thinned[axis_name[0]], step)
    _say_thinned(fig, thinned, width, height, base)
    for trace in fig.data:
        if trace.type == "heatmap" and trace.texttemplate:
            fit_numbers(fig, trace, width, height, base, smallest, numbers)
    fit_colour_bars(fig, width, height, base)
    _fit_title(fig, width, base)
    _fit_panel_titles(fig, width, height, base)
    place_bars_under(fig, base)  # once the labels and titles round the plot are known
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
    if width >= NARROW_PX or fig.layout.showlegend is False:
        return
    entries = [t for t in fig.data if getattr(t, "showlegend", False) is not False and getattr(t, "name", None)]
    if len(entries) < 2:
        return
    lines = len(entries)  # one entry a line: a phone's width holds one long name
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", y=-0.15, yanchor="top"),
                      height=(fig.layout.height or 450) + round(LINE_EM * base * lines) + 40)


WRAPPED_TITLE = dict(yref="container", y=1, yanchor="top", pad=dict(t=8))  # a wrapped title's lines set from the
# figure's top, going down into the room made for them


def title_chars(width, size) -> X:
    """The characters a line of a title `size` px holds across a figure `width` px wide, as an expression."""
    return call("max", 12, call("int", (width - 20) / (size * CHAR_EM)))


def title_size(fig: go.Figure, base: float) -> float:
    """A title's type: a little larger than the figure's."""
    return fig.layout.title.font.size or base * 1.1


def _fit_title(fig: go.Figure, width: float, base: float) -> None:
    """A title too long for the figure's width (a phone's) on as many lines as it needs, broken between words, each
    line taking its room above the plot: Plotly never wraps a title, and cuts it at the figure's edge."""
    title = fig.layout.title.text
    if not title:
        return
    size = title_size(fig, base)
    given = title.split("<br>")
    lines = [line for text in given for line in wrapped(unescaped(text), value_of(title_chars(width, size), {}))]
    if len(lines) > len(given):
        fig.update_layout(title=dict(text="<br>".join(map(escaped, lines)), **WRAPPED_TITLE),
                          margin_t=(fig.layout.margin.t or 0) + round(LINE_EM * size) * (len(lines) - len(given)))


def _lines_joined(lines: X) -> X:
    return call("joined", "<br>", call("range", call("len", lines)), call("escaped", lines[var.k]))


def title_leaves(title, text, width, size, margin_t) -> dict[tuple, X]:
    """`_fit_title`'s rule, as expressions (ops/recipe.py) over a title of one line, `text`, that depends on the
    sentence (a template's, figures/template.py): the title's part (`title`, as the figure has it unwrapped, less its
    text), its text and the figure's top margin (`margin_t`, as the figure has it). Any of them, the width and the
    type's size may be expressions: a site's browser wraps the titles of the figures it still builds by this rule
    (TITLE_RULE)."""
    part = title if isinstance(title, X) else call("quote", title)
    lines = call("wrapped", call("unescaped", text), title_chars(width, size))
    wraps = call("<", 1, call("len", lines))
    return {("layout", "title"): when(wraps, call("merged", part, call("quote", WRAPPED_TITLE)), part),
            ("layout", "title", "text"): when(wraps, _lines_joined(lines), text),
            ("layout", "margin", "t"): margin_t + when(wraps, call("round", LINE_EM * size) * (call("len", lines) - 1),
                                                       0)}


TITLE_RULE = {"fills": [[list(path), tree_of(leaf)] for path, leaf in title_leaves(
    var.title, var.text, var.width, when(var.title_font, var.title_font, var.base * 1.1), var.margin_t).items()
    if path != ("layout", "title")], "drops": []}  # a figure's title of one line wrapped to its width, as a
# template's leaves (its lines and the room they take) over its text, the figure's width, type size (`base`), the
# title's own (`title_font`) and top margin: for the figures a site's browser still builds, whose colour bar lies
# across the top, where Plotly places a title set from the figure's top above the figure (issue 55), so their
# title keeps Plotly's place in the room above the plot


def panel_title_rule(text, per_line: int, size: float) -> tuple[X, X]:
    """`_fit_panel_titles`'s rule for one panel's title `text` (an expression), as expressions: its text, and the
    height its lines add."""
    lines = call("wrapped", call("unescaped", text), per_line)
    wraps = when(call("<", 1, call("len", lines)), call("==", call("has", text, "<"), 0), False)
    return when(wraps, _lines_joined(lines), text), when(wraps, round(LINE_EM * size) * (call("len", lines) - 1), 0)


def panel_titles(fig: go.Figure, width: float, height: float, base: float) -> list[tuple[int, int]]:
    """Each panel's title (an annotation centred over its panel, as `grid_of_panels` sets it): its place among the
    annotations and the characters a line of it holds across its panel."""
    panels = {round(sum(fig.layout[name].domain or (0, 1)) / 2, 6): fig.layout[name]
              for name in fig.layout if re.fullmatch(r"xaxis\d*", name)}
    found = []
    for k, note in enumerate(fig.layout.annotations):
        axis = panels.get(round(note.x, 6)) if note.xref == "paper" and note.yanchor == "bottom" else None
        if axis is not None and note.text:
            size = note.font.size or base
            found.append((k, max(8, int(axis_length(fig, axis, width, height, True, base) / (size * CHAR_EM)))))
    return found


def _fit_panel_titles(fig: go.Figure, width: float, height: float, base: float) -> None:
    """A panel's title longer than its panel is wide, on as many lines as it needs: on a phone, "attention of layer
    1 (mean over heads)" ran past the figure's edge. The figure's top grows by the lines added to its first row."""
    added = 0
    for k, per_line in panel_titles(fig, width, height, base):
        note = fig.layout.annotations[k]
        lines = wrapped(unescaped(note.text), per_line)
        if len(lines) > 1 and "<" not in note.text:  # plain words only: a marked title ("<b>▸ …") is short
            note.text = "<br>".join(map(escaped, lines))
            if note.y >= 1:
                added = max(added, round(LINE_EM * (note.font.size or base)) * (len(lines) - 1))
    if added:
        fig.update_layout(margin_t=(fig.layout.margin.t or 0) + added)


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
    if any(len(unescaped(t)) > longest_label(horizontal) for t in ticks.texts):
        texts = [cut(t, longest_label(horizontal)) for t in ticks.texts]
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


def _say_thinned(fig: go.Figure, steps: dict[str, int], width: float, height: float, base: float) -> None:
    """Say where only every k-th label is written, under the first panel's horizontal axis, which has the room
    ("key (every 4th labelled)", "(every other row labelled)"): a note on how the figure is drawn belongs with its
    axes, not in the figure's title, and once (a row of panels would write it into one another; a second line
    under a vertical axis's title ran into the figure's title). On as many lines as the axis's length needs: on a
    phone, "(every 6th column, every other row labelled)" ran past the figure's edge."""
    x, y = steps["x"], steps["y"]
    if x == y == 1:
        return
    names = sorted((name for name in fig.layout if re.fullmatch(r"xaxis\d*", name)), key=lambda n: int(n[5:] or 1))
    shown = [fig.layout[name] for name in names if fig.layout[name].visible is not False
             and fig.layout[name].showticklabels is not False]  # the panels that write their labels
    axis = shown[0] if shown else fig.layout.xaxis
    if "labelled" in (axis.title.text or ""):
        return
    per_line = max(12, int(axis_length(fig, axis, width, height, True, base)
                           / ((axis.title.font.size or base) * CHAR_EM)))
    note = "<br>".join(wrapped(_thinned_note(x, y), per_line))
    axis.title.text = f"{axis.title.text}<br>{note}" if axis.title.text else note
