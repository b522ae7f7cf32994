"""The figure of an explanation of one number, of the kind the operation that made it names (`Op.drawn_as`, an
`ops.Figure`; pure: from an `Explanation`'s numbers and the tokens to a figure):

- a sum (a linear map, a score, a context, a residual add): its terms as a waterfall that ends at the
  value, the largest first and the rest summed into one bar;
- a softmax: the query's row of scores and of probabilities, the chosen key marked;
- a LayerNorm: the token's row before and after, as histograms, the chosen dimension marked;
- an activation: the function's curve with the point on it;
- a rotation: the pair of dimensions as an arrow before and after;
- a score's whole row (BertViz's neuron view, with numbers): q_i ⊙ k_j for every key j, their sums and the softmax.
"""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..ops import MASKED_BELOW, Figure
from ..ops.recipe import X, call, fmt, tree_of, var, when
from .charts import FONT, labelled
from .described import described
from .room import KEEPS_HEIGHT
from .style import AXIS_LABELS
from .style import CHOSEN, CHOSEN_PATTERN, FAINT, FALL, INK, PALE_INK, RISE, colour_scale
from .template import Path, filled, value_of

TOP, LECTURE_TOP = 12, 5  # a sum's terms shown one by one (on a projector, beside the heatmap: fewer); the rest
# are summed into one bar
MASK_TITLE = "the mask adds the most negative number: softmax gives this key 0"


def explanation_figure(e, tokens: list[str], top: int = TOP) -> go.Figure | None:
    """The figure its operation says explains it (`e.drawn_as`, drawn by `DRAWN`), or None where the formula says
    it all (a look-up, a copy) or the explanation holds nothing to draw; a sum shows its `top` largest terms one by
    one."""
    if e.drawn_as is None:
        return None
    kind, names = DRAWN[e.drawn_as], explanation_names(e, tokens, top)
    return kind.figure(names) if kind.shown(names) else None


def explanation_names(e, tokens: list[str], top: int) -> dict:
    """What an explanation's figure reads, by name: its terms' labels and values, its value, its cell, the tokens,
    how many terms to show, and the numbers its operation's recipe names for it (its inputs and figure). A live
    site's browser names a cell it works out alike (frontend/src/stepper.js)."""
    given = {name: _named(value) for name, value in {**e.inputs, **e.figure}.items()}
    return {**given, "labels": [label for label, _ in e.terms],
            "values": np.asarray([v for _, v in e.terms], np.float64), "value": e.value, "cell": list(e.at),
            "tokens": tokens, "top": top}


def _named(value):
    """A list of numbers as an array (as a browser names it: frontend/src/explanation_figure.js), else as it is."""
    if isinstance(value, (list, tuple)) and all(isinstance(x, (int, float)) for x in value):
        return np.asarray(value)
    return value


class Drawn:
    """A kind of explanation figure: its skeleton (what does not depend on the numbers), the leaves that do, as
    expressions (ops/recipe.py) over `explanation_names` and the names `lets` binds from them first, the parts
    left out where an expression holds, and what it needs to be drawn at all (names it reads, and a condition). The
    app's figure is the skeleton so filled; a live site fills the same leaves of the styled skeleton
    (export/explanations.py)."""

    def __init__(self, skeleton, leaves: dict[Path, X], drops: dict[Path, X] | None = None,
                 lets: dict[str, X] | None = None, needs: tuple[str, ...] = (), drawn: X | bool = True):
        self.skeleton, self.leaves, self.lets = skeleton, leaves, lets or {}
        title = leaves.get(("layout", "title", "text"))
        self.drops = {**(drops or {}), **({} if title is None else {("layout", "title", "text"): call(
            "==", call("chars", title), 0)})}  # no title: none in the figure, as Plotly writes it
        self.needs, self.drawn = needs, drawn

    def shown(self, names: dict) -> bool:
        return all(names.get(name) is not None for name in self.needs) and bool(value_of(self.drawn, names))

    def template(self, figure: dict, leaves: dict[Path, X] | None = None, given: dict | None = None) -> dict:
        """`figure` (the skeleton, or a screen's styled figure of it) as a template (figures/template.py) that fills
        these leaves (and `leaves`, more of them: a screen's own; a part before the leaves in it), with the names
        `given` bound first (a screen's own: how many terms it shows)."""
        fills = sorted({**self.leaves, **(leaves or {})}.items(), key=lambda item: len(item[0]))
        return {"figure": figure, "lets": [[name, tree_of(t)] for name, t in {**(given or {}), **self.lets}.items()],
                "fills": [[list(p), tree_of(t)] for p, t in fills],
                "drops": [[list(p), tree_of(t)] for p, t in self.drops.items()]}

    def figure(self, names: dict) -> go.Figure:
        skeleton = self.skeleton().to_plotly_json()
        skeleton["layout"].pop("template", None)  # the default template, given again by go.Figure
        return go.Figure(filled(self.template(skeleton), names))


