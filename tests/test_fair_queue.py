"""The line that serves a lecture hall first come, first served (serving/queue.py)."""
import threading
import time

import pytest

from bertviz_lite.serving.queue import FairQueue


def _wait_until(condition, timeout_s=5.0):
    deadline = time.time() + timeout_s
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.005)


def _start_in_line(queue, name, order, release, told=None):
    """A thread that queues, records when it got its turn, and holds it until `release` is set."""
    def run():
        with queue.turn(on_wait=(lambda ahead: told.append((name, ahead))) if told is not None else (lambda a: None),
                        poll_s=0.05):
            order.append(name)
            release.wait(5)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_runs_are_admitted_in_the_order_they_arrived_and_never_more_than_capacity():
    queue, order, releases, threads = FairQueue(2), [], [threading.Event() for _ in range(8)], []
    for i, release in enumerate(releases):
        threads.append(_start_in_line(queue, i, order, release))
        _wait_until(lambda: queue.running() + queue.waiting() == i + 1)  # each is in line before the next arrives
    assert order == [0, 1] and queue.running() == 2 and queue.waiting() == 6
    for i, release in enumerate(releases):
        release.set()
        _wait_until(lambda: len(order) == min(8, i + 3))
        assert queue.running() <= 2
    for thread in threads:
        thread.join(5)
    assert order == list(range(8)) and queue.running() == 0 and queue.waiting() == 0


def test_a_waiting_run_is_told_how_many_are_ahead_as_the_line_moves():
    queue, order, told = FairQueue(1), [], []
    first, second = threading.Event(), threading.Event()
    a = _start_in_line(queue, "a", order, first)
    _wait_until(lambda: queue.running() == 1)
    b = _start_in_line(queue, "b", order, second)
    _wait_until(lambda: queue.waiting() == 1)
    c = _start_in_line(queue, "c", order, second, told)
    _wait_until(lambda: ("c", 2) in told)  # a runs, b waits before c
    first.set()
    _wait_until(lambda: ("c", 1) in told)
    second.set()
    for thread in (a, b, c):
        thread.join(5)
    assert order == ["a", "b", "c"]
    assert [ahead for _, ahead in told][0] == 2 and min(ahead for _, ahead in told) == 1


def test_a_run_admitted_within_the_quiet_time_is_never_told():
    queue, order, told, release = FairQueue(1), [], [], threading.Event()
    holder = _start_in_line(queue, "holder", order, release)
    _wait_until(lambda: queue.running() == 1)
    release_soon = threading.Timer(0.05, release.set)
    release_soon.start()
    with queue.turn(on_wait=lambda ahead: told.append(ahead), quiet_s=2.0):
        order.append("quick")
    holder.join(5)
    assert order == ["holder", "quick"] and told == []


def test_a_run_that_leaves_the_line_frees_its_place():
    queue, order, release = FairQueue(1), [], threading.Event()
    holder = _start_in_line(queue, "holder", order, release)
    _wait_until(lambda: queue.running() == 1)

    class TabClosed(Exception):
        pass

    def leave(ahead):
        raise TabClosed

    with pytest.raises(TabClosed):
        with queue.turn(on_wait=leave):
            order.append("never")
    assert queue.waiting() == 0
    release.set()
    holder.join(5)
    with queue.turn():  # the place it held in line is free: the next run goes at once
        order.append("next")
    assert order == ["holder", "next"] and queue.running() == 0


def test_a_run_that_fails_gives_its_place_back():
    queue = FairQueue(1)
    with pytest.raises(RuntimeError):
        with queue.turn():
            raise RuntimeError("a page failed")
    assert queue.running() == 0
    with queue.turn():
        assert queue.running() == 1


def test_a_queue_needs_room():
    with pytest.raises(ValueError):
        FairQueue(0)


def test_a_place_handed_to_a_run_as_it_leaves_passes_on():
    queue, order, release = FairQueue(1), [], threading.Event()
    holder = _start_in_line(queue, "holder", order, release)
    _wait_until(lambda: queue.running() == 1)

    def leave_once_handed_a_place(ahead):
        release.set()
        _wait_until(lambda: queue.waiting() == 0)  # the holder finished and handed its place to this run
        raise KeyboardInterrupt  # the tab closed at that very moment

    with pytest.raises(KeyboardInterrupt):
        with queue.turn(on_wait=leave_once_handed_a_place):
            order.append("never")
    holder.join(5)
    assert queue.running() == 0 and order == ["holder"]


def test_a_fragments_rerun_waits_in_the_same_line_and_a_fragment_within_a_run_does_not_wait_for_it():
    """The app's line (app_pages.shell.turns.in_line, one run at a time by default): the Layers stepper is a fragment;
    clicking ▶ reruns only it, and that rerun queues behind whatever runs; drawn inside a full run, it does not
    queue again behind that very run."""
    from app_pages.shell import turns
    from bertviz_lite.serving.process import page_queue

    nested = threading.Event()

    def full_run():
        with turns.in_line():
            with turns.in_line():  # the stepper's fragment, drawn in the page's own run
                nested.set()

    thread = threading.Thread(target=full_run)
    thread.start()
    thread.join(5)
    assert nested.is_set() and page_queue().running() == 0

    release, got_turn = threading.Event(), threading.Event()

    def other_tab():
        with page_queue().turn():
            release.wait(5)

    def fragment_rerun():
        with turns.in_line():
            got_turn.set()

    holder = threading.Thread(target=other_tab)
    holder.start()
    _wait_until(lambda: page_queue().running() == page_queue().capacity)
    rerun = threading.Thread(target=fragment_rerun)
    rerun.start()
    _wait_until(lambda: page_queue().waiting() == 1)
    assert not got_turn.is_set()  # in line behind the other tab's run
    release.set()
    rerun.join(5)
    holder.join(5)
    assert got_turn.is_set()


def test_the_line_is_made_once_however_many_runs_ask_for_it_at_once():
    """A hall reaching a fresh server: every run asks for the line at the same moment, and all get the one line."""
    from bertviz_lite.serving.process import once

    made = []

    @once
    def line():
        made.append(1)
        time.sleep(0.05)  # long enough for every thread to ask while the first is still making it
        return object()

    got = []
    threads = [threading.Thread(target=lambda: got.append(line())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and len({id(g) for g in got}) == 1 and len(got) == 8
