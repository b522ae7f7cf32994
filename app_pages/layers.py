"""Layers: the embeddings, every encoder layer sub-step by sub-step, and the pooler, each checked against the
model's own numbers. Changing layer, head or step reruns only the stepper (a fragment)."""
import numpy as np
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from bertviz_lite.figures import (attention_heatmap, head_grid, labelled, matrices_side_by_side, matrix_window,
                                  token_norms)
from bertviz_lite.graph.views import score_terms, stream_group
from app_pages import common

STAGES = {"Embeddings": "embed.norm", "Positions": "encoder.relative_positions",
          "Encoder layer": "attn.probs", "Pooler & similarity": "pooler.out"}
MASKED = np.finfo(np.float32).min / 2  # a score this low was masked (padding, or outside a local window)

loaded = common.load_or_stop(needs_weights=True)
t = common.trace_or_stop(loaded)
encoder = t.encoder()  # DeBERTa's relative positions; None for the other families
stages = {name: step for name, step in STAGES.items() if encoder is not None or name != "Positions"}
if not common.lecture_mode():  # on a projector every line counts; the page is named in the navigation
    st.title("Layers")


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
    ok = diff <= 1e-5
    text = f"Recomputed by hand and compared with the model's own {against}: max |Δ| = {diff:.1e}"
    if ok:
        st.success(text, icon=":material/check_circle:")
    else:
        st.error(text, icon=":material/cancel:")


def show_matrix(array: np.ndarray, title: str, key: str, controls, canvas, rows: list[str] | None = None) -> None:
    rows = t.tokens if rows is None else rows
    first = 0
    if array.shape[1] > 64:
        first = controls.slider("First dimension shown", 0, array.shape[1] - 64, 0, step=64, key=f"dims_{key}")
    with canvas:
        common.cached_chart(common.view_key(loaded, "matrix", key, title, first),
                            lambda: matrix_window(array, rows, first, title))
        common.csv_download(lambda: pd.DataFrame(array, index=labelled(rows)).rename_axis("token").reset_index(),
                            f"{title.replace(' ', '_').replace(':', '')}.csv")


def show_step_picker(graph, label: str, prefix: str) -> str:
    """All sub-steps as pills; in lecture mode one row, ◀ a select ▶, to step through in order. Returns the
    chosen key without `prefix` ("embed." for the embeddings, "" for a layer's sub-steps)."""
    options = graph.keys
    titles = {n.key: n.title for n in graph}
    current = st.session_state.step.removeprefix(prefix)
    if current not in options:
        current = options[-1]
    if common.lecture_mode():
        return step_buttons(options, current, titles, label, prefix)
    chosen = st.pills(label, options, default=current, key=f"pills_{label}_{st.session_state.layer}",
                      format_func=titles.get)
    return chosen or current


def step_buttons(options: list[str], current: str, titles: dict[str, str], label: str, prefix: str) -> str:
    widget = f"_w_stepper_{label}"
    st.session_state[widget] = current
    i = options.index(current)

    def go(key: str) -> None:
        st.session_state.step = prefix + key

    back, select, forward = st.columns([1, 5, 1], vertical_alignment="bottom")
    back.button("◀", key=f"back_{label}", help="previous step", disabled=i == 0, width="stretch",
                on_click=go, args=(options[i - 1],))
    select.selectbox(label, options, key=widget, on_change=lambda: go(st.session_state[widget]),
                     format_func=lambda k: f"{options.index(k) + 1}/{len(options)} {titles[k]}")
    forward.button("▶", key=f"next_{label}", help="next step", disabled=i == len(options) - 1, width="stretch",
                   on_click=go, args=(options[min(i + 1, len(options) - 1)],))
    return current


def embeddings_view(controls, canvas, notes) -> None:
    steps = t.embeddings()
    with controls:
        key = show_step_picker(steps.graph, "Embedding step", "embed.")
        st.session_state.step = f"embed.{key}"
        info = steps.node(key)
        st.markdown(f"### {info.title} — shape {tuple(steps[key].shape)} {info.shape}\n{info.explains}.")
    show_matrix(steps[key], f"embeddings: {info.title}", f"embed_{key}", controls, canvas)
    series = {k: steps[k] for k in ("word", "position", "token_type", "sum", "norm") if k in steps}
    with canvas:
        common.cached_chart(common.view_key(loaded, "norms", "embeddings"),
                            lambda: token_norms(series, t.tokens, "Vector length per token: LayerNorm evens them out"))
    for note in loaded.family.notes(loaded.config):
        controls.info(note, icon=":material/info:")
    with notes:
        check_line(steps, "hidden_states[0] (the input of layer 0)")


