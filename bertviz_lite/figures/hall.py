"""How a hall answered a question (issue 57, `hall=1`): one bar per choice, in the choices' order, counted on the
bar, the right one said in words on its label and drawn in its own colour; type larger than the other figures', to
be read from the back row."""
from __future__ import annotations

import plotly.graph_objects as go

from .described import described
from .style import BLUE, BOX_TEXT, GREEN

HALL_FONT = dict(size=24, color=BOX_TEXT)  # the lecturer's screen, read from the back of the hall (the app's theme
# sets its own smaller, paler tick labels: these are set on each part)
HALL_POINT = "One bar per choice, in the question's order: how many in the hall chose it; the right one says so."


def hall_counts(labels: list[str], counts: list[int], right: int, title: str, right_word: str) -> go.Figure:
    """(choices,): how many chose each; `right`: the right choice's place, its label followed by `right_word`."""
    named = [f"{label} ({right_word})" if k == right else label for k, label in enumerate(labels)]
    fig = go.Figure(go.Bar(x=counts, y=named, orientation="h", text=[str(c) for c in counts], textposition="outside",
                           textfont=HALL_FONT, cliponaxis=False,
                           marker_color=[GREEN if k == right else BLUE for k in range(len(labels))],
                           hovertemplate="%{y}: %{x}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", automargin=True, type="category", tickfont=HALL_FONT)
    fig.update_xaxes(range=[0, max(counts, default=0) * 1.25 + 1], showticklabels=False, showgrid=False)
    fig.update_layout(height=80 + 60 * len(labels), font=HALL_FONT, title=dict(text=title, font=HALL_FONT),
                      showlegend=False, margin=dict(l=10, r=10, t=50, b=10))
    return described(fig, HALL_POINT)
