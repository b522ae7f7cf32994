"""Layers: the embeddings, every encoder layer sub-step by sub-step, and the pooler, each checked against the
model's own numbers; the current block drawn from its graph with the current step lit, and any cell of the step
explained from the numbers it comes from. Changing layer, head, step or cell reruns only the stepper (a fragment).

Four regions: the controls; the block's diagram; the words (the step, its check, the cell's explanation); the
canvas (the step's figures). When browsing they stack, the words beside the canvas; in lecture mode the controls
share one row so that a step, its figure and an explanation fit a 1280×720 projector."""
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from bertviz_lite.figures import (attention_heatmap, head_grid, labelled, matrices_side_by_side,
                                  matrix_window, token_norms, vector_bars)
from bertviz_lite.graph.names import parse_step_name
from bertviz_lite.explaining import has_head_axis
from bertviz_lite.graph.ops import MASKED_BELOW, MERGE_HEADS, head_name, key_head
from bertviz_lite.graph.views import score_terms, stream_group
from app_pages import cells
from app_pages.shell import charts, chips, guarded, lecture, state, turns

LATER_STAGES = {"Encoder layer": "attn.probs", "Pooler & similarity": "pooler.out"}  # after the embeddings

loaded = guarded.load_or_stop(needs_weights=True)
t = guarded.trace_or_stop(loaded)
encoder = t.encoder()  # the encoder's once-per-input steps (DeBERTa, MPNet); None for the other families
embed = t.graph("embed")
stages = {"Embeddings": embed.name(embed.output.key)}  # its last step (a LayerNorm, or EuroBERT's word vectors)
if encoder is not None:  # what the encoder computes once per input, as a stage of its own before the layers
    stages["Positions"] = f"encoder.{encoder.graph.keys[0]}"
stages.update(LATER_STAGES)
lecture.page_title("Layers")


@dataclass(frozen=True)
class Regions:
    controls: object
    diagram: object
    words: object
    canvas: object
    row: tuple = ()  # lecture mode: stage, ◀, layer, ▶, head, step in one row of controls
    canvas_px: int = charts.CHART_WIDTH_PX  # about how wide the canvas is on a 1280-pixel screen

    def picker(self):
        """Where the step picker goes: the end of the lecture row, or the controls."""
        return self.row[5] if self.row else self.controls


def stage_of(step: str) -> str:
    if step.startswith("embed."):
        return "Embeddings"
    if step.startswith("encoder.") and encoder is not None:
        return "Positions"
    if step.startswith("pooler."):
        return "Pooler & similarity"
    return "Encoder layer"


def check_line(steps, against: str) -> None:
    diff = steps.max_abs_diff
    text = (f"Recomputed by hand, every sub-step of the block; its output compared with the model's own {against}: "
            f"max |Δ| = {diff:.1e}")  # the check is of the block's end, whichever step is shown
    (st.success if diff <= 1e-5 else st.error)(text, icon=":material/check_circle:" if diff <= 1e-5
                                               else ":material/cancel:")


def go_to(step: str) -> None:
    st.session_state.step = step


def show_diagram(area, steps, key: str, prefix: str) -> None:
    """The block drawn from its graph, the current step lit and what it reads marked; a click on a box goes there."""
    chart_key, graph = f"diagram_{steps.name(key)}", steps.graph  # the callback keeps the graph, not the numbers

    def clicked() -> None:
        points = st.session_state[chart_key]["selection"]["points"]
        target = points[0].get("customdata") if points else None
        if not isinstance(target, str):
            return
        if target in graph:
            go_to(prefix + target)
            return
        block, layer, key = parse_step_name(target)  # another block's step: the encoder's, or a layer's output
        if block == "layers":
            state.set_value("layer", layer)
        go_to(key if block == "layers" else target)

    with area:
        charts.block_diagram(loaded, steps.graph, key, on_select=clicked, key=chart_key)


def show_step_picker(graph, label: str, prefix: str) -> str:
    """All sub-steps as pills; in lecture mode ◀ a select ▶, to step through in order. Returns the chosen key
    without `prefix` ("embed." for the embeddings, "" for a layer's sub-steps)."""
    options = graph.keys
    titles = {n.key: n.title for n in graph}
    current = st.session_state.step.removeprefix(prefix)
    if current not in options:
        current = options[-1]
    if state.lecture_mode():
        return step_buttons(options, current, titles, label, prefix)
    widget = f"_w_pills_{label}"
    st.session_state[widget] = current  # a click on the diagram moves the pills too
    st.pills(label, options, key=widget, format_func=titles.get,
             on_change=lambda: go_to(prefix + (st.session_state[widget] or current)))
    return current


