"""BertViz's head view and model view as Plotly figures: pure functions of the lines and thumbnails that
`analyses.attention_views` computes, with numbers on hover and a click on any token or thumbnail; and a layer's
heads as small multiples (`head_grid`), under the stepper's attention steps.

Colours: Paul Tol's discrete rainbow (https://personal.sron.nl/~pault/, "Colour Schemes", Fig. 22), the set he
gives for the number of heads shown (up to 23), designed to stay distinct for colour-blind readers too; on a dark
canvas as in BertViz, so that its pale colours show. Past 23 heads the colours repeat, and the legend and the
hover name every head. A line's opacity is its weight, rounded to tenths (one trace per head and tenth keeps a
512-token view small)."""
from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
import torch

from ..attention_lines import MIN_WEIGHT, Lines, line_segments, opacity_tenths
from ..ops.recipe import call, var
from .charts import FONT, _layout, _pool
from .described import described
from .fit import KEEPS_HEIGHT, SMALLEST
from .style import CANVAS, CANVAS_TEXT, INVISIBLE, LIT, SHARE, TOL_RAINBOW, plotly_text
from .template import value_of

TOL_SETS = {  # how many colours -> which of TOL_RAINBOW (his table, for 12 to 23; fewer heads use the 12-set)
    12: [2, 5, 8, 9, 11, 13, 14, 16, 17, 20, 23, 25], 13: [2, 5, 8, 9, 11, 13, 14, 15, 16, 17, 20, 23, 25],
    14: [2, 5, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25], 15: [2, 5, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25, 27],
    16: [2, 4, 6, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25, 27],
    17: [2, 4, 6, 7, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25, 27],
    18: [2, 4, 6, 7, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25, 26, 27],
    19: [1, 3, 4, 6, 7, 8, 9, 11, 13, 14, 15, 16, 17, 19, 21, 23, 25, 26, 27],
    20: [1, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 19, 21, 23, 25, 26, 27],
    21: [1, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 25, 26, 27],
    22: [1, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 25, 26, 27, 28],
    23: [0, 1, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 25, 26, 27, 28]}
ROW_PX = 24  # per token, where the height allows: room for a 16-pixel label
LEAST_ROW_PX = 15  # per token at the least: a 12-pixel label (a longer sentence scrolls in its box)
SHORT_PX = 460  # a short sentence spreads over this much height, so that its lines can be told apart
NOTHING_DRAWN = "No weight here reaches {weight}: no line to draw"
MOST_SAID = 3  # a focused token's strongest lines said aloud (the grid's cell holds them all)
LINES_SAID = {  # a token's lines in words: for a keyboard's walk and a screen reader (frontend/src/token_lines.js reads
    # them from the token's marks), and when its lines are kept alone (the app's page, a site's head_view.js). Fields as
    # a hover template's; a weight is as drawn, its tenth (the line's opacity)
    side: {"side": word, "line": f"%{{name}} {to} %{{index}} %{{token}}: %{{weight:.1f}}",
           "count": "%{count} lines drawn", "one": "1 line drawn", "none": "no line drawn", "more": "and %{count} more", "most": MOST_SAID,
           "alone": f"What {word} %{{index}} '%{{token}}' {does}",
           "every": f"Show every line (now only {word} %{{index}} '%{{token}}')"}
    for side, word, to, does in (("q", "query", "to key", "puts on each key"),
                                ("k", "key", "from query", "gets from each query"))}
HEAD_VIEW_PX = 580  # the head view's height on a projector, under lecture mode's top margin and a random-weights
# line: whole above the fold


def head_colours(num_heads: int) -> list[str]:
    """One colour per head, distinct for up to 23 heads (then repeating)."""
    palette = [TOL_RAINBOW[i] for i in TOL_SETS[min(max(num_heads, 12), 23)]]
    return [palette[h % len(palette)] for h in range(num_heads)]


N = var.n  # an expression: the rows a head view draws, its tokens (or words)


