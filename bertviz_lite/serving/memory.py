"""Give freed memory back to the operating system, so that a server's memory levels off under a stream of
visitors instead of staying at its high-water mark.

Two things keep memory after a view is drawn. Plotly figures and Streamlit's per-run objects form reference
cycles, which only the garbage collector frees; Streamlit collects after every run, but with torch and
transformers loaded a full collection takes about 150 ms, half of all server time when a lecture hall opens
one link, so the app turns that off (runner.postScriptGC) and collects here every few seconds instead. Most of
those 150 ms is scanning the objects that importing torch, transformers and Streamlit made, which live as long as
the process: they are frozen once (`gc.freeze`) when the thread starts, which the app does on its first run, so
a collection then scans only what was made later: about a millisecond on an idle server, 30 to 90 ms after a
lecture hall (its sessions, the cached figures), and Python's own full collections in a 100-tab burst 120 to 260
ms each (2026-11-23). Every 2 s, not 5: the peak of the server's memory through `bench --load --soak 1000`
follows how soon the cyclic garbage of closed sessions and replaced figures is collected (1.53 and 1.59 × its
first view in two runs with 2 s; 1.60 to 1.82 × when fewer full collections ran, whether from 5 s with figures
that made fewer objects, or from turning Python's own off, which removed a burst's stalls but not measurably
its p95). Most of what held that soak above its caches was found later to be live, not garbage: every open tab's
trace, kept by its page's namespace (see app_pages/shell/guarded.trace_or_stop); without it, 1.29 and 1.34 ×. And
glibc's malloc keeps freed heap memory for reuse: after hundreds of distinct sentences the process keeps
hundreds of MB it no longer uses, and idling gives nothing back; `malloc_trim(0)` returns it. Where the C library
has no malloc_trim (macOS, musl), only the collection runs. Measured with `bench --load`: see docs/scaling.md.

A collection holds the interpreter lock from start to end (40 to 90 ms just after a lecture hall), so every page
run stops while it runs. It therefore waits its turn in the server's fair line (`turn`, serving/queue.py) like a
page run: it runs between two page runs, and when a hall presses ▶ at once it delays the runs that came after it,
not the first tabs while the server is still taking in the clicks. The trim needs no lock and runs after it.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

TRIM_EVERY_S = 2.0
Turn = Callable[[], AbstractContextManager]
_turn: list[Turn] = []  # the line the collections wait in: the latest given; empty until the thread starts
_starting = threading.Lock()


def _malloc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def collect_and_trim(trim, turn: Turn = nullcontext) -> None:
    """Collect cyclic garbage in `turn` (a place in the fair line), then give the freed heap back (`trim`)."""
    with turn():
        gc.collect()
    if trim is not None:
        trim(0)


def start_trimming(every_s: float = TRIM_EVERY_S, turn: Turn = nullcontext) -> bool:
    """Start the thread that collects and trims every `every_s`, each collection in `turn`; False where there is
    no malloc_trim. Once per process: a later call (after the app's caches were cleared, which makes a new fair
    line) only hands the running thread its `turn`; a thread per call would add a collection every 2 s each. What
    is alive when the thread starts (the imported libraries) is frozen first: never scanned again, and never
    freed as a cycle."""
    trim = _malloc_trim()
    with _starting:
        if _turn:
            _turn[0] = turn
            return trim is not None
        _turn.append(turn)
    gc.collect()
    gc.freeze()

    def loop() -> None:
        while True:
            time.sleep(every_s)
            collect_and_trim(trim, _turn[0])

    threading.Thread(target=loop, name="bertviz-lite memory", daemon=True).start()
    return trim is not None
