"""Interventions: switch a head off, mask a token or zero a value vector, and see exactly what changes in every
later layer (how far each token's hidden state moved), in the attention of a chosen head, and in what the model
gives; the stepper opens any layer of the intervened run. Beside it, value zeroing as a context-mixing map
(Mohebbi et al. 2023): layer by layer, how much each token's output rests on each other token."""
import numpy as np
import streamlit as st

from bertviz_lite.analyses.output_change import output_change
from bertviz_lite.analyses.page_views import TITLES
from bertviz_lite.figures import matrices_side_by_side
from bertviz_lite.figures.outputs import shift_heatmap
from bertviz_lite.serving.cache import cached_value_zeroing
from bertviz_lite.intervening.value_zeroing import value_zeroing_rollout
from bertviz_lite.intervening.words import (AXES, BEFORE_AFTER_TITLE, SENTENCE_COSINE, SHIFT_TITLE, head_label,
                                            headline, predictions, unchanged_attention, value_zeroing_caption,
                                            value_zeroing_titles)
from app_pages.shell import charts, guarded, lecture, runs, screen, state

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
controls, canvas = lecture.control_row(TITLES["intervene"], [2.9, 2.1, 3, 1.4, 1, 2.1])
L, H, tokens = t.num_layers, t.num_heads, t.tokens
edits = runs.edits_in_url(t)  # before the pickers: they show the keys as it rewrites them


BEFORE_AFTER_PX = 430  # on a projector, under the row of controls and a line of result: whole above the fold
HEADLINE_CHARS, LINE_PX = 118, 40  # a line of the result on a projector, in characters; and its height


def named(i: int) -> str:
    return f"{i} {tokens[i]}"


heads = [f"{layer}.{head}" for layer in range(L) for head in range(H)]
controls[0].multiselect("Switch heads off", heads, placeholder="layer.head", **state.bind_list("off", heads),
                        format_func=head_label)
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
    said = headline(edits, tokens, run.shift)
    lines = -(-len(said.replace("**", "")) // HEADLINE_CHARS)
    tallest = BEFORE_AFTER_PX - LINE_PX * (lines - 1)  # a second line of it: a shorter figure
    with lecture.point():  # the attention before and after: what the intervention did to one head, on screen first
        st.markdown(said)
        charts.cached_chart(charts.view_key(loaded, intervened, "before and after", layer, head),
                            lambda: matrices_side_by_side(
                                {"before": t.attention(layer)[head], "after": run.trace.attention(layer)[head]},
                                run.trace.tokens, colorbar="attention", axes=("query", "key"),
                                title=BEFORE_AFTER_TITLE.format(layer=layer, head=head),
                                per_row=1 if screen.narrow() else None),  # on a phone, one above the other
                            width=charts.PAGE_WIDTH_PX, tallest=tallest)
    st.caption(unchanged_attention(edits))
    charts.cached_chart(charts.view_key(loaded, intervened, "shift"), lambda: shift_heatmap(
        run.shift, run.trace.tokens, SHIFT_TITLE, edits.unchanged_states, edits.masked),
        width=charts.PAGE_WIDTH_PX)
    st.page_link("app_pages/layers.py", label=f"Step through layer {layer} of the intervened run",
                 icon=":material/layers:", query_params={**edits.to_url(), "layer": layer})
    change = output_change(t, run.trace)
    if change.sentence_cosine is not None:
        st.metric(SENTENCE_COSINE, f"{change.sentence_cosine:.4f}")
    if change.before:
        st.markdown(predictions(change, tokens))
    elif change.mlm_problem and loaded.tokenizer.mask_token in run.trace.tokens:
        st.caption(f"No masked-LM predictions: {change.mlm_problem}")


def value_zeroing_view() -> None:
    maps = np.stack([guarded.computed_or_stop(f"Zeroing each token's value vector in layer {k} …", lambda k=k:
                     cached_value_zeroing(key, k)) for k in range(layer + 1)])
    with lecture.point("value-zeroing") if not edits else st.container():  # the map and its rollout, side by side
        charts.cached_chart(charts.view_key(loaded, key, "value zeroing", layer), lambda: matrices_side_by_side(
            dict(zip(value_zeroing_titles(layer), (maps[-1], value_zeroing_rollout(maps)[-1]))),
            tokens, colorbar="share", axes=AXES, per_row=1 if screen.narrow() else None),
            width=charts.PAGE_WIDTH_PX, tallest=BEFORE_AFTER_PX)
    st.caption(f"{value_zeroing_caption(layer, len(tokens))} Beside it, what the attention weights say (the mean "
               f"of the layer's heads):")
    charts.cached_chart(charts.view_key(loaded, key, "attention mean", layer), lambda: matrices_side_by_side(
        {f"attention of layer {layer} (mean over heads)": t.attention(layer).mean(axis=0)}, tokens, colorbar="share",
        axes=AXES), width=charts.column_px([1, 1], 0), tallest=BEFORE_AFTER_PX)


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
