"""Similarity: several sentences, one vector each, and every pair's cosine, the notebooks' cosine_similarity made
visual. A sentence-transformers model pools as it was trained to; a plain BERT shows its two untrained vectors.
Pick two sentences (`why=1,2`) and their cosine is split exactly into token pairs: why they are similar."""
import streamlit as st

from bertviz_lite.analyses.similarity import MAX_SENTENCES
from bertviz_lite.figures import similarity_heatmap
from bertviz_lite.figures.outputs import SPLIT_PX, pair_split_heatmap
from bertviz_lite.analyses.questions import closest_question, pair_question
from app_pages.shell import asking, charts, chips, guarded, lecture, models, runs, state

COLUMNS = [3, 8]  # on a projector, the sentences beside the matrix
CANVAS_PX = charts.column_px(COLUMNS, 1)

WORDS_ADD_UP = "A word's cells are the sum over its pieces, both ways, so the cells still add up to the cosine."


def parsed(why: str) -> tuple[int, int] | None:
    """The two sentences (0-based, in order) that `why` names ("1,2"), or None."""
    try:
        a, b = sorted(int(part) - 1 for part in str(why).split(","))
    except ValueError:
        return None
    return a, b


def keep_a_pair_there_is(count: int) -> None:
    """A link's `why` as the selector writes it; one naming sentences that are not there gets a message and shows
    the matrix of every pair. Before the selector is drawn (its value is set with the state's)."""
    why = str(st.session_state.why).strip()
    pair = parsed(why)
    if pair is not None and 0 <= pair[0] < pair[1] < count:
        state.set_value("why", f"{pair[0] + 1},{pair[1] + 1}")
    elif why:
        st.info(f"why={why} does not name two of the {count} sentences (write why=1,2).", icon=":material/edit:")
        state.set_value("why", "")


def pair_label(why: str) -> str:
    if not why:
        return "none: every pair's cosine"
    a, b = parsed(why)
    return f"sentences {a + 1} and {b + 1}"


loaded = guarded.load_or_stop()  # the offer to switch comes with the note below
key = runs.page_key(loaded)
controls, canvas = lecture.controls_and_canvas("Sentence similarity", COLUMNS)  # sentences beside the matrix

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
    keep_a_pair_there_is(len(lines))
    options = [""] + [f"{a + 1},{b + 1}" for a in range(len(lines)) for b in range(a + 1, len(lines))]
    st.selectbox("Why are two of them similar?", options, format_func=pair_label,
                 **state.bind("why"))
    pair = parsed(st.session_state.why) if st.session_state.why else None
    words = chips.word_toggle(WORDS_ADD_UP) if pair is not None else False
    ways = guarded.sentence_vectors_or_stop(key, lines)
    if ways[0].trained_for_similarity:
        st.caption(f"Each sentence runs on its own; its vector is {ways[0].how}. {loaded.source} was trained "
                   f"so that the cosine measures similarity.")
    else:
        st.info(f"{loaded.source} was not trained for sentence similarity: BERT's pooled [CLS] output was trained "
                f"to predict whether sentence B follows sentence A, and the mean of its token vectors for nothing "
                f"at all. Both put almost any two sentences close together.", icon=":material/info:")
        models.offer_bundled_model("Compare with a model trained for similarity")
with canvas:
    if pair is not None:
        two = key.with_text(lines[pair[0]], lines[pair[1]])  # the two sentences, as one run's text and pair
        split = guarded.similarity_split_or_stop(two, words)

    def question_here():
        """ask=1: which sentence is closest to the first; with a pair, which token pair adds most to its cosine."""
        if pair is None:
            return closest_question(ways[0].cosine(), lines, ways[0].trained_for_similarity)
        return pair_question(split.pairs, split.tokens_a, split.tokens_b, pair[0] + 1, pair[1] + 1, split.cosine)

    question = asking.asked(question_here)
    asked_of = (*asking.about(), "\n".join(lines))
    asking.reveal_next(question, asked_of)
    if asking.held_back(question, asked_of, controls if state.projector() else canvas):
        state.sync_url()
        del loaded, key
        guarded.end_page()  # the figures that would say the answer wait for a choice
    if pair is not None:
        with lecture.point():
            st.markdown(split.caption(ways[0].trained_for_similarity))
            charts.cached_chart(charts.view_key(loaded, two, "split", pair, words), lambda: pair_split_heatmap(
                split.pairs, split.tokens_a, split.tokens_b,
                f"Each pair's share of cosine({pair[0] + 1}, {pair[1] + 1}) = {split.cosine:.3f}"), tallest=SPLIT_PX,
                width=CANVAS_PX)
        if split.by_selection:
            st.info("Max pooling takes each dimension from the token that holds its largest value, so a cell's max "
                    "part is the dot product over the dimensions both tokens won: exact for these sentences, but not "
                    "a weight (a token that wins no dimension gets nothing from it, however close it is).",
                    icon=":material/info:")
        st.caption("A cell is ⟨a_i, b_j⟩ / (‖u‖ · ‖v‖), a_i and b_j the two tokens' parts of the sentence vectors u "
                   "and v (for mean pooling h_i / n and g_j / m). Normalizing does not change a cosine.")
        charts.csv_download(lambda: charts.matrix_frame(split.pairs, split.tokens_a, split.tokens_b, "sentence A",
                                                        "sentence B"), f"similarity_split_{pair[0] + 1}_{pair[1] + 1}.csv")
    for way in ways:
        with lecture.point() if pair is None and way is ways[0] else st.container():
            charts.chart(similarity_heatmap(way.cosine(), lines, f"cosine of {way.name}"),
                         width=CANVAS_PX)  # fitted to its column: a projector writes its numbers
        charts.csv_download(lambda way=way: charts.matrix_frame(way.cosine(), lines, lines, "sentence", "other sentence"),
                            f"similarity_{way.name.replace(' ', '_')}.csv")
        if not way.trained_for_similarity:
            st.caption(f"{way.name.capitalize()}: {way.how}.")
state.sync_url()
del loaded, key  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
