"""A word in two contexts: the cosine of one word's vectors in two sentences, after the embeddings and after every
layer (Ethayarajh 2019). Each sentence runs on its own; the definition is in bertviz_lite/analyses/contexts.py."""
import html

import pandas as pd
import streamlit as st

from bertviz_lite.analyses.contexts import CAPTION, ends, lines_title, words_in_contexts
from bertviz_lite.analyses.page_views import TITLES
from bertviz_lite.figures import context_lines
from app_pages.shell import charts, guarded, lecture, runs, state

loaded = guarded.load_or_stop(needs_weights=True)
controls, canvas = lecture.controls_and_canvas(TITLES["contexts"], [4, 7])  # sentences beside the chart

with controls:
    st.text_area("Sentence A", height=68, **state.bind("sentence_a"))
    st.text_area("Sentence B", height=68, **state.bind("sentence_b"))
    st.text_input("Word in both (or several, separated by spaces)", max_chars=200, **state.bind("word"))
own = runs.page_key(loaded)
a, b = (guarded.trace_or_stop(own.with_text(st.session_state[name])) for name in ("sentence_a", "sentence_b"))
words = st.session_state.word.replace(",", " ").split()
results = guarded.computed_or_stop("Comparing the word's vectors …", lambda: words_in_contexts(a, b, words))


def marked(tokens: list[str], pieces: list[int]) -> str:
    """The sentence's tokens with the word's pieces in bold, escaped for HTML."""
    return " ".join(f"<b><u>{html.escape(t)}</u></b>" if i in pieces else html.escape(t) for i, t in enumerate(tokens))


with controls:
    first = results[0]
    st.html(f"<div style='line-height:1.8'>A: {marked(first.tokens_a, first.pieces_a)}<br>"
            f"B: {marked(first.tokens_b, first.pieces_b)}</div>")
    st.caption(CAPTION)
with canvas, lecture.point():
    cosines = {r.word: r.cosines for r in results}
    charts.chart(context_lines(cosines, lines_title(list(cosines))))
    charts.csv_download(lambda: pd.DataFrame([{"word": w, "after": "embeddings" if i == 0 else f"layer {i - 1}",
                                               "cosine": c} for w, values in cosines.items()
                                              for i, c in enumerate(values)]), "word_in_two_contexts.csv")
    st.caption(ends(results))
state.sync_url()
del a, b, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
