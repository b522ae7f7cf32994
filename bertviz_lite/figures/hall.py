"""How a hall answered a question (issue 57, `hall=1`): one bar per choice, in the choices' order, counted on the
bar, the right one said in words on its label and drawn in its own colour; type larger than the other figures', to
be read from the back row."""
from __future__ import annotations

import plotly.graph_objects as go

from .described import described
from .style import BLUE, GREEN

HALL_FONT = dict(size=24)  # the lecturer's screen, read from the back of the hall
HALL_POINT = "One bar per choice, in the question's order: how many in the hall chose it; the right one says so."


def hall_counts(labels: list[str], counts: list[int], right: int, title: str, right_word: str) -> go.Figure:
    """(choices,): how many chose each; `right`: the right choice's place, its label followed by `right_word`."""
    named = [f"{label} ({right_word})" if k == right else label for k, label in enumerate(labels)]
    fig = go.Figure(go.Bar(x=counts, y=named, orientation="h", text=[str(c) for c in counts], textposition="auto",
                           marker_color=[GREEN if k == right else BLUE for k in range(len(labels))],
                           hovertemplate="%{y}: %{x}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", automargin=True, type="category")
    fig.update_xaxes(rangemode="tozero", dtick=max(1, max(counts, default=0) // 5), showticklabels=False)
    fig.update_layout(height=120 + 70 * len(labels), font=HALL_FONT, title=title, showlegend=False,
                      margin=dict(l=10, r=10, t=60, b=10), uniformtext=dict(minsize=18, mode="show"))
    return described(fig, HALL_POINT)
