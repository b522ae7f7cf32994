"""Attention: BertViz's two views with numbers, at any length, with no network. The head view (view=head) joins
queries to keys by a line per weight, one colour per head; a click on a token keeps its lines and gives their
numbers. The model view (view=model) shows every layer × head as a thumbnail; a click opens it in the head view."""
import numpy as np
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.attention_views import (PAIR_FILTERS, lines_table, model_view_title, thumbnail_side,
                                                   thumbnails_table, units)
from bertviz_lite.attention_lines import FULL_LENGTH, MIN_WEIGHT
from bertviz_lite.figures import head_view, model_view
from bertviz_lite.figures.attention_views import (HEAD_VIEW_PX, lines_said, model_view_px, phone_model_view,
                                                  rows_fit)
from bertviz_lite.serving.cache import cached_thumbnails
from app_pages.shell import charts, chips, guarded, lecture, runs, screen, state, taps

VIEWS = {"head": "Head view", "model": "Model view"}

loaded = guarded.load_or_stop(needs_weights=True)
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
num_heads = t.num_heads  # for the heads' callbacks, which run after the page let go of t
lecture.page_title("Attention")
controls, canvas = lecture.beside([4, 9])  # the view beside its controls, on a projector too


def warn(text: str) -> None:
    st.warning(text, icon=":material/warning:")


def chosen_view() -> str:
    if st.session_state.view not in VIEWS:
        warn(f"There is no view '{st.session_state.view}': showing the head view (views: {', '.join(VIEWS)}).")
        st.session_state.view = "head"
    return st.session_state.view


def chosen_heads() -> list[int]:
    """The heads in the URL ('0,3'; empty for all), or all of them with a message."""
    text = str(st.session_state.heads).strip()
    if not text:
        return list(range(t.num_heads))
    parts = [p.strip() for p in text.split(",")]
    if all(p.isascii() and p.isdigit() and len(p) <= 3 and int(p) < t.num_heads for p in parts):
        return sorted({int(p) for p in parts})
    warn(f"'{text}' is not a list of this model's heads (0 to {t.num_heads - 1}): showing every head.")
    st.session_state.heads = ""
    return list(range(t.num_heads))


def set_heads(heads: list[int]) -> None:
    st.session_state.heads = "" if len(heads) == num_heads else ",".join(map(str, sorted(heads)))


def as_focus(side, index) -> tuple[str, int] | None:
    """A side ('q' or 'k') and a token's index as written (a link's, a click's, a tap's), or None where they are not
    one: a token's index is up to three ASCII digits."""
    index = str(index).strip()
    if side in ("q", "k") and 0 < len(index) <= 3 and index.isascii() and index.isdigit():
        return side, int(index)
    return None


def chosen_focus(size: int) -> tuple[str, int] | None:
    """The token whose lines alone are drawn ('q3': query 3, 'k5': key 5), or None."""
    text = str(st.session_state.focus)
    if not text:
        return None
    focus = as_focus(text[:1], text[1:])
    if focus is not None and focus[1] < size:
        return focus
    warn(f"'{text}' is not a token of this view (q0 to q{size - 1} for a query, k0 to k{size - 1} for a key): "
         f"showing every line.")
    st.session_state.focus = ""
    return None


def layer_picker() -> int:
    st.session_state.layer = min(st.session_state.layer, t.num_layers - 1)
    return st.slider("Layer", 0, t.num_layers - 1, **state.bind("layer"))


def head_pickers(heads: list[int]) -> list[int]:
    """Heads on and off (pills), every head, or one alone."""
    widget = "_w_heads_pills"
    st.session_state[widget] = heads
    st.pills("Heads", range(t.num_heads), selection_mode="multi", key=widget, wrap=True,
             on_change=lambda: set_heads(st.session_state[widget] or heads))
    every, alone = st.columns(2, vertical_alignment="bottom")
    every.button("All heads", on_click=set_heads, args=(list(range(t.num_heads)),), width="stretch",
                 disabled=len(heads) == t.num_heads)

    def only_one() -> None:
        if st.session_state["_w_one_head"] is not None:
            set_heads([st.session_state["_w_one_head"]])

    st.session_state["_w_one_head"] = heads[0] if len(heads) == 1 else None  # names the lone head on screen
    alone.selectbox("One head alone", range(t.num_heads), placeholder="pick one", key="_w_one_head",
                    format_func=lambda h: f"head {h}", on_change=only_one)
    return heads


