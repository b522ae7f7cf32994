"""Explain one cell on the Layers page: the cell lives in the URL (`cell=4,1`), is picked by a click on the heatmap
or with the selectors here, and its explanation (formula, figure, the check, the numbers as CSV) is drawn from
`bvl.explain`, whatever the step's operation."""
from __future__ import annotations

import streamlit as st

from bertviz_lite import BertvizLiteError
from bertviz_lite.explaining import explain, parse_cell
from bertviz_lite.ops import head_name, key_head
from bertviz_lite.figures import explanation_figure, neuron_view
from bertviz_lite.figures.explanation import LECTURE_TOP, TOP
from bertviz_lite.stepthrough.words import RESULT, RESULT_IN_FULL, difference
from app_pages.shell import charts, into_view, lecture, state, taps

RESULT_PART = "cell-result"  # the explanation's result line, by its container's key
EXPLANATION_PX = 235  # an explanation's figure on a projector, beside the heatmap under its result line: whole above
# a 720-pixel fold (a norm's "after" histogram and a score's terms' axis fell below it at 380)


def chosen(node, shape: tuple[int, ...]) -> tuple[tuple[int, ...] | None, str | None]:
    """(the cell in the URL if it is one of this step's, or None; what to say about it, or None)."""
    text = str(st.session_state.cell).strip()
    if not text:
        return None, None
    try:
        cell = parse_cell(text)
    except BertvizLiteError as error:
        return None, str(error)
    if len(cell) != len(shape) or any(i >= n for i, n in zip(cell, shape)):
        names = ", ".join(f"{name} 0–{n - 1}" for name, n in zip(node.axis_names(len(shape)), shape))
        return None, f"The cell {text} is not one of this step's ({names}): pick one below or click the figure."
    return cell, None


def set_cell(cell: tuple[int, ...] | None) -> None:
    st.session_state.cell = "" if cell is None else ",".join(map(str, cell))
    if cell is not None:  # a tap or a pick: its explanation's result is brought into view (on a phone, far below)
        into_view.ask(RESULT_PART)


def on_click(chart_key: str) -> callable:
    """A plotly chart's on_select: the clicked cell ("row,column" in the point's customdata, see
    figures.click_targets) becomes the cell explained. A finger's tap, which Plotly makes no selection of, is heard
    once the chart is drawn (`taps.hear_taps`)."""
    def picked() -> None:
        points = st.session_state[chart_key]["selection"]["points"]
        if (cell := clicked_cell(points[0].get("customdata") if points else None)) is not None:
            set_cell(cell)
    return picked


def hear_taps(chart_key: str) -> None:
    """After a clickable chart: a tapped cell, or one Enter picks on the walked figure, becomes the cell explained,
    as a clicked one does; Escape on the figure explains none."""
    taps.hear_taps(chart_key, lambda data: None if (cell := clicked_cell(data)) is None else set_cell(cell),
                   closed=clear_all)


def clicked_cell(data) -> tuple[int, int] | None:
    """The (row, column) a click target's customdata names; None for anything else, since it comes from the
    browser: it is read as a URL's cell is (`parse_cell`)."""
    try:
        cell = parse_cell(data) if isinstance(data, str) else ()
    except BertvizLiteError:
        return None
    return cell if len(cell) == 2 else None


def pickers(node, shape: tuple[int, ...], tokens: list[str], cell: tuple[int, ...] | None) -> None:
    """One selector per index of the cell (tokens by name, dimensions by number) and a button to clear it."""
    names = node.axis_names(len(shape))
    current = cell or tuple(0 for _ in shape)
    columns = st.columns([4] * len(shape) + [1], vertical_alignment="bottom")
    for column, name, size, index in zip(columns, names, shape, current):
        widget = f"_w_cell_{name}"
        if cell is not None or widget not in st.session_state:  # a half-picked cell keeps what was picked
            st.session_state[widget] = index if cell is not None else None
        if name in ("query", "key", "token") and size == len(tokens):
            column.selectbox(name.capitalize(), range(size), key=widget, placeholder="pick one",
                             format_func=lambda i: f"{i} {tokens[i]}", on_change=_from_pickers, args=(names,))
        else:
            column.number_input(f"{name.capitalize()} (0–{size - 1})", 0, size - 1, key=widget, step=1,
                                placeholder="pick one", on_change=_from_pickers, args=(names,))
    columns[-1].button("✕", key="cell_clear", help="explain no cell", disabled=cell is None, on_click=clear,
                       args=(names,))


