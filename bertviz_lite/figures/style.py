"""The app's one visual language, written once: every figure takes its type size, colour scales and series colours
from here, so that a colour means the same thing on every page and from the back row of a lecture hall.

- Shares (attention weights, probabilities, contributions, lengths) run from white at 0 on one sequential scale;
  where they lie in [0, 1] the scale is 0 to 1 on every figure, so two heads can be compared by eye.
- Signed quantities (scores, their terms, vectors' numbers, distances i − j) are drawn on a diverging scale
  centred at 0 and symmetric about it: white is 0, blue above, red below (blue for more, as for shares).
- Two sentences' cosine runs on the diverging scale from −1 to 1 on every figure, however close to 0 a figure's
  cosines lie.
- Panels shown side by side share one scale and one colour bar.
- A series has a fixed colour by what it is (a word embedding, a residual add, a LayerNorm's output), from
  Paul Tol's colour-blind-safe "bright" set.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from plotly.colors import get_colorscale

from ..kinds import Series
from ..ops.figure_words import escaped
from ..ops.recipe import X, call, fmt, var, when
from .template import value_of

FONT = dict(size=16)  # readable from the back of a lecture hall
SHARE = "Blues"
SIGNED = "RdBu"  # Plotly's RdBu runs red (low) to blue (high)
MAX_WRITTEN = 16  # a matrix at most this many cells a side has its values written in its cells
MAX_LABELLED = 32  # up to this many tokens, every one is labelled on its axis (Plotly would skip some)
MAX_ROW_LABELS = 24  # columns labelled across a row of panels: more and their rotated labels run into each other
NUMBERED_PER_PANEL = 4  # a crowded panel's columns: this many numbered ticks, as many as fit in a narrow panel

# Paul Tol's bright qualitative set: https://personal.sron.nl/~pault/#sec:qualitative
BLUE, CYAN, GREEN, YELLOW, RED, PURPLE, GREY = ("#4477AA", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377",
                                                "#BBBBBB")
SERIES_COLOURS = {Series.INPUT: GREY, Series.WORD: BLUE, Series.POSITION: CYAN, Series.TOKEN_TYPE: YELLOW,
                  Series.SUM: RED, Series.NORMED: GREEN, Series.COMPUTED: PURPLE}


MODULE_KINDS = (  # (colour, words in a module's path that say what it is), first match wins
    (RED, ("attention", "attn")),
    (BLUE, ("embed",)),
    (GREEN, ("intermediate", "mlp", "ffn", "output")),
    (CYAN, ("pooler",)),
    (PURPLE, ("head", "cls", "decoder", "classifier", "predictions")),
)
CONTAINER = "#DDDDDD"  # a module that holds several kinds (the encoder, one layer)

# Marks, the same on every figure
CHOSEN = "#e4572e"  # what was picked: a cell, a key, a dimension, a point on a curve
CHOSEN_PATTERN = "/"  # ... and a chosen bar hatched too: not told by its colour alone
CHOSEN_HALO = ("#111111", "#ffffff")  # under a chosen cell's orange outline, a dark band and a light one (18:1 to
# each other: WCAG's technique C40): orange alone is 1:1 beside a red cell, one of these 3:1 beside any (WCAG 1.4.11)
INK = "#1f4e99"  # a figure's own line or bars, a waterfall's total, the diagram's current step
PALE_INK = "#8fb3de"  # the "before" of a before-and-after
RISE, FALL = "#2a9d8f", "#e76f51"  # a sum's terms that add and that take away
FAINT = "#bbbbbb"  # connectors between bars
INVISIBLE = "#000000"  # click targets, drawn at opacity 0.01 (a trace at 0 cannot be clicked)
# the layer diagram: the step on screen (INK), the steps it reads, the others, another block's steps, the edges
READ_BOX, OTHER_BOX, OUTSIDE_BOX, EDGE, MUTED, BOX_TEXT = "#f4a259", "#eef2f8", "#e6e6e6", "#9aa5b1", "#7b8794", "#111111"
ARC = RISE  # a path that skips ahead: the residual stream
# BertViz's views: Paul Tol's rainbow on BertViz's dark ground; a head picked or a token clicked in amber
TOL_RAINBOW = ["#E8ECFB", "#D9CCE3", "#D1BBD7", "#CAACCB", "#BA8DB4", "#AE76A3", "#AA6F9E", "#994F88", "#882E72",
               "#1965B0", "#437DBF", "#5289C7", "#6195CF", "#7BAFDE", "#4EB265", "#90C987", "#CAE0AB", "#F7F056",
               "#F7CB45", "#F6C141", "#F4A736", "#F1932D", "#EE8026", "#E8601C", "#E65518", "#DC050C", "#A5170E",
               "#72190E", "#42150A"]
CANVAS = "#16161d"  # BertViz's dark ground: every colour of the palette shows on it
CANVAS_TEXT, LIT = "#f2f2f2", "#ffb000"
# token chips: special tokens, sentence A, sentence B; sentence B's also outlined, dashed (not by colour alone)
CHIP_COLOURS = {None: "#e0e0e0", 0: "#cfe3ff", 1: "#ffd9b3"}
CHIP_TEXT, CHIP_ID = "#111111", "#555555"  # a chip's piece and its id below
CHIP_B_OUTLINE = "#a04a00"  # 6:1 on white, 4.3:1 on its chip: a non-text mark's 3:1 and more
CHIPS_SAY = {  # what the chips' colours mean, in the app's words and a site's
    "single": "Special tokens are grey; the sentence is blue.",
    "pair": "Special tokens are grey; sentence A is blue, sentence B orange with a dashed outline."}


def plotly_text(text: str) -> str:
    """A token as Plotly draws it: Plotly reads its text as HTML, so `<s>` (MPNet's, RoBERTa's first token) would
    start a strike-through and vanish, and `&lt;` would become `<`. Escaped, every token shows as it is."""
    return escaped(text)  # the words' own (ops/figure_words.py), which a site's browser has too


AXIS_LABELS = call("each", call("range", call("len", var.tokens)), fmt("{k} {t}", t=call("escaped", var.tokens[var.k])))
# a figure's labels of `tokens`, as an expression (ops/recipe.py): the app's (`labelled`) and a template's


def labelled(tokens: list[str], for_figure: bool = True) -> list[str]:
    """Axis labels that stay unique when a token repeats ("the" twice): the position goes first. For a figure,
    escaped as Plotly must have them (`plotly_text`: AXIS_LABELS); `for_figure=False` gives them plain (a
    CSV)."""
    if not for_figure:
        return [f"{i} {t}" for i, t in enumerate(tokens)]
    return list(value_of(AXIS_LABELS, {"tokens": list(tokens)})) if len(tokens) else []


def module_colour(path: str, class_name: str = "") -> str:
    """A module's colour by what it is, the same in every model: norms yellow, attention red, embeddings blue,
    feed-forward green, pooler cyan, task heads purple, containers pale grey."""
    last = path.rsplit(".", 1)[-1].lower()
    if "norm" in last or "Norm" in class_name:
        return YELLOW
    lowered = path.lower()
    return next((colour for colour, words in MODULE_KINDS if any(w in lowered for w in words)), CONTAINER)


def series_colour(series: Series | None) -> str | None:
    """The colour of a series by what it is (`Node.series`); None: Plotly's next."""
    return SERIES_COLOURS.get(series)