def row_pitch(most_px: int | None):
    """A row's height: ROW_PX, or within a screen `most_px` high the rows closer, down to LEAST_ROW_PX. These rules
    are expressions (ops/recipe.py) over `n`, which `head_view` works out and a live site's template fills
    (`head_view_template`): one rule for an exported sentence and a typed one."""
    return ROW_PX if most_px is None else call("max", LEAST_ROW_PX, call("min", ROW_PX, (most_px - 120) / N))


def label_px(pitch):
    """A token's label: as large as its row allows, at most the figure's type."""
    return call("int", call("min", FONT["size"], call("floor", pitch / 1.25)))


def view_px(pitch):
    """The head view's height: its rows and room for the title, at least SHORT_PX."""
    return call("max", SHORT_PX, call("round", 120 + pitch * N))


def lines_said(side: str, part: str, **fields) -> str:
    """`LINES_SAID[side][part]` with its whole fields filled (%{name}; not a number's %{weight:.1f}), as a site's
    browser fills them (frontend/src/hover_words.js cellWords).

    >>> lines_said("q", "every", index=3, token="cat")
    "Show every line (now only query 3 'cat')"
    """
    return re.sub(r"%\{(\w+)\}", lambda m: str(fields[m.group(1)]), LINES_SAID[side][part])


def head_view(lines: Lines, queries: list[str], keys: list[str], num_heads: int, title: str,
              horizontal: bool = False, focus: tuple[str, int] | None = None, numbers: bool = False,
              most_px: int | None = None, heads: list[int] | None = None) -> go.Figure:
    """Queries in one column and keys in the other (or in two rows, `horizontal`), a line per weight in its head's
    colour. Every token is a click target (customdata [side, index], side "q" or "k"); `focus` marks the token
    whose lines these are, and `numbers` writes each line's weight at its far end (for one head). `most_px`: the
    height to keep within (a projector's screen), the rows closer and their labels smaller to fit, down to
    LEAST_ROW_PX a row (`rows_fit` says whether they do). `heads`: those in the legend (else those with a line)."""
    fig = _head_view(lines, queries, keys, num_heads, title, horizontal, focus, numbers, most_px, heads)
    fig.data = [trace for trace in fig.data if trace.mode != "lines" or len(trace.x)]  # a tenth with no line
    return fig


def _head_view(lines: Lines, queries: list[str], keys: list[str], num_heads: int, title: str, horizontal: bool,
               focus: tuple[str, int] | None, numbers: bool, most_px: int | None,
               heads: list[int] | None) -> go.Figure:
    """The head view with every head's ten traces, a tenth with no line too (a template's: `head_view_fills`)."""
    colours = head_colours(num_heads)
    queries, keys = [plotly_text(q) for q in queries], [plotly_text(k) for k in keys]  # `<s>` would vanish
    shown = sorted(set(lines.head.tolist())) if heads is None else list(heads)
    x, y, points = _segments(lines, shown, len(queries), len(keys))
    starts = np.concatenate([[0], np.cumsum(points)])
    traces = []
    for place, head in enumerate(shown):
        traces.append(_legend_entry(head, colours[head]))
        for tenth in range(10):  # the strongest first
            run = slice(starts[place * 10 + tenth], starts[place * 10 + tenth + 1])
            traces.append(_tenth(x[run], y[run], head, colours[head], (10 - tenth) / 10, horizontal))
    labels = []  # annotations, given to Plotly at once: one by one, their cost grows with the square of their number
    n = max(len(queries), len(keys))
    pitch = ROW_PX if horizontal else value_of(row_pitch(most_px), {"n": n})
    size = value_of(label_px(pitch), {})
    for side, tokens in (("q", queries), ("k", keys)):
        marks, upright = _tokens(tokens, side, horizontal, focus, size)
        traces.append(marks)
        labels += upright
    if numbers and focus is not None:
        labels += _numbers(lines, focus, horizontal)
    if not len(lines.weight):  # said in the canvas: an empty dark canvas on a projector looks broken
        labels.append(_nothing_drawn(max(len(queries), len(keys)), horizontal))
    return _style(go.Figure(traces, layout=dict(annotations=labels)), n, title, horizontal, pitch)


