"""Interventions: switch a head off, mask a token or zero a value vector, and see exactly what changes in every
later layer (how far each token's hidden state moved), in the attention of a chosen head, and in what the model
gives; the stepper opens any layer of the intervened run. Beside it, value zeroing as a context-mixing map
(Mohebbi et al. 2023): layer by layer, how much each token's output rests on each other token."""
import numpy as np
import streamlit as st

from bertviz_lite.analyses.output_change import output_change
from bertviz_lite.figures import matrices_side_by_side
from bertviz_lite.figures.outputs import shift_heatmap
from bertviz_lite.serving.cache import cached_value_zeroing
from bertviz_lite.intervening.value_zeroing import value_zeroing_rollout
from app_pages.shell import charts, guarded, lecture, runs, screen, state

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
controls, canvas = lecture.control_row("Interventions", [2.9, 2.1, 3, 1.4, 1, 2.1])
L, H, tokens = t.num_layers, t.num_heads, t.tokens
edits = runs.edits_in_url(t)  # before the pickers: they show the keys as it rewrites them


BEFORE_AFTER_PX = 430  # on a projector, under the row of controls and a line of result: whole above the fold
HEADLINE_CHARS, LINE_PX = 118, 40  # a line of the result on a projector, in characters; and its height


def named(i: int) -> str:
    return f"{i} {tokens[i]}"


def unchanged_attention(first: int) -> str:
    """Which layers' attention an intervention after the softmax cannot change: those up to the first it changes."""
    layers = "layer 0" if first == 0 else f"layers 0 to {first}"
    return f"The attention of {layers} cannot change: the intervention acts after {'its' if first == 0 else 'their'} softmax."


def small(x: float) -> str:
    """A distance as a person reads it: 4 decimals, or 3 significant digits below 0.001 (random weights move little)."""
    return f"{x:.4f}" if x == 0 or x >= 1e-3 else f"{x:.3g}"


heads = [f"{layer}.{head}" for layer in range(L) for head in range(H)]
controls[0].multiselect("Switch heads off", heads, placeholder="layer.head", **state.bind_list("off", heads),
                        format_func=lambda x: "layer {} · head {}".format(*x.split(".")))
positions = [str(i) for i in range(len(tokens))]
if loaded.tokenizer.mask_token_id is not None:
    controls[1].multiselect("Mask tokens", positions, placeholder="a token", **state.bind_list("mask", positions),
                            format_func=lambda i: named(int(i)))
values = [f"{layer}:{j}" for layer in range(L) for j in range(len(tokens))]
controls[2].multiselect("Zero a token's value vector", values, placeholder="layer:token",
                        **state.bind_list("zero", values),
                        format_func=lambda x: "layer {} · {}".format(x.split(":")[0], named(int(x.split(":")[1]))))
st.session_state.layer = min(st.session_state.layer, L - 1)
st.session_state.head = min(st.session_state.head, H - 1)
layer = controls[3].slider("Layer to look at", 0, L - 1, **state.bind("layer"))
head = controls[4].selectbox("Head", range(H), **state.bind("head"))
controls[5].toggle("Value zeroing", help="A context-mixing map: T runs of the layer, one per token's value vector "
                                         "zeroed (Mohebbi et al. 2023).",
                   **state.bind("vz"))


