"""A heatmap's numbers written in its cells (figures/fit.py): as large as a cell allows, with a decimal fewer where
that fits, at a lecture's 14 px where it can be had, else 12, else none (the hover and the cell's explanation still
give each value)."""
from __future__ import annotations

import math
import re

import numpy as np
import plotly.graph_objects as go

from .room import CHAR_EM, LINE_EM, axis_length

NUMBER = re.compile(r"[−-]?\d*\.?\d+")  # a number written as a cell's text
DIGIT_EM, POINT_EM, MINUS_EM = 0.52, 0.26, 0.62  # a digit's, a decimal point's and a minus sign's width, in ems
NUMBER_LINE_EM = 1.1  # a row of numbers' height, in ems: digits, no descenders, a little room between rows
NUMBER_GAP_PX = 6  # between two cells' numbers, at the least
DECIMALS = re.compile(r":\.(\d)f")  # a number template's decimals ("%{z:.2f}")


def fit_numbers(fig: go.Figure, trace, width: float, height: float, base: float, smallest: int,
                 numbers: int) -> None:
    """A heatmap's numbers: as large as a cell allows up to their size; at `numbers` px or more with two decimals,
    else one, and failing both at `smallest` px with two decimals, else one; else none."""
    cell_w, cell_h = _cell_size(fig, trace, width, height, base)
    size = (trace.textfont.size or base)
    template = trace.texttemplate
    if "%{text}" in template:  # words written in the cells (the lens's tokens): smaller type, never none
        lines = [str(text).split("<br>") for row in trace.text for text in row]
        chars, count = max(len(line) for cell in lines for line in cell), max(map(len, lines))
        fitted = min(size, (cell_w - 2) / (chars * CHAR_EM), cell_h / (LINE_EM * count))
        joined = max(len(" ".join(cell)) for cell in lines)  # or on one line, where the cells are wide and low
        on_one_line = min(size, (cell_w - 2) / (joined * CHAR_EM), cell_h / LINE_EM)
        if count > 1 and smallest < numbers and fitted < numbers <= on_one_line:  # a lecture's larger numbers
            trace.update(text=[[str(text).replace("<br>", " ") for text in row] for row in trace.text])
            fitted = on_one_line
        if fitted < smallest and all(NUMBER.fullmatch(line) for cell in lines for line in cell):
            trace.update(texttemplate=None)  # numbers written as text (".037"): none, the hover gives each
            return
        trace.update(textfont_size=max(smallest, math.floor(fitted)))
        return
    written = DECIMALS.search(template)
    if not written:
        return
    for floor in dict.fromkeys((max(numbers, smallest), smallest)):  # the larger floor first, each once
        for decimals, fitted in _number_sizes(trace, cell_w, cell_h, size, int(written.group(1))):
            if fitted >= floor:
                trace.update(texttemplate=template.replace(written.group(0), f":.{decimals}f"),
                             textfont_size=math.floor(fitted))
                return
    trace.update(texttemplate=None)


def _number_sizes(trace, cell_w: float, cell_h: float, size: float, most: int):
    """(decimals, the largest type a cell holds them in), from `most` decimals down to the fewest that still say
    something."""
    values = np.asarray(trace.z, dtype=np.float64)
    values = values[np.isfinite(values)]
    largest = float(np.abs(values).max()) if values.size else 0.0
    signed = bool(values.size and values.min() < 0)
    fewest = 0 if largest >= 10 else 1  # "12" says enough of a length; "0" of a share would say nothing
    for decimals in range(most, fewest - 1, -1):
        yield decimals, min(size, (cell_w - NUMBER_GAP_PX) / _number_em(largest, decimals, signed),
                            cell_h / NUMBER_LINE_EM)


def room_for_numbers(fig: go.Figure, width: float, height: float, base: float, smallest: int, numbers: int) -> None:
    """Where a heatmap's numbers miss `numbers` px only for the height its rotated column labels take, those labels
    at `smallest` px: the back row reads the numbers, and the labels stay readable (a 12-token matrix of two
    panels under a lecture's result line)."""
    rotated = [fig.layout[name] for name in fig.layout if re.fullmatch(r"xaxis\d*", name)
               and fig.layout[name].tickangle and (fig.layout[name].tickfont.size or base) > smallest]
    if not rotated:
        return

    def fits() -> bool:
        for trace in fig.data:
            written = DECIMALS.search(trace.texttemplate or "") if trace.type == "heatmap" else None
            if written and all(fitted < numbers for _, fitted in _number_sizes(
                    trace, *_cell_size(fig, trace, width, height, base), trace.textfont.size or base,
                    int(written.group(1)))):
                return False
        return True

    if fits():
        return
    sizes = [axis.tickfont.size for axis in rotated]
    for axis in rotated:
        axis.tickfont.size = smallest
    if not fits():  # the labels' height was not what stood in the way
        for axis, size in zip(rotated, sizes):
            axis.tickfont.size = size


def _cell_size(fig: go.Figure, trace, width: float, height: float, base: float) -> tuple[float, float]:
    """A heatmap's cell, (width, height) in px, on the axes it is drawn on."""
    x_axis = fig.layout["xaxis" + (trace.xaxis or "x")[1:]]
    y_axis = fig.layout["yaxis" + (trace.yaxis or "y")[1:]]
    return (axis_length(fig, x_axis, width, height, True, base) / len(trace.z[0]),
            axis_length(fig, y_axis, width, height, False, base) / len(trace.z))


def _number_em(largest: float, decimals: int, signed: bool) -> float:
    """How wide a number is written, in ems: its digits (half an em each in the app's fonts), the point (a quarter)
    and a minus sign (0.6, where any value is negative)."""
    whole = max(1, int(math.floor(math.log10(largest))) + 1) if largest >= 1 else 1
    return DIGIT_EM * (whole + decimals) + POINT_EM + (MINUS_EM if signed else 0.0)
