"""Tour: the current model and sentence walked through in the order the model computes, one chapter per screen
(`chapter` in the URL, from 1), ◀ ▶ between them: the tokens, the embeddings, one layer sub-step by sub-step from
the family's own graph, the residual stream, and what the model gives. Each chapter shows the real view, the
block's diagram with the step lit, and a few sentences with this sentence's own numbers."""
import streamlit as st

from bertviz_lite import BUNDLED_MODEL, DEFAULT_MODEL
from bertviz_lite.analyses.logit_lens import mlm_head_problem
from bertviz_lite.analyses.similarity import vectors_of_trace
from bertviz_lite.loading.bundled import bundled_directory
from bertviz_lite.serving.cache import cached_lens
from bertviz_lite.tour import NO_CHAPTER, chapter_figure, chapters, narrate
from bertviz_lite.asking import ASK_WORDS
from bertviz_lite.tour.narration import output_sentences
from bertviz_lite.tour.questions import chapter_question
from bertviz_lite.tour.views import LECTURE_PX
from app_pages.shell import asking, charts, chips, guarded, lecture, runs, state

TOUR_VIEW = {"text": "the quick brown fox jumps over the lazy dog", "head": 2, "token": 4}  # real patterns


def start_on_real_weights() -> None:
    """A tour opened with the app's defaults runs on the bundled real model and a sentence whose heads show
    something (layer 0, head 2 attends to the previous token), so that it means something with no network."""
    if st.session_state.get("_tour_started"):
        return
    st.session_state._tour_started = True
    untouched = (st.session_state.model in (DEFAULT_MODEL, BUNDLED_MODEL)  # what a link naming no model opens
                 and st.session_state.text == state.DEFAULTS["text"])
    named = st.session_state.get("_named_in_url", frozenset())
    if untouched and not {"model", "text"} & named and bundled_directory(BUNDLED_MODEL) is not None:
        st.session_state.update(model=BUNDLED_MODEL, **TOUR_VIEW)
        for widget in ("_w_model_choice", "_w_model_custom", *(f"_w_{key}" for key in TOUR_VIEW)):
            st.session_state.pop(widget, None)  # the sidebar, drawn already, takes them from the state again
        st.rerun()


start_on_real_weights()
loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
lecture.page_title("Tour")
st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
st.session_state.head = min(st.session_state.head, t.num_heads - 1)
st.session_state.token = min(st.session_state.token, len(t.tokens) - 1)
story = chapters(t, st.session_state.layer)


def chosen_chapter() -> int:
    """The chapter in the URL (from 1), or the first with a message."""
    text = str(st.session_state.chapter)
    if text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= len(story):
        return int(text)
    st.warning(NO_CHAPTER.format(asked=text, count=len(story)), icon=":material/warning:")
    st.session_state.chapter = "1"
    return 1


def go_to(number: int) -> None:
    st.session_state.chapter = str(number)


def chapter_controls(number: int) -> None:
    back, pick, forward = st.columns([1, 8, 1], vertical_alignment="bottom")
    back.button("◀", key="back_chapter", help="previous chapter", disabled=number == 1, width="stretch",
                on_click=go_to, args=(number - 1,))
    widget = "_w_chapter_pick"
    st.session_state[widget] = number
    pick.selectbox("Chapter", range(1, len(story) + 1), key=widget, label_visibility="collapsed",
                   format_func=lambda n: f"{n}/{len(story)} · {story[n - 1].title}",
                   on_change=lambda: go_to(st.session_state[widget]))
    forward.button("▶", key="next_chapter", help="next chapter", disabled=number == len(story), width="stretch",
                   on_click=go_to, args=(number + 1,))


def diagram(step: str) -> None:
    """The block's diagram with the chapter's step lit; a click on a box goes to that step's chapter."""
    graph, key = t.resolve(step)
    chart = f"tour_diagram_{step}"
    names = [c.step for c in story]

    def clicked() -> None:
        points = st.session_state[chart]["selection"]["points"]
        target = points[0].get("customdata") if points else None
        if isinstance(target, str) and graph.name(target) in names:
            go_to(names.index(graph.name(target)) + 1)

    charts.block_diagram(loaded, graph, key, on_select=clicked, key=chart)


