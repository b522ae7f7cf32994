"""First come, first served: at most `capacity` page runs compute or draw at once, the others wait in line.

Streamlit runs each session's script in its own thread. With forty tabs opening one link, forty threads share
the GIL on two cores, every run advances a little at a time, and every tab finishes at the same moment: the
first student waits as long as the last. A line in arrival order lets the first runs finish while the later ones
wait, which is what a hall sees as fair, and it costs no more in total.

A run that has waited `quiet_s` is told, then every `poll_s`, how many runs are ahead of it (running or earlier in the line), so that a
page can say so instead of looking frozen (a run admitted within half a second says nothing: no notice flickers
on a click that a hall's burst delays a little, and forty tabs pressing ▶ at once do not first send forty
notices); whatever that callback raises (Streamlit stops a script whose tab has
closed at its next call into Streamlit) takes the run out of the line, so a tab that leaves frees its place.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

POLL_S = 1.0
QUIET_S = 0.5


class FairQueue:
    """A counting semaphore that admits waiters strictly in the order they arrived.

    A place that frees is handed straight to the first in line (its own Event), so a finished run wakes one
    waiter, not all of them: with a hundred tabs waiting, waking every one to recount would cost as much CPU as
    the runs themselves. A waiter recounts on its own clock instead, every `poll_s`.
    """

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("a queue needs room for at least one run")
        self.capacity = capacity
        self._lock = threading.Lock()
        self._line: deque[threading.Event] = deque()  # one Event per waiting run, first come first
        self._running = 0

    def waiting(self) -> int:
        with self._lock:
            return len(self._line)

    def running(self) -> int:
        with self._lock:
            return self._running

    def _ahead_of(self, ticket: threading.Event) -> int | None:
        """Runs that go before `ticket` (those running and those earlier in line); None once it is admitted."""
        with self._lock:
            return self._running + self._line.index(ticket) if ticket in self._line else None

    def _release(self) -> None:
        with self._lock:
            if self._line:
                self._line.popleft().set()  # the place passes to the first in line; the count stays
            else:
                self._running -= 1

    def _leave(self, ticket: threading.Event) -> None:
        """Take a waiter out of the line; if a place was handed to it meanwhile, pass that place on."""
        with self._lock:
            if ticket in self._line:
                self._line.remove(ticket)
                return
        self._release()

    def _wait_for_turn(self, ticket: threading.Event, on_wait: Callable[[int], None], poll_s: float,
                       quiet_s: float) -> None:
        told = None
        ticket.wait(quiet_s)
        while not ticket.is_set():
            ahead = self._ahead_of(ticket)
            if ahead is not None and ahead != told:
                on_wait(ahead)  # outside the lock: it may draw, or raise to leave the line
                told = ahead
            ticket.wait(poll_s)

    @contextmanager
    def turn(self, on_wait: Callable[[int], None] = lambda ahead: None, poll_s: float = POLL_S,
             quiet_s: float = QUIET_S) -> Iterator[None]:
        """Hold one of the places while the block runs; wait for it in line first. `on_wait(ahead)` is called
        while waiting: after `quiet_s` (not at all for a shorter wait), then every `poll_s` seconds if the number
        ahead has changed."""
        with self._lock:
            ticket = None
            if self._running < self.capacity and not self._line:
                self._running += 1
            else:
                ticket = threading.Event()
                self._line.append(ticket)
        if ticket is not None:
            try:
                self._wait_for_turn(ticket, on_wait, poll_s, quiet_s)
            except BaseException:
                self._leave(ticket)
                raise
        try:
            yield
        finally:
            self._release()
