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

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..ops import MASKED_BELOW, Figure
from .charts import FONT, labelled
from .style import CHOSEN, FAINT, FALL, INK, PALE_INK, RISE, colour_scale, plotly_text

TOP = 12  # terms shown one by one; the rest are summed into one bar


def explanation_figure(e, tokens: list[str], top: int = TOP) -> go.Figure | None:
    """The figure its operation says explains it (`e.drawn_as`, drawn by `DRAWN`), or None where the formula says
    it all (a look-up, a copy) or the explanation holds nothing to draw; a sum shows its `top` largest terms one by
    one."""
    return None if e.drawn_as is None else DRAWN[e.drawn_as](e, tokens, top)


def _terms(e, tokens: list[str], top: int) -> go.Figure | None:
    return terms_waterfall(e.terms, e.value, top=top) if e.terms else None


def _softmax_row(e, tokens: list[str], top: int) -> go.Figure:
    probs = np.asarray(e.inputs["exp_row"]) / float(e.inputs["sum_exp"])
    return softmax_row(np.asarray(e.inputs["scores_row"]), probs, e.at[1], tokens)


def _histograms(e, tokens: list[str], top: int) -> go.Figure | None:
    return norm_histograms(e.figure["before"], e.figure["after"], e.at[-1]) if "before" in e.figure else None


def _curve(e, tokens: list[str], top: int) -> go.Figure | None:
    if "curve_x" not in e.figure:
        return None
    return activation_curve(e.figure["curve_x"], e.figure["curve_y"], e.figure["point"], e.inputs["function"])


def _arrows(e, tokens: list[str], top: int) -> go.Figure:
    return rotation_arrows(e.figure["before"], e.figure["after"], e.figure["angle"])


def _layout(fig: go.Figure, height: int, title: str | None) -> go.Figure:
    fig.update_layout(height=height, font=FONT, margin=dict(l=10, r=10, t=46 if title else 10, b=10), title=title,
                      showlegend=False)
    return fig


def terms_waterfall(terms: list[tuple[str, float]], value: float, title: str | None = None,
                    top: int = TOP) -> go.Figure:
    """Terms that add up to `value`: the named ones (bias, mask, an added step) apart, the `top` largest of the
    others one by one, the rest in one bar, and the total."""
    named = [(label, v) for label, v in terms if not ("[" in label and "]" in label)]
    many = sorted((t for t in terms if t not in named), key=lambda t: -abs(t[1]))
    shown = many[:top] + ([(f"the other {len(many) - top} terms", sum(v for _, v in many[top:]))]
                          if len(many) > top else [])
    masked = [(label, v) for label, v in named if v <= MASKED_BELOW]
    shown += [t for t in named if t not in masked]
    labels, values = [plotly_text(label) for label, _ in shown], [v for _, v in shown]  # a token's markup as text
    total = sum(values) if not masked else value
    fig = go.Figure(go.Waterfall(
        orientation="h", y=[*labels, "= value"], x=[*values, total], measure=["relative"] * len(values) + ["total"],
        connector=dict(line=dict(color=FAINT, width=1)), increasing=dict(marker_color=RISE),
        decreasing=dict(marker_color=FALL), totals=dict(marker_color=INK),
        hovertemplate="%{y}: %{x:.6f}<extra></extra>"))
    # each term's value written beside its name, not on its bar: a short bar's number would run into the names
    written = [f"{label}  {v:+.4f}" for label, v in zip(labels, values)] + [f"= value  {value:.4f}" if not masked else
                                                              "= value  −∞ (masked)"]
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3, tickmode="array",
                     tickvals=[*labels, "= value"], ticktext=written)
    fig.update_xaxes(zeroline=True)
    if masked:
        title = f"{title}; the mask adds the most negative number: softmax gives this key 0"
    fig = _layout(fig, 120 + 26 * (len(labels) + 1), title)
    return fig


