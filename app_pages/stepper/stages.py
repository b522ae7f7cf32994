"""The stepper's four stages, each a block of the model drawn the same way (picker, diagram, words, canvas): the
embeddings, the encoder's once-per-input positions (DeBERTa, MPNet), an encoder layer, and the pooler with the
two sentences' similarity."""
from __future__ import annotations

import numpy as np
import streamlit as st

from bertviz_lite.figures import attention_heatmap, token_norms, vector_bars
from bertviz_lite.figures.described import described
from bertviz_lite.ops import LINEAR, MERGE_HEADS, head_name, key_head
from bertviz_lite.graph.views import stream_group
from bertviz_lite.stepthrough.words import SHARED
from app_pages.shell import charts, guarded, lecture
from app_pages.stepper import cells
from app_pages.stepper.canvas import show_matrix, step_point, stream_lengths, token_matrix
from app_pages.stepper.controls import (check_line, layer_controls, pickers, show_diagram, show_step_picker,
                                        words)
from app_pages.stepper.stepping import Regions, Stepping


def embeddings_view(s: Stepping, r: Regions) -> None:
    steps, loaded, tokens = s.t.embeddings(), s.loaded, s.t.tokens
    with r.picker():
        key = show_step_picker(steps.graph, "Embedding step", "embed.")
    show_diagram(s, r.diagram, steps, key, "embed.")
    cell = words(s, steps, key, 0, "", lambda: check_line(steps, rerun=bool(s.t.edits and s.t.edits.masked)), r)
    for note in loaded.family.notes(loaded.config):
        r.words.info(note, icon=":material/info:")
    show_matrix(s, steps[key], f"embeddings: {steps.node(key).title}", f"embed_{key}", r, step_point(steps.node(key)),
                cell=cell)
    pickers(s, steps, key, r)
    series = {k: steps[k] for k in ("word", "position", "token_type", "sum", "norm") if k in steps}
    with r.canvas:
        charts.cached_chart(s.view_key("norms", "embeddings"),
                            lambda: token_norms(series, tokens, "Vector length per token" + (
                                ", before and after LayerNorm" if "norm" in series else ""),
                                {k: steps.node(k).series for k in series}), width=r.canvas_px)


def positions_view(s: Stepping, r: Regions) -> None:
    """What the encoder computes once and every layer uses (DeBERTa: relative distances and their embeddings;
    MPNet: the buckets of distance)."""
    steps, tokens = s.positions, s.t.tokens
    with r.picker():
        key = show_step_picker(steps.graph, "Positions step", "positions.")
    show_diagram(s, r.diagram, steps, key, "positions.")
    node, array = steps.node(key), steps[key]
    cell = words(s, steps, key, 0, "", lambda: st.caption(SHARED), r)
    if array.shape == (len(tokens), len(tokens)):  # one number per query and key: distances, buckets
        chart = f"cells_positions_{key}"
        with r.canvas:
            charts.cached_chart(s.view_key("positions", key, cell), lambda: described(attention_heatmap(
                array.astype(np.float32), tokens, node.title, node.short, clickable=True, chosen=cell,
                scale=node.op.scale), step_point(node)),
                on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px)
            cells.hear_taps(chart)
            charts.csv_download(lambda: charts.matrix_frame(array, tokens, tokens, "query", "key"), f"{key}.csv")
    else:
        span = array.shape[0] // 2
        show_matrix(s, array, node.title, f"positions_{key}", r, step_point(node),
                    [f"δ = {d}" for d in range(-span, span)], cell)
    pickers(s, steps, key, r)


