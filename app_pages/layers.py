"""Layers: the embeddings, every encoder layer sub-step by sub-step, and the pooler, each checked against the
model's own numbers. Changing layer, head or step reruns only the stepper (a fragment)."""
import numpy as np
import streamlit as st

from bertviz_lite import EMBEDDING_STEPS, LAYER_STEPS, POOLER_STEPS
from bertviz_lite.figures import attention_heatmap, head_grid, matrix_window, token_norms
from app_pages import common

STAGES = {"Embeddings": "embed.norm", "Encoder layer": "attn.probs", "Pooler & similarity": "pooler.out"}
NORM_VIEWS = {"attn.residual": ("input", "attn.out", "attn.residual", "attn.norm"),
              "attn.norm": ("input", "attn.out", "attn.residual", "attn.norm"),
              "ffn.residual": ("attn.norm", "ffn.out", "ffn.residual", "ffn.norm"),
              "ffn.norm": ("attn.norm", "ffn.out", "ffn.residual", "ffn.norm")}

loaded = common.load_or_stop()
t = common.trace_or_stop(loaded)
st.title("Layers")


def stage_of(step: str) -> str:
    if step.startswith("embed."):
        return "Embeddings"
    if step.startswith("pooler."):
        return "Pooler & similarity"
    return "Encoder layer"


def check_line(steps, against: str) -> None:
    diff = steps.max_abs_diff
    ok = diff <= 1e-5
    text = f"{'✅' if ok else '❌'} Recomputed by hand and compared with the model's own {against}: max |Δ| = {diff:.1e}"
    (st.success if ok else st.error)(text)


def show_matrix(array: np.ndarray, title: str, key: str) -> None:
    first = 0
    if array.shape[1] > 64:
        first = st.slider("First dimension shown", 0, array.shape[1] - 64, 0, step=64, key=f"dims_{key}")
    st.plotly_chart(matrix_window(array, t.tokens, first, title), width="stretch")


def show_step_picker(steps_info, available, label: str) -> str:
    options = [s.key for s in steps_info if s.key in available]
    step = st.session_state.step
    current = step if stage_of(step) == "Encoder layer" else step.split(".", 1)[1]
    if current not in options:
        current = options[-1]
    chosen = st.pills(label, options, default=current, key=f"pills_{label}_{st.session_state.layer}",
                      format_func=lambda k: next(s.title for s in steps_info if s.key == k))
    return chosen or current


def embeddings_view() -> None:
    steps = t.embeddings()
    key = show_step_picker(EMBEDDING_STEPS, steps, "Embedding step")
    st.session_state.step = f"embed.{key}"
    info = steps.info(key)
    st.markdown(f"### {info.title} — shape {tuple(steps[key].shape)} {info.shape}\n{info.explains}.")
    show_matrix(steps[key], f"embeddings: {info.title}", f"embed_{key}")
    series = {k: steps[k] for k in ("word", "position", "token_type", "sum", "norm") if k in steps}
    st.plotly_chart(token_norms(series, t.tokens, "Vector length per token: the LayerNorm evens them out"),
                    width="stretch")
    check_line(steps, "hidden_states[0] (the input of layer 0)")


def layer_view() -> None:
    c1, c2, c3, c4 = st.columns([1, 6, 1, 3])
    layer = st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    c1.button("◀", help="previous layer", disabled=layer == 0, on_click=common.set_value, args=("layer", layer - 1),
              width="stretch")
    c2.slider("Layer", 0, t.num_layers - 1, **common.bind("layer"))
    c3.button("▶", help="next layer", disabled=layer == t.num_layers - 1, on_click=common.set_value, args=("layer", layer + 1),
              width="stretch")
    st.session_state.head = min(st.session_state.head, t.num_heads - 1)
    c4.selectbox("Head", range(t.num_heads), **common.bind("head"))
    layer, head = st.session_state.layer, st.session_state.head
    steps = t.layer(layer)
    key = show_step_picker(LAYER_STEPS, steps, "Sub-step")
    st.session_state.step = key
    info, array = steps.info(key), steps[key]
    position = [s.key for s in LAYER_STEPS].index(key) + 1
    st.markdown(f"### Layer {layer} · step {position} of {len(LAYER_STEPS)}: {info.title} — shape "
                f"{tuple(array.shape)} {info.shape}\n{info.explains}.")
    if key in ("attn.q", "attn.k", "attn.v"):
        d, d_head = steps["input"].shape[1], array.shape[2]
        st.caption(f"One {d} × {d} weight matrix, split into {t.num_heads} heads of {d_head}: head {head} uses "
                   f"columns {head * d_head}–{(head + 1) * d_head - 1}.")
        show_matrix(array[head], f"layer {layer} head {head}: {info.title}", key)
    elif key in ("attn.scores", "attn.probs"):
        st.plotly_chart(attention_heatmap(array[head], t.tokens, f"layer {layer}, head {head}: {info.title}",
                                          "score" if key == "attn.scores" else "attention"), width="stretch")
        st.caption("All heads of this layer (pick one with Head above):")
        st.plotly_chart(head_grid(steps["attn.probs"], head), width="stretch")
    else:
        show_matrix(array, f"layer {layer}: {info.title}", key)
        if key in NORM_VIEWS:
            series = {steps.info(k).title if k != "input" else "layer input": steps[k] for k in NORM_VIEWS[key]}
            st.plotly_chart(token_norms(series, t.tokens, "Vector length per token: the residual adds, the "
                                        "LayerNorm rescales"), width="stretch")
    check_line(steps, f"hidden_states[{layer + 1}] (this layer's output)")


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def pooler_view() -> None:
    steps = t.pooler()
    if steps is None:
        st.info(f"{type(loaded.base).__name__} has no pooler: its sentence vector is usually the first token's "
                f"final vector or the mean of all token vectors.")
    else:
        st.markdown("### Pooler: dense + tanh on the first token — shape "
                    f"{tuple(steps['out'].shape)}\nBERT's sentence vector, used by the classification head.")
        st.bar_chart(steps["out"], height=260, x_label="dimension", y_label="value")
        check_line(steps, "pooler_output")
    pair = st.session_state.pair
    if not pair.strip():
        st.info("Enter a second sentence in the sidebar to compare the two sentences' vectors.")
        return
    a = common.trace_or_stop(loaded, st.session_state.text, None)
    b = common.trace_or_stop(loaded, pair, None)
    st.markdown("### How similar are the two sentences? (each run on its own)")
    m1, m2 = st.columns(2)
    mean_a, mean_b = a.hidden_states[-1].mean(0), b.hidden_states[-1].mean(0)
    m1.metric("cosine of mean token vectors", f"{cosine(mean_a, mean_b):.4f}")
    if a.pooler_output is not None:
        m2.metric("cosine of pooled [CLS] outputs", f"{cosine(a.pooler_output, b.pooler_output):.4f}")


@st.fragment
def stepper() -> None:
    stage = st.segmented_control("Stage", list(STAGES), default=stage_of(st.session_state.step),
                                 key="stage_control")
    if stage and stage != stage_of(st.session_state.step):
        st.session_state.step = STAGES[stage]
    {"Embeddings": embeddings_view, "Encoder layer": layer_view,
     "Pooler & similarity": pooler_view}[stage or stage_of(st.session_state.step)]()
    common.sync_url()


stepper()
