"""The figures that say why the model gives its output: two sentences' cosine split into token pairs, and how far
an intervention moved each token's hidden state in every layer. Traces are given to go.Figure as dicts, checked
once there (a go.Heatmap is checked, then copied and checked again: 5 → 3 ms at 128 tokens)."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..ops.figure_words import thousandths
from .charts import labelled, layout_of
from .described import described
from .style import FONT, SHARE, colour_scale, every_token, written_in_cells


def in_thousandths(values: np.ndarray) -> dict:
    """Heatmap settings that write each cell to three decimals without the leading zero (".037", "−.004"): for
    small numbers, where two decimals would make most of them 0.00."""
    text = [[thousandths(v) for v in row] for row in values.tolist()]
    return dict(text=text, texttemplate="%{text}", textfont=dict(size=FONT["size"] - 2))


SPLIT_PX = 470  # the pair split on a projector, under its line (and a random-weights line): whole above the fold


def pair_split_heatmap(pairs: np.ndarray, tokens_a: list[str], tokens_b: list[str], title: str) -> go.Figure:
    """(n, m) token-pair shares of a cosine on a diverging scale centred at 0: rows are sentence A's tokens, columns
    sentence B's; the numbers written in the cells where they can be read, in thousandths without the leading
    zero (".037"): a cell is a small share of the cosine, and two decimals would make most of them 0.00."""
    rows, columns = labelled(tokens_a), labelled(tokens_b)
    z = pairs.astype(np.float32)
    written = in_thousandths(pairs) if written_in_cells(z.shape) else {}
    heatmap = dict(type="heatmap", z=z, x=columns, y=rows, **colour_scale(z, signed=True), **written,
                   colorbar=dict(title="share"),
                   hovertemplate="A %{y}<br>B %{x}<br>%{z:.5f} of the cosine<extra></extra>")
    layout = dict(yaxis=dict(autorange="reversed", type="category", title="sentence A", **every_token(len(rows))),
                  xaxis=dict(type="category", title="sentence B", tickangle=-60, **every_token(len(columns))))
    return described(go.Figure([heatmap], {**layout, **layout_of(min(760, 230 + 26 * len(rows)), title)}),
                     "One row per token of sentence A and one column per token of sentence B: each cell, the pair's "
                     "share of the two sentences' cosine, blue where it adds and red where it takes away.")


def shift_heatmap(shift: np.ndarray, tokens: list[str], title: str, unchanged: int,
                  masked: tuple[int, ...] = ()) -> go.Figure:
    """(L + 1, T) cosine distances between each token's hidden state before and after an intervention, row 0 the
    embeddings and row l + 1 layer l's output (as transformers numbers hidden_states). The first `unchanged` rows
    come before the intervention, are the trace's own and are marked so. A masked token's own column moves far more
    than any other and would leave the rest white: the scale is set by the other columns, and the title says so."""
    z = shift.astype(np.float32)
    others = np.delete(z, list(masked), axis=1) if masked and len(masked) < z.shape[1] else z
    if others is not z:
        title = f"{title} (the masked token's column is off the scale)"
    names = ["embeddings"] + [f"after layer {layer}" for layer in range(len(z) - 1)]
    names = [f"{name} (not rerun)" if row < unchanged else name for row, name in enumerate(names)]
    written = in_thousandths(shift) if written_in_cells(z.shape) else {}
    heatmap = dict(type="heatmap", z=z, x=labelled(tokens), y=names, colorscale=SHARE, zmin=0,
                   zmax=max(float(others.max()), 1e-12), colorbar=dict(title="distance"), **written,
                   hovertemplate="%{y}<br>%{x}<br>cosine distance %{z:.5f}<extra></extra>")
    layout = dict(yaxis=dict(autorange="reversed", type="category"),  # in one layout: each update costs ~1 ms
                  xaxis=dict(type="category", tickangle=-60, **every_token(len(tokens))))
    return described(go.Figure([heatmap], {**layout, **layout_of(min(620, 200 + 28 * len(names)), title)}),
                     "One row per hidden state (the embeddings, then each layer's output) and one column per token: "
                     "how far the intervention moved the token's vector there (a cosine distance, 0 where it did not "
                     "move).")
