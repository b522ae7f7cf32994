"""A page run's turn: every run waits in the server's one line (serving/queue.py), a tab that reconnects redraws
its view, and the default view is warmed in the background once per server."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from bertviz_lite.serving.process import page_queue, warming

from .state import DEFAULTS, opening_model


_holding = threading.local()  # whether this script thread's run already holds its turn in line


@contextmanager
def in_line() -> Iterator[None]:
    """Run the page when it is this tab's turn: first come, first served (serving/queue.py). While it waits, the
    page says how many are ahead; if the tab closes meanwhile, Streamlit stops the run at that message, which
    frees its place in line. A fragment's rerun (the Layers stepper's ▶) waits in the same line; a fragment drawn
    within a full run is already in its turn. A run that does not wait sends nothing for the notice: every element
    is a message that the server's one event loop sends, and when a hall presses ▶ at once, that loop taking in
    every click is what the first tabs wait for."""
    if getattr(_holding, "turn", False):
        yield
        return
    notice = None  # made only when there is something to say: the first message of a run that waits

    def waiting(ahead: int) -> None:
        nonlocal notice
        if notice is None:
            notice = st.empty()  # where the page would begin: nothing is drawn while a run waits
        people = "1 person" if ahead == 1 else f"{ahead} people"
        notice.info(f"Many people opened this app at once: {people} ahead of you. Your page is drawn as soon as it "
                    f"is your turn (first come, first served); keep this tab open.", icon=":material/hourglass_top:")

    with page_queue().turn(waiting):
        if notice is not None:
            notice.empty()
        _holding.turn = True
        try:
            yield
        finally:
            _holding.turn = False


@st.fragment(run_every=3600)
def redraw_on_reconnect() -> None:
    """Nothing, every hour: a page with a timed fragment is one that Streamlit's frontend asks to run again when
    its connection comes back (see its handleConnectionStateChanged). So a tab whose server is gone (a replica
    lost behind a balancer) redraws its view from its URL on the live server it reconnects to, at once, rather
    than spend the reader's next click on starting a new session (which would lose that click's callback)."""


def warm_default_view() -> None:
    """The default model and sentence, traced in the background once per server (see serving.process.warming)."""
    warming(opening_model(), DEFAULTS["task"], DEFAULTS["text"])
