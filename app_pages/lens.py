"""Logit lens: the model's own masked-LM head applied to every hidden state at one position, to watch the
prediction form layer by layer; the last layer is checked against the masked-LM model's own logits."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.logit_lens import head_problem
from bertviz_lite.serving.cache import cached_lens
from bertviz_lite.figures import lens_grid
from app_pages import common

masked_lm = common.load_or_stop(task="masked-lm")  # whatever task the sidebar names: the lens needs the head
if not common.lecture_mode():
    st.title("Logit lens")
source, text, pair = st.session_state.model, st.session_state.text, st.session_state.pair or None
problem = head_problem(masked_lm)  # before the model runs on the sentence
if problem:
    st.error(problem, icon=":material/block:")
    st.stop()
t = common.trace_or_stop(masked_lm)
mask = masked_lm.tokenizer.mask_token
position = None
if mask not in t.tokens:
    st.info(f"The sentence has no {mask}: put {mask} where a word should be predicted (e.g. 'the cat {mask} on "
            f"the mat'), or pick a position to look at.", icon=":material/info:")
    st.session_state.position = min(max(st.session_state.position, 0), len(t.tokens) - 1)
    position = st.selectbox("Position", range(len(t.tokens)), format_func=lambda i: f"{i} {t.tokens[i]}",
                            **common.bind("position"))
lens = common.computed_or_stop("The masked-LM head on every hidden state …",
                               lambda: cached_lens(source, text, pair, position), ":material/error:")
common.chart(lens_grid(lens.layers, f"Top {len(lens.layers[0])} predictions at position {lens.position} "
                                    f"({lens.tokens[lens.position]}), hidden state by hidden state"))
ok = lens.max_abs_diff <= 1e-4
(st.success if ok else st.error)(f"The last layer through the head vs the masked-LM model's own logits: max |Δ| = "
                                 f"{lens.max_abs_diff:.1e}", icon=":material/check_circle:" if ok else ":material/cancel:")
rows = [{"hidden state": "embeddings" if i == 0 else f"layer {i - 1}", "rank": k + 1, "token": tok, "probability": p}
        for i, top in enumerate(lens.layers) for k, (tok, p) in enumerate(top)]
common.csv_download(lambda: pd.DataFrame(rows), "logit_lens.csv")
common.sync_url()