def _layout(fig: go.Figure, point: str, name: str, height: int = 450, top: int = 10) -> go.Figure:
    """The figure's size and type, and its point and name for a screen reader (figures/described.py)."""
    fig.update_layout(height=height, font=FONT, margin=dict(l=10, r=10, t=top, b=10), showlegend=False)
    return described(fig, point, name)


def _titled(title: X, height) -> dict[Path, X]:
    """A figure's title and height, with the room above the plot a title takes."""
    return {("layout", "title", "text"): title, ("layout", "height"): height,
            ("layout", "margin", "t"): when(call("<", 0, call("chars", title)), 46, 10)}


def _waterfall_skeleton() -> go.Figure:
    fig = go.Figure(go.Waterfall(orientation="h", connector=dict(line=dict(color=FAINT, width=1)),
                                 increasing=dict(marker_color=RISE), decreasing=dict(marker_color=FALL),
                                 totals=dict(marker_color=INK), hovertemplate="%{y}: %{x:.6f}<extra></extra>"))
    # each term's value written beside its name, not on its bar: a short bar's number would run into the names
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3, tickmode="array")
    fig.update_xaxes(zeroline=True)
    return _layout(fig, "Each term of the sum as a bar that starts where the one before it ended; the last bar, the "
                        "whole, is the number explained.", "Where the number comes from")


def _waterfall_leaves(labels=var.labels, values=var.values, top=var.top) -> tuple[dict[str, X], dict[Path, X]]:
    """Terms that add up to `value`: the named ones (bias, mask, an added step) apart, the `top` largest of the
    others (by size) one by one, the rest in one bar, and the total; a masked score's total is the value, and the
    title says why. The names it binds first, and its leaves."""
    nothing = call("quote", [])
    lets = {"bracketed": call("has", labels, "[") * call("has", labels, "]"),
            "many": call("which", var.bracketed), "named": call("which", 1 - var.bracketed),
            "order": call("taken", var.many, call("top", call("abs", call("taken", values, var.many)),
                                                  call("len", var.many))),
            "shown": call("slice", var.order, 0, top), "rest": call("slice", var.order, top, call("len", var.order)),
            "others": call("<", top, call("len", var.many)),
            "kept": call("taken", var.named, call("which", call("<", MASKED_BELOW, call("taken", values, var.named)))),
            "masked": call("<", call("len", var.kept), call("len", var.named)),
            "rows": call("cat", call("each", var.shown, call("escaped", labels[var.k])),  # a token's markup as text
                         when(var.others, fmt("the other {n} terms", n=call("len", var.many) - top), nothing),
                         call("each", var.kept, call("escaped", labels[var.k]))),
            "numbers": call("cat", call("taken", values, var.shown),
                            when(var.others, call("sum", call("taken", values, var.rest)), nothing),
                            call("taken", values, var.kept)),
            "ends": call("cat", var.rows, "= value")}
    written = call("each", call("range", call("len", var.rows)),
                   fmt("{label}  {v:+.4f}", label=var.rows[var.k], v=var.numbers[var.k]))
    total = when(var.masked, var.value, call("sum", var.numbers))
    return lets, {("data", 0, "y"): var.ends, ("data", 0, "x"): call("cat", var.numbers, total),
                  ("data", 0, "measure"): call("cat", call("repeat", "relative", call("len", var.numbers)), "total"),
                  ("layout", "yaxis", "tickvals"): var.ends,
                  ("layout", "yaxis", "ticktext"): call("cat", written, when(var.masked, "= value  −∞ (masked)",
                                                                              fmt("= value  {value:.4f}"))),
                  **_titled(when(var.masked, MASK_TITLE, ""), 120 + 26 * (call("len", var.rows) + 1))}


STRIPES = dict(fillmode="overlay", fgcolor="#ffffff")  # a chosen bar's hatching: white stripes on its colour


def _softmax_skeleton() -> go.Figure:
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=("score s_ij", "softmax p_ij"))  # short: it may stand in a narrow column
    for col in (1, 2):
        fig.add_trace(go.Bar(orientation="h", hovertemplate="%{y}: %{x:.4f}<extra></extra>",
                             marker_pattern=STRIPES), row=1, col=col)
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3)
    return _layout(fig, "The query's score for each key and, beside it, its softmax: the higher a score, the larger "
                        "its share; the chosen key hatched.", "Scores and their softmax", top=36)  # the panels' titles


