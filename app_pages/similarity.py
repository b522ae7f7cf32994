"""Similarity: several sentences, one vector each, and every pair's cosine, the notebooks' cosine_similarity made
visual. A sentence-transformers model pools as it was trained to; a plain BERT shows its two untrained vectors."""
import streamlit as st

from bertviz_lite.figures import similarity_heatmap
from bertviz_lite.analyses.similarity import MAX_SENTENCES
from app_pages.shell import charts, guarded, lecture, models, state

loaded = guarded.load_or_stop()  # the offer to switch comes with the note below
controls, canvas = lecture.controls_and_canvas("Sentence similarity", [3, 8])  # sentences beside the matrix

with controls:
    st.text_area(f"Sentences, one per line (up to {MAX_SENTENCES})", height=180, **state.bind("sentences"))
    lines = [line.strip() for line in st.session_state.sentences.splitlines() if line.strip()]
    if len(lines) > MAX_SENTENCES:
        st.info(f"Comparing the first {MAX_SENTENCES} of your {len(lines)} sentences; the rest stay in the box.",
                icon=":material/content_cut:")
        lines = lines[:MAX_SENTENCES]
    if not lines:
        st.info("Type a few sentences, one per line, to compare them.", icon=":material/edit:")
        guarded.end_page()
    ways = guarded.sentence_vectors_or_stop(loaded, lines)
    if ways[0].trained_for_similarity:
        st.caption(f"Each sentence runs on its own; its vector is {ways[0].how}. {loaded.source} was trained "
                   f"so that the cosine measures similarity.")
    else:
        st.info(f"{loaded.source} was not trained for sentence similarity: BERT's pooled [CLS] output was trained "
                f"to predict whether sentence B follows sentence A, and the mean of its token vectors for nothing "
                f"at all. Both put almost any two sentences close together.", icon=":material/info:")
        models.offer_bundled_model("Compare with a model trained for similarity")
with canvas, lecture.point():
    for way in ways:
        charts.chart(similarity_heatmap(way.cosine(), lines, f"cosine of {way.name}"))
        charts.csv_download(lambda way=way: charts.matrix_frame(way.cosine(), lines, lines, "sentence", "other sentence"),
                            f"similarity_{way.name.replace(' ', '_')}.csv")
        if not way.trained_for_similarity:
            st.caption(f"{way.name.capitalize()}: {way.how}.")
state.sync_url()
del loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
