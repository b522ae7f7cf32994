"""Bring what a reader's action made into view: a tapped cell's explanation lies, on a phone, under the figure and
its pickers, below the screen ("tapping does nothing"), and at 1280×720 its result line can lie under the fold.

A component (Streamlit's own `st.components.v2`; its JavaScript is frontend/src/app_into_view.js, bundled) finds
the part by its key and, where it is not whole on the screen, scrolls it to the middle; and says its words to a
screen reader (Enter on a walked figure explains a cell out of sight: shell/cell_keys.py). Mounted only in the run
that a tap, a click or a key asked for, so a link opened or a page rerun keeps its place."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

_SCROLL = (Path(__file__).parent / "js" / "app_into_view.js").read_text(encoding="utf-8")  # from frontend/src
_scroller = st.components.v2.component("bertviz_lite.into_view", js=_SCROLL)

ASKED = "_into_view"  # session key: the part a reader's action asked to see, until the run that draws it


def ask(part: str) -> None:
    """In a callback (a tap, a pick): the next run brings `part` (a container's key) into view once it is drawn."""
    st.session_state[ASKED] = part


def bring(part: str) -> None:
    """After `part` is drawn: scroll to it where this run was asked to (`ask`)."""
    if st.session_state.get(ASKED) == part:
        del st.session_state[ASKED]
        st.session_state["_into_view_count"] = st.session_state.get("_into_view_count", 0) + 1
        _scroller(data={"part": part, "n": st.session_state["_into_view_count"]}, key="_into_view_js")
