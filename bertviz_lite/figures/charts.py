"""The charts of every page, as pure functions of arrays and token strings (never a model), sized for a projector,
in the app's one visual language (`style.py`: colour scales by what a number is, colours by what a series is).

Every figure keeps what it sends to the browser small: numpy arrays travel as binary float32, and large
matrices are cut to the window the reader looks at (see `MAX_CELLS`).
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..kinds import Series
from .style import (BLUE, CHOSEN, CHOSEN_HALO, FONT, INVISIBLE, SHARE, as_colour_axis, category_edges, colour_scale,
                    columns_of_panels, every_token, labelled, matrix_height, series_colour,
                    written_in_cells)
from .described import described
from .template import value_of
from ..ops.figure_words import pooled
from ..ops.recipe import call, fmt, var

MAX_CELLS = 65_536  # per heatmap: 256 x 256 float32 is about 0.45 MB of JSON
MAX_BARS = 64  # bars in one chart before a dot per value reads better (token_norms)
WINDOW = 64  # dimensions a matrix window shows at a time (the stepper's, the app's and an exported site's)
MAX_CLICKABLE = 4_096  # cells that get a click target (64 x 64); beyond, the page's selectors pick a cell
TOKEN_MATRIX_PX, WINDOW_PX = 260, 200  # a token-by-token matrix's room beside its rows (rotated column labels), a
# window of dimensions' (its numbers across)


def _layout(fig: go.Figure, height: int, title: str | None = None, point: str | None = None) -> go.Figure:
    """The figure sized and titled (`layout_of`), and where it is given, its point in words (figures/described.py)."""
    fig.update_layout(**layout_of(height, title))
    return described(fig, point) if point else fig


def layout_of(height: int, title: str | None = None) -> dict:
    """Every figure's size, type and margins, as layout settings: a figure built in one go passes them to
    go.Figure with its own (each later update costs Plotly about a millisecond)."""
    lines = title.count("<br>") if title else 0  # a title of two lines takes a line more above the plot
    return dict(height=height, font=FONT, margin=dict(l=10, r=10, t=50 + 26 * lines if title else 10, b=10),
                title=title)


def attention_heatmap(probs: np.ndarray, tokens: list[str], title: str, colorbar: str = "attention",
                      axes: tuple[str, str] = ("query (attends)", "key (attended to)"), clickable: bool = False,
                      chosen: tuple[int, int] | None = None, signed: bool | None = None,
                      scale: str | None = None) -> go.Figure:
    """One head's (T, T) matrix: rows are the tokens that attend (queries), columns those attended to (keys);
    `axes` names them otherwise for other token-to-token matrices (rollout, contributions). `clickable`: each cell
    answers a click (see `click_targets`); `chosen`: the cell an explanation is about, outlined; `scale` (a name in
    style.SCALES) or `signed`: its colours, as `colour_scale` says.

    Above MAX_CELLS the matrix is averaged over blocks of tokens (and the title says so), which keeps a
    512-token view under half a megabyte."""
    side = int(MAX_CELLS**0.5)
    labels, step = _axis_labels(tokens, side)
    z = _pool(probs, side)
    if step > 1:
        title = POOLED_TITLE.format(title=title, step=step)
    fig = go.Figure(go.Heatmap(z=z, x=labels, y=labels, **colour_scale(z, signed=signed, scale=scale),
                               colorbar=dict(title=colorbar),
                               **_written(z), hovertemplate="query %{y}<br>key %{x}<br>%{z:.4f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title=axes[0], type="category", **every_token(len(labels)))
    fig.update_xaxes(title=axes[1], type="category", tickangle=-60, **every_token(len(labels)))
    if step == 1:
        _mark_and_click(fig, z, labels, labels, clickable, chosen, "query %{y}<br>key %{x}")
    return _layout(fig, int(value_of(matrix_height(len(labels), TOKEN_MATRIX_PX), {})), title,
                   f"Rows: {axes[0]}; columns: {axes[1]}; each cell's colour (and its number, where written), what "
                   "its colour bar names.")  # words a template keeps: not the colour bar's name, which it fills


def _written(z: np.ndarray) -> dict:
    """Each cell's value written in it, where the matrix is small enough to read them."""
    return dict(texttemplate="%{z:.2f}", textfont=dict(size=FONT["size"] - 2)) if written_in_cells(z.shape) else {}


