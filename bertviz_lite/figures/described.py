"""A figure's point in one line, carried in the figure (its layout.meta's "point"), for a reader who cannot see
it: the browser makes it the figure's accessible description (frontend/src/figure_name.js, `aria-describedby`),
beside its accessible name, the title (issue 56; WCAG 1.1.1 Non-text Content, 4.1.2 Name, Role, Value). The
words are the figure function's (or the page's, where it knows the figure's point better), so that the app and
a site say the same, and a typed sentence's figure, filled in the browser from its template, keeps them.

>>> import plotly.graph_objects as go
>>> point_of(described(go.Figure(layout={"meta": {"keeps_height": True}}), "Each row sums to 1."))
'Each row sums to 1.'
"""
from __future__ import annotations

import plotly.graph_objects as go

POINT, NAME = "point", "name"  # layout.meta's keys for the figure's point, and its name where it has no title


def described(fig: go.Figure, point: str, name: str | None = None) -> go.Figure:
    """The figure with `point` as its one-line description (in place, and returned), the rest of its meta kept;
    `name`: what a screen reader calls a figure that has no title (its title is its name where it has one)."""
    meta = fig.layout.meta
    fig.layout.meta = {**(meta if isinstance(meta, dict) else {}), POINT: point, **({NAME: name} if name else {})}
    return fig


def point_of(fig: go.Figure | dict) -> str:
    """A figure's one-line description ("" where it has none), of a figure or its JSON."""
    layout = fig.get("layout", {}) if isinstance(fig, dict) else fig.layout
    meta = layout.get("meta") if isinstance(layout, dict) else layout.meta
    return str(meta.get(POINT, "")) if isinstance(meta, dict) else ""