@dataclass(frozen=True)
class Scale:
    """How one kind of number is coloured, on the app's figures and the site's alike (an exported site reads
    `SCALES` as data, so that a number typed in its browser is coloured as the app colours it)."""
    colours: str  # SHARE (sequential from 0) or SIGNED (diverging, centred at 0)
    ends: tuple[float, float] | None = None  # fixed ends; None: from the numbers, as `colour_scale` says


SCALES = {
    "share": Scale(SHARE),
    "signed": Scale(SIGNED),
    # a cosine's whole range, on every figure: 0.02 stays near white beside a sentence's 1 with itself, however few
    # cosines a figure holds (a typed sentence's row of them was coloured as if 0.02 were near 1: issue 54)
    "cosine": Scale(SIGNED, ends=(-1.0, 1.0)),
}


def colour_scale(*arrays: np.ndarray, signed: bool | None = None, scale: str | None = None) -> dict:
    """Heatmap colour settings shared by `arrays`: `scale`'s (a name in SCALES) where given; else diverging and
    symmetric about 0 for a signed quantity (`signed`; None: where any value is negative), else sequential from
    0, to 1 where every value lies in [0, 1] (`colour_rule`)."""
    values = np.concatenate([np.ravel(np.asarray(x, dtype=np.float64)) for x in arrays]) if arrays else np.zeros(0)
    rule = colour_rule(signed) if scale is None else scale_rule(scale)
    return {name: value_of(leaf, {"values": values}) for name, leaf in rule.items()}