def step_buttons(options: list[str], current: str, titles: dict[str, str], label: str, prefix: str) -> str:
    widget = f"_w_stepper_{label}"
    st.session_state[widget] = current
    i = options.index(current)
    back, select, forward = st.columns([1, 5, 1], vertical_alignment="bottom")
    back.button("◀", key=f"back_{label}", help="previous step", disabled=i == 0, width="stretch",
                on_click=go_to, args=(prefix + options[i - 1],))
    select.selectbox(label, options, key=widget, on_change=lambda: go_to(prefix + st.session_state[widget]),
                     format_func=lambda k: f"{options.index(k) + 1}/{len(options)} {titles[k]}")
    forward.button("▶", key=f"next_{label}", help="next step", disabled=i == len(options) - 1, width="stretch",
                   on_click=go_to, args=(prefix + options[min(i + 1, len(options) - 1)],))
    return current


def words(steps, key: str, head: int, heading: str, check, r: Regions, where: str = "") -> tuple | None:
    """The step (title, shape, sentence) and its check, and the chosen cell's explanation; in lecture mode, with a
    cell chosen, the explanation alone (the stepper above names the step), so that it fits beside the figure.
    `where` goes before the step's title (its place in the layer), `heading` before it and the cell's too.
    Returns the chosen cell."""
    node, array = steps.node(key), steps[key]
    cell, _ = cells.cell_of(steps, key, array.shape)
    with r.words:
        if cell is None or not state.lecture_mode():
            st.markdown(f"### {heading}{where}{node.title} — shape {tuple(array.shape)} {node.shape}")
            st.markdown(f"{node.explains}.")
            check()
        if cell is not None:
            cells.explanation_panel(loaded, t, steps, key, head, cell, heading)
    return cell


def pickers(steps, key: str, r: Regions) -> None:
    with r.canvas:
        cells.cell_pickers(steps, key, steps[key].shape, t.tokens)


def show_matrix(array: np.ndarray, title: str, key: str, r: Regions, rows: list[str] | None = None,
                cell: tuple | None = None, around: int = 0) -> None:
    """A (rows × n) array as a heatmap of 64 columns at a time, each cell clickable where it fits; the window
    first shown holds the chosen cell, else dimension `around`."""
    rows = t.tokens if rows is None else rows
    figure = r.canvas.container()  # the step's own figure first, the slider that moves its window under it
    first = 0
    if array.shape[1] > 64:
        wanted = (cell[1] if cell is not None and len(cell) == 2 else around) // 64 * 64
        first = r.canvas.slider("First dimension shown", 0, array.shape[1] - 64, min(wanted, array.shape[1] - 64),
                                  step=64, key=f"dims_{key}_{wanted}")
    chart = f"cells_{key}_{title}_{first}"
    with figure, lecture.point():
        charts.cached_chart(charts.view_key(loaded, "matrix", key, title, first, cell),
                            lambda: matrix_window(array, rows, first, title, clickable=True, chosen=cell),
                            on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px)
    with r.canvas:
        charts.csv_download(lambda: pd.DataFrame(array, index=labelled(rows, for_figure=False))
                            .rename_axis("token").reset_index(),
                            f"{title.replace(' ', '_').replace(':', '')}.csv")


def embeddings_view(r: Regions) -> None:
    steps = t.embeddings()
    with r.picker():
        key = show_step_picker(steps.graph, "Embedding step", "embed.")
    show_diagram(r.diagram, steps, key, "embed.")
    cell = words(steps, key, 0, "", lambda: check_line(steps, "hidden_states[0] (the input of layer 0)"), r)
    for note in loaded.family.notes(loaded.config):
        r.words.info(note, icon=":material/info:")
    show_matrix(steps[key], f"embeddings: {steps.node(key).title}", f"embed_{key}", r, cell=cell)
    pickers(steps, key, r)
    series = {k: steps[k] for k in ("word", "position", "token_type", "sum", "norm") if k in steps}
    with r.canvas:
        charts.cached_chart(charts.view_key(loaded, "norms", "embeddings"),
                            lambda: token_norms(series, t.tokens, "Vector length per token" + (
                                ", before and after LayerNorm" if "norm" in series else ""),
                                {"sum": "add", "norm": "layer_norm"}), width=r.canvas_px)