def sentence_vector():
    """The sentence's vector as the model is meant to give it: from this trace, or (a pair, a shorter pipeline)
    from running the sentence alone."""
    return (vectors_of_trace(t) or guarded.sentence_vectors_or_stop(key, [t.text]))[0]


def prediction():
    """The masked-LM head's predictions at the first mask, layer by layer (the logit lens), where the sidebar asks
    for that head, the checkpoint has a trained one and the text has a mask; else None."""
    if st.session_state.task != "masked-lm" or mlm_head_problem(loaded) or not t.mask_positions:
        return None
    return guarded.computed_or_stop("The masked-LM head on every hidden state …",
                                    lambda: cached_lens(key.with_task("masked-lm"), None), ":material/error:")


def output_story() -> list[str]:
    lens = prediction()
    return output_sentences(t, lens=lens) if lens is not None else output_sentences(t, vectors=sentence_vector())


def chapter_view(chapter, head: int) -> None:
    """The chapter's real view: the tokens as chips, or its figure (short enough for a projector in lecture mode)."""
    if chapter.kind == "tokens":
        with lecture.point("tokens"):
            chips.token_chips(t.tokens, t.input_ids.tolist(), t.sequence_ids)
        return
    lens = prediction() if chapter.kind == "output" else None
    vectors = sentence_vector() if chapter.kind == "output" and lens is None else None
    with lecture.point():
        token = st.session_state.token  # the token the words are about: its named number outlined
        charts.cached_chart(charts.view_key(loaded, key, "tour", chapter.step or chapter.kind, head, token),
                            lambda: fitted(chapter_figure(t, chapter, head, vectors, lens, token)))


def fitted(fig):
    """In lecture mode, a figure short enough to sit under the chapter's controls and diagram."""
    if fig is None or not state.projector():
        return fig
    return fig.update_layout(height=LECTURE_PX)


def question_of(chapter):
    """The chapter's question where the link asks (`ask=1`), else None."""
    return asking.asked(lambda: chapter_question(t, chapter, st.session_state.head, st.session_state.token,
                                                 prediction() if chapter.kind == "output" else None))


def lecture_next(number: int, question, about: tuple[str, ...]) -> None:
    """With questions, the lecture's Next goes question → answer → next chapter (then on to the lecture's next
    view)."""
    asking.reveal_next(question, about)
    if not asking.waiting(question, about) and number < len(story) and asking.link_says("ask"):
        asking.lecture_next(ASK_WORDS["next_chapter"].format(title=story[number].title), go_to, number + 1)


number = chosen_chapter()
chapter = story[number - 1]
st.session_state._lecture_within_page = number < len(story)  # the lecture's Next is not the tour's ▶ (lecture_bar)
chapter_controls(number)
question, about = question_of(chapter), (st.session_state.model, t.text, t.pair or "")
waits = asking.waiting(question, about)
over, chapter_row, under = st.container(), st.container(), st.container()
words, canvas = chapter_row.columns([5, 7], gap="large")
if chapter.kind == "step":  # above the chapter when browsing; under it on a projector, where the figure needs the
    with under if state.projector() or question else over:  # room, and under a question, which comes first
        diagram(chapter.step)
with words.container(key="after-figure-words"):  # on a phone, under the figure (page.css)
    st.markdown(f"### {chapter.title}")
    answer = st.container() if state.projector() else canvas  # beside the figure on a projector, else above it
    if question is None and asking.link_says("ask"):
        st.caption(ASK_WORDS["none"])
    outputs = output_story() if chapter.kind == "output" and not waits else None
    for line in [] if waits else narrate(t, chapter, st.session_state.head, st.session_state.token, outputs):
        st.markdown(line)
    token_col, head_col = st.columns(2)
    tokens = t.tokens  # the picker's labels, kept by the tab after the page let go of t
    token_col.selectbox("About the token", range(len(tokens)), format_func=lambda i: f"{i} {tokens[i]}",
                        **state.bind("token"))
    if chapter.kind == "step" and t.graph_node(chapter.step).has_head_axis:
        head_col.selectbox("Head", range(t.num_heads), **state.bind("head"))
with canvas:
    if not asking.held_back(question, about, answer):
        chapter_view(chapter, st.session_state.head)
lecture_next(number, question, about)
state.sync_url()
del t, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
