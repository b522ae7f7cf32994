"""BertViz's two views for the site, as the app's Attention page draws them (figures/attention_views.py): each
layer's head view, every head's lines, and the model view, every layer × head as a thumbnail. A head is hidden or
shown alone by its legend entry in the browser; the app also keeps a token's lines alone and gives their numbers."""
from __future__ import annotations

from ..analyses.attention_views import head_view_of, model_view_title, thumbnail_side, thumbnails
from ..figures import head_view, model_view
from ..figures import FONT
from ..figures.attention_views import HEAD_VIEW_PX, rows_fit
from ..figures.fit import SMALLEST
from .screens import for_screens

SITE_HEAD_VIEW_PX = HEAD_VIEW_PX - 30  # under the site's navigation and the view's controls: above the fold


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
    title = f"Layer {layer}, all {t.num_heads} heads: left reads right"

    def build(lecture: bool):
        fig = head_view(view.lines, view.labels, view.labels, t.num_heads, title, numbers=False,
                        most_px=SITE_HEAD_VIEW_PX if lecture else None)
        return fig.update_layout(legend_font_size=FONT["size"], legend_tracegroupgap=2) if lecture else fig

    return {**for_screens(build, SITE_HEAD_VIEW_PX), "scrolls": not rows_fit(len(view.labels), SITE_HEAD_VIEW_PX)}
