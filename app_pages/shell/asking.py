"""A question before the figure (issue 57, `ask=1`): where the link asks and the view has a question, the page
shows the question and its choices in the figure's place, and holds the figure and the words that would give the
answer back until a choice; the choice then says, on each choice's line, which is right (in words), the number
that decides it, and whether the chosen one was. Every choice is counted for the hall (asking/hall.py: a count per
choice, nothing that names a student); the lecturer's link (`hall=1`) chooses without being counted and, once it
has chosen, shows the count as it grows.

A session remembers what it chose per question (the same question asked again shows its answer), at most
`REMEMBERED` of them."""
from __future__ import annotations

import streamlit as st

from bertviz_lite.asking import ASK_WORDS
from bertviz_lite.figures.hall import hall_counts
from bertviz_lite.ops.asking import Question
from bertviz_lite.serving.cache import cached_hall

from .charts import send_chart
from .lecture import point
from .state import lecture_mode

REMEMBERED = 200  # questions one session remembers its choice for
REFRESH_S = 2  # how often the lecturer's count is read again
SHOWN = -1  # the answer shown without a choice (the lecturer's Next)
MODES = {"ask": "bad_ask", "hall": "bad_hall"}  # the link's keys, and what a bad value of each is told


def link_says(key: str) -> bool:
    """Whether the link's `ask` or `hall` is on ("1"); a value other than 1, 0 or none gets a message, and is off."""
    value = str(st.session_state.get(key, ""))
    if value in ("", "0", "1"):
        return value == "1"
    st.warning(ASK_WORDS[MODES[key]].format(asked=value[:40]), icon=":material/warning:")
    st.session_state[key] = ""
    return False


def asked(make):
    """`make()`'s question where the link asks (`ask=1`), else None; a bad `ask` or `hall` is told here."""
    link_says("hall")  # (only told: the hall's count is drawn with an answer)
    return make() if link_says("ask") else None


def about() -> tuple[str, ...]:
    """What a page's question is asked of: the model and the text (and pair), the same for every student of a
    link."""
    return (str(st.session_state.model), str(st.session_state.text), str(st.session_state.get("pair") or ""))


def reveal_next(question: Question | None, about: tuple[str, ...]) -> None:
    """While the question waits, the lecture's Next shows its answer first; then it goes on as ever."""
    if waiting(question, about):
        lecture_next(ASK_WORDS["reveal"], show_answer, question, about)


def held_back(question: Question | None, about: tuple[str, ...], answer_in=st) -> bool:
    """Draw the question while it waits (True: the page holds its figure and its answering words back), else the
    answer (False) in `answer_in`, and for the lecturer the hall's count. `about`: what the question is asked of
    (the model and the sentence), so that the same link asks every student the same question."""
    if question is None:
        return False
    key = question.key(*about)
    answers = st.session_state.setdefault("_answered", {})
    if key not in answers:
        _question(question, key)
        return True
    with answer_in:
        _answer(question, answers[key], key if link_says("hall") else None)
    return False


def waiting(question: Question | None, about: tuple[str, ...]) -> bool:
    """Whether the question waits for a choice (the lecture's Next shows its answer first)."""
    return question is not None and question.key(*about) not in st.session_state.get("_answered", {})


def show_answer(question: Question, about: tuple[str, ...]) -> None:
    """The answer, with no choice (the lecturer's Next): counted for no one."""
    _remember(question.key(*about), SHOWN)


def _question(question: Question, key: str) -> None:
    with point("question"):  # the page's point while it asks (above a projector's fold)
        st.markdown(f"#### {question.text}")
        st.caption(ASK_WORDS["first"])
        for k, choice in enumerate(question.choices):
            st.button(choice.label, key=f"choice_{k}", width="stretch", on_click=_choose,
                      args=(question, key, k))


def _choose(question: Question, key: str, k: int) -> None:
    _remember(key, k)
    if link_says("hall"):
        return  # the lecturer's own choice is not the hall's
    try:
        cached_hall().answer(key, str(k))  # the choice's place: the question's key names its words
    except Exception as error:  # noqa: BLE001 (a shared count that does not answer loses a count, not the page)
        st.session_state._hall_problem = f"Your answer was not counted: {type(error).__name__}."


def _remember(key: str, k: int) -> None:
    answers = st.session_state.setdefault("_answered", {})
    answers[key] = k
    while len(answers) > REMEMBERED:
        answers.pop(next(iter(answers)))


def _answer(question: Question, chosen: int, hall: str | None) -> None:
    """Each choice's line, the right one and the chosen one said in words (for the lecturer, `hall`: the hall's
    count, whose bars name the choices); whether the choice was right; what the answer rests on."""
    right = question.choices[question.right]
    with st.container(key="answer"):
        st.markdown(f"#### {question.text}")
        if hall is None:
            st.markdown("\n".join(_line(choice, k == chosen) for k, choice in enumerate(question.choices)))
        else:
            _hall(question, hall)
        if chosen == SHOWN:
            verdict = ASK_WORDS["shown"].format(right=right.label)
        else:
            verdict = ASK_WORDS["was_right" if question.choices[chosen].right else "was_wrong"].format(
                label=question.choices[chosen].label, right=right.label)
        st.markdown(f"{verdict} {question.decides}")
        if problem := st.session_state.pop("_hall_problem", None):
            st.caption(problem)


def _line(choice, chosen: bool) -> str:
    """A choice's line with the answer: "right" and "your choice" in words, the right one in bold too."""
    marks = ([ASK_WORDS["right"]] if choice.right else []) + ([ASK_WORDS["yours"]] if chosen else [])
    line = choice.line + "".join(f" — {mark}" for mark in marks)
    return f"- **{line}**" if choice.right else f"- {line}"


def _hall(question: Question, key: str) -> None:
    @st.fragment(run_every=REFRESH_S)
    def count() -> None:
        try:
            counts = cached_hall().counts(key)
        except Exception as error:  # noqa: BLE001 (the count is read again in a moment)
            st.caption(f"The hall's count could not be read: {type(error).__name__}.")
            return
        answers = sum(counts.values())
        if not answers:
            st.caption(ASK_WORDS["hall_none"])
            return
        labels = [c.label for c in question.choices]
        send_chart(hall_counts(labels, [counts.get(str(k), 0) for k in range(len(labels))], question.right,
                                 ASK_WORDS["hall"].format(answers=answers), ASK_WORDS["right"]), key=f"hall_{key}")
    count()


def lecture_next(label: str, action, *args) -> None:
    """In lecture mode, what the lecture's Next does on this page before it leaves it (lecture.py lecture_bar)."""
    if lecture_mode():
        st.session_state._lecture_page_next = (label, action, args)
