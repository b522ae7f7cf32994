"""A heatmap's numbers written in its cells (figures/fit.py): as large as a cell allows, with a decimal fewer where
that fits, at a lecture's 14 px where it can be had, else 12, else none (the hover and the cell's explanation still
give each value). The rules are expressions over the figure's leaves (figures/sheet.py), for numbers and for
words written in cells (the lens's tokens, a split's thousandths) alike."""
from __future__ import annotations

import re

from .room import CHAR_EM, LINE_EM, axes, axis_length, or_else
from .sheet import Sheet, call, most, when

DIGIT_EM, POINT_EM, MINUS_EM = 0.52, 0.26, 0.62  # a digit's, a decimal point's and a minus sign's width, in ems
NUMBER_LINE_EM = 1.1  # a row of numbers' height, in ems: digits, no descenders, a little room between rows
NUMBER_GAP_PX = 6  # between two cells' numbers, at the least
DECIMALS = re.compile(r":\.(\d)f")  # a number template's decimals ("%{z:.2f}")


def fit_numbers(s: Sheet, k: int, width: float, base: float, smallest: int, numbers: int) -> None:
    """Heatmap `k`'s numbers: as large as a cell allows up to their size; at `numbers` px or more with two decimals,
    else one, and failing both at `smallest` px with two decimals, else one; else none."""
    template = s.fig.data[k].texttemplate
    if "%{text}" in template:
        _fit_words(s, k, width, base, smallest, numbers)
        return
    written = DECIMALS.search(template)
    if not written:
        return
    size_path, template_path = ("data", k, "textfont", "size"), ("data", k, "texttemplate")
    chosen_size, chosen_template = s.get(*size_path), None  # none fits: no numbers, their size as it was
    sizes = _number_sizes(s, k, width, base, int(written.group(1)))
    for floor in reversed(list(dict.fromkeys((max(numbers, smallest), smallest)))):  # the last tried first built
        for decimals, fitted in reversed(sizes):
            fits = fitted >= floor
            chosen_size = when(fits, call("floor", fitted), chosen_size)
            chosen_template = when(fits, template.replace(written.group(0), f":.{decimals}f"), chosen_template)
    s.set(template_path, chosen_template, vanishes=True)
    s.set(size_path, chosen_size, vanishes=True)


def _number_sizes(s: Sheet, k: int, width: float, base: float, most: int) -> list:
    """(decimals, the largest type a cell holds them in, or 0 where so few decimals would say nothing), from
    `most` decimals down to none."""
    cell_w, cell_h = _cell_size(s, k, width, base)
    seen = s.bind(call("finite", s.get("data", k, "z")))
    largest = s.bind(call("max_of", call("abs", seen)))
    signed = s.bind(call("<", call("min_of", seen), 0))
    size = or_else(s.get("data", k, "textfont", "size"), base)
    found = []
    for decimals in range(most, -1, -1):
        fitted = call("min", size, call("min", (cell_w - NUMBER_GAP_PX) / _number_em(largest, decimals, signed),
                                        cell_h / NUMBER_LINE_EM))
        says = True if decimals else largest >= 10  # "12" says enough of a length; "0" of a share would say nothing
        found.append((decimals, s.bind(when(says, fitted, 0))))
    return found


def room_for_numbers(s: Sheet, width: float, base: float, smallest: int, numbers: int) -> None:
    """Where a heatmap's numbers miss `numbers` px only for the height its rotated column labels take, those labels
    at `smallest` px: the back row reads the numbers, and the labels stay readable (a 12-token matrix of two
    panels under a lecture's result line)."""
    fig = s.fig
    rotated = [name for name in axes(fig, "x")
               if fig.layout[name].tickangle and (s.known("layout", name, "tickfont", "size") or base) > smallest]
    if not rotated:
        return
    paths = [("layout", name, "tickfont", "size") for name in rotated]
    sizes = [s.get(*path) for path in paths]
    fit_as_they_are = s.bind(_numbers_fit(s, width, base, numbers))
    for path in paths:
        s.set(path, smallest)
    fit_with_smaller_labels = s.bind(_numbers_fit(s, width, base, numbers))
    for path, size in zip(paths, sizes):  # the labels' height was not what stood in the way: they keep their size
        s.set(path, when(fit_as_they_are, size, when(fit_with_smaller_labels, smallest, size)))


def _numbers_fit(s: Sheet, width: float, base: float, numbers: int):
    """Whether every heatmap's numbers can be written at `numbers` px with some of their decimals."""
    fits = True
    for k, trace in enumerate(s.fig.data):
        written = DECIMALS.search(trace.texttemplate or "") if trace.type == "heatmap" else None
        if written:
            sizes = _number_sizes(s, k, width, base, int(written.group(1)))
            fits = when(fits, most(*(fitted for _, fitted in sizes)) >= numbers, False)
    return fits


def _fit_words(s: Sheet, k: int, width: float, base: float, smallest: int, numbers: int) -> None:
    """Words written in the cells (the lens's tokens): smaller type, never none; on one line where a lecture's
    numbers fit only so (wide, low cells); numbers written as text (".037") go where they do not fit at `smallest`
    px. Each a line's length as drawn."""
    cell_w, cell_h = _cell_size(s, k, width, base)
    size = or_else(s.get("data", k, "textfont", "size"), base)
    text = s.get("data", k, "text")
    texts = s.bind(call("cells", text))  # each cell's
    chars = s.bind(call("max_of", call("chars", call("lines", texts))))  # the longest line's
    count = s.bind(call("max_of", call("line_counts", texts)))  # the most lines a cell has
    fitted = s.bind(call("min", size, call("min", (cell_w - 2) / (chars * CHAR_EM), cell_h / (LINE_EM * count))))
    if smallest < numbers:  # a lecture's larger numbers: on one line, where the cells are wide and low
        joined = call("max_of", call("chars", call("one_line", texts)))
        on_one_line = s.bind(call("min", size, call("min", (cell_w - 2) / (joined * CHAR_EM), cell_h / LINE_EM)))
        joins = s.bind(when(count > 1, when(fitted < numbers, on_one_line >= numbers, False), False))
        s.set(("data", k, "text"), when(joins, call("one_line", text), text))
        fitted = s.bind(when(joins, on_one_line, fitted))
    dropped = s.bind(when(fitted < smallest, call("min_of", call("numeric", call("lines", texts))) == 1, False))
    size_path, template_path = ("data", k, "textfont", "size"), ("data", k, "texttemplate")
    s.set(size_path, when(dropped, s.get(*size_path), call("max", smallest, call("floor", fitted))), vanishes=True)
    s.set(template_path, when(dropped, None, s.get(*template_path)), vanishes=True)


def _cell_size(s: Sheet, k: int, width: float, base: float) -> tuple:
    """Heatmap `k`'s cell, (width, height) in px, on the axes it is drawn on."""
    trace = s.fig.data[k]
    z = s.get("data", k, "z")
    return (axis_length(s, "xaxis" + (trace.xaxis or "x")[1:], width, True, base) / call("width", z),
            axis_length(s, "yaxis" + (trace.yaxis or "y")[1:], width, False, base) / call("len", z))


def _number_em(largest, decimals: int, signed):
    """How wide a number is written, in ems: its digits (half an em each in the app's fonts), the point (a quarter)
    and a minus sign (0.6, where any value is negative)."""
    whole = when(largest >= 1, call("max", 1, call("floor", call("log10", largest)) + 1), 1)
    return DIGIT_EM * (whole + decimals) + POINT_EM + when(signed, MINUS_EM, 0.0)
