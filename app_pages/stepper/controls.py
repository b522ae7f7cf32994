"""The stepper's controls and words: the block's diagram (a click goes to a step), the step picker (pills, or ◀ a
select ▶ in lecture mode), layer and head, the step's title and check, and the chosen cell's explanation."""
from __future__ import annotations

import streamlit as st

from bertviz_lite.graph.names import parse_step_name
from bertviz_lite.ops import MERGE_HEADS
from bertviz_lite.stepthrough.words import CHECK, against, difference
from app_pages.shell import charts, state
from app_pages.stepper import cells
from app_pages.stepper.stepping import Regions, Stepping


def check_line(steps, rerun: bool = False) -> None:
    """The block's check against the model's own numbers; in an intervened run, a block run again has no model's
    own numbers to compare with, and the line says so rather than show a check that cannot fail."""
    if rerun:
        st.info("Intervened run: this block was run again by this same graph from the intervened run's states, so "
                "there is no model's own output to compare it with (the tests check each intervention against "
                "transformers' own modules with hooks).", icon=":material/science:")
        return
    diff = steps.max_abs_diff
    text = CHECK.format(against=against(steps.graph), diff=difference(diff))  # of the block's end, whichever step
    # is shown
    (st.success if steps.holds else st.error)(text, icon=":material/check_circle:" if steps.holds
                                              else ":material/cancel:")


def go_to(step: str) -> None:
    st.session_state.step = step


def show_diagram(s: Stepping, area, steps, key: str, prefix: str) -> None:
    """The block drawn from its graph, the current step lit and what it reads marked; a click on a box goes there."""
    chart_key, graph = f"diagram_{steps.name(key)}", steps.graph  # the callback keeps the graph, not the numbers

    def clicked() -> None:
        points = st.session_state[chart_key]["selection"]["points"]
        target = points[0].get("customdata") if points else None
        if not isinstance(target, str):
            return
        if target in graph:
            go_to(prefix + target)
            return
        block, layer, key = parse_step_name(target)  # another block's step: the positions', or a layer's output
        if block == "layers":
            state.set_value("layer", layer)
        go_to(key if block == "layers" else target)

    with area:
        charts.block_diagram(s.loaded, steps.graph, key, on_select=clicked, key=chart_key)


def show_step_picker(graph, label: str, prefix: str) -> str:
    """All sub-steps as pills; in lecture mode ◀ a select ▶, to step through in order. Returns the chosen key
    without `prefix` ("embed." for the embeddings, "" for a layer's sub-steps)."""
    options = graph.keys
    titles = {n.key: n.title for n in graph}
    current = st.session_state.step.removeprefix(prefix)
    if current not in options:
        current = options[-1]
    if state.projector():
        return step_buttons(options, current, titles, label, prefix)
    widget = f"_w_pills_{label}"
    st.session_state[widget] = current  # a click on the diagram moves the pills too
    st.pills(label, options, key=widget, format_func=titles.get,
             on_change=lambda: go_to(prefix + (st.session_state[widget] or current)))
    return current


def step_buttons(options: list[str], current: str, titles: dict[str, str], label: str, prefix: str) -> str:
    widget = f"_w_stepper_{label}"
    st.session_state[widget] = current
    i = options.index(current)
    back, select, forward = st.columns([1, 7, 1], vertical_alignment="bottom")
    back.button("◀", key=f"back_{label}", help="previous step", disabled=i == 0, width="stretch",
                on_click=go_to, args=(prefix + options[i - 1],))
    select.selectbox(label, options, key=widget, on_change=lambda: go_to(prefix + st.session_state[widget]),
                     format_func=lambda k: f"{options.index(k) + 1}/{len(options)} {titles[k]}")
    forward.button("▶", key=f"next_{label}", help="next step", disabled=i == len(options) - 1, width="stretch",
                   on_click=go_to, args=(prefix + options[min(i + 1, len(options) - 1)],))
    return current


def layer_controls(s: Stepping, r: Regions) -> tuple[int, int]:
    """◀ layer ▶ and the head; returns (layer, head) within this model's range."""
    if r.row:
        c1, c2, c3, c4 = r.row[1:5]
    else:
        with r.controls:
            c1, c2, c3, c4 = st.columns([1, 6, 1, 3], vertical_alignment="bottom")
    t = s.t
    layer = st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    c1.button("◀", key="shallower_layer", help="previous layer", disabled=layer == 0, on_click=state.set_value,
              args=("layer", layer - 1), width="stretch")  # keyed for shell/cell_keys.py SHORTCUTS (Alt+Shift+↑)
    c2.slider("Layer", 0, t.num_layers - 1, **state.bind("layer"))
    c3.button("▶", key="deeper_layer", help="next layer", disabled=layer == t.num_layers - 1,
              on_click=state.set_value, args=("layer", layer + 1), width="stretch")
    st.session_state.head = min(st.session_state.head, t.num_heads - 1)
    graph, step = t.graph("layers", layer), st.session_state.step
    per_head = step not in graph or graph.node(step).has_head_axis or graph.node(step).op is MERGE_HEADS
    c4.selectbox("Head", range(t.num_heads), disabled=not per_head, **state.bind("head"),
                 help=None if per_head else "This sub-step has no heads: it works on whole token vectors.")
    return st.session_state.layer, st.session_state.head


def words(s: Stepping, steps, key: str, head: int, heading: str, check, r: Regions, where: str = "") -> tuple | None:
    """The step (title, shape, sentence) and its check, and the chosen cell's explanation; in lecture mode, with a
    cell chosen, the explanation alone (the stepper above names the step), so that it fits beside the figure.
    `where` goes before the step's title (its place in the layer), `heading` before it and the cell's too.
    Returns the chosen cell."""
    node, array = steps.node(key), steps[key]
    cell, _ = cells.cell_of(steps, key, array.shape)
    with r.words:
        if cell is None or not state.projector():
            st.markdown(f"### {heading}{where}{node.title} — shape {tuple(array.shape)} {node.shape}")
            st.markdown(f"{node.explains}.")
            check()
        if cell is not None:
            cells.explanation_panel(s, steps, key, head, cell, heading)
    return cell


def pickers(s: Stepping, steps, key: str, r: Regions) -> None:
    with r.canvas:
        cells.cell_pickers(steps, key, steps[key].shape, s.t.tokens)
