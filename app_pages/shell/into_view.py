"""Bring what a reader's action made into view: a tapped cell's explanation lies, on a phone, under the figure and
its pickers, below the screen ("tapping does nothing"), and at 1280×720 its result line can lie under the fold.

A component of a few lines of JavaScript (Streamlit's own `st.components.v2`, as screen.py's): it finds the part by
its key and, where it is not whole on the screen, scrolls it to the middle. Mounted only in the run that a tap or
a pick asked for, so a link opened or a page rerun keeps its place."""
from __future__ import annotations

import streamlit as st

_SCROLL = """
export default function ({ data }) {
  const look = () => {  // once the page has laid out what this run drew (the figures under it move it meanwhile)
    const part = document.querySelector(`.st-key-${data.part}`);
    if (!part) return;
    const box = part.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight)
      part.scrollIntoView({ block: "center", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches
                                                       ? "auto" : "smooth" });
  };
  const timer = setTimeout(look, 400);
  return () => clearTimeout(timer);
}
"""
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
