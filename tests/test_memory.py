"""The server's memory thread: started once, the only one to make full collections (between page runs where it
can), and trims the C heap where glibc allows it."""
import gc
import threading
import time

from bertviz_lite.serving.memory import NEVER, _malloc_trim, start_trimming, wait_until_quiet


def test_memory_thread_starts_and_says_whether_it_can_trim():
    before = sum(t.name == "bertviz-lite memory" for t in threading.enumerate())
    thresholds = gc.get_threshold()
    try:
        assert start_trimming(every_s=3600) is (_malloc_trim() is not None)
        assert gc.get_threshold() == (*thresholds[:2], NEVER)  # Python's own full collections are off
    finally:
        gc.set_threshold(*thresholds)
    assert sum(t.name == "bertviz-lite memory" for t in threading.enumerate()) == before + 1
    assert _malloc_trim()(0) in (0, 1)  # glibc here: the call itself works


def test_a_due_collection_waits_for_a_quiet_moment_but_not_for_ever():
    calls = iter([True, True, True, False])
    start = time.monotonic()
    assert wait_until_quiet(lambda: next(calls), within_s=5, poll_s=0.01) is True
    assert time.monotonic() - start < 1  # three polls, then quiet
    start = time.monotonic()
    assert wait_until_quiet(lambda: True, within_s=0.2, poll_s=0.01) is False
    assert 0.2 <= time.monotonic() - start < 1
