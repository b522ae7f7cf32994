"""Attributions: which input tokens an output rests on. A target (two sentences' cosine, or a masked-LM logit),
integrated gradients or gradient × input through Captum with the completeness check beside them, and, on request,
every method's faithfulness on this sentence: its deletion curve and AOPC, the most faithful named."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.page_views import TITLES
from bertviz_lite.attributing.gradients import METHODS
from bertviz_lite.attributing.words import (AOPC_CAPTION, BARS_TITLE, DELETION_TITLE, caption, completeness,
                                            gap_warning, verdict)
from bertviz_lite.figures.attributions import attribution_bars, deletion_lines
from bertviz_lite.serving.cache import cached_attribution, cached_faithfulness
from app_pages.shell import charts, guarded, lecture, runs, state

TARGETS = {"similarity": "cosine with B", "mlm": "masked-LM logit"}
MASKED_LM = "masked-lm"

state.init_state()  # the target says which task to load the model for
mlm = st.session_state.target == "mlm"
loaded = guarded.load_or_stop(needs_weights=True, task=MASKED_LM if mlm else None)
key = runs.page_key(loaded).with_text(st.session_state.text)  # the text alone: an attribution reads no pair
controls, canvas = lecture.controls_and_canvas(TITLES["attribute"], [4, 8])

with controls:
    st.segmented_control("What is explained", list(TARGETS), format_func=TARGETS.get, **state.bind("target"))
    if mlm:
        st.text_input("The vocabulary piece whose logit is explained (empty: the model's top prediction)",
                      **state.bind("piece"))
        st.caption(f"At the text's first {loaded.tokenizer.mask_token or 'mask token'}; the model is loaded with "
                   f"its masked-LM head.")
    else:
        st.text_input("Sentence B (the text is sentence A)", **state.bind("other"))
    st.segmented_control("Method", list(METHODS), format_func=METHODS.get, **state.bind("method"))
    if st.session_state.method == "ig":
        st.slider("Integrated gradients' steps", 8, 128, step=8, **state.bind("steps"))
    st.segmented_control("Baseline: each word replaced by", ["pad", "mask"],
                         format_func=lambda b: f"the {b} token", **state.bind("baseline"))
    st.toggle("Lengths (L2 norm) instead of signed sums", **state.bind("norms"))
    st.toggle("Which method to trust: deletion curves", **state.bind("faithful"),
              help="Every method's ranking tested by replacing its top tokens one by one and recomputing the target.")

spec = ("mlm", "", None, st.session_state.piece.strip()) if mlm else ("similarity", st.session_state.other)
method = st.session_state.method if st.session_state.method in METHODS else "ig"
steps = max(8, min(128, int(st.session_state.steps)))
baseline = st.session_state.baseline if st.session_state.baseline in ("pad", "mask") else "pad"
result = guarded.computed_or_stop(f"{METHODS[method].capitalize()} …", lambda: cached_attribution(
    key, spec, method, steps, baseline))

found = None
if st.session_state.faithful:
    found = guarded.computed_or_stop("Every method's ranking, then its deletion curve …", lambda:
                                     cached_faithfulness(key, spec, steps, baseline))

def deletion_view() -> None:
    """Which method to trust, for this sentence: the verdict and every method's deletion curve, its AOPC in the
    legend (Samek et al. 2017)."""
    st.markdown(verdict(found))
    charts.cached_chart(charts.view_key(loaded, key, "deletion", spec, steps, baseline),
                        lambda: deletion_lines(found.curves, found.aopc, DELETION_TITLE.format(target=found.target),
                                               found.counts), width=charts.column_px([4, 8], 1))


def attribution_view() -> None:
    """The chosen method's attribution per token, with its completeness: Σ attributions against
    f(x) − f(baseline)."""
    st.markdown(completeness(result))
    measure = "L2 norm" if st.session_state.norms else "attribution"
    charts.cached_chart(charts.view_key(loaded, key, "attribution", spec, method, steps, baseline, measure),
                        lambda: attribution_bars(result.norms if st.session_state.norms else result.scores,
                                                 result.tokens, BARS_TITLE.format(method=METHODS[method].capitalize()),
                                                 measure), width=charts.column_px([4, 8], 1))
    if warning := gap_warning(result):
        st.warning(warning, icon=":material/warning:")


with canvas:
    with lecture.point():  # the deletion curves where they are asked for (which method to trust), else the bars
        deletion_view() if found is not None else attribution_view()
    if found is not None:
        attribution_view()
    if result.notice:
        st.info(result.notice, icon=":material/content_cut:")
    if result.note:
        st.info(result.note, icon=":material/info:")
    st.caption(caption(result.baseline))
    if found is not None:
        st.dataframe(pd.DataFrame({"method": list(found.aopc), "AOPC": list(found.aopc.values())})
                     .sort_values("AOPC", ascending=False), hide_index=True)
        st.caption(AOPC_CAPTION)
state.sync_url()
del loaded, result, found  # a tab keeps this namespace: no model in it (guarded.trace_or_stop)