def encoder_view(r: Regions) -> None:
    """What the encoder computes once and every layer uses (DeBERTa: relative distances and their embeddings;
    MPNet: the buckets of distance)."""
    steps = encoder
    with r.picker():
        key = show_step_picker(steps.graph, "Encoder step", "encoder.")
    show_diagram(r.diagram, steps, key, "encoder.")
    node, array = steps.node(key), steps[key]
    cell = words(steps, key, 0, "", lambda: st.caption("Computed once from the sentence's length and shared by "
                                                       "every layer."), r)
    if array.shape == (len(t.tokens), len(t.tokens)):  # one number per query and key: distances, buckets
        chart = f"cells_encoder_{key}"
        with r.canvas:
            charts.cached_chart(charts.view_key(loaded, "encoder", key, cell), lambda: attention_heatmap(
                array.astype(np.float32), t.tokens, node.title, node.short, clickable=True, chosen=cell),
                on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px)
            tokens = t.tokens
            charts.csv_download(lambda: charts.matrix_frame(array, tokens, tokens, "query", "key"), f"{key}.csv")
    else:
        span = array.shape[0] // 2
        show_matrix(array, node.title, f"encoder_{key}", r, [f"δ = {d}" for d in range(-span, span)], cell)
    pickers(steps, key, r)


def layer_controls(r: Regions) -> tuple[int, int]:
    """◀ layer ▶ and the head; returns (layer, head) within this model's range."""
    if r.row:
        c1, c2, c3, c4 = r.row[1:5]
    else:
        with r.controls:
            c1, c2, c3, c4 = st.columns([1, 6, 1, 3], vertical_alignment="bottom")
    layer = st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    c1.button("◀", help="previous layer", disabled=layer == 0, on_click=state.set_value, args=("layer", layer - 1),
              width="stretch")
    c2.slider("Layer", 0, t.num_layers - 1, **state.bind("layer"))
    c3.button("▶", help="next layer", disabled=layer == t.num_layers - 1, on_click=state.set_value,
              args=("layer", layer + 1), width="stretch")
    st.session_state.head = min(st.session_state.head, t.num_heads - 1)
    graph, step = t.graph("layers", layer), st.session_state.step
    per_head = step not in graph or has_head_axis(graph.node(step)) or graph.node(step).op is MERGE_HEADS
    c4.selectbox("Head", range(t.num_heads), disabled=not per_head, **state.bind("head"),
                 help=None if per_head else "This sub-step has no heads: it works on whole token vectors.")
    return st.session_state.layer, st.session_state.head


def layer_view(r: Regions) -> None:
    layer, head = layer_controls(r)
    steps = guarded.layer_steps(loaded, layer)
    with r.picker():
        key = show_step_picker(steps.graph, "Sub-step", "")
    show_diagram(r.diagram, steps, key, "")
    node, array = steps.node(key), steps[key]

    def check() -> None:
        if note := t.layer_note(layer):
            st.caption(note)
        check_line(steps, f"hidden_states[{layer + 1}] (this layer's output: {steps.graph.output.title})")

    cell = words(steps, key, head, f"Layer {layer} · ", check, r, f"step {steps.position(key)} of {len(steps)}: ")
    token_by_token = node.shape.endswith("T, T)")  # by the step's shape, not the array's (T may equal d_h)
    if array.ndim == 3 and not token_by_token:  # one head's vectors: queries, keys, values, contexts
        d, d_head, heads = steps["input"].shape[1], array.shape[2], array.shape[0]
        shown = key_head(head, t.num_heads, heads)  # keys and values may have fewer heads (grouped-query)
        if heads < t.num_heads:
            r.words.caption(f"Grouped-query attention: {heads} key/value heads for {t.num_heads} query heads. "
                            f"Query head {head} reads {head_name(head, t.num_heads, heads)}.")
        if node.op.name == "linear":
            r.words.caption(f"One weight matrix with {d} columns, split into {heads} heads of {d_head}: head "
                            f"{shown} uses its outputs {shown * d_head}–{(shown + 1) * d_head - 1}.")
        rows = t.tokens if "2k" not in node.shape else [f"δ = {i - array.shape[1] // 2}" for i in range(array.shape[1])]
        what = f"head {head}" if heads == t.num_heads else f"key/value head {shown}"
        show_matrix(array[shown], f"layer {layer} {what}: {node.title}", key, r, rows, cell)
    elif array.ndim == 3:  # one head's token-by-token matrix: scores, their terms, probabilities
        token_matrix(steps, key, layer, head, cell, r)
    elif node.op is MERGE_HEADS:  # the heads' contexts side by side: start at the chosen head's
        d_head = array.shape[1] // t.num_heads
        r.words.caption(f"Head {head}'s context is dimensions {head * d_head}–{(head + 1) * d_head - 1} of "
                        f"{array.shape[1]}.")
        show_matrix(array, f"layer {layer}: {node.title}", key, r, cell=cell, around=head * d_head)
    else:
        show_matrix(array, f"layer {layer}: {node.title}", key, r, cell=cell)  # the step's own figure first
        if group := stream_group(steps.graph, key):
            stream_lengths(steps, group, layer, key, r)
    if not (array.ndim == 3 and token_by_token):
        pickers(steps, key, r)


