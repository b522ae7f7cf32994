"""What a server process does once: its one line of page runs, torch's threads, returning memory to the OS, and
the warm-up of the default view. Each is made by its first caller and kept for the life of the process (`once`,
not Streamlit's caches: clearing those must never make a second line or a second trimming thread). The caches
of what pages compute are in `cache.py`."""
from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from typing import TypeVar

from .memory import start_trimming
from .queue import FairQueue
from .threads import configure_threads
from .warmup import View, warm_in_background

T = TypeVar("T")


def once(make: Callable[..., T]) -> Callable[..., T]:
    """make(*args) once per process and arguments, however many threads ask at the same moment (a hall of tabs
    reaching a fresh server): functools.cache would let each of them make its own. `cache_clear` forgets (tests)."""
    made, lock = {}, threading.Lock()

    @functools.wraps(make)
    def get(*args):
        if args in made:  # every run after the first: no lock taken
            return made[args]
        with lock:
            if args not in made:
                made[args] = make(*args)
            return made[args]

    get.cache_clear = made.clear
    return get


@once
def warming(source: str, task: str, text: str) -> threading.Thread:
    """Once per server process: load `source` and trace `text` in a background thread (`warmup.py`), so that the
    first visitor of a page with numbers finds them ready. The app starts it after its first page is drawn, which
    needs no weights; `bertviz-lite serve` warms the views of BVL_WARM as the server starts."""
    return warm_in_background([View(source, task, text, None, None)])


@once
def trimming_memory() -> bool:
    """Return freed memory to the OS, one thread per server process, each collection in its turn in this line (see
    memory.py)."""
    return start_trimming(turn=page_queue().turn)


@once
def configured_threads() -> int:
    """Size torch's threads to the container, and the interpreter lock's hand-over, once per server process (see
    threads.py)."""
    return configure_threads()


@once
def page_queue() -> FairQueue:
    """The one line every page run of this server process waits in (see queue.py). One run at a time unless
    BVL_RUNS_AT_ONCE says otherwise: drawing is Python under one GIL, and a forward pass already uses every core
    torch was given. With two at once on two cores, bench --load measured every tab of a 40-tab burst finishing
    together again: two busy script threads starve the thread that sends the pages."""
    chosen = os.environ.get("BVL_RUNS_AT_ONCE", "").strip()
    return FairQueue(int(chosen) if chosen.isdigit() and int(chosen) > 0 else 1)