def layer_view(s: Stepping, r: Regions) -> None:
    t = s.t
    layer, head = layer_controls(s, r)
    steps = guarded.layer_steps(s.key, layer)
    with r.picker():
        key = show_step_picker(steps.graph, "Sub-step", "")
    show_diagram(s, r.diagram, steps, key, "")
    node, array = steps.node(key), steps[key]

    def check() -> None:
        if note := t.layer_note(layer):
            st.caption(note)
        check_line(steps, rerun=t.edits is not None and layer >= t.edits.first_changed_layer)

    cell = words(s, steps, key, head, f"Layer {layer} · ", check, r, f"step {steps.position(key)} of {len(steps)}: ")
    token_by_token = node.token_by_token  # by the step's axes, not the array's shape (T may equal d_h)
    if array.ndim == 3 and not token_by_token:  # one head's vectors: queries, keys, values, contexts
        d, d_head, heads = steps["input"].shape[1], array.shape[2], array.shape[0]
        shown = key_head(head, t.num_heads, heads)  # keys and values may have fewer heads (grouped-query)
        if heads < t.num_heads:
            r.words.caption(f"Grouped-query attention: {heads} key/value heads for {t.num_heads} query heads. "
                            f"Query head {head} reads {head_name(head, t.num_heads, heads)}.")
        if node.op is LINEAR:
            r.words.caption(f"One weight matrix with {d} columns, split into {heads} heads of {d_head}: head "
                            f"{shown} uses its outputs {shown * d_head}–{(shown + 1) * d_head - 1}.")
        rows = t.tokens if "2k" not in node.axes else [f"δ = {i - array.shape[1] // 2}" for i in range(array.shape[1])]
        what = f"head {head}" if heads == t.num_heads else f"key/value head {shown}"
        show_matrix(s, array[shown], f"layer {layer} {what}: {node.title}", key, r, step_point(node), rows, cell)
    elif array.ndim == 3:  # one head's token-by-token matrix: scores, their terms, probabilities
        token_matrix(s, steps, key, layer, head, cell, r)
    elif node.op is MERGE_HEADS:  # the heads' contexts side by side: start at the chosen head's
        d_head = array.shape[1] // t.num_heads
        r.words.caption(f"Head {head}'s context is dimensions {head * d_head}–{(head + 1) * d_head - 1} of "
                        f"{array.shape[1]}.")
        show_matrix(s, array, f"layer {layer}: {node.title}", key, r, step_point(node), cell=cell,
                    around=head * d_head)
    else:
        # the step's own figure first
        show_matrix(s, array, f"layer {layer}: {node.title}", key, r, step_point(node), cell=cell)
        if group := stream_group(steps.graph, key):
            stream_lengths(s, steps, group, layer, key, r)
    if not (array.ndim == 3 and token_by_token):
        pickers(s, steps, key, r)


def pooler_view(s: Stepping, r: Regions) -> None:
    steps, loaded = s.t.pooler(), s.loaded
    if steps is None:
        r.words.info(f"{type(loaded.base).__name__} has no pooler: its sentence vector is usually the first "
                     f"token's final vector or the mean of all token vectors.")
    else:
        with r.picker():
            key = show_step_picker(steps.graph, "Pooler step", "pooler.")
        show_diagram(s, r.diagram, steps, key, "pooler.")
        words(s, steps, key, 0, "Pooler: ", lambda: check_line(steps, rerun=s.t.edits is not None), r)
        if loaded.sentence_pooling is not None:
            r.words.caption(f"{loaded.source} does not use this pooler: as a sentence-transformers model its "
                            f"sentence vector is {loaded.sentence_pooling.describe()} (below).")
        with r.canvas, lecture.point():
            charts.cached_chart(s.view_key("pooler", key), lambda: described(vector_bars(
                np.asarray(steps[key]).ravel(), f"{steps.node(key).title}, from the first token's final vector"),
                step_point(steps.node(key))))
        pickers(s, steps, key, r)
    if s.t.pair is None:
        r.words.info("Enter a second sentence in the sidebar to compare the two sentences' vectors.")
        return
    with r.words:
        ways = guarded.sentence_vectors_or_stop(s.key, [s.t.text, s.t.pair])
        st.markdown("### How similar are the two sentences? (each run on its own" +
                    (", the model's own runs)" if s.t.edits is not None else ")"))
        for column, way in zip(st.columns(len(ways)), ways):
            column.metric(f"cosine of {way.name}", f"{way.cosine()[0, 1]:.4f}", help=f"{way.how}.")
        if not ways[0].trained_for_similarity:
            st.caption(f"{loaded.source} was not trained for sentence similarity: neither vector is meant for it. "
                       f"The Similarity page compares several sentences, and offers a model trained for it.")


VIEWS = {"Embeddings": embeddings_view, "Positions": positions_view, "Encoder layer": layer_view,
         "Pooler & similarity": pooler_view}  # a stage's name: how it is drawn
