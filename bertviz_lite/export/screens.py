"""A figure for each screen an exported site meets, styled by the app's own styling (figures/screens.py): a
browser's, a projector's in lecture mode, a phone's. The site draws the one its screen takes."""
from __future__ import annotations

import json
from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io as pio

from ..figures.screens import LECTURE_CHART_PX, styled_sheet
from ..figures.sheet import Sheet

SCREENS = ("browse", "lecture", "phone")  # the screens a site draws each figure for
CANVAS_PX, PHONE_PX = 720, 358  # the site's figure column at 1280 px; a phone's 390 px less its margins
WIDE_PX = 1200  # a figure across a 1280-px page (its words under it)
HALF_PX = 560  # one of two figures side by side across a 1280-px page (a phone stacks them)


def for_screens(build: Callable[[bool], object], tallest: int = LECTURE_CHART_PX, width: int = CANVAS_PX,
                phone: Callable[[], object] | None = None) -> dict | None:
    """The figure `build(lecture)` gives, styled for each screen, each from a figure of its own (a styled figure is
    changed in place); None where it gives none. `tallest`: its height at most on a projector; `width`: its width
    on a browser's or a projector's screen; `phone()`: a phone's figure where it holds less (else build(False))."""
    browse = build(False)
    if browse is None:
        return None
    made = {"browse": browse, "lecture": build(True), "phone": phone() if phone else build(False)}
    return {screen: drawn(styled_at(made[screen], place)) for screen, place in places(width, tallest).items()}


Place = tuple[int, "int | None"]  # where a template's figure is drawn: its width, and its height at most on a
# projector (None: not one)


def places(width: int = CANVAS_PX, tallest: int = LECTURE_CHART_PX) -> dict[str, Place]:
    """The screens `for_screens` styles a figure for, as a template's places (export/matrices.py): a figure drawn
    `width` px wide on a browser's screen and a projector (at most `tallest` px high there), a phone's width."""
    return {"browse": (width, None), "lecture": (width, tallest), "phone": (PHONE_PX, None)}


def styled_at(fig: go.Figure, place: Place) -> go.Figure:
    """`fig` styled for `place` as `for_screens` styles it (changed in place): what a template for it must give."""
    style_for(Sheet(fig), place)
    return fig


def style_for(sheet: Sheet, place: Place) -> Sheet:
    """The app's styling for `place` on a sheet (figures/sheet.py): an exported figure's, or a template's."""
    width, tallest = place
    return styled_sheet(sheet, width, tallest or LECTURE_CHART_PX, lecture=tallest is not None)


TEMPLATE = "plotly"  # the template every figure of the site is drawn in (Plotly's own)


def drawn(fig: go.Figure) -> dict:
    """The figure as the site's plotly.js draws it: in Plotly's own template whatever this process imported, named
    and held once in the site's data (`templates`), not in each figure. A figure takes the default template when
    it is made, and importing Streamlit (the app, the app's download, a test beside it) makes that Streamlit's,
    which leaves out the automatic margins the site's layout is checked with (a phone's colour bar then fell on the
    axis title)."""
    shown = json.loads(fig.to_json())
    shown["layout"].pop("template", None)
    return {**shown, "template": TEMPLATE}


def templates() -> dict:
    """The templates the site's figures name, each once (about 6 kB)."""
    figure = go.Figure(layout={"template": pio.templates[TEMPLATE]})
    return {TEMPLATE: json.loads(figure.to_json())["layout"]["template"]}