def stream_lengths(steps, group: list[str], layer: int, key: str, r: Regions) -> None:
    """Each token's vector length through a residual add and its norm: what an add or a norm does, at a glance."""
    names = {k: steps.node(k).title if k != "input" else "layer input" for k in group}
    series = {names[k]: steps[k] for k in group}
    roles = {names[k]: steps.node(k).op.name for k in group}  # the colour says what a series is:
    roles[names[group[0]]] = "input"  # the stream carried past the sub-block, whatever made it
    with r.canvas:
        charts.cached_chart(charts.view_key(loaded, "norms", layer, key), lambda: token_norms(
            series, t.tokens, "Vector length per token: residual adds, norm rescales", roles), width=r.canvas_px)


def token_matrix(steps, key: str, layer: int, head: int, cell, r: Regions) -> None:
    """One head's (T, T) matrix, clickable; the terms of a score side by side; the layer's heads below."""
    node = steps.node(key)
    matrix, labels, words = steps[key][head], t.tokens, False
    if node.op.name == "softmax":
        with r.canvas:
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
            charts.cached_chart(charts.view_key(loaded, "heatmap", layer, head, key, words, cell),
                                lambda: attention_heatmap(matrix, labels, title, "attention"
                                                          if node.op.name == "softmax" else "score",
                                                          clickable=not words, chosen=None if words else cell,
                                                          signed=node.op.name != "softmax"),
                                on_select=cells.on_click(chart), selection_mode="points", key=chart, width=r.canvas_px)
        kept = matrix.copy()  # the tab keeps the download's numbers: one head's, not the view of every head's
        charts.csv_download(lambda: charts.matrix_frame(kept, labels, labels, "query", "key"),
                            f"layer{layer}_head{head}_{key}.csv")
        if together := score_terms(steps.graph, key):  # the score's terms side by side, under the step's own
            terms = {k.removeprefix("attn."): steps[k][head] for k in together}
            added = [k.removeprefix("attn.") for k in together[:-1]]
            names = [steps.node(k).title.lower() for k in together[:-1]]
            st.markdown(f"**Layer {layer}, head {head}: scores = {' + '.join(added)} + mask** ({', '.join(names)})")
            charts.cached_chart(charts.view_key(loaded, "terms", layer, head, key),
                                lambda: matrices_side_by_side(terms, t.tokens, colorbar="score", axes=("query", "key"),
                                                              chosen=key.removeprefix("attn.")), width=r.canvas_px)
    pickers(steps, key, r)
    with r.canvas:
        st.caption(f"The attention weights (after softmax) of all {t.num_heads} heads of this layer, on one 0–1 scale; "
                   f"pick one with Head above:")
        charts.cached_chart(charts.view_key(loaded, "grid", layer, head),
                            lambda: head_grid(steps["attn.probs"], head), width=r.canvas_px)


