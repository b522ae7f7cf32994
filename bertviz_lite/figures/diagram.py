"""A block's graph drawn as a data-flow diagram (pure: from a `Layout` to a figure): one box per sub-step, an arrow
from each input, the paths that skip ahead (the residual stream) as arcs above, the current sub-step lit and the
steps it reads marked. Each box answers a click with its key (the page goes to that sub-step)."""
from __future__ import annotations

import plotly.graph_objects as go

from ..graph.layout import Box, Layout
from .described import described
from .style import ARC, BOX_TEXT, EDGE, INK, INVISIBLE, MUTED, OTHER_BOX, OUTSIDE_BOX, READ_BOX

CURRENT, READS, OTHER, OUTSIDE = INK, READ_BOX, OTHER_BOX, OUTSIDE_BOX
BOX_W, BOX_H = 0.82, 0.62  # in columns and rows
ROW_PX, LABEL_PX = 44, 14


def layer_diagram(layout: Layout, current: str | None, title: str | None = None) -> go.Figure:
    """The figure, its shapes and arrows given to Plotly in one piece: adding them one by one (`add_shape`,
    `add_annotation`) costs time that grows with the square of their number, most of a step's first draw."""
    boxes = {b.key: b for b in layout.boxes}
    reads = {s for s, k in layout.edges if k == current}
    low = max(b.row for b in layout.boxes) + BOX_H / 2 + 0.3  # where skipping edges that are not residual run
    apexes, curves, arrows = {}, [], []
    for source, key in layout.edges:
        if source in boxes:
            apexes[(source, key)] = _apex(layout, boxes[source], boxes[key])
            curve = _curve(boxes[source], boxes[key], key == current, apexes[(source, key)], low)
            if curve is not None:
                curves.append(curve)
            else:
                arrows.append(_arrow(boxes[source], boxes[key], key == current))
    rects = [dict(type="rect", x0=b.column - BOX_W / 2, x1=b.column + BOX_W / 2, y0=b.row - BOX_H / 2,
                  y1=b.row + BOX_H / 2, fillcolor=_fill(b, current, reads), layer="below",
                  line=dict(color=INK if b.key in reads or b.key == current else EDGE, width=1.5))
             for b in layout.boxes]
    targets = go.Scatter(  # the labels, and a click target per box
        x=[b.column for b in layout.boxes], y=[b.row for b in layout.boxes], mode="markers+text",
        text=[b.short for b in layout.boxes], customdata=[b.key for b in layout.boxes],
        textfont=dict(size=LABEL_PX, color=["white" if b.key == current else BOX_TEXT for b in layout.boxes]),
        marker=dict(symbol="square", size=34, opacity=0.01, color=INVISIBLE), showlegend=False,
        hovertemplate=[f"<b>{b.title}</b><br>{b.key} · {b.op}<br>click to go there<extra></extra>"
                       for b in layout.boxes])
    top = min([b.row - BOX_H / 2 - 0.12 for b in layout.boxes] + [a for a in apexes.values() if a is not None])
    skips = any(boxes[k].column - boxes[s].column > 1 and not layout.is_residual(s, k) and not boxes[s].outside
                for s, k in layout.edges if s in boxes)
    bottom = max(b.row for b in layout.boxes) + (0.75 if skips else 0.5)
    figure = go.Figure(targets, layout=dict(
        shapes=curves + rects, annotations=arrows, height=int(ROW_PX * (bottom - top)) + (34 if title else 8),
        xaxis=dict(visible=False, range=[-0.55, layout.columns - 0.45], fixedrange=True),
        yaxis=dict(visible=False, range=[bottom, top], fixedrange=True),
        showlegend=False, margin=dict(l=4, r=4, t=30 if title else 4, b=4), title=title, dragmode=False,
        clickmode="event+select", hovermode="closest", plot_bgcolor="rgba(0,0,0,0)",
        meta={"kind": "diagram"}))  # what it is, for whoever reads the page's charts
    return described(figure, _point(boxes.get(current)), None if title else "The layer's sub-steps")


def _point(current: Box | None) -> str:
    """The diagram's point in words: what its boxes and arrows are, and which is lit."""
    lit = f" The lit box is this sub-step: {current.title} ({current.key})." if current else ""
    return f"One box per sub-step of the layer, an arrow from each input, arcs for the residual stream.{lit}"


def _fill(box: Box, current: str | None, reads: set[str]) -> str:
    return CURRENT if box.key == current else READS if box.key in reads else OUTSIDE if box.outside else OTHER


def _apex(layout: Layout, source, target) -> float | None:
    """How high a residual arc goes: over every box between its ends; None for other edges."""
    if not layout.is_residual(source.key, target.key):
        return None
    between = [b.row for b in layout.boxes if source.column <= b.column <= target.column]
    return min(between) - BOX_H / 2 - 0.12 - 0.015 * (target.column - source.column)


def _curve(source, target, lit: bool, apex: float | None, low: float) -> dict | None:
    """The path of an edge that skips ahead: the residual stream's arc over the boxes between, or a dotted curve
    under them to a step read further on; None for an edge to the next box (an arrow)."""
    x0, x1 = source.column, target.column
    if apex is not None:  # the residual stream: an arc over the boxes between
        start = source.row - BOX_H / 2
        control = start + (apex - start) / 0.75  # a cubic Bézier reaches 3/4 of its control points' height
        return dict(type="path", path=f"M {x0},{start} C {x0},{control} {x1},{control} {x1},{target.row - BOX_H / 2}",
                    line=dict(color=CURRENT if lit else ARC, width=2.5 if lit else 2), layer="below")
    if x1 - x0 > 1 and not source.outside:  # another step read further on: a curve under the boxes between
        return dict(type="path", path=f"M {x0},{source.row + BOX_H / 2} C {x0},{low} {x1},{low} "
                                      f"{x1},{target.row + BOX_H / 2}",
                    line=dict(color=_edge_colour(lit), width=2 if lit else 1.2, dash="dot"), layer="below")
    return None


def _arrow(source, target, lit: bool) -> dict:
    """An arrow from a box (or from above it, for an input from outside the block) to the next."""
    start_y = source.row + BOX_H / 2 if source.outside else source.row
    return dict(x=target.column - BOX_W / 2, y=target.row, ax=source.column + (0 if source.outside else BOX_W / 2),
                ay=start_y, xref="x", yref="y", axref="x", ayref="y", showarrow=True, arrowhead=2, arrowsize=1,
                arrowwidth=2.2 if lit else 1.3, arrowcolor=_edge_colour(lit), text="")


def _edge_colour(lit: bool) -> str:
    return CURRENT if lit else MUTED
