"""The stepper's matrices as the app draws them, for a site's browser: a head's token-by-token matrix
(figures/charts.py attention_heatmap) and a window of 64 dimensions (matrix_window), built for a sample sentence,
styled for each screen by the app's rules (figures/screens.py), and handed over as templates (figures/sheet.py)
whose leaves are the sentence's: its numbers, labels and length, the step's scale and title, the chosen cell; and
what the styling works out from them (labels sized, thinned or cut, numbers written or not, the height, the
colour bar). The browser names a step's numbers and fills the template its length takes: no figure of its own.

A matrix takes one of a few forms by its length (numbers written in its cells up to 16 tokens, every token
labelled up to 32, every k-th beyond, a head's matrix averaged over blocks of tokens beyond 256): a template for
each, with the condition that picks it (the last, any length). The analyses' figures of a typed sentence are handed
over the same way (export/analysis_figures.py: `token_forms`, `length_form`, `styled_template`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import plotly.graph_objects as go

from ..figures.charts import (BLOCK_LABELS, OUTLINE, POOLED_TITLE, TOKEN_MATRIX_PX, WINDOW, WINDOW_PX,
                              attention_heatmap, matrix_window)
from ..figures.sheet import Sheet
from ..figures.style import MAX_LABELLED, MAX_WRITTEN, category_edges, label_step, matrix_height, scale_rule
from ..ops.recipe import X, call, fmt, tree_of, var, when
from ..tour.views import LECTURE_PX
from .screens import CANVAS_PX, Place, drawn, places, style_for

STEPPER = {**places(), "tour_lecture": (CANVAS_PX, LECTURE_PX)}  # the screens, and a projector's under the tour's
# controls (export/tour.py styles an exported sentence's chapter so)
LONGEST = 256  # tokens a head's matrix draws one cell each (charts.MAX_CELLS's side); a longer sentence's is
# averaged over blocks of tokens
FORMS = ((MAX_WRITTEN, 4), (MAX_LABELLED, 20), (LONGEST, 40), (None, 300))  # the longest length of each form (None:
# any), and a sample's; beyond LONGEST a head's matrix is averaged over blocks of tokens
Draw = Callable[[np.ndarray, list[str]], go.Figure]  # a token-by-token matrix as the app draws it, for a sample's
# (T, T) numbers and tokens


def matrix_templates() -> dict:
    """Each kind of the stepper's matrix: its forms, each with the condition on the names that picks it and its
    template for each place."""
    return {"token": token_forms(_step_heatmap, STEPPER),
            "window": [length_form(_window, longest, sample, STEPPER)
                       for longest, sample in ((MAX_LABELLED, 20), (None, 40))]}


def token_forms(draw: Draw, where: dict[str, Place]) -> list[dict]:
    """A token-by-token matrix's forms as `draw` draws it (figures/charts.py attention_heatmap with its title, axes
    and colours: a head's, the rollout's), each form's template for each place `where` names."""
    return [length_form(partial(_token_matrix if longest else _pooled_matrix, draw), longest, sample, where)
            for longest, sample in FORMS]


def length_form(build: Callable[[int, Place], dict], longest: int | None, sample: int,
                where: dict[str, Place]) -> dict:
    """A form of a figure whose length is the tokens': the condition that picks it (the sentence's length at most
    `longest`; None: any), and `build(sample, place)`, its template built for `sample` tokens, for each place."""
    return {"when": tree_of(True if longest is None else call("len", var.labels) <= longest),
            **{name: build(sample, place) for name, place in where.items()}}


def styled_template(fig: go.Figure, named: dict, place: Place, drops: dict | None = None) -> dict:
    """`fig` (a sample's) styled for `place` as the app styles it, its `named` leaves the sentence's, as a template
    (figures/sheet.py); `drops`: parts left out where their expression holds."""
    sheet = style_for(Sheet(fig, named), place)
    return sheet.template(drawn(sheet.fig), drops or {})


def _step_heatmap(z: np.ndarray, tokens: list[str]) -> go.Figure:
    return attention_heatmap(z, tokens, "title", chosen=(0, 0))


