"""Every heatmap of the app walked by keyboard and read as a grid by a screen reader (issue 56: WCAG 2.1.1, 1.3.1):
Tab reaches it, the arrow keys, Home and End, Page Up and Page Down move a focused cell, shown by Plotly's own hover
label and said in a polite live region in the words of the figure's hover; Enter explains the cell where a click
would (shell/taps.py hears it), Escape closes the explanation. Plotly's figures take no keys (plotly.js #562), and
Streamlit gives a chart none, so a component (Streamlit's own `st.components.v2`) applies the site's own code,
frontend/src/cell_keys.js, bundled with frontend/src/app_keys.js, to every figure as it is drawn: the app and a site
answer the same keys with the same words.

The site's shortcuts (Alt+Shift+← → for a view's ◀ ▶, ↑ ↓ for Layers' layer, Alt+Shift+N for the lecture's Next)
press the app's buttons too: the ones whose keys SHORTCUTS names (a step's, a chapter's, a layer's ◀ ▶ and Next),
wherever the focus is. And the page's first Tab stop, "Skip to the figure" (frontend/src/skip_link.js), as a site's."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from bertviz_lite.export.site_words import SITE_WORDS

_WALK = (Path(__file__).parent / "js" / "app_keys.js").read_text(encoding="utf-8")  # built from frontend/src
_walker = st.components.v2.component("bertviz_lite.cell_keys", js=_WALK)


SHORTCUTS = {  # each shortcut's button, by its key (Streamlit writes a key into its element's class, "st-key-…")
    "back": '[class*="st-key-back_"] button',  # a step's ◀ (stepper/controls.py step_buttons), a chapter's (tour.py)
    "forward": '[class*="st-key-next_"] button',  # their ▶
    "shallower": ".st-key-shallower_layer button",  # Layers' ◀ beside the layer (stepper/controls.py layer_controls)
    "deeper": ".st-key-deeper_layer button",  # its ▶
    "next": ".st-key-lecture_next button",  # the lecture's Next (lecture.py lecture_bar)
}


def walkable_figures() -> None:
    """Mount the component (once per run, in the sidebar: it draws nothing)."""
    _walker(data={"shortcuts": SHORTCUTS, "skip": SITE_WORDS["skip_to_figure"]}, key="_cell_keys")
