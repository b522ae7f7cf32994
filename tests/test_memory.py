"""The server's memory thread: started once, collects garbage and trims the C heap where glibc allows it."""
import threading

from bertviz_lite.serving.memory import _malloc_trim, start_trimming


def test_one_memory_thread_per_process_that_says_whether_it_can_trim():
    assert start_trimming() is (_malloc_trim() is not None)
    assert start_trimming() is (_malloc_trim() is not None)  # again, as after the app's caches are cleared
    assert sum(t.name == "bertviz-lite memory" for t in threading.enumerate()) == 1
    assert _malloc_trim()(0) in (0, 1)  # glibc here: the call itself works


def test_a_later_start_hands_the_running_thread_its_line():
    """After the app's caches are cleared the app makes a new fair line: the collections wait in that one."""
    import time

    from bertviz_lite.serving.memory import TRIM_EVERY_S
    from bertviz_lite.serving.queue import FairQueue

    start_trimming()
    line = FairQueue(1)
    start_trimming(turn=line.turn)
    with line.turn():  # a page run holds the one place: the thread's next collection queues behind it
        deadline = time.time() + 5 * TRIM_EVERY_S
        while line.waiting() == 0:
            assert time.time() < deadline, "the memory thread never waited in the new line"
            time.sleep(0.05)


def test_a_collection_waits_its_turn_in_the_fair_line():
    """It holds the interpreter lock throughout, so it runs between page runs, never in the middle of one."""
    import gc
    import time

    from bertviz_lite.serving.memory import collect_and_trim
    from bertviz_lite.serving.queue import FairQueue

    line, trimmed, collected_by = FairQueue(1), [], []

    def watch(phase, info):
        if phase == "stop" and info["generation"] == 2:
            collected_by.append(threading.current_thread().name)

    collector = threading.Thread(target=collect_and_trim, args=(trimmed.append, line.turn), name="collector")
    gc.callbacks.append(watch)
    try:
        with line.turn():  # a page run holds the one place
            collector.start()
            deadline = time.time() + 10
            while line.waiting() == 0:
                assert time.time() < deadline, "the collection never queued"
                time.sleep(0.01)
            time.sleep(0.2)
            assert "collector" not in collected_by and not trimmed, "collected while a page run held its turn"
        collector.join(10)
    finally:
        gc.callbacks.remove(watch)
    assert "collector" in collected_by and trimmed == [0], "no collection and trim once the page run let go"
