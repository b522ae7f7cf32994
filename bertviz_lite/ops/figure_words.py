"""The words a figure's template fills its leaves with (figures/template.py), beside the recipes' (working.py, whose
docstring lists them all): lists cut, joined and picked, and text laid out as figures/fit.py lays it out (a label cut
with "…", a title wrapped). The rules that fit a figure to its screen use them in Python too, so that an exported
figure and a typed sentence's (frontend/src/figure_words.js, word for word) are laid out by one definition.

A text here is as Plotly reads it: HTML, with `&`, `<` and `>` escaped (style.plotly_text); its length is counted
as drawn, in characters (code points).
"""
from __future__ import annotations

import re
import warnings

import numpy as np


def escaped(text: str) -> str:
    """Plotly's text for `text`: `&`, `<`, `>` escaped, as html.escape without quotes (figures/style.py plotly_text
    is this)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescaped(text: str) -> str:
    """What `escaped` escaped, as drawn."""
    return str(text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def each_text(word):
    """`word` on a text, or on each of a list's texts (a list out): a figure's labels are laid out alike."""
    return lambda c, texts, *args: ([word(t, *args) for t in texts] if isinstance(texts, (list, tuple))
                                    else word(texts, *args))


def lines(texts) -> list[str]:
    """Each text's lines (Plotly's `<br>` between them), one list: a label on two lines is as wide as its longer."""
    return [line for text in texts for line in _text(text).split("<br>")]


def _text(value) -> str:
    """A label as text: a whole number without its ".0" (as a browser writes it)."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


NUMBER = re.compile(r"[−-]?\d*\.?\d+")  # a number written as a text (".037", "−.004", "12")


def thousandths(value: float) -> str:
    """A small number in thousandths without the leading zero, a true minus sign: ".037", "−.004" (a share of a
    cosine, where two decimals would make most of them 0.00)."""
    return re.sub(r"^(-?)0\.", r"\1.", f"{value:.3f}").replace("-", "−")


def each_number(word):
    """`word` on a number, or on each of an array's (nested lists out, in its shape)."""
    def on(value):
        return [on(v) for v in value] if isinstance(value, (list, np.ndarray)) else word(float(value))
    return lambda c, values: on(np.asarray(values, np.float64).tolist() if isinstance(values, np.ndarray) else values)


def one_line(texts):
    """A text with its lines (`<br>`) joined by spaces, or each of a list's, nested lists in their shape."""
    return [one_line(t) for t in texts] if isinstance(texts, (list, tuple)) else _text(texts).replace("<br>", " ")


def cells(items):
    """Rows of cells as one list, row after row (numbers as one array)."""
    if isinstance(items, np.ndarray):
        return np.ravel(items).astype(np.float64)
    return [item for row in items for item in row]


def cut(label: str, longest: int) -> str:
    """A label of more than `longest` characters (as drawn) cut with "…" (its hover keeps it whole), never inside
    an escape."""
    shown = unescaped(label)
    return label if len(shown) <= longest else escaped(shown[:longest - 1]) + "…"


def wrapped(text: str | list, width: int) -> list[str]:
    """`text` (as drawn) on lines of at most `width` characters, broken between words (at white space, a run of it
    one space); a word longer than a line on a line of its own; a list of texts (a title's given lines) each so,
    one after another. Python's textwrap also breaks at hyphens and inside long words: a figure's title keeps
    "Feed-forward" whole."""
    if isinstance(text, (list, tuple)):
        return [line for part in text for line in wrapped(part, width)]
    found: list[str] = []
    for word in str(text).split():
        if found and len(found[-1]) + 1 + len(word) <= width:
            found[-1] += " " + word
        else:
            found.append(word)
    return found or [""]


def joined_up(*parts):
    """Lists, arrays and single items one after another: numbers as an array, else a list."""
    items = [x for part in parts for x in (np.ravel(part).tolist() if isinstance(part, np.ndarray)
                                            else part if isinstance(part, list) else [part])]
    return np.asarray(items, np.float64) if all(_is_number(x) for x in items) else items


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _taken(values, indices):
    """The items of `values` at `indices`, in their order: a list's as a list, an array's as an array."""
    if isinstance(values, list):
        return [values[int(i)] for i in np.ravel(indices)]
    return np.asarray(values, np.float64)[np.ravel(np.asarray(indices)).astype(int)]


def pooled(matrix, step: int) -> np.ndarray:
    """`matrix` averaged over blocks of `step` × `step` cells (the last blocks of the rows and columns there are),
    NaN (a masked cell) left out, a block all NaN staying NaN; in float32, as a figure sends it: a sentence too long
    to draw a cell per token (figures/charts.py attention_heatmap)."""
    matrix, step = np.asarray(matrix, np.float32), int(step)
    if step == 1:
        return matrix
    rows, cols = -(-matrix.shape[0] // step) * step, -(-matrix.shape[1] // step) * step
    padded = np.full((rows, cols), np.nan, dtype=np.float32)
    padded[: matrix.shape[0], : matrix.shape[1]] = matrix
    with warnings.catch_warnings():  # a block that is all masked (NaN) stays blank, without a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(padded.reshape(rows // step, step, cols // step, step), axis=(1, 3)).astype(np.float32)


def each_of(values: list):
    """What `each` gives: numbers as an array, else a list."""
    return np.asarray(values, np.float64) if values and all(_is_number(x) for x in values) else values


FIGURE_WORDS = {
    "round": lambda c, x: round(x), "range": lambda c, n: np.arange(int(n)),
    "repeat": lambda c, value, n: [value] * int(n), "pick": lambda c, k, *options: options[int(k)],
    "zip": lambda c, a, b: [[x, y] for x, y in zip(np.asarray(a).tolist(), np.asarray(b).tolist())],
    "cat": lambda c, *parts: joined_up(*parts),
    "slice": lambda c, v, start, stop: v[int(start): int(stop)],
    "taken": lambda c, v, indices: _taken(v, indices),
    "which": lambda c, mask: np.flatnonzero(np.ravel(np.asarray(mask, np.float64)) != 0),
    "cells": lambda c, items: cells(items),
    "rows_of": lambda c, items, width: [list(items[i:i + int(width)]) for i in range(0, len(items), int(width))],
    "line_counts": lambda c, texts: np.asarray([len(_text(t).split("<br>")) for t in texts], np.float64),
    "one_line": lambda c, texts: one_line(texts),
    "numeric": lambda c, texts: np.asarray([float(bool(NUMBER.fullmatch(_text(t)))) for t in texts], np.float64),
    "thousandths": each_number(thousandths),
    "index": lambda c, values, items: np.asarray([list(values).index(item) for item in items], np.float64),
    "has": lambda c, texts, part: (float(str(part) in texts) if isinstance(texts, str)
                                   else np.asarray([float(str(part) in str(t)) for t in texts], np.float64)),
    "chars": lambda c, texts: (np.asarray([len(unescaped(t)) for t in texts], np.float64)
                               if isinstance(texts, (list, tuple)) else len(unescaped(texts))),
    "escaped": each_text(escaped), "unescaped": each_text(unescaped),
    "cut": lambda c, labels, longest: each_text(cut)(c, labels, int(longest)),
    "lines": lambda c, texts: lines(texts),
    "wrapped": lambda c, text, width: wrapped(text, int(width)),
    "merged": lambda c, part, more: {**part, **more},
    "unique": lambda c, items: list(dict.fromkeys(items)),
    "pooled": lambda c, matrix, step: pooled(matrix, step),
    "interp": lambda c, x, xs, ys: float(np.interp(x, np.asarray(xs, np.float64), np.asarray(ys, np.float64))),
}
