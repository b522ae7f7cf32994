"""BertViz's two views for the site, as the app's Attention page draws them (figures/attention_views.py): each
layer's head view, every head's lines, and the model view, every layer × head as a thumbnail. A head is hidden or
shown alone by its legend entry in the browser; the app also keeps a token's lines alone and gives their numbers.

A sentence computed in the browser (a live site) has its views built there (frontend/src/attention_views.js), by
these builders' rules and numbers, which `attention_settings` hands it; tests/test_export_live.py holds the browser's
figures to these, screen by screen."""
from __future__ import annotations

from ..analyses.attention_views import (MODEL_VIEW_TITLE, POOLED_NOTE, THUMBNAIL_CELLS, head_view_of, model_view_title,
                                        thumbnail_side, thumbnails)
from ..attention_lines import FULL_LENGTH, MIN_WEIGHT, MOST_PER_QUERY
from ..figures import head_view, model_view
from ..figures import FONT
from ..figures.attention_views import (HEAD_VIEW_PX, LEAST_ROW_PX, LEAST_TILE_PX, NOTHING_DRAWN, ROW_PX, SHORT_PX,
                                       head_colours, rows_fit)
from ..figures.colour_bars import COLOUR_BAR_THICKNESS, NARROW_PX
from ..figures.fit import SMALLEST
from ..figures.room import CHAR_EM, LINE_EM, TICK_GAP_PX, TITLE_LINE_EM
from ..figures.screens import LECTURE_FONT_PX
from ..figures.style import CANVAS, CANVAS_TEXT, INVISIBLE, LIT, SHARE
from .screens import CANVAS_PX, PHONE_PX, TEMPLATE, for_screens

SITE_HEAD_VIEW_PX = HEAD_VIEW_PX - 30  # under the site's navigation and the view's controls: above the fold
HEAD_VIEW_TITLE = "Layer {layer}, all {heads} heads: left reads right"


def attention_views(t) -> dict:
    """{"head": [each layer's head view, for each screen], "model": the model view, for each screen}."""
    heads = list(range(t.num_heads))
    side = thumbnail_side(len(t.tokens), t.num_layers, t.num_heads)
    shares = thumbnails(t, side)
    title = model_view_title(len(t.tokens), side)
    return {"head": [_head_view(t, layer, heads) for layer in range(t.num_layers)],
            "model": for_screens(lambda lecture: model_view(shares, title, SITE_HEAD_VIEW_PX if lecture else None),
                                 SITE_HEAD_VIEW_PX, phone=lambda: _phone_model_view(shares, title))}


def _phone_model_view(shares, title: str):
    """A phone's model view: as short as its tiles need (the width, not the height, sets their size there), the
    heads' numbers at the smallest readable size (at the figure's type, "10" ran into "11" for 12 heads)."""
    return model_view(shares, title, most_px=0).update_xaxes(tickfont_size=SMALLEST)


def _head_view(t, layer: int, heads: list[int]) -> dict:
    """One layer's head view for each screen; on a projector its legend in the figure's own type (a head per line
    of a short sentence's view), and `scrolls` where its rows do not fit the screen (a box of their own)."""
    view = head_view_of(t, layer, heads)
    title = HEAD_VIEW_TITLE.format(layer=layer, heads=t.num_heads)

    def build(lecture: bool):
        fig = head_view(view.lines, view.labels, view.labels, t.num_heads, title, numbers=False,
                        most_px=SITE_HEAD_VIEW_PX if lecture else None)
        return fig.update_layout(legend_font_size=FONT["size"], legend_tracegroupgap=2) if lecture else fig

    return {**for_screens(build, SITE_HEAD_VIEW_PX), "scrolls": not rows_fit(len(view.labels), SITE_HEAD_VIEW_PX)}


def attention_settings(num_heads: int) -> dict:
    """What the browser builds a computed sentence's views with (frontend/src/attention_views.js): the rules and
    numbers of the builders above, the marks and colours of the app's style, and the parts of the styling
    (figures/screens.py, fit.py) that these views meet, each read from where the app keeps it."""
    from plotly.colors import get_colorscale

    return {"lines": {"min_weight": MIN_WEIGHT, "full_length": FULL_LENGTH, "most_per_query": MOST_PER_QUERY},
            "head": {"title": HEAD_VIEW_TITLE, "nothing": NOTHING_DRAWN, "colours": head_colours(num_heads),
                     "row_px": ROW_PX, "least_row_px": LEAST_ROW_PX, "short_px": SHORT_PX,
                     "most_px": SITE_HEAD_VIEW_PX},
            "model": {"title": MODEL_VIEW_TITLE, "pooled": POOLED_NOTE, "thumbnail_cells": THUMBNAIL_CELLS,
                      "least_tile_px": LEAST_TILE_PX, "scale": get_colorscale(SHARE)},
            "template": TEMPLATE,
            "marks": {"canvas": CANVAS, "canvas_text": CANVAS_TEXT, "lit": LIT, "invisible": INVISIBLE},
            "screens": {"browse": CANVAS_PX, "phone": PHONE_PX, "font": FONT["size"], "lecture_font": LECTURE_FONT_PX,
                        "smallest": SMALLEST, "narrow": NARROW_PX, "char_em": CHAR_EM, "line_em": LINE_EM,
                        "tick_gap": TICK_GAP_PX, "title_line_em": TITLE_LINE_EM, "bar_thickness": COLOUR_BAR_THICKNESS}}
