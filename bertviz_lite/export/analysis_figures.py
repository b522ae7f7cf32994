"""The analysis pages' figures for a sentence typed on a live site, as the app draws them: each is
built for a sample sentence of the model's own shape (its layers, its norm-based views), styled for each screen by
the app's rules, and handed over as a template (figures/sheet.py) whose leaves are the sentence's: its numbers, its
tokens' labels and what the page calls the figure. A site's browser computes the numbers with the package's own
functions as graphs (export/analysis_graphs.py) and fills the template that the sentence's length takes
(frontend/src/matrix_figure.js): the browser draws, the app's code lays out.

- Rollout: each layer's rollout, a token-by-token matrix as the stepper's (export/matrices.py token_forms); each
  token's mixture layer by layer (`mixture_by_layer`).
- Contributions: each view's panel (`matrices_side_by_side` with one matrix: averaged over blocks beyond 64
  tokens, its columns numbered beyond 24) and every layer's mixing ratios (`mixing_lines`).
- Similarity: a typed sentence's cosine with each exported one (`cosine_row`), and its split with one of them into
  token pairs (`pair_split_heatmap`), by both lengths.
- Lens: the nearest pieces of each hidden state (`nearest_figure`: `lens_grid`), a template per screen.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ..analyses.page_views import (CONTRIBUTION_PANEL_PX, CONTRIBUTION_VIEWS, contribution_panel, mixing_figure,
                                   nearest_figure, rollout_matrix, rollout_mixture)
from ..figures.charts import BLOCK_LABELS, LENS_WORDS
from ..figures.similarity import cosine_row
from ..figures.outputs import SPLIT_PX, pair_split_heatmap
from ..figures.sheet import most
from ..figures.style import MAX_LABELLED, MAX_ROW_LABELS, MAX_WRITTEN, NUMBERED_PER_PANEL, label_step, scale_rule
from ..ops.recipe import call, fmt, tree_of, var, when
from .matrices import Place, length_form, styled_template, token_forms
from .screens import CANVAS_PX, HALF_PX, WIDE_PX, places

PANEL_SIDE = 64  # tokens a Contributions panel draws one cell each (its `max_side`); beyond, blocks of tokens
PANEL_FORMS = ((MAX_WRITTEN, 4), (MAX_ROW_LABELS, 20), (MAX_LABELLED, 28), (PANEL_SIDE, 40), (None, 100))  # numbers
# written; every column labelled; columns numbered, every row labelled; every k-th row; averaged over blocks (the
# longest length of each, and a sample's)


def analysis_templates(layers: int, views: list[str]) -> dict:
    """The figures of a typed sentence's Rollout and Contributions pages, for a model of `layers` layers whose
    Contributions page has these norm-based `views` (page_views.norms_of)."""
    wide = places(WIDE_PX)
    return {"rollout": token_forms(lambda z, tokens: rollout_matrix(z, tokens, 0), wide),
            "mixture": [length_form(partial(_mixture, layers), longest, sample, wide)
                        for longest, sample in ((MAX_LABELLED, 20), (None, 40))],
            "panel": [length_form(_panel, longest, sample, places(HALF_PX, CONTRIBUTION_PANEL_PX))
                      for longest, sample in PANEL_FORMS],
            "mixing": {screen: _mixing(layers, views, place) for screen, place in wide.items()}}


def split_forms() -> list[dict]:
    """The Similarity split's forms (figures/outputs.py pair_split_heatmap): names `z` (the (n, m) shares), `rows`
    and `columns` (the two sentences' tokens read, labelled) and `title`; a form by both lengths (its numbers
    written up to MAX_WRITTEN tokens a side, every token labelled up to MAX_LABELLED on each)."""
    n, m = call("len", var.rows), call("len", var.columns)
    both = lambda a, b: call("min", a, b)  # noqa: E731  (two conditions that hold: the smaller of two truths)
    shapes = ((most(n, m) <= MAX_WRITTEN, 4, 5), (most(n, m) <= MAX_LABELLED, 20, 24),
              (both(n <= MAX_LABELLED, m > MAX_LABELLED), 20, 40), (both(n > MAX_LABELLED, m <= MAX_LABELLED), 40, 20),
              (True, 40, 40))
    return [{"when": tree_of(condition), **{screen: _split(rows, columns, place)
                                            for screen, place in places(CANVAS_PX, SPLIT_PX).items()}}
            for condition, rows, columns in shapes]


def cosine_row_templates(count: int, row: str) -> dict:
    """A typed sentence's cosine with each of the `count` exported ones (figures/charts.py cosine_row), its row
    named `row`, for each screen: names `z` ((1, count)) and `title`."""
    def template(place: Place) -> dict:
        fig = cosine_row(np.zeros(count, np.float32), row, "title")
        return styled_template(fig, {("data", 0, "z"): var.z, ("layout", "title", "text"): var.title}, place)
    return {screen: template(place) for screen, place in places().items()}


def _split(rows: int, columns: int, place: Place) -> dict:
    fig = pair_split_heatmap(np.zeros((rows, columns), np.float32), [f"a{i}" for i in range(rows)],
                             [f"b{j}" for j in range(columns)], "title")
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): var.columns, ("data", 0, "y"): var.rows,
             **{("data", 0, key): leaf for key, leaf in scale_rule("signed", var.z).items()},
             ("layout", "yaxis", "dtick"): label_step(call("len", var.rows)),
             ("layout", "xaxis", "dtick"): label_step(call("len", var.columns)),
             ("layout", "height"): call("min", 760, 230 + 26 * call("len", var.rows)),
             ("layout", "title", "text"): var.title}
    if fig.data[0].text is not None:  # its numbers written
        named[("data", 0, "text")] = call("thousandths", var.z)
    return styled_template(fig, named, place)


def lens_templates(layers: int, top: int, phone_top: int) -> dict:
    """The nearest pieces' grid (analyses/page_views.py nearest_figure) of a model of `layers` layers for each
    screen, `top` pieces a hidden state (`phone_top` on a phone): names `pieces` (each hidden state's, nearest
    first), `z` (their cosines) and `title`."""
    def template(place: Place, shown: int) -> dict:
        fig = nearest_figure([[(f"p{k}", 0.5) for k in range(shown)]] * (layers + 1), 0, "t")
        named = {("data", 0, "z"): var.z, ("data", 0, "text"): LENS_WORDS,
                 **{("data", 0, key): leaf for key, leaf in scale_rule("signed", var.z).items()},
                 ("layout", "title", "text"): var.title}
        return styled_template(fig, named, place)
    return {screen: template(place, phone_top if screen == "phone" else top) for screen, place in places().items()}


def _mixture(layers: int, sample: int, place: Place) -> dict:
    """One token's (L, T) mixture: names `z`, `labels` (the tokens labelled) and `title`."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = rollout_mixture(np.full((layers, sample), 1 / sample, np.float32), tokens, 0)
    named = {("data", 0, "z"): var.z, ("data", 0, "x"): var.labels,
             **{("data", 0, key): leaf for key, leaf in scale_rule(None, var.z).items()},
             ("layout", "xaxis", "dtick"): label_step(call("len", var.labels)), ("layout", "title", "text"): var.title}
    return styled_template(fig, named, place)