def encoder_view(controls, canvas, notes) -> None:
    """What the encoder computes once and every layer uses (DeBERTa: relative distances and their embeddings)."""
    steps = encoder
    with controls:
        key = show_step_picker(steps.graph, "Encoder step", "encoder.")
        st.session_state.step = f"encoder.{key}"
        info, array = steps.node(key), steps[key]
        st.markdown(f"### {info.title} — shape {tuple(array.shape)} {info.shape}\n{info.explains}.")
    if array.shape == (len(t.tokens), len(t.tokens)):  # one number per query and key: distances, buckets
        with canvas:
            common.cached_chart(common.view_key(loaded, "encoder", key), lambda: attention_heatmap(
                array.astype(np.float32), t.tokens, info.title, info.short))
            common.csv_download(lambda: common.matrix_frame(array, t.tokens, t.tokens, "query", "key"),
                                f"{key}.csv")
    else:
        span = array.shape[0] // 2
        rows = [f"δ = {d}" for d in range(-span, span)]  # row r of the table is used for bucketed distance r − span
        first = 0
        if array.shape[1] > 64:
            first = controls.slider("First dimension shown", 0, array.shape[1] - 64, 0, step=64, key=f"dims_{key}")
        with canvas:
            common.cached_chart(common.view_key(loaded, "encoder", key, first),
                                lambda: matrix_window(array, rows, first, info.title))
    notes.caption("Computed once from the sentence's length and shared by every layer.")


def layer_controls() -> tuple[int, int]:
    """◀ layer ▶ and the head; returns (layer, head) within this model's range."""
    if common.lecture_mode():  # a narrow column: the head gets a row of its own
        c1, c2, c3 = st.columns([1, 5, 1], vertical_alignment="bottom")
        c4 = st.container()
    else:
        c1, c2, c3, c4 = st.columns([1, 6, 1, 3], vertical_alignment="bottom")
    layer = st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    c1.button("◀", help="previous layer", disabled=layer == 0, on_click=common.set_value, args=("layer", layer - 1),
              width="stretch")
    c2.slider("Layer", 0, t.num_layers - 1, **common.bind("layer"))
    c3.button("▶", help="next layer", disabled=layer == t.num_layers - 1, on_click=common.set_value,
              args=("layer", layer + 1), width="stretch")
    st.session_state.head = min(st.session_state.head, t.num_heads - 1)
    c4.selectbox("Head", range(t.num_heads), **common.bind("head"))
    return st.session_state.layer, st.session_state.head


