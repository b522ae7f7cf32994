"""Sentences compared by their vectors' cosine: every pair of a few sentences (the Similarity page's matrix), and one
sentence against each of the others (a live site's typed sentence beside the exported ones)."""
from __future__ import annotations

import textwrap

import numpy as np
import plotly.graph_objects as go

from .charts import layout_of
from .described import described
from .style import FONT, colour_scale, plotly_text


def similarity_heatmap(cosine: np.ndarray, sentences: list[str], title: str, line: int = 28) -> go.Figure:
    """(n, n) cosine similarities with each value written in its cell. Rows are labelled with the numbered
    sentences, columns with their numbers only, so the matrix keeps the room on a projector."""
    rows = [f"{i + 1}. " + "<br>".join(plotly_text(part) for part in textwrap.wrap(s, line, max_lines=2,
                                                                                  placeholder=" …"))
            for i, s in enumerate(sentences)]  # whole words on two lines; the hover has the whole sentence; a
    shown = [plotly_text(s) for s in sentences]  # sentence's markup as text (Plotly draws <a href> as a link)
    columns = [str(i + 1) for i in range(len(sentences))]
    fig = go.Figure(go.Heatmap(z=cosine.astype(np.float32), x=columns, y=rows,
                               **colour_scale(cosine, scale="cosine"), texttemplate="%{z:.3f}",
                               textfont=dict(size=FONT["size"]),
                               colorbar=dict(title="cosine"),
                               customdata=[[[a, b] for b in shown] for a in shown],
                               hovertemplate="%{customdata[0]}<br>%{customdata[1]}<br>cosine %{z:.6f}"
                                             "<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category", tickfont_size=FONT["size"] - 2)
    fig.update_xaxes(type="category", title="sentence", tickfont_size=FONT["size"] - 2)
    fig.update_layout(**layout_of(220 + 56 * len(sentences), title))
    return described(fig, "Each sentence against each: the cosine of their sentence vectors, 1 where they point the "
                          "same way.")


def cosine_row(cosines: np.ndarray, row: str, title: str) -> go.Figure:
    """(n,): one sentence's cosine with each of n others, numbered as `similarity_heatmap` numbers its columns, on
    the cosine's whole scale (a live site's typed sentence against the exported ones)."""
    columns = [str(i + 1) for i in range(len(cosines))]
    fig = go.Figure(go.Heatmap(z=np.asarray(cosines, np.float32)[None], x=columns, y=[row],
                               **colour_scale(cosines, scale="cosine"), texttemplate="%{z:.3f}",
                               textfont=dict(size=FONT["size"]), colorbar=dict(title="cosine"),
                               hovertemplate=f"{row}, sentence %{{x}}<br>cosine %{{z:.6f}}<extra></extra>"))
    fig.update_yaxes(type="category", tickfont_size=FONT["size"] - 2)
    fig.update_xaxes(type="category", title="sentence", tickfont_size=FONT["size"] - 2)
    fig.update_layout(**layout_of(230, title))
    return described(fig, f"{row} against each sentence: the cosine of their sentence vectors, 1 where they point "
                          "the same way.")