def _softmax_leaves() -> dict[Path, X]:
    """The query's scores and their softmax, key by key; the chosen key in orange and hatched, masked keys left
    out."""
    keys, scores = AXIS_LABELS, var.scores_row
    colours = call("each", call("range", call("len", keys)), when(var.k == var.cell[1], CHOSEN, INK))
    hatches = call("each", call("range", call("len", keys)), when(var.k == var.cell[1], CHOSEN_PATTERN, ""))
    shown = call("which", call("<", MASKED_BELOW, scores))
    return {("data", 0, "y"): call("taken", keys, shown), ("data", 0, "x"): call("taken", scores, shown),
            ("data", 0, "marker", "color"): call("taken", colours, shown),
            ("data", 0, "marker", "pattern", "shape"): call("taken", hatches, shown), ("data", 1, "y"): keys,
            ("data", 1, "x"): var.exp_row / var.sum_exp, ("data", 1, "marker", "color"): colours,
            ("data", 1, "marker", "pattern", "shape"): hatches,
            ("layout", "height"): call("min", 560, 110 + 24 * call("len", keys))}


def _histograms_skeleton() -> go.Figure:
    """A token's numbers before and after a norm: after LayerNorm they are centred and of one spread; after RMSNorm
    of one root mean square, not centred (its histogram stays where it was, narrowed or widened)."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.22, subplot_titles=("before", "after"))
    for row in (1, 2):
        fig.add_trace(go.Histogram(nbinsx=40, marker_color=PALE_INK, hovertemplate="%{x}: %{y} numbers<extra></extra>"),
                      row=row, col=1)
        fig.add_vline(x=0, line=dict(color=CHOSEN, width=3), row=row, col=1)
    return _layout(fig, "The token's numbers before and after the norm as two histograms, each with its mean and "
                        "spread, a line at the chosen dimension's number.", "Before and after the norm", 380)


def _histograms_leaves() -> dict[Path, X]:
    dim = var.cell[call("len", var.cell) - 1]
    leaves = {}
    for k, name in enumerate(("before", "after")):
        numbers = getattr(var, name)
        leaves[("data", k, "x")] = call("f32", numbers)
        leaves[("layout", "annotations", k, "text")] = fmt(name + ": mean {m:.3f}, std {s:.3f}",
                                                           m=call("mean", numbers), s=call("std", numbers))
        leaves[("layout", "shapes", k, "x0")] = leaves[("layout", "shapes", k, "x1")] = numbers[dim]
    return {**leaves, **_titled(fmt("{n} numbers; dimension {d} in orange", n=call("size", var.before), d=dim), 380)}


def _curve_skeleton() -> go.Figure:
    fig = go.Figure([go.Scatter(mode="lines", line=dict(color=INK, width=3)),
                     go.Scatter(mode="markers", marker=dict(size=16, color=CHOSEN))])
    fig.update_xaxes(title="pre-activation", zeroline=True)
    fig.update_yaxes(zeroline=True)
    return _layout(fig, "The activation function's curve, with a dot at this number's input where it lies within "
                        "the curve's range.", "The activation")


def _curve_leaves() -> tuple[dict[Path, X], dict[Path, X]]:
    """The activation's curve, and the point on it where it lies within the curve's range."""
    xs, ys, point, name = var.curve_x, var.curve_y, var.point, var.function
    leaves = {("data", 0, "x"): xs, ("data", 0, "y"): ys,
              ("data", 0, "hovertemplate"): name + "(%{x:.3f}) = %{y:.3f}<extra></extra>",
              ("data", 1, "x"): call("cat", point), ("data", 1, "y"): call("cat", call("interp", point, xs, ys)),
              ("layout", "yaxis", "title", "text"): name, **_titled(name + ", at this number's input", 340)}
    inside = when(call("<=", xs[0], point), call("<=", point, xs[call("len", xs) - 1]), False)
    return leaves, {("data", 1): call("==", inside, False)}


def _arrows_skeleton() -> go.Figure:
    """A pair of dimensions as an arrow, before and after the rotation by its angle: the length stays."""
    fig = go.Figure()
    for colour, name in ((PALE_INK, "before"), (INK, "after")):
        fig.add_annotation(x=0, y=0, ax=0, ay=0, xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                           arrowhead=2, arrowwidth=3, arrowcolor=colour, text="")
        fig.add_trace(go.Scatter(mode="markers+text", text=[name], textposition="top center",
                                 marker=dict(color=colour, size=8)))
    fig.update_xaxes(zeroline=True, title="first of the pair")
    fig.update_yaxes(zeroline=True, scaleanchor="x", title="second of the pair")
    fig.update_layout(meta=KEEPS_HEIGHT)  # square: shorter, its "before" and "after" meet
    return _layout(fig, "A pair of the vector's dimensions as an arrow before and after the rotation: it turns by "
                        "the angle in the title and keeps its length.", "The rotation")


def _arrows_leaves() -> dict[Path, X]:
    leaves = {}
    for k, pair in enumerate((var.before, var.after)):
        for axis in (0, 1):
            leaves[("layout", "annotations", k, "xy"[axis])] = pair[axis]
            leaves[("data", k, "xy"[axis])] = call("cat", pair[axis])
    bx, by = var.before[0], var.before[1]
    reach = 1.2 * call("max", call("sqrt", bx * bx + by * by), 1e-6)
    degrees = var.angle * (180 / math.pi) % 360  # numpy's degrees: the angle times 180/π
    return {**leaves, ("layout", "xaxis", "range"): call("cat", -reach, reach),
            ("layout", "yaxis", "range"): call("cat", -reach, reach),
            **_titled(fmt("turned by θ = {a:.3f} rad ({d:.1f}°)", a=var.angle, d=degrees), 380)}


_curve, _curve_drops = _curve_leaves()
_waterfall_lets, _waterfall = _waterfall_leaves()
# the figure of each kind an operation names (ops.Figure), by that kind
DRAWN = {Figure.TERMS: Drawn(_waterfall_skeleton, _waterfall, lets=_waterfall_lets,
                             drawn=call("<", 0, call("len", var.labels))),
         Figure.SOFTMAX_ROW: Drawn(_softmax_skeleton, _softmax_leaves()),
         Figure.HISTOGRAMS: Drawn(_histograms_skeleton, _histograms_leaves(), needs=("before",)),
         Figure.CURVE: Drawn(_curve_skeleton, _curve, _curve_drops, needs=("curve_x",)),
         Figure.ARROWS: Drawn(_arrows_skeleton, _arrows_leaves())}


def neuron_view(row: dict, tokens: list[str], query: int, chosen: int) -> go.Figure:
    """The query's whole row: q_i[d] · k_j[d] / scale for every key j (rows) and dimension d (columns), each row's
    sum (the scaled dot product) and, where the block has them, the scores after the mask and the softmax."""
    products = np.asarray(row["products"], dtype=np.float32)
    keys = labelled(tokens)
    columns = [k for k in ("dots", "probs") if k in row]
    fig = make_subplots(rows=1, cols=1 + len(columns), shared_yaxes=True, horizontal_spacing=0.1,
                        column_widths=[0.6] + [0.4 / len(columns)] * len(columns),
                        subplot_titles=[f"q_{query} ⊙ k_j / scale, per dimension", *{
                            "dots": "sum = q·k / scale", "probs": "softmax"}.values()][:1 + len(columns)])
    fig.add_trace(go.Heatmap(z=products, y=keys, x=list(range(products.shape[1])),
                             **colour_scale(products, signed=True),
                             colorbar=dict(title="term", x=fig.layout.xaxis.domain[1] + 0.005, xanchor="left",
                                           thickness=12),
                             hovertemplate="key %{y}<br>dim %{x}<br>%{z:.4f}<extra></extra>"), row=1, col=1)
    colours = [CHOSEN if j == chosen else INK for j in range(len(keys))]
    hatches = [CHOSEN_PATTERN if j == chosen else "" for j in range(len(keys))]
    for col, name in enumerate(columns, start=2):
        fig.add_trace(go.Bar(y=keys, x=np.asarray(row[name], dtype=np.float32), orientation="h",
                             marker=dict(color=colours, pattern=dict(STRIPES, shape=hatches)),
                             hovertemplate="%{y}: %{x:.4f}<extra></extra>"), row=1, col=col)
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3)
    fig.update_xaxes(title_text="dimension", row=1, col=1)
    return _layout(fig, "For each key, the query's and key's products dimension by dimension, their sum (the score) "
                        "and where shown its softmax: which dimensions make the chosen key's score.",
                   "BertViz's neuron view", min(620, 140 + 24 * len(keys)), top=46).update_layout(
        title_text=f"BertViz's neuron view, with numbers: query {keys[query]}")

