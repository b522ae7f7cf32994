"""The hall's answers (issue 57, `ask=1&hall=1`): counted per question and choice with nothing that names a student,
bounded and forgotten after an hour on one server; the lecturer's link sees the count of every session that chose
on the same link, and chooses without being counted."""
import threading

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.asking.hall import FORGOTTEN_AFTER_S, MemoryHall, hall_for
from bertviz_lite.serving.cache import cached_hall
from bertviz_lite.tour import chapters

from apptest import open_page, specs


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_counts_are_forgotten_an_hour_after_the_first_answer_and_bounded():
    clock = Clock()
    hall = MemoryHall(questions=3, clock=clock)
    hall.answer("q", "a")
    clock.now = FORGOTTEN_AFTER_S - 1
    hall.answer("q", "a")
    assert hall.counts("q") == {"a": 2}
    clock.now = FORGOTTEN_AFTER_S
    assert hall.counts("q") == {}
    for k in range(10):
        hall.answer(f"q{k}", "b")
    assert [hall.counts(f"q{k}") for k in (6, 7, 8, 9)] == [{}, {"b": 1}, {"b": 1}, {"b": 1}]


def test_answers_from_many_threads_are_each_counted_once():
    hall = MemoryHall()
    threads = [threading.Thread(target=lambda k=k: [hall.answer("q", "ab"[k % 2]) for _ in range(50)])
               for k in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert hall.counts("q") == {"a": 1000, "b": 1000}


def test_one_server_counts_in_memory_unless_a_redis_is_named():
    assert isinstance(hall_for({}), MemoryHall)


def test_forty_sessions_answer_one_link_and_the_lecturer_sees_their_count():
    story = chapters(trace(load_model(BUNDLED_MODEL), "the quick brown fox jumps over the lazy dog"), 0)
    stream = [c.kind for c in story].index("stream") + 1  # the tour's chapter: which layer turns 'fox' most
    link = dict(chapter=stream, ask=1, lecture=1)
    cached_hall.clear()  # this process's count, as a fresh server's
    chosen = []
    for student in range(40):
        at = open_page("tour", **link)
        choices = [b for b in at.button if (b.key or "").startswith("choice_")]
        assert len(choices) >= 3 and not specs(at)  # the figure held back until a choice
        pick = choices[student % len(choices)]
        chosen.append(pick.label)
        pick.click().run()
        assert not at.exception and specs(at)  # the choice shows the figure
    lecturer = open_page("tour", hall=1, **link)
    lecturer.button(key="choice_0").click().run()  # the lecturer's own choice: not counted
    (count,) = [f for f in specs(lecturer) if f["data"][0]["type"] == "bar"]
    bars = dict(zip(count["data"][0]["y"], count["data"][0]["x"]))
    expected = {label: chosen.count(label) for label in dict.fromkeys(chosen)}
    assert {label.split(" (right)")[0]: n for label, n in bars.items()} == expected
    assert "(40 answers)" in count["layout"]["title"]["text"]
    shown = open_page("tour", hall=1, **link)
    shown.button(key="lecture_next").click().run()  # the lecture's Next shows the answer: not counted either
    (count,) = [f for f in specs(shown) if f["data"][0]["type"] == "bar"]
    assert sum(count["data"][0]["x"]) == 40
    assert "hall=1" not in next(c.value for c in shown.code)  # the students' link, under the page, leaves it out
