"""Contributions: how much each token really adds to another, as vector norms rather than attention weights
(Kobayashi et al. 2020 and 2021), next to the same layer's raw attention, checked against the model's own
attention output and LayerNorm, and each layer's mixing ratio."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.page_views import (CONTRIBUTION_PANEL_PX as PANEL_PX, CONTRIBUTION_VIEWS as VIEWS,
                                             CONTRIBUTIONS_CAPTION, LABELS, TITLES, contribution_checks,
                                             contribution_notes, contribution_panel, mixing_figure, mixing_said,
                                             norms_of)
from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from app_pages.shell import charts, chips, guarded, lecture, runs, state


loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
lecture.page_title(TITLES["contributions"])
st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
slider, toggle, picker = st.columns([2.6, 2, 3.8], vertical_alignment="bottom")
layer = slider.slider(LABELS["layer"], 0, t.num_layers - 1, **state.bind("layer"))
with toggle:
    words = chips.word_toggle()
result = guarded.analysis_or_stop("contributions", key, layer)
groups, labels = word_groups(t) if words else ([[i] for i in range(len(t.tokens))], t.tokens)
norms = norms_of(result)
if st.session_state.norm not in norms:
    st.session_state.norm = norms[-1]  # with the residual, and LayerNorm where the layer has one after the sum
picker.segmented_control(LABELS["norm"], norms, format_func=VIEWS.get, required=True, **state.bind("norm"))
shown = {name: getattr(result, name) for name in ("attention", st.session_state.norm)}
if words:  # norms are not probabilities, but the same merge keeps "to" summed and "from" averaged
    shown = {name: merge_to_words(m, groups) for name, m in shown.items()}
st.markdown(mixing_said(result, layer))  # the page's point, above its figures
left, right = lecture.point().columns(2)
for column, (name, matrix) in zip((left, right), shown.items()):
    with column:  # each on its own scale: a share of 1, and a vector's length
        charts.chart(contribution_panel(name, matrix, labels), width=charts.column_px([1, 1], 0), tallest=PANEL_PX)
st.caption(CONTRIBUTIONS_CAPTION)
st.page_link("app_pages/intervene.py", icon=":material/science:", query_params={"vz": 1, "layer": layer},
             label=f"The same question asked by zeroing each token's value vector in layer {layer} (value zeroing, "
                   f"Mohebbi et al. 2023), with its rollout")
for note in contribution_notes(t.num_heads, t.num_key_value_heads, loaded.family.name,
                               pre_norm=result.norm_residual_ln is None):
    st.info(note, icon=":material/info:")
for said, holds in contribution_checks(result, layer):
    (st.success if holds else st.error)(said, icon=":material/check_circle:" if holds else ":material/cancel:")
mixing = guarded.analysis_or_stop("layerwise", key).mixing
charts.chart(mixing_figure(mixing.ratios))
charts.csv_download(lambda: pd.concat([charts.matrix_frame(m, labels, labels).assign(view=VIEWS[name])
                                       for name, m in shown.items()]), f"contributions_layer{layer}.csv")
state.sync_url()
del t, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
