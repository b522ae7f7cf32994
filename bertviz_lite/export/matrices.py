"""The stepper's matrices as the app draws them, for a site's browser: a head's token-by-token matrix
(figures/charts.py attention_heatmap) and a window of 64 dimensions (matrix_window), built for a sample sentence,
styled for each screen by the app's rules (figures/screens.py), and handed over as templates (figures/sheet.py)
whose leaves are the sentence's: its numbers, labels and length, the step's scale and title, the chosen cell; and
what the styling works out from them (labels sized, thinned or cut, numbers written or not, the height, the
colour bar). The browser names a step's numbers and fills the template its length takes: no figure of its own.

A matrix takes one of a few forms by its length (numbers written in its cells up to 16 tokens, every token
labelled up to 32, every k-th beyond, a head's matrix averaged over blocks of tokens beyond 256): a template for
each, with the condition that picks it (the last, any length).
"""
from __future__ import annotations

import numpy as np

from ..figures.charts import (BLOCK_LABELS, POOLED_TITLE, TOKEN_MATRIX_PX, WINDOW, WINDOW_PX, attention_heatmap,
                              matrix_window)
from ..figures.screens import LECTURE_CHART_PX, styled_sheet
from ..figures.sheet import Sheet
from ..figures.style import MAX_LABELLED, MAX_WRITTEN, category_edges, label_step, matrix_height, scale_rule
from ..ops.recipe import X, call, fmt, tree_of, var, when
from ..tour.views import LECTURE_PX
from .screens import CANVAS_PX, PHONE_PX, drawn

WIDTHS = {"browse": CANVAS_PX, "lecture": CANVAS_PX, "phone": PHONE_PX, "tour_lecture": CANVAS_PX}  # the screens,
# and a projector's under the tour's controls (export/tour.py styles an exported sentence's chapter so)
TALLEST = {"lecture": LECTURE_CHART_PX, "tour_lecture": LECTURE_PX}
LONGEST = 256  # tokens a head's matrix draws one cell each (charts.MAX_CELLS's side); a longer sentence's is
# averaged over blocks of tokens
FORMS = ((MAX_WRITTEN, 4), (MAX_LABELLED, 20), (LONGEST, 40), (None, 300))  # the longest length of each form (None:
# any), and a sample's; beyond LONGEST a head's matrix is averaged over blocks of tokens


def matrix_templates() -> dict:
    """Each kind of the stepper's matrix: its forms, each with the condition on the names that picks it and its
    template for each screen."""
    return {"token": [_form(_token_matrix if longest else _pooled_matrix, longest, sample)
                      for longest, sample in FORMS],
            "window": [_form(_window, longest, sample) for longest, sample in ((MAX_LABELLED, 20), (None, 40))]}


def _form(build, longest: int | None, sample: int) -> dict:
    return {"when": tree_of(True if longest is None else call("len", var.labels) <= longest),
            **{screen: build(sample, screen) for screen in WIDTHS}}


def _styled(fig, named: dict, screen: str, drops: dict) -> dict:
    """`fig` (a sample's) styled for `screen` as the app styles it, its `named` leaves the sentence's."""
    sheet = Sheet(fig, named)
    styled_sheet(sheet, WIDTHS[screen], TALLEST.get(screen, LECTURE_CHART_PX), lecture=screen in TALLEST)
    return sheet.template(drawn(sheet.fig), drops)


def _chosen_marker(rows: X, columns: X, first=0) -> tuple[dict, dict]:
    """The chosen cell's outline (the second trace), at `var.chosen` (row, column: the column from `first`, where
    the figure's first column is), and its drop where no cell is chosen or it lies outside the figure."""
    column = var.chosen[1] - first
    outside = when(call("==", var.chosen, None), True, when(column < 0, True, when(
        call("len", columns) <= column, True, call("len", rows) <= var.chosen[0])))
    at = lambda labels, k: when(outside, call("quote", []), call("taken", labels, call("cat", k)))  # noqa: E731
    return {("data", 1, "x"): at(columns, column), ("data", 1, "y"): at(rows, var.chosen[0])}, {("data", 1): outside}