def clear(names: list[str]) -> None:
    set_cell(None)
    for name in names:
        st.session_state[f"_w_cell_{name}"] = None


def clear_all() -> None:
    """No cell explained, and every picker of one emptied (Escape on the figure, which knows no picker's name)."""
    clear([key.removeprefix("_w_cell_") for key in list(st.session_state) if key.startswith("_w_cell_")])


def _from_pickers(names: list[str]) -> None:
    picked = [st.session_state.get(f"_w_cell_{name}") for name in names]
    if all(v is not None for v in picked):
        set_cell(tuple(int(v) for v in picked))


def explanation_panel(s, steps, key: str, head: int, cell: tuple[int, ...], heading: str) -> None:
    """Where the chosen cell's number comes from: the formula with the real numbers, the op's figure, the value
    computed again from those numbers beside the stored one, and all the numbers as CSV."""
    t, name = s.t, steps.name(key)
    own_head = key_head(head, t.num_heads, steps[key].shape[0]) if steps.node(key).has_head_axis else None
    try:
        e = explain(t, name, own_head, cell)  # (a key or value step's own head: grouped-query shares them)
    except BertvizLiteError as error:
        st.warning(str(error), icon=":material/help:")
        return
    where = ", ".join(f"{k} {v}" for k, v in e.labels.items()) or ",".join(map(str, e.at))
    which = "" if own_head is None else f", {head_name(head, t.num_heads, steps[key].shape[0])}"
    title = f"{heading}{e.title}{which}, {where} = {e.value:.4f}"
    st.markdown(f"**{title}**" if state.projector() else f"#### {title}")
    st.markdown(f"`{e.op}`: {e.formula}")
    ok = e.holds
    with st.container(key=RESULT_PART):
        if state.projector():  # one line: the figure must fit beside the heatmap
            text = RESULT.format(recomputed=e.recomputed, value=e.value, diff=difference(e.abs_diff, 0))
            lecture.point("result").markdown(f":{'green' if ok else 'red'}[:material/"
                                             f"{'check_circle' if ok else 'cancel'}: {text}]")
        else:
            text = RESULT_IN_FULL.format(recomputed=e.recomputed, value=e.value, diff=difference(e.abs_diff))
            (st.success if ok else st.error)(text, icon=":material/calculate:")
    into_view.bring(RESULT_PART)
    figure_key = s.view_key("explain", name, e.head, e.at)
    top = LECTURE_TOP if state.projector() else TOP
    charts.cached_chart(figure_key, lambda: explanation_figure(e, t.tokens, top),
                        tallest=EXPLANATION_PX if state.projector() else charts.LECTURE_CHART_PX)
    if steps.node(key).op.whole_row and "row" in e.figure:
        if st.toggle("The query's whole row (neuron view)", key="neuron_view",
                     help="BertViz's neuron view, with numbers: q_i ⊙ k_j for every key, their sums and the softmax."):
            charts.cached_chart((*figure_key, "row"), lambda: neuron_view(e.figure["row"], t.tokens, *e.at))
    charts.csv_download(e.frame, f"{name}_{'h' + str(e.head) + '_' if e.head is not None else ''}"
                                 f"{'_'.join(map(str, e.at))}.csv", label="Download this explanation (CSV)")


def cell_of(steps, key: str, array_shape: tuple[int, ...]) -> tuple[tuple[int, ...] | None, str | None]:
    """(the chosen cell if it is one of this step's, or None; what to say about it, or None)."""
    node = steps.node(key)
    return chosen(node, array_shape[1:] if node.has_head_axis else array_shape)


def cell_pickers(steps, key: str, array_shape: tuple[int, ...], tokens: list[str]) -> None:
    """Under the step's figure: what to do, a message for a cell that is not this step's, and the pickers."""
    node = steps.node(key)
    shape = array_shape[1:] if node.has_head_axis else array_shape
    cell, problem = chosen(node, shape)
    if problem:
        st.caption(problem)
    elif cell is None:
        st.caption("Click a cell of the figure, or pick one here, to see where its number comes from.")
    pickers(node, shape, tokens, cell)