def _segments(lines: Lines, shown: list[int], queries: int, keys: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The lines of the heads `shown` as attention_lines.line_segments draws them: x, y and each (head, tenth)'s
    points, flattened."""
    tenths = torch.zeros(len(shown), queries, keys)
    place = np.searchsorted(np.asarray(shown), lines.head) if len(shown) else lines.head
    tenths[place, lines.query, lines.key] = opacity_tenths(torch.from_numpy(lines.weight))
    x, y, points = line_segments(tenths)
    return x.numpy(), y.numpy(), points.reshape(-1).numpy()


def head_view_template(num_heads: int, title: str, most_px: int | None = None) -> go.Figure:
    """The site's head view (every head, queries left) as a template's figure (figures/template.py): the figure for an
    empty two-token sentence, which `head_view_fills` makes a sentence's."""
    empty = Lines(*(np.zeros(0, int),) * 3, np.zeros(0, np.float32), 0, None)
    return _head_view(empty, ["", ""], ["", ""], num_heads, title, False, None, False, most_px, list(range(num_heads)))


def head_view_fills(num_heads: int, most_px: int | None = None) -> tuple[dict, dict]:
    """The fills and drops that make `head_view_template`'s figure a sentence's, from its names: `n`, `labels` (its
    tokens) and the `views` graph's `x`, `y`, `points` of one layer (export/analysis_graphs.py: line_segments)."""
    fills, drops = {}, {}
    for place in range(num_heads):
        for tenth in range(10):
            at = 11 * place + 1 + tenth  # its legend entry, then its ten tenths
            fills[("data", at, "x")] = call("part", var.x, var.points, 10 * place + tenth)
            fills[("data", at, "y")] = call("part", var.y, var.points, 10 * place + tenth)
            drops[("data", at)] = call("at", var.points, place, tenth) == 0
    size = label_px(row_pitch(most_px))
    for at, side in ((11 * num_heads, "q"), (11 * num_heads + 1, "k")):
        fills.update({("data", at, "x"): call("repeat", 0.0 if side == "q" else 1.0, N),
                      ("data", at, "y"): call("range", N), ("data", at, "text"): var.labels,
                      ("data", at, "textfont", "color"): call("repeat", CANVAS_TEXT, N),
                      ("data", at, "textfont", "size"): size, ("data", at, "marker", "size"): call("min", 12, size),
                      ("data", at, "marker", "color"): call("repeat", CANVAS_TEXT, N),
                      ("data", at, "customdata"): call("zip", call("repeat", side, N), call("range", N))})
    fills[("layout", "yaxis", "range")] = call("list", N - 0.5, -0.8)
    fills[("layout", "annotations", 0, "y")] = (N - 1) / 2
    drops[("layout", "annotations", 0)] = call("<", 0, call("sum", var.points))
    return fills, drops


def rows_fit(tokens: int, most_px: int) -> bool:
    """Whether a head view of `tokens` rows keeps within `most_px` (else it is drawn taller, to scroll in a box)."""
    return not value_of(scrolls(most_px), {"n": tokens})


def scrolls(most_px: int):
    """Whether a head view's rows pass `most_px` at their closest, over `n`."""
    return call("<", most_px, 120 + LEAST_ROW_PX * N)


def _legend_entry(head: int, colour: str) -> go.Scatter:
    """The head's entry in the legend, at full opacity whatever its weights (its lines' opacity is their weight:
    a head whose strongest line is 0.1 would be a faint entry on the dark ground). A click on it hides the
    head's lines (one legend group) and a double-click shows them alone."""
    return go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=colour, width=3), hoverinfo="skip",
                      name=f"head {head}", legendgroup=f"head {head}")


def _tenth(ends: np.ndarray, places: np.ndarray, head: int, colour: str, opacity: float,
           horizontal: bool) -> go.Scatter:
    """A head's lines of one tenth of opacity: a run of segments split by NaN (`ends` the sides, `places` the
    tokens), in the head's legend group."""
    x, y = (places, ends) if horizontal else (ends, places)
    return go.Scatter(x=x, y=y, mode="lines", line=dict(color=colour, width=3), opacity=opacity, hoverinfo="skip",
                      name=f"head {head}", legendgroup=f"head {head}", showlegend=False)


