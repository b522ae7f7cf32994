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
The parts: `room.py` (where a figure's room goes), `axis_labels.py`, `cell_numbers.py`, `colour_bars.py`,
`titles.py`. Each rule is written once, as expressions over the figure's leaves (`sheet.py`): the app's figure is
fitted at once, and a site's browser fits a typed sentence's figure by the same rules, handed over as a template.

The widths are estimates (a character is about 0.55 em wide, a line 1.25 em high, in the app's font); the
readability check in the browser (tests/test_readability.py) is what says they hold.
"""
from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from ..ops.recipe import call

from .axis_labels import category_ticks, fit_axis, say_thinned
from .cell_numbers import fit_numbers, room_for_numbers
from .colour_bars import NARROW_PX, colour_bars_under, fit_colour_bars, place_bars_under
from .room import KEEPS_HEIGHT, CHAR_EM, axes, axis_length, keeps_height, or_else
from .sheet import Sheet
from .titles import fit_panel_titles, fit_title

__all__ = ["KEEPS_HEIGHT", "SMALLEST", "fit", "fitted", "keeps_height"]

SMALLEST = 12  # px: the smallest type a back row reads


def fit(fig: go.Figure, width: float, smallest: int = SMALLEST, numbers: int = SMALLEST,
        tallest: float | None = None) -> go.Figure:
    """`fig` (drawn `width` px wide, at its own layout height) with every category axis's labels and every
    heatmap's numbers sized or thinned to fit, the numbers at `numbers` px or more where a decimal fewer allows
    (a lecture's back row); never taller than `tallest` px where it grows (a colour bar or legend laid under it);
    changed in place and returned."""
    fitted(Sheet(fig), width, smallest, numbers, tallest)
    return fig


def fitted(s: Sheet, width: float, smallest: int = SMALLEST, numbers: int = SMALLEST,
           tallest: float | None = None, labels: int | None = None) -> Sheet:
    """`fit`'s rules on a sheet (figures/sheet.py): the app's figure, fitted at once, or a template's, whose leaves
    that depend on a sentence are fitted by expressions a site's browser works out. `labels`: the smallest an
    axis's labels are written at before every k-th is written instead (`smallest` where not given)."""
    fig = s.fig
    colour_bars_under(s, width, tallest)  # first: the plot's width and height depend on it
    base = (fig.layout.font.size or 12) if fig.layout.font else 12
    if numbers > smallest:
        room_for_numbers(s, width, base, smallest, numbers)
    thinned: dict[str, Any] = {"x": 1, "y": 1}  # the step from one written label to the next, the largest on each side
    for axis_name in axes(fig):
        axis = fig.layout[axis_name]
        ticks = category_ticks(s, axis_name)
        if ticks is None or axis.showticklabels is False or axis.visible is False:
            continue
        horizontal = axis_name.startswith("x")
        length = axis_length(s, axis_name, width, horizontal, base)
        size = or_else(s.get("layout", axis_name, "tickfont", "size"), base)
        step = fit_axis(s, axis_name, ticks, length / ticks.categories, horizontal, size, labels or smallest)
        thinned[axis_name[0]] = s.bind(call("max", thinned[axis_name[0]], step))
    say_thinned(s, thinned, width, base)
    for k, trace in enumerate(fig.data):
        if trace.type == "heatmap" and trace.texttemplate:
            fit_numbers(s, k, width, base, smallest, numbers)
    fit_colour_bars(s, width, base)
    fit_title(s, width, base)
    fit_panel_titles(s, width, base)
    place_bars_under(s, base)  # once the labels and titles round the plot are known
    _fit_bar_texts(s, width, base)
    _fit_legend(s, width, base)
    return s


def _fit_bar_texts(s: Sheet, width: float, base: float) -> None:
    """A vertical bar's number written over it only where the bars are wide enough for it (on a phone, 30 px bars
    would write "+0.004" into "+0.007"); the hover still gives each. (On the figure's own texts: no template has
    bars yet.)"""
    for k, trace in enumerate(s.fig.data):
        if trace.type != "bar" or trace.orientation == "h" or trace.text is None or not len(trace.text):
            continue
        texts = s.known("data", k, "text")
        pitch = (width - 120) / max(1, len(texts))  # the plot's width, less its labels, per bar
        size = trace.textfont.size or base
        if max(len(str(text)) for text in texts) * CHAR_EM * size > pitch - 2:
            trace.update(textposition="none")


LEGEND_LINE_EM = 1.5  # a legend's entry, its swatch beside the name
LEGEND_GAP_PX = 12  # between the axis's title and a legend under it
PLOTLY_MARGIN_PX = 80  # Plotly's own margin where a figure sets none


def _fit_legend(s: Sheet, width: float, base: float) -> None:
    """A legend beside a plot on a wide screen, under it on a narrow one (a phone), where beside it would leave the
    plot a sliver: at the figure's foot, in a margin grown by its lines, so that it never reaches the axis's labels
    and title (set under the plot by a share of the plot's height, it met the axis title of a short plot); the
    figure grows by as much."""
    fig = s.fig
    if width >= NARROW_PX or fig.layout.showlegend is False:
        return
    entries = [t for t in fig.data if getattr(t, "showlegend", False) is not False and getattr(t, "name", None)]
    if len(entries) < 2:
        return
    titled = bool(fig.layout.legend.title.text)
    lines = len(entries) + titled  # one entry a line: a phone's width holds one long name; the title above them
    # (beside them, Plotly's place for a horizontal legend's title, it took the entries' room)
    legend_px = round(LEGEND_LINE_EM * base * lines) + LEGEND_GAP_PX
    fig.update_layout(legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom",
                                  **({"title_side": "top"} if titled else {})))
    s.set(("layout", "margin", "b"), or_else(s.get("layout", "margin", "b"), PLOTLY_MARGIN_PX) + legend_px)
    s.set(("layout", "height"), or_else(s.get("layout", "height"), 450) + legend_px)