def softmax_row(scores: np.ndarray, probs: np.ndarray, chosen: int, tokens: list[str]) -> go.Figure:
    """The query's scores and their softmax, key by key; the chosen key in orange, masked keys left out."""
    keys = labelled(tokens)
    shown = scores > MASKED_BELOW
    colours = [CHOSEN if j == chosen else INK for j in range(len(keys))]
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=("score s_ij", "softmax p_ij"))  # short: it may stand in a narrow column
    fig.add_trace(go.Bar(y=[k for k, s in zip(keys, shown) if s], x=scores[shown], orientation="h",
                         marker_color=[c for c, s in zip(colours, shown) if s],
                         hovertemplate="%{y}: %{x:.4f}<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Bar(y=keys, x=probs, orientation="h", marker_color=colours,
                         hovertemplate="%{y}: %{x:.4f}<extra></extra>"), row=1, col=2)
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3)
    return _layout(fig, min(560, 110 + 24 * len(keys)), None).update_layout(margin_t=36)  # the panels' titles


def norm_histograms(before: np.ndarray, after: np.ndarray, dim: int) -> go.Figure:
    """A token's numbers before and after a norm: after LayerNorm they are centred and of one spread; after RMSNorm
    of one root mean square, not centred (its histogram stays where it was, narrowed or widened)."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.22,
                        subplot_titles=(f"before: mean {before.mean():.3f}, std {before.std():.3f}",
                                        f"after: mean {np.mean(after):.3f}, std {np.std(after):.3f}"))
    for row, values in ((1, before), (2, after)):
        fig.add_trace(go.Histogram(x=np.asarray(values, dtype=np.float32), nbinsx=40, marker_color=PALE_INK,
                                   hovertemplate="%{x}: %{y} numbers<extra></extra>"), row=row, col=1)
        fig.add_vline(x=float(values[dim]), line=dict(color=CHOSEN, width=3), row=row, col=1)
    return _layout(fig, 380, f"{before.size} numbers; dimension {dim} in orange")


def activation_curve(xs: np.ndarray, ys: np.ndarray, point: float, name: str) -> go.Figure:
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=INK, width=3),
                               hovertemplate=f"{name}(%{{x:.3f}}) = %{{y:.3f}}<extra></extra>"))
    at = float(np.interp(point, xs, ys)) if xs[0] <= point <= xs[-1] else None
    if at is not None:
        fig.add_trace(go.Scatter(x=[point], y=[at], mode="markers", marker=dict(size=16, color=CHOSEN)))
    fig.update_xaxes(title="pre-activation", zeroline=True)
    fig.update_yaxes(title=name, zeroline=True)
    return _layout(fig, 340, f"{name}, at this number's input")


def rotation_arrows(before: tuple[float, float], after: tuple[float, float], angle: float) -> go.Figure:
    """A pair of dimensions as an arrow, before and after the rotation by its angle: the length stays."""
    fig = go.Figure()
    for (x, y), colour, name in ((before, PALE_INK, "before"), (after, INK, "after")):
        fig.add_annotation(x=x, y=y, ax=0, ay=0, xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                           arrowhead=2, arrowwidth=3, arrowcolor=colour, text="")
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers+text", text=[name], textposition="top center",
                                 marker=dict(color=colour, size=8)))
    reach = 1.2 * max(np.hypot(*before), 1e-6)
    fig.update_xaxes(range=[-reach, reach], zeroline=True, title="first of the pair")
    fig.update_yaxes(range=[-reach, reach], zeroline=True, scaleanchor="x", title="second of the pair")
    return _layout(fig, 380, f"turned by θ = {angle:.3f} rad ({np.degrees(angle) % 360:.1f}°)")


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
    for col, name in enumerate(columns, start=2):
        fig.add_trace(go.Bar(y=keys, x=np.asarray(row[name], dtype=np.float32), orientation="h",
                             marker_color=colours, hovertemplate="%{y}: %{x:.4f}<extra></extra>"), row=1, col=col)
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 3)
    fig.update_xaxes(title_text="dimension", row=1, col=1)
    return _layout(fig, min(620, 140 + 24 * len(keys)), f"BertViz's neuron view, with numbers: query {keys[query]}")


# the figure of each kind an operation names (ops.Figure), by that kind
DRAWN = {Figure.TERMS: _terms, Figure.SOFTMAX_ROW: _softmax_row, Figure.HISTOGRAMS: _histograms, Figure.CURVE: _curve,
         Figure.ARROWS: _arrows}
