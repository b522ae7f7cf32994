"""The stepper's canvas: a step's own figure (a window of 64 dimensions, or one head's token-by-token matrix with
the score's terms and the layer's heads under it) and each token's vector length through a residual add."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from bertviz_lite.figures import (attention_heatmap, head_grid, labelled, matrices_side_by_side, matrix_window,
                                  token_norms)
from bertviz_lite.figures.charts import WINDOW
from bertviz_lite.figures.described import described
from bertviz_lite.ops import MASKED_BELOW, Series
from bertviz_lite.graph.views import score_terms
from app_pages.shell import charts, chips, lecture
from app_pages.stepper import cells
from app_pages.stepper.controls import pickers
from app_pages.stepper.stepping import Regions, Stepping


TERMS_PX = 900  # a score's terms in two rows of two, on a projector: below the fold, scrolled to
STEP_FIGURE_PX = 480  # the step's own figure on a projector, under the row of controls (and a family's notices)


def step_point(node) -> str:
    """A step's figure's description for a screen reader: what the step computes and its shape, the words a site's
    stepper shows beside its figure and describes it by (frontend/src/stepper.js)."""
    return f"{node.explains} {node.shape}"


def show_matrix(s: Stepping, array: np.ndarray, title: str, key: str, r: Regions, point: str,
                rows: list[str] | None = None, cell: tuple | None = None, around: int = 0) -> None:
    """A (rows × n) array as a heatmap of 64 columns at a time, each cell clickable where it fits; the window
    first shown holds the chosen cell, else dimension `around`. `point`: the figure's description for a screen
    reader (`step_point`)."""
    rows = s.t.tokens if rows is None else rows
    figure = r.canvas.container()  # the step's own figure first, the slider that moves its window under it
    first = 0
    if array.shape[1] > WINDOW:
        wanted = (cell[1] if cell is not None and len(cell) == 2 else around) // WINDOW * WINDOW
        first = r.canvas.slider("First dimension shown", 0, array.shape[1] - WINDOW,
                                min(wanted, array.shape[1] - WINDOW), step=WINDOW, key=f"dims_{key}_{wanted}")
    chart = f"cells_{key}_{title}_{first}"
    with figure, lecture.point():
        charts.cached_chart(s.view_key("matrix", key, title, first, cell),
                            lambda: described(matrix_window(array, rows, first, title, clickable=True, chosen=cell),
                                              point),
                            on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px,
                            tallest=STEP_FIGURE_PX)
        cells.hear_taps(chart)
    with r.canvas:
        charts.csv_download(lambda: pd.DataFrame(array, index=labelled(rows, for_figure=False))
                            .rename_axis("token").reset_index(),
                            f"{title.replace(' ', '_').replace(':', '')}.csv")


def stream_lengths(s: Stepping, steps, group: list[str], layer: int, key: str, r: Regions) -> None:
    """Each token's vector length through a residual add and its norm: what an add or a norm does, at a glance."""
    names = {k: steps.node(k).title if k != "input" else "layer input" for k in group}
    series = {names[k]: steps[k] for k in group}
    kinds = {names[k]: steps.node(k).series for k in group}  # the colour says what a series is:
    kinds[names[group[0]]] = Series.INPUT  # the stream carried past the sub-block, whatever made it
    tokens = s.t.tokens
    with r.canvas:
        charts.cached_chart(s.view_key("norms", layer, key), lambda: token_norms(
            series, tokens, "Vector length per token: residual adds, norm rescales", kinds), width=r.canvas_px)


def token_matrix(s: Stepping, steps, key: str, layer: int, head: int, cell, r: Regions) -> None:
    """One head's (T, T) matrix, clickable; the terms of a score side by side; the layer's heads below."""
    node, t = steps.node(key), s.t
    matrix, labels, words = steps[key][head], t.tokens, False
    if node.op.gives_probabilities:
        with r.words if r.row else r.canvas:  # on a projector, beside the figure: its height is the figure's
            if words := chips.word_toggle():  # probabilities merge into words; raw scores do not
                groups, labels = word_groups(t)
                matrix = merge_to_words(matrix, groups)
    elif (matrix < MASKED_BELOW).any():
        matrix = np.where(matrix < MASKED_BELOW, np.nan, matrix)
        r.words.caption("Blank cells are masked: the model adds the most negative number there, so softmax gives "
                        "them 0.")
    chart = f"cells_{layer}_{head}_{key}"
    with r.canvas:
        title = f"layer {layer}, head {head}: {node.title}"
        with lecture.point():  # the step's own figure
            charts.cached_chart(s.view_key("heatmap", layer, head, key, words, cell),
                                lambda: described(attention_heatmap(
                                    matrix, labels, title, "attention" if node.op.gives_probabilities else "score",
                                    clickable=not words, chosen=None if words else cell, scale=node.op.scale),
                                    step_point(node)),
                                on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px,
                                tallest=STEP_FIGURE_PX)
            cells.hear_taps(chart)
        kept = matrix.copy()  # the tab keeps the download's numbers: one head's, not the view of every head's
        charts.csv_download(lambda: charts.matrix_frame(kept, labels, labels, "query", "key"),
                            f"layer{layer}_head{head}_{key}.csv")
    if together := score_terms(steps.graph, key):  # the score's terms side by side, under the step's own
        terms = {k.removeprefix("attn."): steps[k][head] for k in together}
        added = [k.removeprefix("attn.") for k in together[:-1]]
        names = [steps.node(k).title.lower() for k in together[:-1]]
        tokens, wide = t.tokens, r.wide is not None  # on a projector, two panels a row across the page
        with r.wide if wide else r.canvas:
            st.markdown(f"**Layer {layer}, head {head}: scores = {' + '.join(added)} + mask** ({', '.join(names)})")
            charts.cached_chart(s.view_key("terms", layer, head, key, wide),
                                lambda: matrices_side_by_side(terms, tokens, colorbar="score", axes=("query", "key"),
                                                              chosen=key.removeprefix("attn."),
                                                              per_row=2 if wide else None),
                                width=charts.PAGE_WIDTH_PX if wide else r.canvas_px,
                                tallest=TERMS_PX if wide else charts.LECTURE_CHART_PX)
    pickers(s, steps, key, r)
    with r.canvas:
        st.caption(f"The attention weights (after softmax) of all {t.num_heads} heads of this layer, numbered 0 to "
                   f"{t.num_heads - 1}, on one 0–1 scale; pick one with Head above:")
        charts.cached_chart(s.view_key("grid", layer, head),
                            lambda: head_grid(steps["attn.probs"], head, r.canvas_px), width=r.canvas_px)