OUTLINE = ((CHOSEN_HALO[0], 10), (CHOSEN_HALO[1], 6), (CHOSEN, 3))  # a chosen cell's lines, each on the one before


def _mark_and_click(fig: go.Figure, z: np.ndarray, xs: list, ys: list, clickable: bool,
                    chosen: tuple[int, int] | None, where: str, first_column: int = 0) -> None:
    """Outline the chosen cell; and where the matrix is small enough, lay a click target on every cell. The axes
    end at the cells' edges: Plotly would pad them by a marker's radius, a blank band round the matrix."""
    fig.update_xaxes(range=_edges(xs), autorange=False)
    fig.update_yaxes(range=_edges(ys)[::-1], autorange=False)  # the first row on top, as "reversed" has it
    if chosen is not None and chosen[0] < len(ys) and chosen[1] < len(xs):  # the cell's own edges, round its
        # number (a marker of a fixed size crossed "0.02" on a projector)
        x, y = _centre(xs, chosen[1]), _centre(ys, chosen[0])
        for colour, width in OUTLINE:
            fig.add_shape(type="rect", xref="x", yref="y", x0=x - 0.5, x1=x + 0.5, y0=y - 0.5, y1=y + 0.5,
                          line=dict(color=colour, width=width), fillcolor="rgba(0,0,0,0)", layer="above")
    if clickable and z.size <= MAX_CLICKABLE:
        fig.add_trace(click_targets(z, xs, ys, where, first_column))
        fig.data[0].hoverinfo = "skip"  # the targets say the value instead
        fig.update_layout(clickmode="event+select", dragmode=False, hovermode="closest")


def _centre(values: list, k: int) -> float:
    """Where the k-th cell's centre is on its axis: its position for labels (a category axis), its value for numbers
    (a window's dimensions)."""
    return k if isinstance(values[k], str) else values[k]


def _edges(values: list) -> list[float]:
    """An axis's range from its first cell's edge to its last's: by position for labels (a category axis), by
    value for numbers (a window's dimensions, 64 to 127)."""
    if values and not isinstance(values[0], str):
        return [values[0] - 0.5, values[-1] + 0.5]
    return value_of(category_edges(len(values)), {}).tolist()


def click_targets(z: np.ndarray, xs: list, ys: list, where: str, first_column: int = 0) -> go.Scatter:
    """An almost invisible marker on each cell's centre: Plotly's heatmaps answer no click in Streamlit, a scatter's
    points do, with the cell's "row,column" (of the whole matrix) in customdata, as the URL writes a cell.

    A string per cell and the values as the markers' (numeric, so compactly sent) colour, not a [row, column, value]
    list per cell: 4,096 small lists per figure made up most of what a cached figure held, of what the garbage
    collector scanned, and of the time each run spent copying the figure to send it. A masked cell (NaN) says NaN
    on hover."""
    rows, columns = np.divmod(np.arange(z.size), z.shape[1])
    return go.Scatter(x=[xs[c] for c in columns], y=[ys[r] for r in rows], mode="markers",
                      marker=dict(symbol="square", size=14, opacity=0.01, color=z.ravel().astype(np.float32),
                                  colorscale=[[0, INVISIBLE], [1, INVISIBLE]]), showlegend=False,
                      # a plain list: Streamlit hands a clicked point's customdata back only from a list
                      customdata=[f"{r},{c + first_column}" for r, c in zip(rows.tolist(), columns.tolist())],
                      hovertemplate=f"{where}<br>%{{marker.color:.4f}}<br>click to explain<extra></extra>")


