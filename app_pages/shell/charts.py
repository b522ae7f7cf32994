"""Charts as a page sends them: styled for this session (lecture mode's larger type), fitted to the width they
get, built once per view for every tab (`cached_chart`), with a download format on the camera button; and the
numbers behind a view as CSV."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from bertviz_lite import LoadedModel
from bertviz_lite.figures import layer_diagram
from bertviz_lite.figures.screens import CHART_WIDTH_PX, LECTURE_CHART_PX
from bertviz_lite.figures.screens import styled as for_screen
from bertviz_lite.graph.layout import diagram_layout
from bertviz_lite.serving.cache import cached_figure
from bertviz_lite.serving.run_key import RunKey

from .screen import drawn_px
from .state import projector


PAGE_WIDTH_PX = 1232  # a 1280-pixel screen less lecture mode's margins (24 px a side): what a page's columns share


PRINT_SCALE = 4  # PNG downloads at 4× the chart's size on screen: about 300 dpi for a figure 8 cm wide


DOWNLOAD_FORMATS = {"PNG (print resolution)": "png", "SVG (vector)": "svg"}


def column_px(widths: list[float], i: int) -> int:
    """About how wide column i of st.columns(widths) is on a 1280-pixel screen (a chart's `width`)."""
    return int(PAGE_WIDTH_PX * widths[i] / sum(widths)) - 20  # less the gap between columns


def chart(fig: go.Figure, width: int = CHART_WIDTH_PX, tallest: int = LECTURE_CHART_PX, **kwargs) -> None:
    """st.plotly_chart across the page's width (about `width` px on a 1280-pixel screen), with larger chart text in
    lecture mode and its height there at most `tallest`."""
    send_chart(styled(fig, drawn_px(width), tallest), **kwargs)


def cached_chart(view: tuple, build: Callable[[], go.Figure | None], width: int = CHART_WIDTH_PX,
                 tallest: int = LECTURE_CHART_PX, **kwargs) -> None:
    """chart(build()), with the styled figure built once per `view` (and mode) for every tab of this server: a
    lecture hall opening one link then sends a figure it already has. `view` names all that the figure shows;
    `tallest`: its height at most in lecture mode, where the page has less room above it; `kwargs` go to
    st.plotly_chart (a widget key, on_select). A build that gives None draws nothing."""
    width = drawn_px(width)  # a phone's width, on a phone
    fig = cached_figure((*view, projector(), width, tallest),
                        lambda: None if (built := build()) is None else styled(built, width, tallest))
    if fig is not None:
        send_chart(fig, **kwargs)


def block_diagram(loaded: LoadedModel, graph, lit: str, **kwargs) -> None:
    """A block's data-flow diagram with step `lit` lit: one cached figure per block and step for every sentence
    (it does not depend on the text), in a box that scrolls sideways on a narrow screen (page.css) rather than
    squeeze its boxes into one another. `kwargs` go to st.plotly_chart (a widget key, on_select)."""
    with st.container(key=f"scrolls-diagram-{kwargs.get('key', 'block')}"):
        cached_chart((loaded.source, loaded.task, loaded.weights_id, "diagram", graph.name(lit)),
                     lambda: layer_diagram(diagram_layout(graph), lit), selection_mode="points", **kwargs)


def styled(fig: go.Figure, width: int = CHART_WIDTH_PX, tallest: int = LECTURE_CHART_PX) -> go.Figure:
    """The figure as this session shows it (figures/screens.py), in lecture mode where the session is."""
    return for_screen(fig, width, tallest, lecture=projector())


def send_chart(fig: go.Figure, **kwargs) -> None:
    """Draw a styled figure, with the chosen download format on its camera button; the figure is not changed."""
    fmt = DOWNLOAD_FORMATS[st.session_state.get("_figure_format", next(iter(DOWNLOAD_FORMATS)))]
    name = (fig.layout.title.text or "bertviz-lite").split("<")[0][:60].strip().replace(" ", "_")
    config = {"toImageButtonOptions": {"format": fmt, "filename": name, "scale": PRINT_SCALE if fmt == "png" else 1},
              "displaylogo": False}
    st.plotly_chart(fig, width="stretch", config=config, **kwargs)


def csv_download(frame: Callable[[], pd.DataFrame], filename: str, label: str = "Download the numbers (CSV)") -> None:
    """The numbers behind a view, for a spreadsheet or a paper. `frame` runs only when the button is clicked
    (a 512 × 3072 activation is megabytes of CSV), and the click does not rerun the page."""
    st.download_button(label, lambda: frame().to_csv(index=False), file_name=filename, mime="text/csv",
                       icon=":material/download:", key=f"csv_{filename}", on_click="ignore")


def matrix_frame(matrix, rows: list[str], columns: list[str], row_name: str = "to", column_name: str = "from"):
    """A (rows × columns) matrix in long form: one line per cell, with both labels."""
    return pd.DataFrame({row_name: np.repeat(rows, len(columns)), column_name: np.tile(columns, len(rows)),
                         "value": np.asarray(matrix, dtype=np.float64).ravel()})


def view_key(loaded: LoadedModel, key: RunKey, *parts) -> tuple:
    """What names a view of a page run: a key for cached_chart, from the run's key (the model, the sentence, any
    intervention), what the model's weights are, and the page's own parts."""
    return (key, loaded.weights_id, *parts)