def _panel(sample: int, place: Place) -> dict:
    """One view's (T, T) panel: names `z`, `labels` and `view` (a name in CONTRIBUTION_VIEWS). Its form is the
    sample's: numbers written up to MAX_WRITTEN tokens, every column labelled up to MAX_ROW_LABELS, columns
    numbered up to PANEL_SIDE, averaged over blocks of tokens beyond."""
    tokens = [f"t{i}" for i in range(sample)]
    fig = contribution_panel("attention", np.full((sample, sample), 1 / sample, np.float32), tokens)
    pooled = sample > PANEL_SIDE
    z = call("pooled", var.z, var.step) if pooled else var.z  # n and step: the template's first names
    labels = BLOCK_LABELS if pooled else var.labels
    count = call("len", labels)
    rule = scale_rule(None, z)
    named = {("data", 0, "z"): z, ("data", 0, "x"): labels, ("data", 0, "y"): labels,
             **{path: _by_view(words) for path, words in _view_words().items()},
             ("layout", "coloraxis", "colorscale"): rule["colorscale"], ("layout", "coloraxis", "cmin"): rule["zmin"],
             ("layout", "coloraxis", "cmax"): rule["zmax"], ("layout", "yaxis", "dtick"): label_step(count),
             ("layout", "height"): call("min", 620, 260 + 12 * call("min", call("len", var.labels), PANEL_SIDE))}
    if sample > MAX_ROW_LABELS:  # columns numbered: every k-th, none at the right edge (style.columns_of_panels)
        every = call("ceil", count / NUMBERED_PER_PANEL)
        shown = call("each", call("range", call("int", call("int", 0.85 * count) / every) + 1), var.k * every)
        named[("layout", "xaxis", "tickvals")] = call("taken", labels, shown)
        named[("layout", "xaxis", "ticktext")] = (call("taken", labels, shown) if pooled else
                                                  call("each", shown, fmt("{k}")))
    if not pooled:
        return styled_template(fig, named, place)
    named[("layout", "title", "text")] = fmt("averaged over blocks of {step} tokens", step=call("int", var.step))
    template = styled_template(fig, named, place)
    n = call("len", var.labels)
    return {**template, "lets": [["n", tree_of(n)], ["step", tree_of(call("ceil", n / PANEL_SIDE))],
                                 *template["lets"]]}


def _view_words() -> dict[tuple, dict[str, str]]:
    """What a panel says of its view, by view, as the app's panel says it: its title, its colour bar's, its
    hover."""
    panels = {name: contribution_panel(name, np.ones((1, 1), np.float32), ["t"]) for name in CONTRIBUTION_VIEWS}
    return {("layout", "annotations", 0, "text"): {n: f.layout.annotations[0].text for n, f in panels.items()},
            ("layout", "coloraxis", "colorbar", "title", "text"): {n: f.layout.coloraxis.colorbar.title.text
                                                                   for n, f in panels.items()},
            ("data", 0, "hovertemplate"): {n: f.data[0].hovertemplate for n, f in panels.items()}}


def _by_view(words: dict[str, str]):
    """`words[view]`, as an expression over the name `view`."""
    found = None
    for name, text in words.items():
        found = when(call("==", var.view, name), text, found)
    return found


def _mixing(layers: int, views: list[str], place: Place) -> dict:
    """Every layer's mixing ratio by view: names each view's ratios by its name ("attention" and `views`)."""
    shown = ["attention", *views]
    fig = mixing_figure({name: [0.5] * layers if name in shown else None for name in CONTRIBUTION_VIEWS})
    return styled_template(fig, {("data", k, "y"): getattr(var, name) for k, name in enumerate(shown)},
                           place)

