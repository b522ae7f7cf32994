"""Heads: every attention head's fingerprint (Clark et al. 2019, "What Does BERT Look At?"), the striking ones
named in words, and any head opened in the Layers stepper."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.head_fingerprints import STATS
from bertviz_lite.analyses.page_views import (DEFAULTS, LABELS, STAT_BUTTONS, TITLES, fingerprint_caption,
                                             fingerprint_grid, open_head_label, striking)
from bertviz_lite.analyses.questions import head_question
from app_pages.shell import asking, charts, guarded, lecture, runs, state

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
lecture.page_title(TITLES["heads"])
controls, canvas = lecture.beside([4, 7])  # the grid beside its controls, on a projector too

fingerprints = guarded.analysis_or_stop("layerwise", key).fingerprints
with controls:
    if st.session_state.stat not in STATS:
        st.session_state.stat = DEFAULTS["stat"]
    st.segmented_control(LABELS["stat"], STATS, format_func=STAT_BUTTONS.get, wrap=True, **state.bind("stat"))
    stat = st.session_state.stat or DEFAULTS["stat"]
    st.caption(fingerprint_caption(stat))
    layer = min(st.session_state.layer, t.num_layers - 1)
    question = asking.asked(lambda: head_question(fingerprints, stat, layer))  # ask=1: which head of the layer
    asked_of = asking.about()
    asking.reveal_next(question, asked_of)
with canvas:
    waits = asking.held_back(question, asked_of, controls if state.projector() else canvas)
if waits:  # the figure, and the striking heads that would say the answer, wait for a choice
    state.sync_url()
    del t, loaded  # as at the page's end: a tab keeps no trace or model
    guarded.end_page()
with controls:
    found, named = striking(fingerprints)
    st.markdown(named)
    options = [(layer, head) for layer in range(t.num_layers) for head in range(t.num_heads)]
    default = found[0] if found else (0, 0)
    chosen = st.selectbox("Open a head in the stepper", options, index=options.index(default),
                          format_func=lambda lh: f"layer {lh[0]}, head {lh[1]}")

    def open_head():
        state.set_value("layer", chosen[0])
        state.set_value("head", chosen[1])
        st.session_state.step = "attn.probs"

    if st.button(open_head_label(*chosen), icon=":material/open_in_new:",
                 on_click=open_head):
        st.switch_page("app_pages/layers.py")
with canvas, lecture.point():
    charts.chart(fingerprint_grid(fingerprints, stat))
    rows = [{"layer": layer, "head": head, **{s: float(fingerprints.stats[s][layer, head]) for s in STATS}}
            for layer, head in options]
    charts.csv_download(lambda: pd.DataFrame(rows), "head_fingerprints.csv")
state.sync_url()
del t, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