def scale_rule(scale, values=var.values) -> dict:
    """The colours and ends of the scale named `scale` (a name in SCALES, or an expression giving one, or None:
    from the numbers, as `colour_rule` says), as expressions over `values`: a template's figure of any step takes
    its step's scale as a name."""
    found = colour_rule(None, values)
    for name, chosen in SCALES.items():
        if chosen.ends is not None:
            rule = {"colorscale": call("quote", get_colorscale(chosen.colours)), "zmin": chosen.ends[0],
                    "zmax": chosen.ends[1]}
        else:
            rule = colour_rule(chosen.colours == SIGNED, values)
        if not isinstance(scale, X) and scale == name:
            return rule
        if isinstance(scale, X):
            found = {key: when(call("==", scale, name), rule[key], found[key]) for key in found}
    if scale is not None and not isinstance(scale, X):
        raise KeyError(f"No colour scale {scale}: figures/style.py SCALES names share, signed and cosine.")
    return found


def colour_rule(signed: bool | None = None, values=var.values) -> dict:
    """`colour_scale`'s choice from the numbers, as expressions (ops/recipe.py) over `values`: the colours (as
    Plotly writes them) and the ends. One rule for the app's figures and a template's (figures/template.py), which a
    live site fills for a typed sentence: its numbers are coloured as an exported sentence's."""
    seen = call("finite", values)  # what is not NaN (a masked cell), or 0 where nothing is
    bound = call("max_of", call("abs", seen))
    bound = when(bound == 0, 1.0, bound)
    top = call("max_of", seen)
    diverging = {"colorscale": call("quote", get_colorscale(SIGNED)), "zmin": -bound, "zmax": bound}
    sequential = {"colorscale": call("quote", get_colorscale(SHARE)), "zmin": 0, "zmax": when(top <= 1, 1.0, top)}
    if signed is not None:
        return diverging if signed else sequential
    negative = call("<", call("min_of", seen), 0)
    return {name: when(negative, diverging[name], sequential[name]) for name in diverging}


def as_colour_axis(scale: dict, title: str) -> dict:
    """The same settings as a layout `coloraxis`, which several panels share with one colour bar."""
    return dict(colorscale=scale["colorscale"], cmin=scale["zmin"], cmax=scale["zmax"], colorbar=dict(title=title))


def every_token(count: int) -> dict:
    """Axis settings that label every token up to MAX_LABELLED (so that a lecturer can point at "bank"), and beyond
    every k-th from the first, k the smallest step that keeps MAX_LABELLED labels or fewer (figures/fit.py says
    which step under the plot, and takes a larger one where the chart is too small for those)."""
    return dict(dtick=1) if count <= MAX_LABELLED else dict(tick0=0, dtick=int(value_of(label_step(count), {})))


def label_step(count) -> X:
    """`every_token`'s step from one labelled token to the next, as an expression over the tokens' `count`."""
    return when(count <= MAX_LABELLED, 1, call("ceil", count / MAX_LABELLED))


def matrix_height(rows, room: int) -> X:
    """A matrix figure's height: 22 px a row and `room` for its title, labels and colour bar, at most 900, as an
    expression over its `rows` (the app's figures and a typed sentence's alike)."""
    return call("min", 900, room + 22 * rows)


def category_edges(count) -> X:
    """A category axis's range from its first cell's edge to its last's, as an expression over its `count`."""
    return call("cat", -0.5, count - 0.5)


def columns_of_panels(labels: list[str], panels: int) -> dict:
    """X-axis settings for each of `panels` side-by-side matrices whose columns are `labels` in the rows' order:
    every label where they fit (up to MAX_ROW_LABELS in the row), else every k-th column by its number alone, so
    that a lecturer can still say "column 8" and read its token off the rows."""
    if panels * len(labels) <= MAX_ROW_LABELS:
        return every_token(len(labels)) or dict(showticklabels=False)
    step = -(-len(labels) // NUMBERED_PER_PANEL)
    shown = [label for i, label in enumerate(labels) if i % step == 0 and i <= 0.85 * len(labels)]  # none at the
    # right edge, where it would run into the next panel's first
    return dict(tickmode="array", tickvals=shown, ticktext=[label.split(" ", 1)[0] for label in shown],
                tickangle=0, ticklabelstandoff=8)  # clear of the rows' last label at the corner


def written_in_cells(shape: tuple[int, ...]) -> bool:
    """Whether a matrix is small enough that its values can be read when written in its cells."""
    return max(shape) <= MAX_WRITTEN