def _tokens(tokens: list[str], side: str, horizontal: bool, focus: tuple[str, int] | None,
            size: int = FONT["size"]) -> tuple[go.Scatter, list[dict]]:
    """A side's tokens as click targets, and (across) their labels turned upright, as annotations."""
    n = len(tokens)
    where = 0.0 if side == "q" else 1.0
    places = list(range(n))
    lit = [focus is not None and focus == (side, i) for i in places]
    colours = [LIT if on else CANVAS_TEXT for on in lit]
    word = "query" if side == "q" else "key"
    position = ("top center" if side == "q" else "bottom center") if horizontal else \
        ("middle left" if side == "q" else "middle right")
    marks = go.Scatter(
        x=places if horizontal else [where] * n, y=[where] * n if horizontal else places,
        mode="markers" if horizontal else "markers+text", text=tokens, textposition=position,
        textfont=dict(color=colours, size=size), marker=dict(size=min(12, size), color=colours, symbol="circle"),
        customdata=[[side, i] for i in places], showlegend=False, meta=LINES_SAID[side],
        hovertemplate=f"{word} %{{customdata[1]}} %{{text}}<br>click to keep only its lines<extra></extra>")
    if not horizontal:
        return marks, []
    return marks, [dict(x=i, y=where, text=token, textangle=-90, showarrow=False, font=dict(color=colours[i]),
                        yanchor="bottom" if side == "q" else "top", yshift=10 if side == "q" else -10)
                   for i, token in enumerate(tokens)]  # a scatter's text cannot turn


def _numbers(lines: Lines, focus: tuple[str, int], horizontal: bool) -> list[dict]:
    """Each line's weight near the token at its far end (the focused token is at the near end)."""
    far_side = 1.0 if focus[0] == "q" else 0.0
    far = lines.key if focus[0] == "q" else lines.query
    shift = 30 if focus[0] == "k" else -30  # along the line, off the token's marker
    return [dict(x=place if horizontal else far_side, y=far_side if horizontal else place, text=f"{w:.2f}",
                 showarrow=False, bgcolor=CANVAS, font=dict(color=LIT, size=FONT["size"]),
                 xshift=0 if horizontal else shift, yshift=-shift * 0.6 if horizontal else 0)
            for place, w in zip(far.tolist(), lines.weight.tolist())]


def _nothing_drawn(n: int, horizontal: bool) -> dict:
    """Why the canvas has no line, where no token's label is: across, between the two rows; else in the middle,
    between the columns, in three short lines that stay clear of the labels on either side."""
    x, y = ((n - 1) / 2, 0.5) if horizontal else (0.5, (n - 1) / 2)
    text = NOTHING_DRAWN.format(weight=f"{MIN_WEIGHT:g}")
    return dict(x=x, y=y, showarrow=False, text=text if horizontal else text.replace(" reaches", "<br>reaches")
                .replace(": ", ":<br>"), font=dict(color=LIT, size=FONT["size"]))


def _style(fig: go.Figure, n: int, title: str, horizontal: bool, pitch: float = ROW_PX) -> go.Figure:
    axis = dict(visible=False, fixedrange=True)
    if horizontal:
        fig.update_xaxes(axis, range=[-1, n])
        fig.update_yaxes(axis, range=[1.9, -0.9])  # queries on top, room for upright labels
        height = 520
    else:
        fig.update_xaxes(axis, range=[-0.9, 1.9])
        fig.update_yaxes(axis, range=[n - 0.5, -0.8])
        height = value_of(view_px(pitch), {"n": n})
    fig.update_layout(plot_bgcolor=CANVAS, paper_bgcolor=CANVAS, font_color=CANVAS_TEXT, hovermode="closest",
                      clickmode="event+select", dragmode=False,
                      legend=dict(title="heads", itemclick="toggle", itemdoubleclick="toggleothers",
                                  font_color=CANVAS_TEXT, title_font_color=CANVAS_TEXT))
    # the theme would draw the title dark
    fig = _layout(fig, height, title).update_layout(title_font_color=CANVAS_TEXT, meta=KEEPS_HEIGHT)
    return described(fig, HEAD_VIEW_POINT.format(sides="rows" if horizontal else "columns"))


