"""Logit lens: the model's own masked-LM head applied to every hidden state at one position, to watch the
prediction form layer by layer; the last layer is checked against the masked-LM model's own logits. A pretrained
model with no trained masked-LM head (the bundled sentence-transformers one) gets the vocabulary pieces nearest to
each hidden state instead, by cosine with its own word-embedding table, named as exactly that."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.logit_lens import mlm_head_problem
from bertviz_lite.analyses.nearest_pieces import narrower_table
from bertviz_lite.analyses.page_views import (LABELS, PHONE_TOP, TITLES, lens_check, lens_figure, nearest_figure,
                                             nearest_note, position_note, token_option)
from bertviz_lite.serving.cache import cached_lens, cached_nearest_pieces
from app_pages.shell import charts, guarded, lecture, models, runs, screen, state


FIGURE_PX = charts.column_px([8, 4], 0)  # on a projector, the figure beside the position and the notes


def shown(layers: list[list]) -> list[list]:
    """Each hidden state's top pieces as the screen holds them: five, three on a phone (a word in each cell)."""
    return [top[:PHONE_TOP] for top in layers] if screen.narrow() else layers


def state_name(i: int) -> str:
    return "embeddings" if i == 0 else f"layer {i - 1}"


def show_lens(position: int | None) -> None:
    lens = guarded.computed_or_stop("The masked-LM head on every hidden state …",
                                    lambda: cached_lens(key, position), ":material/error:")
    with figure, lecture.point():
        charts.chart(lens_figure(shown(lens.layers), lens.position, lens.tokens[lens.position]), width=FIGURE_PX)
    said, holds = lens_check(lens.max_abs_diff, lens.holds)
    (side.success if holds else side.error)(said, icon=":material/check_circle:" if holds else ":material/cancel:")
    rows = [{"hidden state": state_name(i), "rank": k + 1, "token": token, "probability": p}
            for i, top in enumerate(lens.layers) for k, (token, p) in enumerate(top)]
    with side:
        charts.csv_download(lambda: pd.DataFrame(rows), "logit_lens.csv")


def show_nearest_pieces(position: int | None) -> None:
    """Real weights without a trained head to read them through: what the vectors lie nearest to instead."""
    side.info(nearest_note(masked_lm.source), icon=":material/info:")
    near = guarded.computed_or_stop("The nearest vocabulary pieces of every hidden state …",
                                    lambda: cached_nearest_pieces(key, position),
                                    ":material/error:")
    with figure, lecture.point():
        charts.chart(nearest_figure(shown(near.layers), near.position, near.tokens[near.position]), width=FIGURE_PX)
    rows = [{"hidden state": state_name(i), "rank": k + 1, "piece": piece, "cosine": c}
            for i, nearest in enumerate(near.layers) for k, (piece, c) in enumerate(nearest)]
    with side:
        charts.csv_download(lambda: pd.DataFrame(rows), "nearest_pieces.csv")


masked_lm = guarded.load_or_stop(task="masked-lm")  # whatever task the sidebar names: the lens needs the head
lecture.page_title(TITLES["lens"])
figure, side = st.columns([8, 4], gap="medium") if state.projector() else (st.container(), st.container())
key = runs.page_key(masked_lm)  # the sentence through the model loaded with its masked-LM head
problem = mlm_head_problem(masked_lm)  # before the model runs on the sentence
if problem and masked_lm.weights_kind == "random-init":  # random vectors are near nothing in particular either
    lecture.point("notice").info(problem, icon=":material/block:")  # nothing to show, and nothing wrong
    models.offer_bundled_model("See a real model's vectors")
    guarded.end_page()
if problem and (narrower := narrower_table(masked_lm)):  # ELECTRA, ALBERT: nothing to show, and nothing wrong
    lecture.point("notice").info(f"{problem}\n\n{narrower}", icon=":material/info:")
    models.offer_bundled_model("See a real model's vectors")
    guarded.end_page()
t = guarded.trace_or_stop(key)
mask = masked_lm.tokenizer.mask_token
chosen = None
if mask not in t.tokens:
    st.session_state.position = min(max(st.session_state.position, 0), len(t.tokens) - 1)
    tokens = t.tokens  # the picker's labels, kept by the tab after the page let go of t
    with side:
        chosen = st.selectbox(LABELS["position"], range(len(tokens)),
                              format_func=lambda i: token_option(i, tokens), **state.bind("position"))
        st.caption(position_note(mask, predicts=not problem))
(show_nearest_pieces if problem else show_lens)(chosen)
state.sync_url()
del t, masked_lm  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
