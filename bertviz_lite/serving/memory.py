"""Give freed memory back to the operating system, so that a server's memory levels off under a stream of
visitors instead of staying at its high-water mark.

Two things keep memory after a view is drawn. Plotly figures and Streamlit's per-run objects form reference
cycles, which only the garbage collector frees; Streamlit collects after every run, but with torch and
transformers loaded a full collection takes about 150 ms, half of all server time when a lecture hall opens
one link, so the app turns that off (runner.postScriptGC) and collects here every few seconds instead. Most of
those 150 ms is scanning the objects that importing torch, transformers and Streamlit made, which live as long as
the process: they are frozen once (`gc.freeze`) when the thread starts, which the app does on its first run, so
a collection then scans only what was made later. Even so a full collection of a busy server takes 50 to 250 ms
(a hundred tabs' sessions, the cached figures), with every thread stopped: Python starts one by itself whenever
enough objects have outlived two younger collections, which a hall's burst does every second or so (five in five
seconds of a 100-tab burst, 2026-11-23). So Python's own full collections are turned off, and this thread makes
them: every few seconds, in a moment when no page is running if one comes within a few seconds (the young
generations are still collected as Python does, a few milliseconds each). And
glibc's malloc keeps freed heap memory for reuse: after hundreds of distinct sentences the process keeps
hundreds of MB it no longer uses, and idling gives nothing back; `malloc_trim(0)` returns it. Where the C library
has no malloc_trim (macOS, musl), only the collection runs. Measured with `bench --load`: see the README.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from collections.abc import Callable

TRIM_EVERY_S = 5.0
QUIET_WITHIN_S = 3.0  # how long a due full collection waits for a moment with no page run
QUIET_POLL_S = 0.05
NEVER = 1_000_000_000  # a threshold Python's own count of collections never reaches
_frozen = False  # whether the imports' objects are frozen already


def _malloc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def start_trimming(every_s: float = TRIM_EVERY_S, busy: Callable[[], bool] = lambda: False) -> bool:
    """Start the thread that collects and trims (once per process); False where there is no malloc_trim. What is
    alive now (the imported libraries) is frozen first: never scanned again, and never freed as a cycle. From now
    on full collections happen only here, when `busy()` is False or after QUIET_WITHIN_S."""
    global _frozen
    trim = _malloc_trim()
    if not _frozen:  # once per process, even if the app's cache that calls this is cleared
        gc.collect()
        gc.freeze()
        _frozen = True
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)

    def loop() -> None:
        while True:
            time.sleep(every_s)
            wait_until_quiet(busy, QUIET_WITHIN_S)
            gc.collect()
            if trim is not None:
                trim(0)

    threading.Thread(target=loop, name="bertviz-lite memory", daemon=True).start()
    return trim is not None


def wait_until_quiet(busy: Callable[[], bool], within_s: float, poll_s: float = QUIET_POLL_S) -> bool:
    """Return when `busy()` is False (True) or after `within_s` (False)."""
    deadline = time.monotonic() + within_s
    while busy():
        if time.monotonic() >= deadline:
            return False
        time.sleep(poll_s)
    return True