def _token_matrix(sample: int, screen: str) -> dict:
    """A head's (T, T) matrix: names `z` (the rows, NaN where masked), `labels` (the tokens labelled), `title`,
    `colorbar` (what its numbers are), `scale` (a name in figures/style.py SCALES, or None) and `chosen`."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = attention_heatmap(np.full((sample, sample), 1 / sample, np.float32), tokens, "title", chosen=(0, 0))
    n = call("len", var.labels)
    edges = category_edges(n)
    marker, drop = _chosen_marker(var.labels, var.labels)
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): var.labels, ("data", 0, "y"): var.labels,
             **{("data", 0, key): leaf for key, leaf in scale_rule(var.scale, var.z).items()},
             ("data", 0, "colorbar", "title", "text"): var.colorbar,
             ("layout", "xaxis", "dtick"): label_step(n), ("layout", "yaxis", "dtick"): label_step(n),
             ("layout", "xaxis", "range"): edges, ("layout", "yaxis", "range"): call("cat", edges[1], edges[0]),
             ("layout", "height"): matrix_height(n, TOKEN_MATRIX_PX), ("layout", "title", "text"): var.title,
             **marker}
    return _styled(fig, named, screen, drop)


def _pooled_matrix(sample: int, screen: str) -> dict:
    """A head's matrix of more than LONGEST tokens, averaged over blocks of tokens as the app draws it (no cell
    chosen: a block is no cell): the same names as `_token_matrix`'s."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = attention_heatmap(np.full((sample, sample), 1 / sample, np.float32), tokens, "title")
    z = call("pooled", var.z, var.step)  # n and step: the template's first names (`_pooled_lets`)
    count = call("ceil", var.n / var.step)
    named = {("data", 0, "z"): z, ("data", 0, "x"): BLOCK_LABELS, ("data", 0, "y"): BLOCK_LABELS,
             **{("data", 0, key): leaf for key, leaf in scale_rule(var.scale, z).items()},
             ("data", 0, "colorbar", "title", "text"): var.colorbar,
             ("layout", "xaxis", "dtick"): label_step(count), ("layout", "yaxis", "dtick"): label_step(count),
             ("layout", "height"): matrix_height(count, TOKEN_MATRIX_PX),
             ("layout", "title", "text"): fmt(POOLED_TITLE, title=var.title, step=call("int", var.step))}
    template = _styled(fig, named, screen, {})
    n = call("len", var.labels)
    return {**template, "lets": [["n", tree_of(n)], ["step", tree_of(call("ceil", n / LONGEST))], *template["lets"]]}


def _window(sample: int, screen: str) -> dict:
    """A window of up to 64 dimensions of a (rows, n) array: names `z` (the window), `labels` (the rows'),
    `first` (its first dimension), `count` (the array's dimensions), `title` and `chosen` (a cell of the whole
    array: outlined where it lies in the window)."""
    fig = matrix_window(np.zeros((sample, WINDOW), np.float32), [f"t{i}" for i in range(sample)], 0, "title",
                        chosen=(0, 0))
    n, width = call("len", var.labels), call("width", var.z)
    dims = call("range", width) + var.first
    marker, drop = _chosen_marker(var.labels, dims, var.first)
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): dims, ("data", 0, "y"): var.labels,
             **{("data", 0, key): leaf for key, leaf in scale_rule("signed", var.z).items()},
             ("layout", "yaxis", "dtick"): label_step(n),
             ("layout", "xaxis", "range"): call("cat", var.first - 0.5, var.first + width - 0.5),
             ("layout", "yaxis", "range"): call("cat", n - 0.5, -0.5),
             ("layout", "xaxis", "title", "text"): fmt("dimension ({first}–{last} of {count})", first=var.first,
                                                       last=var.first + width - 1, count=var.count),
             ("layout", "height"): matrix_height(n, WINDOW_PX), ("layout", "title", "text"): var.title,
             **marker}
    return _styled(fig, named, screen, drop)
