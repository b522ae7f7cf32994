"""A figure as a screen shows it: in lecture mode larger text, a shorter chart and a lecture's cell numbers; on any
screen its labels and numbers fitted to the width it is drawn at (figures/fit.py). The app styles each figure with
this for its session's screen; an exported site styles each figure it holds for a browser, a projector and a phone,
so that both draw a figure the same way."""
from __future__ import annotations

import plotly.graph_objects as go

from .fit import fitted, keeps_height
from .room import or_else
from .sheet import Sheet, call

LECTURE_FONT_PX = 20  # chart text in lecture mode (16 otherwise)
LECTURE_NUMBERS_PX = 14  # a cell's number in lecture mode, where a decimal fewer allows: read from the back row
LECTURE_LABELS_PX = 14  # an axis's labels in lecture mode at the least: past about 16 tokens, every k-th at 14 px
# rather than every one smaller (12 px is the least anywhere)
LECTURE_CHART_PX = 515  # tallest chart in lecture mode: whole on a 720-pixel screen under Layers' row of controls
CHART_WIDTH_PX = 560  # the width a chart's labels are fitted to, unless its page says: about half a 1280-pixel
# screen, where most charts sit beside their controls or their explanation


def styled(fig: go.Figure, width: int = CHART_WIDTH_PX, tallest: int = LECTURE_CHART_PX,
           lecture: bool = False) -> go.Figure:
    """The figure for a screen: in `lecture` mode larger text and at most `tallest` px high; its labels and cell
    numbers fitted to its size (`width` px wide), never under 12 px (a lecture's numbers at 14 where a decimal
    fewer allows). Changed in place and returned."""
    styled_sheet(Sheet(fig), width, tallest, lecture)
    return fig


def styled_sheet(s: Sheet, width: int = CHART_WIDTH_PX, tallest: int = LECTURE_CHART_PX,
                 lecture: bool = False) -> Sheet:
    """`styled`'s rules on a sheet (figures/sheet.py): the app's figure, or a template's for a site's browser."""
    fig = s.fig
    if lecture:
        fig.update_layout(font_size=LECTURE_FONT_PX)
        if not keeps_height(fig):
            s.set(("layout", "height"), call("min", or_else(s.get("layout", "height"), tallest), tallest))
        for axes in (fig.update_xaxes, fig.update_yaxes):  # the Streamlit theme sets its own, smaller tick font
            axes(tickfont_size=LECTURE_FONT_PX - 2, title_font_size=LECTURE_FONT_PX)
        fig.update_traces(textfont_size=LECTURE_FONT_PX - 2, selector=dict(type="heatmap"))  # fit makes it smaller
        return fitted(s, width, numbers=LECTURE_NUMBERS_PX, tallest=tallest, labels=LECTURE_LABELS_PX)
    return fitted(s, width)