def _axis_labels(tokens: list[str], max_side: int) -> tuple[list[str], int]:
    """Labels for a token axis of at most max_side cells, and the block size: the tokens themselves, or
    'first–last' positions of each block when `_pool` averages over blocks of tokens (BLOCK_LABELS)."""
    step = -(-len(tokens) // max_side)
    if step == 1:
        return labelled(tokens), 1
    return list(value_of(BLOCK_LABELS, {"n": len(tokens), "step": step})), step


BLOCK_LABELS = call("each", call("range", call("ceil", var.n / var.step)), fmt(
    "{first}–{last}", first=call("int", var.k * var.step),
    last=call("int", call("min", (var.k + 1) * var.step, var.n) - 1)))
# each block's 'first–last' positions, of `n` tokens in blocks of `step`: the app's and a template's
POOLED_TITLE = "{title} (averaged over blocks of {step} tokens)"


def _pool(matrix: np.ndarray, max_side: int) -> np.ndarray:
    """Average blocks so that neither side exceeds max_side (small multiples only show the pattern)."""
    return pooled(matrix, -(-max(matrix.shape) // max_side))


def matrix_window(matrix: np.ndarray, tokens: list[str], first_dim: int, title: str,
                  width: int = WINDOW, clickable: bool = False, chosen: tuple[int, int] | None = None) -> go.Figure:
    """Tokens × a window of `width` dimensions of a (T, n) array; diverging colours centred on 0. `clickable` and
    `chosen` (token, dimension) as for attention_heatmap."""
    window = matrix[:, first_dim: first_dim + width].astype(np.float32)
    dims = list(range(first_dim, first_dim + window.shape[1]))
    rows = labelled(tokens)
    fig = go.Figure(go.Heatmap(z=window, x=dims, y=rows, **colour_scale(window, signed=True),
                               colorbar=dict(title="value"),
                               hovertemplate="token %{y}<br>dim %{x}<br>%{z:.4f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category", title="token", **every_token(len(rows)))
    fig.update_xaxes(title=f"dimension ({first_dim}–{dims[-1]} of {matrix.shape[1]})")
    shown = None if chosen is None or not first_dim <= chosen[1] < first_dim + window.shape[1] else \
        (chosen[0], chosen[1] - first_dim)
    _mark_and_click(fig, window, dims, rows, clickable, shown, "token %{y}<br>dim %{x}", first_dim)
    return _layout(fig, int(value_of(matrix_height(len(tokens), WINDOW_PX), {})), title,
                   "One row per token (or per distance: the rows say which) and one column per dimension of the "
                   "window shown (its axis says which): each cell, the number there, blue above 0 and red below.")
    # a template's words: no number of its own


def token_norms(series: dict[str, np.ndarray], tokens: list[str], title: str,
                kinds: dict[str, Series | None] | None = None) -> go.Figure:
    """The length ‖x‖ of each token's vector at several sub-steps: what a residual add and LayerNorm do. `kinds`
    says what each series is (`Node.series`: a sum, a norm's output, the input), which fixes its colour.

    Grouped bars up to MAX_BARS bars; beyond, a dot per token and sub-step (40 tokens × 4 sub-steps would be 160
    bars of a few pixels each on a projector), each series' dots smaller than the one before, so that a length
    the next sub-step keeps (a residual add that barely changes it) shows as a dot inside a ring."""
    kinds = kinds or {}
    dots = len(tokens) * len(series) > MAX_BARS
    fig = go.Figure([_lengths(values, tokens, order if dots else None).update(
                         name=name, marker_color=series_colour(kinds.get(name)),
                         hovertemplate=f"{name}<br>%{{x}}<br>‖x‖ = %{{y:.3f}}<extra></extra>")
                     for order, (name, values) in enumerate(series.items())])
    fig.update_layout(barmode="group")  # legend on the right: above the plot it collides with the title
    fig.update_xaxes(type="category", tickangle=-60, title="token", **every_token(len(tokens)))
    fig.update_yaxes(title="vector length ‖x‖", rangemode="tozero")
    return _layout(fig, 460, title, "Each token's vector length in each series of the legend: what each step "
                                    "does to the vectors' size.")


def _lengths(values: np.ndarray, tokens: list[str], dot: int | None) -> go.Bar | go.Scatter:
    """Each token's vector length (values: (T, d)) as bars, or as the `dot`-th series of nested dots."""
    lengths = np.linalg.norm(values, axis=-1).astype(np.float32)  # (T,)
    if dot is None:
        return go.Bar(x=labelled(tokens), y=lengths)
    return go.Scatter(x=labelled(tokens), y=lengths, mode="markers", marker=dict(size=max(5, 14 - 3 * dot)))


def layer_head_grid(grid: np.ndarray, title: str, colorbar: str) -> go.Figure:
    """An (L, H) statistic, one cell per attention head, its value written in the cell and on hover."""
    layers, heads = grid.shape
    fig = go.Figure(go.Heatmap(z=grid.astype(np.float32), x=[str(h) for h in range(heads)],
                               y=[str(layer) for layer in range(layers)], **colour_scale(grid),
                               texttemplate="%{z:.2f}", textfont=FONT,
                               colorbar=dict(title=colorbar),
                               hovertemplate="layer %{y}, head %{x}<br>%{z:.4f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category", title="layer")
    fig.update_xaxes(type="category", title="head")
    return _layout(fig, 140 + 36 * layers, title,
                   f"One row per layer and one column per attention head: each cell, the head's {colorbar}.")


def matrices_side_by_side(matrices: dict[str, np.ndarray], tokens: list[str], max_side: int = 64,
                          colorbar: str = "value", axes: tuple[str, str] = ("receives", "gives"),
                          chosen: str | None = None, title: str | None = None, per_row: int | None = None) -> go.Figure:
    """Several (T, T) token-to-token matrices in a row (or rows of `per_row`) on one colour scale with one colour
    bar: rows are the tokens that receive (queries), columns the tokens they take from (`axes` names them). Above
    max_side tokens, averaged over blocks (the title says so); up to 32 tokens, every column is labelled in every
    panel of the bottom row, else every k-th by its number (the axis's title says so). The `chosen` panel's title
    is marked (the step on screen)."""
    labels, step = _axis_labels(tokens, max_side)
    titles = [f"<b>▸ {name} ◂</b>" if name == chosen else name for name in matrices]
    pooled = {name: _pool(matrix, max_side) for name, matrix in matrices.items()}
    per_row = per_row or len(pooled)
    rows = -(-len(pooled) // per_row)
    columns = columns_of_panels(labels, per_row)
    numbered = columns.get("tickmode") == "array"
    if step > 1:
        averaged = f"averaged over blocks of {step} tokens"
        title = f"{title} ({averaged})" if title else averaged
    layout = grid_of_panels(titles, per_row)  # every setting in one layout: plotly's updates cost ~1 ms each
    for k in range(len(titles)):
        axis = "" if k == 0 else str(k + 1)
        bottom, first = k + per_row >= len(titles), k % per_row == 0  # the bottom row names the columns, the first
        layout[f"xaxis{axis}"].update({"type": "category", "tickangle": -60, "showticklabels": bottom,  # column rows
                                       "title": (f"{axes[1]}<br>(numbered as the rows)" if numbered and k ==
                                                 len(titles) - per_row else axes[1]) if bottom else None,
                                       "tickfont": dict(size=FONT["size"] - 4), **columns})
        layout[f"yaxis{axis}"].update(autorange="reversed", type="category", showticklabels=first,
                                      title=axes[0] if first else None, **(every_token(len(labels)) if first else {}))
    layout["coloraxis"] = as_colour_axis(colour_scale(*pooled.values()), colorbar)
    traces = [dict(type="heatmap", z=z, x=labels, y=labels, coloraxis="coloraxis",  # a dict: checked once, by
                   xaxis=f"x{'' if col == 1 else col}", yaxis=f"y{'' if col == 1 else col}",  # go.Figure
                   hovertemplate=f"{name}<br>{axes[0]} %{{y}}<br>{axes[1]} %{{x}}<br>%{{z:.4f}}<extra></extra>",
                   **_written(z))  # where the cells are few enough (figures/cell_numbers.py leaves out what does not fit)
              for col, (name, z) in enumerate(pooled.items(), start=1)]
    layout.update(layout_of(min(620 * rows, 260 + (12 * min(len(tokens), max_side) + 60) * rows - 60), title))
    layout["margin"]["t"] = 70 if title else 40  # the figure's title above the panels' titles
    return described(go.Figure(traces, layout), f"Rows: {axes[0]}; columns: {axes[1]}; each cell's colour (and its "
                     "number, where written), what the colour bar names, on one scale for every panel.")  # words a
    # template keeps: not the panels' names or the colour bar's, which it fills


def grid_of_panels(titles: list[str], per_row: int, spacing: float = 0.03, row_gap: float = 0.1) -> dict:
    """A layout of len(titles) panels in rows of `per_row`, each with its own x and y axis and its title above it,
    as `make_subplots(rows, cols=per_row, subplot_titles=titles)` lays them out, without its cost (10-40 ms a
    figure, most of a side-by-side view's time)."""
    rows = -(-len(titles) // per_row)
    width = (1 - spacing * (per_row - 1)) / per_row
    height = (1 - row_gap * (rows - 1)) / rows
    layout = {"annotations": []}
    for k, title in enumerate(titles):
        row, col = divmod(k, per_row)
        left, top, axis = col * (width + spacing), 1 - row * (height + row_gap), "" if k == 0 else str(k + 1)
        layout[f"xaxis{axis}"] = dict(domain=[left, min(1.0, left + width)], anchor=f"y{axis}")
        layout[f"yaxis{axis}"] = dict(domain=[max(0.0, top - height), top], anchor=f"x{axis}")  # no -5e-17
        layout["annotations"].append(dict(text=title, x=left + width / 2, y=top, xref="paper", yref="paper",
                                          xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=16)))
    return layout


def mixing_lines(ratios: dict[str, list[float] | None], labels: dict[str, str], title: str) -> go.Figure:
    """One line per choice of m: each layer's mixing ratio (the share that comes from other tokens); a choice
    the model does not have (None: no LayerNorm after a pre-norm block) gets no line."""
    fig = go.Figure([go.Scatter(x=list(range(len(values))), y=values, mode="lines+markers", name=labels[name],
                                hovertemplate=f"{labels[name]}<br>layer %{{x}}: %{{y:.3f}}<extra></extra>")
                     for name, values in ratios.items() if values is not None])
    fig.update_xaxes(title="layer", dtick=1)
    fig.update_yaxes(title="mixing ratio", range=[0, 1])
    return _layout(fig, 420, title, "Each layer's mixing ratio, the share of a token's new vector that comes from "
                                    "other tokens, one line per way of measuring it.")


def mixture_by_layer(rows: np.ndarray, tokens: list[str], title: str) -> go.Figure:
    """(L, T): one token's input mixture after each layer; row l says how much comes from each input token."""
    fig = go.Figure(go.Heatmap(z=rows.astype(np.float32), x=labelled(tokens),
                               y=[f"after layer {layer}" for layer in range(rows.shape[0])], **colour_scale(rows),
                               colorbar=dict(title="share"),
                               hovertemplate="%{y}<br>from %{x}<br>%{z:.4f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category", tickangle=-60, **every_token(len(tokens)))
    return _layout(fig, min(700, 200 + 30 * rows.shape[0]), title,
                   "One row per layer: how much of the token's vector after it comes from each input token.")


STREAM_LOW = call("min", 0.9, call("floor", call("min_of", call("finite", var.z)) * 10) / 10)  # the residual
# stream's scale's lowest cosine, in tenths, of its cosines `z`: the app's and a template's


def stream_changes(cosines: np.ndarray, tokens: list[str], title: str) -> go.Figure:
    """(L, T): for each layer and token, the cosine between the token's vector before and after the layer. The
    cosines of a residual stream lie near 1 (a layer adds to the vector, it does not replace it): the scale runs
    from the lowest one (in tenths) to 1, darker where a layer turned the vector more, with the numbers written
    where they fit."""
    z = cosines.astype(np.float32)
    low = float(value_of(STREAM_LOW, {"z": z})) if z.size else 0.0
    fig = go.Figure(go.Heatmap(z=z, x=labelled(tokens), y=[f"layer {layer}" for layer in range(cosines.shape[0])],
                               colorscale=SHARE, reversescale=True, zmin=low, zmax=1, colorbar=dict(title="cosine"),
                               texttemplate="%{z:.2f}", textfont=dict(size=FONT["size"] - 2),
                               hovertemplate="%{y}<br>%{x}<br>cosine %{z:.3f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category", tickangle=-60, **every_token(len(tokens)))
    return _layout(fig, min(620, 200 + 30 * cosines.shape[0]), title,
                   "One row per layer and one column per token: the cosine between the token's vector before and "
                   "after the layer, darker where the layer turned it more.")


def vector_bars(vector: np.ndarray, title: str) -> go.Figure:
    """One vector's numbers as bars, dimension by dimension."""
    fig = go.Figure(go.Bar(x=np.arange(vector.size), y=vector.astype(np.float32), marker_color=BLUE,
                           hovertemplate="dimension %{x}<br>%{y:.4f}<extra></extra>"))
    fig.update_xaxes(title="dimension")
    fig.update_yaxes(title="value")
    return _layout(fig, 420, title, "The vector's numbers, one bar per dimension.")


def lens_grid(layers: list[list[tuple[str, float]]], title: str, measure: str = "probability") -> go.Figure:
    """The top tokens at each hidden state, coloured by `measure` (a probability, or a cosine on the signed
    scale): rows are the embeddings and each layer."""
    probs = np.array([[p for _, p in top] for top in layers], dtype=np.float32)  # (L + 1, k)
    text = value_of(LENS_WORDS, {"pieces": [[token for token, _ in top] for top in layers], "z": probs})
    names = ["embeddings"] + [f"layer {i}" for i in range(len(layers) - 1)]
    fig = go.Figure(go.Heatmap(z=probs, x=[f"#{k + 1}" for k in range(probs.shape[1])], y=names, text=text,
                               texttemplate="%{text}", textfont=dict(size=FONT["size"] - 2),
                               **colour_scale(probs, signed=measure == "cosine"), colorbar=dict(title=measure),
                               hovertemplate="%{y}, %{x}: %{text}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(type="category", title="rank")
    return _layout(fig, 160 + 44 * len(layers), title, LENS_POINTS[measure])


LENS_POINTS = {"probability": "One row for the embeddings and one per layer: the tokens the masked-LM head predicts "
                              "from the hidden state there, the likeliest first, each with its probability.",
               "cosine": "One row for the embeddings and one per layer: the vocabulary pieces nearest the hidden "
                         "state there, the nearest first, each with its cosine (not a prediction)."}


LENS_WORDS = call("rows_of", call("each", call("range", call("len", call("cells", var.pieces))), fmt(
    "{t}<br>{p:.2f}", t=call("escaped", call("cells", var.pieces)[var.k]), p=call("flat", var.z)[var.k])),
    call("width", var.z))  # each cell's piece and its number, of `pieces` (rows of them) and `z`: the app's and a
# template's


def context_lines(cosines: dict[str, list[float]], title: str) -> go.Figure:
    """One line per word: the cosine of its vectors in two sentences after the embeddings and after each layer."""
    fig = go.Figure()
    for word, values in cosines.items():
        stages = ["embeddings"] + [f"layer {layer}" for layer in range(len(values) - 1)]  # layers count from 0
        fig.add_trace(go.Scatter(x=stages, y=values, mode="lines+markers", name=word,
                                 hovertemplate=f"{word}<br>after %{{x}}: %{{y:.3f}}<extra></extra>"))
    fig.update_xaxes(title="after", type="category")
    fig.update_yaxes(title="cosine of the word's two vectors")
    return _layout(fig, 440, title, "One line per word: how alike its vectors in the two sentences are after the "
                                    "embeddings and after each layer (1: the same direction).")


def mixing_by_depth(series: dict[str, tuple[list[float], list[float]]], title: str) -> go.Figure:
    """Lines of (relative depth, mixing ratio): one per model and measure, so models of any depth share the axis."""
    fig = go.Figure([go.Scatter(x=depths, y=values, mode="lines+markers", name=name,
                                line=dict(dash="dot" if name.endswith("attention") else "solid"),
                                hovertemplate=f"{name}<br>depth %{{x:.2f}}: %{{y:.3f}}<extra></extra>")
                     for name, (depths, values) in series.items()])
    fig.update_xaxes(title="relative depth (layer / number of layers)", range=[0, 1.02])
    fig.update_yaxes(title="mixing ratio", range=[0, 1])
    fig.update_layout(legend=dict(orientation="h", y=-0.3))
    return _layout(fig, 460, title, "Each model's mixing ratio by relative depth, so that models of any depth share "
                                    "the axis: one line per model and measure.")
