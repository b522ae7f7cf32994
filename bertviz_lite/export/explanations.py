"""The figure that explains a clicked cell, as the app draws it, for a site's browser: each kind of explanation
figure (figures/explanation.py `DRAWN`) built and styled for each screen as the app's Layers page styles it, then
handed over as a template (figures/template.py) whose leaves are the kind's own (its numbers, its rows, its title)
and the styling's that depend on them (a title or a panel's title wrapped, a projector's height). The browser names
what a cell's recipe worked out (frontend/src/stepper.js) and fills it: no figure of its own."""
from __future__ import annotations

import numpy as np

from ..figures.explanation import DRAWN, LECTURE_TOP, TOP, Drawn
from ..figures.sheet import Sheet, most
from ..figures.titles import WRAPPED_KEYS, panel_title_rule, panel_titles, title_leaves, title_size
from ..figures.screens import CHART_WIDTH_PX, LECTURE_CHART_PX, styled
from ..ops import Figure
from ..ops.recipe import call, tree_of
from .screens import PHONE_PX, SCREENS, drawn

WIDTHS = {"browse": CHART_WIDTH_PX, "lecture": CHART_WIDTH_PX, "phone": PHONE_PX}  # as the app's charts.cached_chart

_TOKENS = ["[CLS]", "the", "bank", "[SEP]"]
EXAMPLES = {  # a cell of each kind, for the skeleton's styling: its numbers are the template's to fill
    Figure.TERMS: {"labels": ["x[0]·W[0,1]", "bias"], "values": np.asarray([0.5, 0.1]), "value": 0.6},
    Figure.SOFTMAX_ROW: {"scores_row": np.asarray([1.0, 2.0, 0.5, 0.0]), "exp_row": np.asarray([1.0, 2.0, 1.0, 1.0]),
                         "sum_exp": 5.0},
    Figure.HISTOGRAMS: {"before": np.asarray([1.0, 2.0, 3.0, 4.0]), "after": np.asarray([-1.2, -0.4, 0.4, 1.2])},
    Figure.CURVE: {"curve_x": np.asarray([-1.0, 0.0, 1.0]), "curve_y": np.asarray([0.0, 0.0, 1.0]), "point": 0.5,
                   "function": "gelu"},
    Figure.ARROWS: {"before": np.asarray([1.0, 0.0]), "after": np.asarray([0.0, 1.0]), "angle": 1.5708},
}


def explanation_templates() -> dict:
    """Each kind's templates by screen, with what it needs to be drawn (the names it reads, and a condition on
    them)."""
    return {kind.value: {"needs": list(figure.needs), "drawn": tree_of(figure.drawn),
                         **{screen: _template(figure, EXAMPLES[kind], screen) for screen in SCREENS}}
            for kind, figure in DRAWN.items()}


def _template(figure: Drawn, example: dict, screen: str) -> dict:
    """The kind's figure as the app shows it on `screen`, as a template."""
    lecture, width = screen == "lecture", WIDTHS[screen]
    top = LECTURE_TOP if lecture else TOP
    names = {"cell": np.asarray([1, 2]), "tokens": _TOKENS, "top": top, **example}
    fig = styled(figure.figure(names), width, lecture=lecture)
    return figure.template(drawn(fig), _styled_leaves(figure, fig, width, lecture), given={"top": top})


def _styled_leaves(figure: Drawn, fig, width: int, lecture: bool) -> dict:
    """The leaves that the screen's styling (figures/screens.py styled, figures/fit.py) sets from the numbers: the
    title's lines and the room they take, a panel's title's lines, a projector's height (at most its chart's)."""
    leaves, base = {}, fig.layout.font.size or 12
    margin = figure.leaves.get(("layout", "margin", "t"), fig.layout.margin.t)
    title = figure.leaves.get(("layout", "title", "text"))
    if title is not None:
        plain = {k: v for k, v in (fig.layout.title.to_plotly_json()).items() if k != "text" and k not in WRAPPED_KEYS}
        leaves = title_leaves(plain, title, width, title_size(fig, base), margin)
        margin = leaves[("layout", "margin", "t")]
    added = []
    for k, per_line in panel_titles(Sheet(fig), width, base):
        text = figure.leaves.get(("layout", "annotations", k, "text"))
        if text is not None:
            note = fig.layout.annotations[k]
            leaves[("layout", "annotations", k, "text")], more = panel_title_rule(text, per_line, note.font.size or base)
            added += [more] if note.y >= 1 else []  # the first row's lines: the figure's top grows
    if added:
        leaves[("layout", "margin", "t")] = margin + most(*added)
    height = figure.leaves.get(("layout", "height"))
    if lecture and height is not None:
        leaves[("layout", "height")] = call("min", height, LECTURE_CHART_PX)
    return leaves
