"""Rollout: what the whole stack mixed, if attention alone moved information (Abnar & Zuidema 2020,
"Quantifying Attention Flow in Transformers"), up to any layer, and one token's input mixture layer by layer."""
import numpy as np
import streamlit as st

from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from bertviz_lite.analyses.page_views import (LABELS, ROLLOUT_CAPTION, TITLES, rollout_matrix, rollout_mixture,
                                             token_option)
from app_pages.shell import charts, chips, guarded, lecture, runs, state

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
controls, canvas = lecture.controls_and_canvas(TITLES["rollout"], [4, 7], gap="large")

rollout = guarded.analysis_or_stop("layerwise", key).rollout  # (L, T, T)
with controls:
    st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    layer = st.slider(LABELS["rollout_layer"], 0, t.num_layers - 1, **state.bind("layer"))
    words = chips.word_toggle()
    groups, labels = word_groups(t) if words else ([[i] for i in range(len(t.tokens))], t.tokens)
    st.session_state.token = min(st.session_state.token, len(labels) - 1)
    st.selectbox(LABELS["token"], range(len(labels)), format_func=lambda i: token_option(i, labels),
                 **state.bind("token"))
    st.caption(ROLLOUT_CAPTION)
merge = (lambda m: merge_to_words(m, groups)) if words else (lambda m: m)
shown = np.array(merge(rollout[layer]))  # a copy: the tab keeps the download's numbers, not every layer's
with canvas:
    with lecture.point():
        charts.chart(rollout_matrix(shown, labels, layer))
    token = st.session_state.token
    mixture = np.stack([merge(r)[token] for r in rollout])  # (L, T or W)
    charts.chart(rollout_mixture(mixture, labels, token))
    charts.csv_download(lambda: charts.matrix_frame(shown, labels, labels), f"rollout_layer{layer}.csv")
state.sync_url()
del t, loaded, rollout  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
