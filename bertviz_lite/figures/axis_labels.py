"""A category axis's labels (figures/fit.py): as large as their spacing allows, down to 12 px; below that, 12 px and
every k-th label, which the axis's title says; a label too long for its axis cut with "…"; a flat label that would
run into the next panel left out. Written as expressions over the figure's leaves (figures/sheet.py): a site's
browser lays out a typed sentence's labels by these rules."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..ops.recipe import X, fmt, var
from .room import CHAR_EM, LABELLED_TRACES, LINE_EM, axes, axis_length, longest_label
from .sheet import Sheet, call, when


@dataclass(frozen=True)
class Ticks:
    """A category axis's written labels: their values, their texts, each one's category (from 0), how many
    categories the axis has, and how many categories from one written label to the next (each may be an
    expression)."""
    values: Any
    texts: Any
    places: Any
    categories: Any
    every: Any


def category_ticks(s: Sheet, axis_name: str) -> Ticks | None:
    """The labels a category axis is told to write (dtick k: every k-th; an array: those), or None where Plotly
    chooses them itself."""
    fig = s.fig
    axis = fig.layout[axis_name]
    letter, number = axis_name[0], axis_name[5:]
    for k, trace in enumerate(fig.data):
        if trace.type not in LABELLED_TRACES or (getattr(trace, letter + "axis") or letter) != letter + number:
            continue
        sample = getattr(trace, letter)
        if sample is None or len(sample) == 0 or not isinstance(sample[0], str):
            continue
        values = s.get("data", k, letter)
        if isinstance(axis.dtick, int) and axis.dtick >= 1:  # every token, or every k-th (style.every_token)
            every = s.get("layout", axis_name, "dtick")
            places = s.bind(call("which", (call("range", call("len", values)) % every) == 0))
            texts = s.bind(call("taken", values, places))
            return Ticks(texts, texts, places, s.bind(call("len", values)), every)
        if axis.tickmode == "array" and axis.tickvals is not None:  # the figure's own choice of labels
            chosen = s.get("layout", axis_name, "tickvals")
            places = s.bind(call("index", values, chosen))
            count = s.bind(call("len", places))
            every = when(count > 1, call("min_of", call("slice", places, 1, count) - call("slice", places, 0, count - 1)),
                         call("len", values))
            texts = s.get("layout", axis_name, "ticktext") if axis.ticktext is not None else chosen
            texts = s.bind(call("each", call("range", count), fmt("{t}", t=texts[var.k])))  # as text
            return Ticks(chosen, texts, places, s.bind(call("len", values)), s.bind(every))
        return None
    return None


def fit_axis(s: Sheet, axis_name: str, ticks: Ticks, pitch, horizontal: bool, size, smallest: int):
    """The largest label size up to `size` that the labels' spacing allows; below `smallest`, every k-th of them.
    Sets the axis's written labels (cut where too long) and their size; gives the step from one written token to
    the next, where it is to be said (1: nothing to say)."""
    axis = s.fig.layout[axis_name]
    angle = math.radians(abs(axis.tickangle or 0)) if horizontal else 0.0
    flat = horizontal and angle < 0.2  # side by side: the longest label must fit
    texts = s.bind(call("cut", ticks.texts, longest_label(horizontal)))
    longest = s.bind(call("max_of", call("chars", texts))) if flat else None

    def largest(room) -> X:  # the largest type whose labels `room` px apart do not touch
        if flat:
            return (room - 4) / (longest * CHAR_EM)
        return room * (math.sin(angle) if horizontal else 1.0) / LINE_EM  # rotated labels: their lines' distance

    stated = ticks.every if axis.tickmode != "array" else 0  # an array is the figure's own choice, said by it
    spacing = s.bind(pitch * ticks.every)
    fitted = s.bind(largest(spacing))
    k = s.bind(when(fitted < smallest, call("ceil", smallest / call("max", fitted, 1e-6)), 1))
    thinned_size = call("max", smallest, call("min", size, call("floor", largest(spacing * k))))
    new_size = s.bind(when(fitted < smallest, thinned_size, when(fitted < size, call("floor", fitted), None)))
    kept = (call("range", call("len", texts)) % k) == 0
    if flat:  # a flat label must end within its own axis
        drawn_size = s.bind(when(call("==", new_size, None), size, new_size))
        ends = (ticks.places + 0.5) * pitch + call("chars", texts) * CHAR_EM * drawn_size / 2
        kept = kept * when(k > 1, ends <= pitch * ticks.categories, 1)
    chosen = s.bind(call("which", kept))
    long = call("max_of", call("chars", ticks.texts)) > longest_label(horizontal)
    changed = s.bind(when(long, True, k > 1))  # labels cut or thinned: the axis writes those it is given
    for key, value in (("tickmode", "array"), ("tickvals", call("taken", ticks.values, chosen)),
                       ("ticktext", call("taken", texts, chosen)), ("dtick", None)):
        s.set_when(changed, ("layout", axis_name, key), value)
    s.set_when(call("!=", new_size, None), ("layout", axis_name, "tickfont", "size"), new_size)
    return call("max", stated * k, 1)


def _nth(k) -> X:
    """2 → "every other", 3 → "every 3rd", 4 → "every 4th", 22 → "every 22nd"."""
    last, tens = k % 10, k % 100
    suffix = when(tens < 10, None, when(tens <= 20, "th", None))
    suffix = when(call("==", suffix, None), when(last == 1, "st", when(last == 2, "nd", when(last == 3, "rd", "th"))),
                  suffix)
    return when(k == 2, "every other", "every " + call("str", call("int", k)) + suffix)


def thinned_note(x, y) -> X:
    """"(every 4th labelled)", "(every 4th column, every other row labelled)", "(every other row labelled)"."""
    columns, rows = _nth(x) + " column", _nth(y) + " row"
    sides = when(x > 1, when(y > 1, columns + ", " + rows, columns), rows)
    return "(" + when(x == y, _nth(x), sides) + " labelled)"


def say_thinned(s: Sheet, steps: dict[str, Any], width: float, base: float) -> None:
    """Say where only every k-th label is written, under the first panel's horizontal axis, which has the room
    ("key (every 4th labelled)", "(every other row labelled)"): a note on how the figure is drawn belongs with its
    axes, not in the figure's title, and once (a row of panels would write it into one another; a second line
    under a vertical axis's title ran into the figure's title). On as many lines as the axis's length needs: on a
    phone, "(every 6th column, every other row labelled)" ran past the figure's edge."""
    x, y = steps["x"], steps["y"]
    if not isinstance(x, X) and not isinstance(y, X) and x == y == 1:
        return
    fig = s.fig
    shown = [name for name in axes(fig, "x") if fig.layout[name].visible is not False
             and fig.layout[name].showticklabels is not False]  # the panels that write their labels
    axis_name = shown[0] if shown else "xaxis"
    if "labelled" in (fig.layout[axis_name].title.text or ""):
        return
    title_path = ("layout", axis_name, "title", "text")
    per_line = call("max", 12, call("int", axis_length(s, axis_name, width, True, base)
                                    / ((fig.layout[axis_name].title.font.size or base) * CHAR_EM)))
    lines = s.bind(call("wrapped", thinned_note(x, y), per_line))
    note = call("joined", "<br>", call("range", call("len", lines)), lines[var.k])
    title = s.get(*title_path)
    said = note if title is None else when(call("==", title, ""), note, title + "<br>" + note)
    s.set_when(call("max", x, y) > 1, title_path, said)