def layer_view(controls, canvas, notes) -> None:
    with controls:
        layer, head = layer_controls()
        steps = common.layer_steps(loaded, layer)
        key = show_step_picker(steps.graph, "Sub-step", "")
        st.session_state.step = key
        info, array = steps.node(key), steps[key]
        st.markdown(f"### Layer {layer} · step {steps.position(key)} of {len(steps)}: {info.title} — shape "
                    f"{tuple(array.shape)} {info.shape}\n{info.explains}.")
        note = t.layer_note(layer)
        if note:
            st.caption(note)
    T = len(t.tokens)
    if array.ndim == 3 and array.shape[1:] != (T, T):  # one head's vectors: queries, keys, values, contexts
        d, d_head = steps["input"].shape[1], array.shape[2]
        if info.op.name == "linear":
            controls.caption(f"One {d}-row weight matrix, split into {t.num_heads} heads of {d_head}: head {head} "
                             f"uses its outputs {head * d_head}–{(head + 1) * d_head - 1}.")
        rows = t.tokens if array.shape[1] == T else [f"δ = {r - array.shape[1] // 2}" for r in range(array.shape[1])]
        show_matrix(array[head], f"layer {layer} head {head}: {info.title}", key, controls, canvas, rows)
    elif array.ndim == 3:  # one head's token-by-token matrix: scores, their terms, probabilities
        matrix, labels, words = array[head], t.tokens, False
        if key == "attn.probs":
            with controls:
                if words := common.word_toggle():  # probabilities merge into words; raw scores do not
                    groups, labels = word_groups(t)
                    matrix = merge_to_words(matrix, groups)
        elif (matrix < MASKED).any():
            matrix = np.where(matrix < MASKED, np.nan, matrix)
            controls.caption("Blank cells are masked: the model adds the most negative number there, so softmax "
                             "gives them 0.")
        with canvas:
            if together := score_terms(steps.graph, key):
                terms = {k.removeprefix("attn."): steps[k][head] for k in together}
                added = [k.removeprefix("attn.") for k in together[:-1]]
                names = [steps.node(k).title.lower() for k in together[:-1]]
                st.markdown(f"**Layer {layer}, head {head}: scores = {' + '.join(added)} + mask** ({', '.join(names)})")
                common.cached_chart(common.view_key(loaded, "terms", layer, head),
                                    lambda: matrices_side_by_side(terms, t.tokens))
            else:
                title = f"layer {layer}, head {head}: {info.title}"
                common.cached_chart(common.view_key(loaded, "heatmap", layer, head, key, words),
                                    lambda: attention_heatmap(matrix, labels, title,
                                                              "attention" if key == "attn.probs" else "score"))
            common.csv_download(lambda: common.matrix_frame(matrix, labels, labels, "query", "key"),
                                f"layer{layer}_head{head}_{key}.csv")
            st.caption("All heads of this layer (pick one with Head above):")
            common.cached_chart(common.view_key(loaded, "grid", layer, head),
                                lambda: head_grid(steps["attn.probs"], head))
    else:
        show_matrix(array, f"layer {layer}: {info.title}", key, controls, canvas)
        if group := stream_group(steps.graph, key):
            series = {steps.node(k).title if k != "input" else "layer input": steps[k] for k in group}
            with canvas:
                common.cached_chart(common.view_key(loaded, "norms", layer, key), lambda: token_norms(
                    series, t.tokens, "Vector length per token: residual adds, norm rescales"))
    with notes:
        last = "final.norm" in steps
        check_line(steps, f"hidden_states[{layer + 1}] (this layer's output{', after the final norm' if last else ''})")


def pooler_view(controls, canvas, notes) -> None:
    steps = t.pooler()
    if steps is None:
        controls.info(f"{type(loaded.base).__name__} has no pooler: its sentence vector is usually the first "
                      f"token's final vector or the mean of all token vectors.")
    else:
        controls.markdown("### Pooler: dense + tanh on the first token — shape "
                          f"{tuple(steps['out'].shape)}\nBERT's sentence vector, used by the classification head.")
        if loaded.sentence_pooling is not None:
            controls.caption(f"{loaded.source} does not use this pooler: as a sentence-transformers model its "
                             f"sentence vector is {loaded.sentence_pooling.describe()} (below).")
        canvas.bar_chart(steps["out"], height=260, x_label="dimension", y_label="value")
        with notes:
            check_line(steps, "pooler_output")
    pair = st.session_state.pair
    if not pair.strip():
        notes.info("Enter a second sentence in the sidebar to compare the two sentences' vectors.")
        return
    with notes:
        ways = common.sentence_vectors_or_stop(loaded, [st.session_state.text, pair])
        st.markdown("### How similar are the two sentences? (each run on its own)")
        for column, way in zip(st.columns(len(ways)), ways):
            column.metric(f"cosine of {way.name}", f"{way.cosine()[0, 1]:.4f}", help=f"{way.how}.")
        if not ways[0].trained_for_similarity:
            st.caption(f"{loaded.source} was not trained for sentence similarity: neither vector is meant for it. "
                       f"The Similarity page compares several sentences, and offers a model trained for it.")


@st.fragment
def stepper() -> None:
    """Controls and explanations go to `controls`, figures to `canvas`, the check to `notes`: one below the other
    when browsing, side by side in lecture mode (notes under the controls) so a step fits a 1280×720 projector."""
    if common.lecture_mode():
        controls, canvas = st.columns([5, 6], gap="large")
        notes = controls
    else:
        controls, canvas, notes = st.container(), st.container(), st.container()
    short = {"Encoder layer": "Layer", "Pooler & similarity": "Pooler"} if common.lecture_mode() else {}
    stage = controls.segmented_control("Stage", list(stages), default=stage_of(st.session_state.step),
                                       key="stage_control", format_func=lambda name: short.get(name, name))
    if stage and stage != stage_of(st.session_state.step):
        st.session_state.step = stages[stage]
    view = {"Embeddings": embeddings_view, "Positions": encoder_view, "Encoder layer": layer_view,
            "Pooler & similarity": pooler_view}
    view[stage or stage_of(st.session_state.step)](controls, canvas, notes)
    common.sync_url()


stepper()
