"""A figure for each screen an exported site meets, styled by the app's own styling (figures/screens.py): a
browser's, a projector's in lecture mode, a phone's. The site draws the one its screen takes."""
from __future__ import annotations

import json
from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io as pio

from ..figures.screens import LECTURE_CHART_PX, styled

CANVAS_PX, PHONE_PX = 720, 358  # the site's figure column at 1280 px; a phone's 390 px less its margins


def for_screens(build: Callable[[bool], object], tallest: int = LECTURE_CHART_PX) -> dict | None:
    """The figure `build(lecture)` gives, styled for each screen, each from a figure of its own (a styled figure is
    changed in place); None where it gives none. `tallest`: its height at most on a projector."""
    browse = build(False)
    if browse is None:
        return None
    return {"browse": drawn(styled(browse, CANVAS_PX)),
            "lecture": drawn(styled(build(True), CANVAS_PX, tallest, lecture=True)),
            "phone": drawn(styled(build(False), PHONE_PX))}


def drawn(fig: go.Figure) -> dict:
    """The figure as the site's plotly.js draws it, in Plotly's own template whatever this process imported: a
    figure takes Plotly's default template when it is made, and importing Streamlit (the app, the app's download,
    a test beside it) makes that Streamlit's, which leaves out the automatic margins the site's layout is checked
    with (a phone's colour bar then fell on the axis title)."""
    fig.layout.template = pio.templates["plotly"]
    return json.loads(fig.to_json())