def on_token_click(chart: str) -> None:
    points = st.session_state[chart]["selection"]["points"]
    pick_token(points[0].get("customdata") if points else None)


def pick_token(data) -> None:
    """A token's [side, index] (a click's), or "side,index" (a tap's, Enter's: shell/taps.py): its lines alone, or
    every line again where they already were."""
    parts = data.split(",") if isinstance(data, str) else data
    picked = as_focus(*parts) if isinstance(parts, list) and len(parts) == 2 else None
    if picked is not None:
        now = str(st.session_state.focus)
        st.session_state.focus = "" if picked == as_focus(now[:1], now[1:]) else f"{picked[0]}{picked[1]}"


def head_view_page() -> None:
    with controls:
        layer = layer_picker()
        heads = head_pickers(chosen_heads())
        pair_filter = "All"
        if t.pair:
            if st.session_state.filter not in PAIR_FILTERS:
                st.session_state.filter = "All"
            st.segmented_control("Sentences", list(PAIR_FILTERS), required=True, **state.bind("filter"))
            pair_filter = st.session_state.filter
        chips.word_toggle()
        st.toggle("Across (tokens in two rows)", help="For long or CJK text: queries along the top, keys below.",
                  **state.bind("horizontal"))
    words = bool(st.session_state.words)
    focus = chosen_focus(len(units(t, words)))
    view = guarded.analysis_or_stop("head view", key, layer, tuple(heads), pair_filter, words, focus)
    lines, labels = view.lines, view.labels
    with controls:
        st.caption(lines_caption(lines))
        if focus is not None:
            st.button(lines_said(focus[0], "every", index=focus[1], token=labels[focus[1]]),
                      icon=":material/close:", on_click=lambda: st.session_state.update(focus=""))
    unit = "word" if st.session_state.words else "token"
    title = f"Layer {layer}, {heads_title(heads)}: left reads right"
    if st.session_state.horizontal:
        title = f"Layer {layer}, {heads_title(heads)}: top reads below"
    chart = "head_view_chart"
    most = HEAD_VIEW_PX if state.projector() else None  # a projector's screen holds the whole view
    with canvas, lecture.point():
        with lecture.scrolling_box(most is not None and not rows_fit(len(labels), most), "head-view",
                                   (most or 0) - 50, f"{len(labels)} {unit}s"):  # the line above takes the rest
            charts.cached_chart(charts.view_key(loaded, key, "head view", layer, tuple(heads), focus, pair_filter,
                                                words, bool(st.session_state.horizontal), most),
                                lambda: head_view(lines, labels, labels, t.num_heads, title,
                                                  bool(st.session_state.horizontal), focus, numbers=len(heads) == 1,
                                                  most_px=most, heads=heads),  # every head shown in the legend,
                                # a line or not (random weights: one head of "all 12" listed)
                                on_select=lambda: on_token_click(chart), selection_mode="points", key=chart)
        taps.hear_taps(chart, pick_token, lambda: st.session_state.update(focus=""))  # a tap, Enter, Escape
    with canvas:
        if focus is not None:
            focus_numbers(view.focus_weights, labels, heads, focus)
        charts.csv_download(lambda: lines_table(lines, labels), f"head_view_layer{layer}.csv")


def heads_title(heads: list[int]) -> str:
    if len(heads) == t.num_heads:
        return f"all {t.num_heads} heads"
    return f"head {heads[0]}" if len(heads) == 1 else "heads " + ", ".join(map(str, heads))


