"""BertViz's two views for the site, as the app's Attention page draws them (figures/attention_views.py): each
layer's head view, every head's lines, and the model view, every layer × head as a thumbnail. A head is hidden or
shown alone by its legend entry in the browser; the app also keeps a token's lines alone and gives their numbers.

A sentence computed in the browser (a live site) has its views drawn there from templates of these figures
(`attention_templates`: figures/template.py), filled with what the `views` graph (export/analysis_graphs.py) computes
by the same rules; tests/test_export_live.py holds the browser's figures to these, screen by screen."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from ..analyses.attention_views import head_view_of, model_view_title, most_thumbnail_side, thumbnail_side, thumbnails
from ..figures import FONT, head_view, model_view
from ..figures.attention_views import (HEAD_VIEW_PX, head_view_fills, head_view_template, phone_model_view, row_pitch,
                                       rows_fit, scrolls, view_px)
from ..figures.template import template_of, value_of
from ..ops.recipe import call, tree_of, var
from .screens import SCREENS, for_screens

SITE_HEAD_VIEW_PX = HEAD_VIEW_PX - 30  # under the site's navigation and the view's controls: above the fold
HEAD_VIEW_TITLE = "Layer {layer}, all {heads} heads: left reads right"


def attention_views(t) -> dict:
    """{"head": [each layer's head view, for each screen], "model": the model view, for each screen}."""
    heads = list(range(t.num_heads))
    side = thumbnail_side(len(t.tokens), t.num_layers, t.num_heads)
    shares = thumbnails(t, side)
    title = model_view_title(len(t.tokens), side)
    return {"head": [_head_view(t, layer, heads) for layer in range(t.num_layers)],
            "model": _model_view_screens(shares, title)}


def _model_view_screens(shares, title: str) -> dict:
    return for_screens(lambda lecture: model_view(shares, title, SITE_HEAD_VIEW_PX if lecture else None),
                       SITE_HEAD_VIEW_PX, phone=lambda: phone_model_view(shares, title))


def _head_view_screens(figure_of: Callable[[int | None], go.Figure]) -> dict:
    """A head view for each screen, `figure_of(most_px)` the figure (most_px: a projector's height, else None); on a
    projector its legend in the figure's own type (a head per line of a short sentence's view)."""
    def build(lecture: bool):
        fig = figure_of(SITE_HEAD_VIEW_PX if lecture else None)
        return fig.update_layout(legend_font_size=FONT["size"], legend_tracegroupgap=2) if lecture else fig

    return for_screens(build, SITE_HEAD_VIEW_PX)


def _head_view(t, layer: int, heads: list[int]) -> dict:
    """One layer's head view for each screen, every head in its legend, and `scrolls` where its rows do not fit the
    screen (a box of their own)."""
    view = head_view_of(t, layer, heads)
    title = HEAD_VIEW_TITLE.format(layer=layer, heads=t.num_heads)
    screens = _head_view_screens(lambda most: head_view(view.lines, view.labels, view.labels, t.num_heads, title,
                                                        numbers=False, most_px=most, heads=heads))
    return {**screens, "scrolls": not rows_fit(len(view.labels), SITE_HEAD_VIEW_PX)}


def attention_templates(layers: int, heads: int) -> dict:
    """A typed sentence's views as templates (figures/template.py), for each screen: each layer's head view
    (`layer` picks its title) and `scrolls`, filled from the sentence's `n`, `labels` and the `views` graph's
    lines of the layer; the model view, filled from the graph's `canvas`, `placing` and `side` (`n` > `side`: the
    thumbnails are pooled, and the title says so). frontend/src/template.js fills them; tests/test_export_live.py
    holds a typed sentence's views to export's, screen by screen."""
    titles = [HEAD_VIEW_TITLE.format(layer=layer, heads=heads) for layer in range(layers)]
    built = [_head_view_screens(lambda most, title=title: head_view_template(heads, title, most)) for title in titles]
    head = {}
    for screen in SCREENS:
        most = SITE_HEAD_VIEW_PX if screen == "lecture" else None
        fills, drops = head_view_fills(heads, most)
        height = view_px(row_pitch(most))  # as drawn, plus what styling adds (a phone's legend): the same for any n
        added = {b[screen]["layout"]["height"] - value_of(height, {"n": 2}) for b in built}
        assert len(added) == 1, f"a head view's styling adds {added} px by its layer's title: fill it by layer"
        added = added.pop()
        fills[("layout", "height")] = height + added
        head[screen] = template_of([b[screen] for b in built], var.layer, fills, drops)
    side = most_thumbnail_side(layers, heads)
    cases = [_model_view_screens(np.zeros((layers, heads, k, k), np.float32), model_view_title(k + pooled, k))
             for k, pooled in ((4, 0), (max(4, side), 1))]
    placed = {("data", 0, "z"): var.canvas, ("data", 0, "x0"): var.placing[0], ("data", 0, "dx"): var.placing[1],
              ("data", 0, "y0"): var.placing[0], ("data", 0, "dy"): var.placing[1]}
    model = {screen: template_of([c[screen] for c in cases], call("<", var.side, var.n), placed) for screen in SCREENS}
    return {"head": head, "scrolls": tree_of(scrolls(SITE_HEAD_VIEW_PX)), "model": model}