def _chosen_marker(rows: X, columns: X, first=0, by_value: bool = False) -> tuple[dict, dict]:
    """The chosen cell's outline (the figure's first shapes, charts.py OUTLINE, on the cell's edges), at
    `var.chosen` (row, column: the column from `first`, where the figure's first column is; the x axis `by_value`,
    a window's dimensions, or by position), and its drop where no cell is chosen or it lies outside the figure."""
    column = var.chosen[1] - first
    outside = when(call("==", var.chosen, None), True, when(column < 0, True, when(
        call("len", columns) <= column, True, call("len", rows) <= var.chosen[0])))
    x, y = (var.chosen[1] if by_value else column), var.chosen[0]
    edge = lambda centre, side: when(outside, 0, centre + side)  # noqa: E731
    shapes = [("layout", "shapes", k) for k in range(len(OUTLINE))]
    return ({(*shape, end): edge(centre, side) for shape in shapes
             for end, centre, side in (("x0", x, -0.5), ("x1", x, 0.5), ("y0", y, -0.5), ("y1", y, 0.5))},
            {shape: outside for shape in shapes})


def _token_matrix(draw: Draw, sample: int, place: Place) -> dict:
    """A (T, T) matrix: names `z` (the rows, NaN where masked), `labels` (the tokens labelled), `title`,
    `colorbar` (what its numbers are), `scale` (a name in figures/style.py SCALES, or None) and, where `draw`
    outlines a cell, `chosen`."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = draw(np.full((sample, sample), 1 / sample, np.float32), tokens)
    n = call("len", var.labels)
    edges = category_edges(n)
    marker, drop = _chosen_marker(var.labels, var.labels) if fig.layout.shapes else ({}, {})
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): var.labels, ("data", 0, "y"): var.labels,
             **{("data", 0, key): leaf for key, leaf in scale_rule(var.scale, var.z).items()},
             ("data", 0, "colorbar", "title", "text"): var.colorbar,
             ("layout", "xaxis", "dtick"): label_step(n), ("layout", "yaxis", "dtick"): label_step(n),
             ("layout", "xaxis", "range"): edges, ("layout", "yaxis", "range"): call("cat", edges[1], edges[0]),
             ("layout", "height"): matrix_height(n, TOKEN_MATRIX_PX), ("layout", "title", "text"): var.title,
             **marker}
    return styled_template(fig, named, place, drop)


def _pooled_matrix(draw: Draw, sample: int, place: Place) -> dict:
    """A head's matrix of more than LONGEST tokens, averaged over blocks of tokens as the app draws it (no cell
    chosen: a block is no cell): the same names as `_token_matrix`'s."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = draw(np.full((sample, sample), 1 / sample, np.float32), tokens)
    z = call("pooled", var.z, var.step)  # n and step: the template's first names (`_pooled_lets`)
    count = call("ceil", var.n / var.step)
    named = {("data", 0, "z"): z, ("data", 0, "x"): BLOCK_LABELS, ("data", 0, "y"): BLOCK_LABELS,
             **{("data", 0, key): leaf for key, leaf in scale_rule(var.scale, z).items()},
             ("data", 0, "colorbar", "title", "text"): var.colorbar,
             ("layout", "xaxis", "dtick"): label_step(count), ("layout", "yaxis", "dtick"): label_step(count),
             ("layout", "height"): matrix_height(count, TOKEN_MATRIX_PX),
             ("layout", "title", "text"): fmt(POOLED_TITLE, title=var.title, step=call("int", var.step))}
    template = styled_template(fig, named, place)
    n = call("len", var.labels)
    return {**template, "lets": [["n", tree_of(n)], ["step", tree_of(call("ceil", n / LONGEST))], *template["lets"]]}


def _window(sample: int, place: Place) -> dict:
    """A window of up to 64 dimensions of a (rows, n) array: names `z` (the window), `labels` (the rows'),
    `first` (its first dimension), `count` (the array's dimensions), `title` and `chosen` (a cell of the whole
    array: outlined where it lies in the window)."""
    fig = matrix_window(np.zeros((sample, WINDOW), np.float32), [f"t{i}" for i in range(sample)], 0, "title",
                        chosen=(0, 0))
    n, width = call("len", var.labels), call("width", var.z)
    dims = call("range", width) + var.first
    marker, drop = _chosen_marker(var.labels, dims, var.first, by_value=True)
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): dims, ("data", 0, "y"): var.labels,
             **{("data", 0, key): leaf for key, leaf in scale_rule("signed", var.z).items()},
             ("layout", "yaxis", "dtick"): label_step(n),
             ("layout", "xaxis", "range"): call("cat", var.first - 0.5, var.first + width - 0.5),
             ("layout", "yaxis", "range"): call("cat", n - 0.5, -0.5),
             ("layout", "xaxis", "title", "text"): fmt("dimension ({first}–{last} of {count})", first=var.first,
                                                       last=var.first + width - 1, count=var.count),
             ("layout", "height"): matrix_height(n, WINDOW_PX), ("layout", "title", "text"): var.title,
             **marker}
    return styled_template(fig, named, place, drop)