def pooler_view(r: Regions) -> None:
    steps = t.pooler()
    if steps is None:
        r.words.info(f"{type(loaded.base).__name__} has no pooler: its sentence vector is usually the first "
                     f"token's final vector or the mean of all token vectors.")
    else:
        with r.picker():
            key = show_step_picker(steps.graph, "Pooler step", "pooler.")
        show_diagram(r.diagram, steps, key, "pooler.")
        words(steps, key, 0, "Pooler: ", lambda: check_line(steps, "pooler_output"), r)
        if loaded.sentence_pooling is not None:
            r.words.caption(f"{loaded.source} does not use this pooler: as a sentence-transformers model its "
                            f"sentence vector is {loaded.sentence_pooling.describe()} (below).")
        with r.canvas, lecture.point():
            charts.cached_chart(charts.view_key(loaded, "pooler", key), lambda: vector_bars(
                np.asarray(steps[key]).ravel(), f"{steps.node(key).title}, from the first token's final vector"))
        pickers(steps, key, r)
    pair = st.session_state.pair
    if not pair.strip():
        r.words.info("Enter a second sentence in the sidebar to compare the two sentences' vectors.")
        return
    with r.words:
        ways = guarded.sentence_vectors_or_stop(loaded, [st.session_state.text, pair])
        st.markdown("### How similar are the two sentences? (each run on its own)")
        for column, way in zip(st.columns(len(ways)), ways):
            column.metric(f"cosine of {way.name}", f"{way.cosine()[0, 1]:.4f}", help=f"{way.how}.")
        if not ways[0].trained_for_similarity:
            st.caption(f"{loaded.source} was not trained for sentence similarity: neither vector is meant for it. "
                       f"The Similarity page compares several sentences, and offers a model trained for it.")


def regions() -> Regions:
    """Stacked when browsing (the words beside the canvas); in lecture mode one row of controls, the diagram, then
    the words beside the canvas, so that a step and an explanation fit a 1280×720 projector."""
    if state.lecture_mode():
        more = len(stages) - 3  # a fourth stage (DeBERTa's, MPNet's positions) takes its room from the slider
        row = st.columns([3.9 + 0.9 * more, 0.8, 2.2 - 0.9 * more, 0.8, 1.1, 4.4], vertical_alignment="bottom")
        controls, diagram = st.container(), st.container()
        widths = [6, 5] if st.session_state.cell else [5, 6]
        words, canvas = st.columns(widths, gap="large")
        return Regions(controls, diagram, words, canvas, tuple(row), charts.column_px(widths, 1))
    controls, diagram = st.container(), st.container()
    words, canvas = st.columns([5, 6], gap="large")
    return Regions(controls, diagram, words, canvas, canvas_px=charts.column_px([5, 6], 1))


@st.fragment
def stepper() -> None:
    """The stepper, rerun alone by its own controls. This page's namespace outlives a run (the fragment and the
    buttons' callbacks keep it for as long as the tab is open), so it keeps no trace and no model between runs,
    which would outlive the caches' bounds (one per open tab, a trace up to 64 MB): a rerun takes them from the
    caches again (see guarded.trace_or_stop)."""
    global loaded, t, encoder
    with turns.in_line():  # a click that reruns only the stepper waits in the fair line too
        try:
            if t is None:
                loaded = guarded.load_or_stop(needs_weights=True, banner=False)
                t = guarded.trace_or_stop(loaded, notice=False)
                encoder = t.encoder()
            step_through()
        except guarded.PageEnds:  # the stepper said why it ends: the rest of the page still draws
            pass
        finally:
            loaded = t = encoder = None


def step_through() -> None:
    r = regions()
    short = {"Embeddings": "Embed", "Positions": "Pos.", "Encoder layer": "Layer", "Pooler & similarity": "Pooler"
             } if state.lecture_mode() else {}
    where = r.row[0] if r.row else r.controls
    stage = where.segmented_control("Stage", list(stages), default=stage_of(st.session_state.step),
                                    key="stage_control", format_func=lambda name: short.get(name, name))
    if stage and stage != stage_of(st.session_state.step):
        st.session_state.step = stages[stage]
    view = {"Embeddings": embeddings_view, "Positions": encoder_view, "Encoder layer": layer_view,
            "Pooler & similarity": pooler_view}
    view[stage or stage_of(st.session_state.step)](r)
    state.sync_url()


stepper()
