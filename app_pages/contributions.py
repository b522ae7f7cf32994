"""Contributions: how much each token really adds to another, as vector norms rather than attention weights
(Kobayashi et al. 2020 and 2021), next to the same layer's raw attention, checked against the model's own
attention output and LayerNorm, and each layer's mixing ratio."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.contributions import MIXING
from bertviz_lite.analyses.word_level import merge_to_words, word_groups
from bertviz_lite.figures import matrices_side_by_side, mixing_lines
from app_pages.shell import charts, chips, guarded, lecture, runs, state

VIEWS = {"attention": "attention (mean of heads)", "norm": "‖c‖", "norm_residual": "‖c + x‖ (residual)",
         "norm_residual_ln": "‖g(c + x)‖ (+ LayerNorm)"}
TOLERANCE = 1e-4  # float32 sums over hundreds of dimensions and tokens
PANEL_PX = 410  # on a projector, under the controls and the result's line: whole above the fold

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
lecture.page_title("Norm-based contributions")
st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
slider, toggle, picker = st.columns([2.6, 2, 3.8], vertical_alignment="bottom")
layer = slider.slider("Layer", 0, t.num_layers - 1, **state.bind("layer"))
with toggle:
    words = chips.word_toggle()
result = guarded.analysis_or_stop("contributions", key, layer)
groups, labels = word_groups(t) if words else ([[i] for i in range(len(t.tokens))], t.tokens)
norms = [name for name in MIXING if name != "attention" and getattr(result, name) is not None]
fullest = norms[-1]  # with the residual, and LayerNorm where the layer has one after the sum
if st.session_state.norm not in norms:
    st.session_state.norm = fullest
picker.segmented_control("Beside the attention", norms, format_func=VIEWS.get, required=True, **state.bind("norm"))
shown = {name: getattr(result, name) for name in ("attention", st.session_state.norm)}
if words:  # norms are not probabilities, but the same merge keeps "to" summed and "from" averaged
    shown = {name: merge_to_words(m, groups) for name, m in shown.items()}
ratios = result.mixing()
st.markdown(f"**Layer {layer}: raw attention says {ratios['attention']:.0%} of what reaches a token comes from other "
            f"tokens; counting the residual{' and LayerNorm' if fullest == 'norm_residual_ln' else ''}, "
            f"{ratios[fullest]:.0%}.**")  # the page's point, above its figures
left, right = lecture.point().columns(2)
for column, (name, matrix), colour in zip((left, right), shown.items(), ("weight", "‖vector‖")):
    with column:  # each on its own scale: a share of 1, and a vector's length
        charts.chart(matrices_side_by_side({VIEWS[name]: matrix}, labels, colorbar=colour),
                     width=charts.column_px([1, 1], 0), tallest=PANEL_PX)
st.caption(r"Rows receive, columns give. $\lVert c \rVert$ is $\lVert c_{ij} \rVert$ with "
           r"$c_{ij} = \sum_h \alpha^h_{ij} f^h(x_j)$ and $f^h(x_j) = (x_j W_V^h + b_V^h) W_O^h$: what token $j$ "
           r"really adds to token $i$ through the attention heads. $\lVert c + x \rVert$ adds the residual $x_i$ on "
           r"the diagonal ($c_{ij} + \delta_{ij} x_i$); $g$ is LayerNorm's linear part for token $i$, "
           r"$g_i(z) = \gamma \odot (z - \bar z) / s_i$. Kobayashi et al. (2020, 2021).")
st.page_link("app_pages/intervene.py", icon=":material/science:", query_params={"vz": 1, "layer": layer},
             label=f"The same question asked by zeroing each token's value vector in layer {layer} (value zeroing, "
                   f"Mohebbi et al. 2023), with its rollout")
if t.num_key_value_heads < t.num_heads:
    group = t.num_heads // t.num_key_value_heads
    st.info(f"Grouped-query attention: {t.num_key_value_heads} value heads for {t.num_heads} query heads. Query head "
            f"h reads value head ⌊h / {group}⌋ (heads 0–{group - 1} read value head 0, and so on), so f^h(x_j) uses "
            f"that value head's W_V rows with head h's own slice of W_O.", icon=":material/info:")
pre_norm = result.norm_residual_ln is None
if pre_norm:
    st.info(f"{loaded.family.name} normalises before attention, not after it (a pre-norm layer): the values come "
            f"from the normed x_j, the residual adds x_i itself, and no norm follows the sum, so there is no "
            f"‖g(c + x)‖ to show. The second check is against the attention block's output x_i + attn.out_i.",
            icon=":material/info:")
second = (f"Σ_j (c_ij + δ_ij x_i) + b_O vs the attention block's output x + attn.out (layer {layer})" if pre_norm
          else f"Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β vs the model's LayerNorm output (layer {layer})")
for what, diff in ((f"Σ_j c_ij + b_O vs the model's attention output (layer {layer})", result.out_diff),
                   (second, result.norm_diff)):
    (st.success if diff <= TOLERANCE else st.error)(f"{what}: max |Δ| = {diff:.1e}",
                                                    icon=":material/check_circle:" if diff <= TOLERANCE
                                                    else ":material/cancel:")
mixing = guarded.analysis_or_stop("layerwise", key).mixing
charts.chart(mixing_lines(mixing.ratios, VIEWS, "Mixing ratio: the share of what reaches a token that comes "
                                                 "from other tokens"))
charts.csv_download(lambda: pd.concat([charts.matrix_frame(m, labels, labels).assign(view=VIEWS[name])
                                       for name, m in shown.items()]), f"contributions_layer{layer}.csv")
state.sync_url()
del t, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