def lines_caption(lines) -> str:
    text = (f"A line per attention weight, its opacity the weight (in tenths); weights below {MIN_WEIGHT} are not "
            f"drawn. Click a token to keep only its lines; in the legend, click a head to hide it, double-click to "
            f"show it alone.")
    if lines.most_per_query is not None:
        text += (f" Above {FULL_LENGTH} tokens only the {lines.most_per_query} strongest lines of each query and "
                 f"head are drawn: {lines.left_out:,} weaker lines of at least {MIN_WEIGHT} are left out.")
    return text


def focus_numbers(weights: np.ndarray, labels: list[str], heads: list[int], focus: tuple[str, int]) -> None:
    """The focused token's weights (H', n), every head shown, as numbers: its row (a query) or its column (a key)."""
    side, i = focus
    other = "key" if side == "q" else "query"
    frame = pd.DataFrame(weights.T, index=[f"{j} {w}" for j, w in enumerate(labels)],
                         columns=[f"head {h}" for h in heads]).rename_axis(other)
    st.markdown(f"**{lines_said(side, 'alone', index=i, token=labels[i])}**")
    st.dataframe(frame.round(3), height=min(400, 38 + 35 * len(labels)),
                 column_config={c: st.column_config.NumberColumn(format="%.3f") for c in frame.columns})


def model_view_page() -> None:
    layers, heads = t.num_layers, t.num_heads
    side = thumbnail_side(len(t.tokens), layers, heads)

    def shares() -> np.ndarray:  # (L, H, n, n)
        return guarded.analysis_or_stop("thumbnails", key, side)

    title = model_view_title(len(t.tokens), side)
    with controls:
        st.caption("Each thumbnail: one head's attention, queries down, keys across, 0 to 1. Click one to open it "
                   "in the head view.")
        st.session_state.layer = min(st.session_state.layer, layers - 1)
        if st.session_state.head >= heads:
            warn(f"Head {st.session_state.head} does not exist: this model has heads 0 to {heads - 1}.")
            st.session_state.head = 0
        layer, head = st.session_state.layer, st.session_state.head

        def open_in_layers() -> None:
            st.session_state.step = "attn.probs"

        if st.button(f"Open layer {layer}, head {head} in Layers", icon=":material/open_in_new:",
                     on_click=open_in_layers):
            st.switch_page("app_pages/layers.py")
    chart = "model_view_chart"

    def open_tile(data) -> None:
        """A thumbnail's [layer, head] (a click's), or "layer,head" (a tap's, Enter's: shell/taps.py), in the head
        view."""
        parts = data.split(",") if isinstance(data, str) else data
        if isinstance(parts, list) and len(parts) == 2 and all(str(p).strip().isdigit() for p in parts):
            layer_picked, head_picked = (int(p) for p in parts)
            state.set_value("layer", layer_picked)
            st.session_state.head = head_picked
            st.session_state.heads = str(head_picked)
            st.session_state.view = "head"
            st.session_state["_w_view"] = "head"

    def opened() -> None:
        points = st.session_state[chart]["selection"]["points"]
        open_tile(points[0].get("customdata") if points else None)

    most = HEAD_VIEW_PX if state.projector() else None  # a projector's screen holds every layer, smaller
    with canvas, lecture.point():
        with lecture.scrolling_box(most is not None and model_view_px(layers, heads, most) > most,  # 22 layers:
                                   "model-view", (most or 0) - 50, f"{layers} layers"):  # tiles too small to read
            phone = screen.narrow()  # the tiles as wide as a phone allows, the figure no taller than they need
            charts.cached_chart(charts.view_key(loaded, key, "model view", side, most, phone),
                                lambda: phone_model_view(shares(), title) if phone else model_view(shares(), title, most),
                                on_select=opened, selection_mode="points", key=chart)
        taps.hear_taps(chart, open_tile)  # a finger's tap and Enter on a thumbnail, as a click
    with canvas:
        charts.csv_download(lambda key=key: thumbnails_table(cached_thumbnails(key, side)), "model_view.csv")  # by
        # its key: see below


with controls:
    chosen_view()
    st.segmented_control("View", list(VIEWS), format_func=VIEWS.get, required=True, **state.bind("view"))
(head_view_page if st.session_state.view == "head" else model_view_page)()
state.sync_url()
del t, loaded, key  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
