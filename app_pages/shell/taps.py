"""A tap on a phone, and Enter on the walked figure, pick a chart's point as a mouse's click does. Streamlit hears a
chart's selection, and Plotly makes none from a tap (it emits a click only: plotly.js #6721), so a tapped cell of
the stepper was never explained on a phone ("tapping does nothing"); nor does a key. A component (Streamlit's own
`st.components.v2`; its JavaScript is frontend/src/app_taps.js, bundled) listens for the chart's clicks that a finger
made, and for the Enter and Escape that shell/cell_keys.py's walk hands on, and gives back the point's `customdata`,
which is what a click target carries (figures.click_targets), or that the explanation was closed; a mouse's click is
left to the selection, heard once."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import streamlit as st

_LISTEN = (Path(__file__).parent / "js" / "app_taps.js").read_text(encoding="utf-8")  # built from frontend/src
_listener = st.components.v2.component("bertviz_lite.taps", js=_LISTEN)


def hear_taps(chart: str, picked: Callable[[str], None], closed: Callable[[], None] | None = None) -> None:
    """After the chart keyed `chart`: a finger's tap on one of its points, or Enter on its focused cell, calls
    `picked(customdata)`; Escape on it calls `closed()`."""
    key = f"_taps_{chart}"

    def tapped() -> None:
        point = getattr(st.session_state.get(key), "point", None)
        if isinstance(point, str):
            picked(point)

    css_class = re.sub(r"[^A-Za-z0-9_-]", "-", chart)  # as Streamlit writes a key into its element's class
    _listener(data={"chart": css_class}, key=key, on_point_change=tapped, on_closed_change=closed or (lambda: None))
