"""The server's memory thread: started once, collects garbage and trims the C heap where glibc allows it."""
import threading

from bertviz_lite.serving.memory import _malloc_trim, start_trimming


def test_memory_thread_starts_and_says_whether_it_can_trim():
    before = sum(t.name == "bertviz-lite memory" for t in threading.enumerate())
    assert start_trimming(every_s=3600) is (_malloc_trim() is not None)
    assert sum(t.name == "bertviz-lite memory" for t in threading.enumerate()) == before + 1
    assert _malloc_trim()(0) in (0, 1)  # glibc here: the call itself works
