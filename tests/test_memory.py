"""The server's memory thread: started once, collects garbage and trims the C heap where glibc allows it."""
import threading

from bertviz_lite.serving.memory import _malloc_trim, start_trimming


def test_memory_thread_starts_and_says_whether_it_can_trim():
    before = sum(t.name == "bertviz-lite memory" for t in threading.enumerate())
    assert start_trimming(every_s=3600) is (_malloc_trim() is not None)
    assert sum(t.name == "bertviz-lite memory" for t in threading.enumerate()) == before + 1
    assert _malloc_trim()(0) in (0, 1)  # glibc here: the call itself works


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