def intervention_view() -> None:
    intervened = key.with_edits(edits)  # names the run, and so its figures: each intervention has its own
    run = runs.intervened_or_stop(intervened)
    first, shift = run.first_changed_layer, run.shift
    token = int(shift[-1].argmax())  # the token the last layer moved most
    which = f"'{tokens[token]}'" + (f" (token {token}, masked)" if token in edits.masked else f" (token {token})")
    headline = (f"**{edits.describe().capitalize()}.** After the last layer {which} moved most: cosine distance "
                f"{small(shift[-1, token])} (mean {small(shift[-1].mean())}).")
    lines = -(-len(headline.replace("**", "")) // HEADLINE_CHARS)
    tallest = BEFORE_AFTER_PX - LINE_PX * (lines - 1)  # a second line of it: a shorter figure
    with lecture.point():  # the attention before and after: what the intervention did to one head, on screen first
        st.markdown(headline)
        charts.cached_chart(charts.view_key(loaded, intervened, "before and after", layer, head),
                            lambda: matrices_side_by_side(
                                {"before": t.attention(layer)[head], "after": run.trace.attention(layer)[head]},
                                run.trace.tokens, colorbar="attention", axes=("query", "key"),
                                title=f"Layer {layer}, head {head}: attention before and after",
                                per_row=1 if screen.narrow() else None),  # on a phone, one above the other
                            width=charts.PAGE_WIDTH_PX, tallest=tallest)
    st.caption("A masked token changes every layer's attention." if edits.masked else unchanged_attention(first))
    charts.cached_chart(charts.view_key(loaded, intervened, "shift"), lambda: shift_heatmap(
        shift, run.trace.tokens, "How far each token's hidden state moved", edits.unchanged_states, edits.masked),
        width=charts.PAGE_WIDTH_PX)
    st.page_link("app_pages/layers.py", label=f"Step through layer {layer} of the intervened run",
                 icon=":material/layers:", query_params={**edits.to_url(), "layer": layer})
    change = output_change(t, run.trace)
    if change.sentence_cosine is not None:
        st.metric("Sentence vector: cosine to the original", f"{change.sentence_cosine:.4f}")
    if change.before:
        st.markdown(f"Masked-LM top {len(change.before)} at {named(change.position)}: before "
                    + ", ".join(f"'{w}' {p:.2f}" for w, p in change.before) + "; after "
                    + ", ".join(f"'{w}' {p:.2f}" for w, p in change.after) + ".")
    elif change.mlm_problem and loaded.tokenizer.mask_token in run.trace.tokens:
        st.caption(f"No masked-LM predictions: {change.mlm_problem}")


def value_zeroing_view() -> None:
    maps = np.stack([guarded.computed_or_stop(f"Zeroing each token's value vector in layer {k} …", lambda k=k:
                     cached_value_zeroing(key, k)) for k in range(layer + 1)])
    with lecture.point("value-zeroing") if not edits else st.container():  # the map and its rollout, side by side
        charts.cached_chart(charts.view_key(loaded, key, "value zeroing", layer), lambda: matrices_side_by_side(
            {"value zeroing": maps[-1], f"value zeroing rolled out to layer {layer}": value_zeroing_rollout(maps)[-1]},
            tokens, colorbar="share", axes=("token", "rests on"), per_row=1 if screen.narrow() else None),
            width=charts.PAGE_WIDTH_PX, tallest=BEFORE_AFTER_PX)
    st.caption(f"Value zeroing (Mohebbi et al. 2023), of the model's own run: row i, column j is how far token i's "
               f"output of layer {layer} moves (cosine distance) when token j's value vector is zeroed in that layer, "
               f"each row divided by its sum: {len(tokens)} runs of the layer, {len(tokens) * (layer + 1)} for the "
               f"rollout to layer {layer}, as the paper's code rolls out: C_l · … · C_0. Beside it, what the "
               f"attention weights say (the mean of the layer's heads):")
    charts.cached_chart(charts.view_key(loaded, key, "attention mean", layer), lambda: matrices_side_by_side(
        {f"attention of layer {layer} (mean over heads)": t.attention(layer).mean(axis=0)}, tokens, colorbar="share",
        axes=("token", "rests on")), width=charts.column_px([1, 1], 0), tallest=BEFORE_AFTER_PX)


with canvas:
    if edits:
        intervention_view()
    if st.session_state.vz:
        value_zeroing_view()
    if not edits and not st.session_state.vz:
        st.info("Pick a head to switch off, a token to mask or a value vector to zero (or turn the value zeroing "
                "map on): the page shows how far every token's hidden state moves in each later layer.",
                icon=":material/science:")
state.sync_url()
del t, loaded, key  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