HEAD_VIEW_POINT = ("The queries and the keys in two {sides}, a line from a query to each key it attends to, in its "
                   "head's colour and as strong as the weight: pick a token to keep only its lines.")


LEAST_TILE_PX = 24  # a model view's tile, at the least, where a screen's height is to hold every layer


def model_view_px(layers: int, heads: int, most_px: int | None = None) -> int:
    """The model view's height: square tiles in a canvas about 640 px wide, at most 1400 px, or `most_px` (a
    projector's screen: the tiles then smaller, down to LEAST_TILE_PX)."""
    tall = min(1400, 160 + 640 * layers // heads)
    return tall if most_px is None else max(min(tall, most_px), 160 + LEAST_TILE_PX * layers)


def model_view(shares: np.ndarray, title: str, most_px: int | None = None) -> go.Figure:
    """Every layer × head as a thumbnail of its (pooled) attention, shares (L, H, n, n) on one 0–1 scale: one
    tiled heatmap (a subplot per head would cost seconds for bert-large's 384), placed so that a tile's centre is
    at (head, layer) whatever its size (`tiled`), a click target on each tile (customdata [layer, head])."""
    layers, heads = shares.shape[:2]
    canvas, placing = tiled(torch.from_numpy(np.asarray(shares, np.float32)))
    start, spacing = placing.tolist()
    fig = go.Figure(go.Heatmap(z=canvas.numpy(), x0=start, dx=spacing, y0=start, dy=spacing, colorscale=SHARE,
                               zmin=0, zmax=1, hoverinfo="skip", colorbar=dict(title="attention", thickness=14)))
    tiles = [(layer, head) for layer in range(layers) for head in range(heads)]
    fig.add_trace(go.Scatter(x=[h for _, h in tiles], y=[lay for lay, _ in tiles],
                             mode="markers", marker=dict(symbol="square", size=26, opacity=0.01, color=INVISIBLE),
                             customdata=[[lay, h] for lay, h in tiles], showlegend=False,
                             hovertemplate="layer %{customdata[0]}, head %{customdata[1]}<br>click to open it"
                                           "<extra></extra>"))
    fig.update_xaxes(tickvals=list(range(heads)), ticktext=[str(h) for h in range(heads)],
                     side="top", tickangle=0, constrain="domain", showgrid=False, zeroline=False, fixedrange=True)
    fig.update_yaxes(tickvals=list(range(layers)), ticktext=[str(lay) for lay in range(layers)], title="layer",
                     autorange="reversed", scaleanchor="x", constrain="domain", showgrid=False, zeroline=False,
                     fixedrange=True)
    fig.update_layout(clickmode="event+select", dragmode=False, hovermode="closest")
    fig = _layout(fig, model_view_px(layers, heads, most_px), title)
    lines = title.count("<br>") + 1
    fig.update_layout(margin_t=60 + 30 * lines, meta=KEEPS_HEIGHT)  # the title, then the heads' numbers
    return described(fig, "Every attention head of every layer as a thumbnail of its weights, a row per layer and a "
                          "column per head: pick one to open it.")


def tiled(shares: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Thumbnails (L, H, n, n) -> one canvas (L·s - g, H·s - g), each tile a gap g = max(1, n // 5) of NaN from
    the next (s = n + g a tile's step), and where its cells sit: [the first cell's centre, a cell's width], in
    units of tiles, so that tile (layer, head) is centred on (head, layer). Torch, the tile's side read as a
    tensor: the live site's `views` graph draws a typed sentence's thumbnails so (export/analysis_graphs.py)."""
    layers, heads, side = shares.shape[0], shares.shape[1], shares.shape[2]
    length = torch.ones_like(shares[0, 0, 0]).sum()  # n, as a tensor
    gap = torch.clamp(torch.floor(length / 5), min=1)
    step = length + gap
    g = gap.long()
    wide = torch.cat([shares, torch.full((layers, heads, side, g), float("nan"))], dim=3)  # (L, H, n, s)
    square = torch.cat([wide, torch.full((layers, heads, g, side + g), float("nan"))], dim=2)  # (L, H, s, s)
    rows, columns = layers * (side + g), heads * (side + g)
    canvas = square.permute(0, 2, 1, 3).reshape(rows, columns)[: rows - g, : columns - g]
    return canvas, torch.stack([-(length - 1) / 2 / step, 1 / step])


def phone_model_view(shares: np.ndarray, title: str) -> go.Figure:
    """A phone's model view, in the app and on a site: as short as its tiles need (the width, not the height, sets
    their size there), the heads' numbers at the smallest readable size (at the figure's type, "10" ran into "11"
    for 12 heads)."""
    return model_view(shares, title, most_px=0).update_xaxes(tickfont_size=SMALLEST)


def head_grid(probs: np.ndarray, selected: int, width: int = 560, max_side: int = 48) -> go.Figure:
    """Small multiples of every head's attention (h, T, T), averaged into at most max_side cells a side, as
    thumbnails as large as `width` px allows: six a row (four on a narrow screen), each under its own title, one
    thin colour bar under them all.

    One heatmap of tiles with blank gaps, not one subplot per head: a dozen subplots cost Plotly about 40 ms to
    build and 40 ms more to restyle, per view, and a lecture hall opens the same view forty times at once."""
    heads = probs.shape[0]
    cols = min(heads, 6 if width >= 600 else 4)
    rows = -(-heads // cols)
    tiles = [_pool(probs[h], max_side) for h in range(heads)]
    side = tiles[0].shape[0]  # every head pools to the same size
    gap = max(1, round(side * 0.3))  # blank rows and columns between tiles: room for the next row's titles
    step = side + gap
    z = np.full((rows * step - gap, cols * step - gap), np.nan, dtype=np.float32)
    which = np.full(z.shape, -1, dtype=np.int16)  # the head under each cell, for the hover
    for h, tile in enumerate(tiles):
        r, c = divmod(h, cols)
        z[r * step: r * step + side, c * step: c * step + side] = tile
        which[r * step: r * step + side, c * step: c * step + side] = h
    titles = [dict(x=h % cols * step + (side - 1) / 2, y=h // cols * step - 0.5, yanchor="bottom", showarrow=False,
                   text=f"{h}" + (" ◀" if h == selected else ""), font=dict(size=FONT["size"] - 2))  # its number
              # alone: "head 10" is wider than a phone's thumbnail
              for h in range(heads)]
    fig = go.Figure(go.Heatmap(z=z, customdata=which, colorscale=SHARE, zmin=0, zmax=1,
                               colorbar=dict(title=dict(text="attention", side="right"), orientation="h",
                                             thickness=12, len=0.5, y=-0.02, yanchor="top"),
                               hoverongaps=False, hovertemplate="head %{customdata}<extra></extra>"),
                    layout=dict(annotations=titles, meta={"small_multiples": True, **KEEPS_HEIGHT}))
    fig.update_xaxes(visible=False, range=[-0.5, z.shape[1] - 0.5])
    fig.update_yaxes(visible=False, autorange="reversed")
    tile_px = (width - 20) / (cols + (cols - 1) * gap / side)  # the figure's width shared by tiles and gaps
    title_px, bar_px = 34, 56  # the top row's titles; the colour bar and its numbers under the grid
    fig = _layout(fig, round(rows * tile_px + (rows - 1) * tile_px * gap / side + title_px + bar_px))
    return described(fig.update_layout(margin=dict(t=title_px, b=bar_px)),
                     "Each of the layer's heads as a thumbnail of its attention, numbered, the chosen one marked with "
                     "an arrow: which heads look where.", "Every head of the layer")
