"""A figure's title and its panels' titles on as many lines as their width needs (figures/fit.py): Plotly never
wraps a title, and cuts it at the figure's edge (a phone's). Written as expressions over the figure's leaves
(figures/sheet.py), so that a site's browser wraps a typed sentence's titles by the app's rule."""
from __future__ import annotations


import plotly.graph_objects as go

from ..ops.recipe import X, call, var, when
from .room import CHAR_EM, LINE_EM, axes, axis_length, or_else
from .sheet import Sheet, most

TITLE_PAD_PX = 8  # a wrapped title's room above its first line
FIRST_LINE_EM = 0.7  # how far Plotly moves a title anchored at its top down to its first line's baseline: it does so
# for one line only (a title of several sets its first line's own y, and the shift is lost), so a wrapped title's
# first line rose above the figure's top and lost its top; the pad gives the shift back


def wrapped_title(size: float) -> dict:
    """A wrapped title's place: its lines set from the figure's top, going down into the room made for them."""
    return dict(yref="container", y=1, yanchor="top", pad=dict(t=TITLE_PAD_PX + round(FIRST_LINE_EM * size)))


WRAPPED_KEYS = frozenset(wrapped_title(0))  # what wrapping sets of a title


def title_chars(width, size) -> X:
    """The characters a line of a title `size` px holds across a figure `width` px wide, as an expression."""
    return call("max", 12, call("int", (width - 20) / (size * CHAR_EM)))


def title_size(fig: go.Figure, base: float) -> float:
    """A title's type: a little larger than the figure's."""
    return fig.layout.title.font.size or base * 1.1


def fit_title(s: Sheet, width: float, base: float) -> None:
    """A title too long for the figure's width (a phone's) on as many lines as it needs, broken between words, each
    line taking its room above the plot; the lines it was given (`<br>`) kept."""
    if not s.fig.layout.title.text:
        return
    text = s.get("layout", "title", "text")
    size = title_size(s.fig, base)
    given = s.bind(call("lines", call("cat", text)))
    lines = s.bind(call("wrapped", call("unescaped", given), title_chars(width, size)))
    added = s.bind(call("len", lines) - call("len", given))
    wraps = s.bind(0 < added)
    s.set(("layout", "title", "text"), when(wraps, _lines_joined(lines), text))
    for key, value in wrapped_title(size).items():
        for path, leaf in ([(("layout", "title", "pad", "t"), value["t"])] if key == "pad"
                           else [(("layout", "title", key), value)]):
            s.set_when(wraps, path, leaf)
    s.set(("layout", "margin", "t"), or_else(s.get("layout", "margin", "t"), 0)
          + when(wraps, round(LINE_EM * size) * added, 0))


def _lines_joined(lines: X) -> X:
    return call("joined", "<br>", call("range", call("len", lines)), call("escaped", lines[var.k]))


def title_leaves(title, text, width, size, margin_t) -> dict[tuple, X]:
    """`fit_title`'s rule, as expressions over a title of one line, `text`: the title's part (`title`, as the figure
    has it unwrapped, less its text), its text and the figure's top margin (`margin_t`). Any of them, the width and
    the type's size may be expressions (a clicked cell's figure on a site: export/explanations.py)."""
    part = title if isinstance(title, X) else call("quote", title)
    lines = call("wrapped", call("unescaped", text), title_chars(width, size))
    wraps = call("<", 1, call("len", lines))
    return {("layout", "title"): when(wraps, call("merged", part, call("quote", wrapped_title(size))), part),
            ("layout", "title", "text"): when(wraps, _lines_joined(lines), text),
            ("layout", "margin", "t"): margin_t + when(wraps, call("round", LINE_EM * size) * (call("len", lines) - 1),
                                                       0)}


def panel_title_rule(text, per_line, size: float) -> tuple[X, X]:
    """A panel's title `text` (an expression) on lines of `per_line` characters, as expressions: its text, and the
    height its lines add. Plain words only: a marked title ("<b>▸ …") is short."""
    lines = call("wrapped", call("unescaped", text), per_line)
    wraps = when(call("<", 1, call("len", lines)), call("==", call("has", text, "<"), 0), False)
    return when(wraps, _lines_joined(lines), text), when(wraps, round(LINE_EM * size) * (call("len", lines) - 1), 0)


def panel_titles(s: Sheet, width: float, base: float) -> list[tuple[int, X]]:
    """Each panel's title (an annotation centred over its panel, as `grid_of_panels` sets it): its place among the
    annotations and the characters a line of it holds across its panel."""
    fig = s.fig
    panels = {round(sum(fig.layout[name].domain or (0, 1)) / 2, 6): name
              for name in axes(fig, "x")}
    found = []
    for k, note in enumerate(fig.layout.annotations):
        axis_name = panels.get(round(note.x, 6)) if note.xref == "paper" and note.yanchor == "bottom" else None
        if axis_name is not None and note.text:
            size = note.font.size or base
            length = axis_length(s, axis_name, width, True, base)
            found.append((k, s.bind(call("max", 8, call("int", length / (size * CHAR_EM))))))
    return found


def fit_panel_titles(s: Sheet, width: float, base: float) -> None:
    """A panel's title longer than its panel is wide, on as many lines as it needs: on a phone, "attention of layer
    1 (mean over heads)" ran past the figure's edge. The figure's top grows by the lines added to its first row."""
    added = []
    for k, per_line in panel_titles(s, width, base):
        note = s.fig.layout.annotations[k]
        text, more = panel_title_rule(s.get("layout", "annotations", k, "text"), per_line, note.font.size or base)
        s.set(("layout", "annotations", k, "text"), text)
        if note.y >= 1:
            added.append(more)
    if added:
        s.set(("layout", "margin", "t"), or_else(s.get("layout", "margin", "t"), 0)
              + most(*added))
