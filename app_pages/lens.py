"""Logit lens: the model's own masked-LM head applied to every hidden state at one position, to watch the
prediction form layer by layer; the last layer is checked against the masked-LM model's own logits. A pretrained
model with no trained masked-LM head (the bundled sentence-transformers one) gets the vocabulary pieces nearest to
each hidden state instead, by cosine with its own word-embedding table, named as exactly that."""
import pandas as pd
import streamlit as st

from bertviz_lite.analyses.logit_lens import mlm_head_problem
from bertviz_lite.analyses.nearest_pieces import narrower_table
from bertviz_lite.serving.cache import cached_lens, cached_nearest_pieces
from bertviz_lite.figures import lens_grid
from app_pages.shell import charts, guarded, lecture, models, runs, screen, state


PHONE_TOP = 3  # pieces per hidden state on a phone
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
        charts.chart(lens_grid(top := shown(lens.layers), f"Top {len(top[0])} predictions at position {lens.position} "
                                            f"({lens.tokens[lens.position]}), hidden state by hidden state"),
                     width=FIGURE_PX)
    ok = lens.max_abs_diff <= 1e-4
    (side.success if ok else side.error)(f"The last layer through the head vs the masked-LM model's own logits: "
                                     f"max |Δ| = {lens.max_abs_diff:.1e}",
                                     icon=":material/check_circle:" if ok else ":material/cancel:")
    rows = [{"hidden state": state_name(i), "rank": k + 1, "token": token, "probability": p}
            for i, top in enumerate(lens.layers) for k, (token, p) in enumerate(top)]
    with side:
        charts.csv_download(lambda: pd.DataFrame(rows), "logit_lens.csv")


def show_nearest_pieces(position: int | None) -> None:
    """Real weights without a trained head to read them through: what the vectors lie nearest to instead."""
    side.info(f"{masked_lm.source} has no trained masked-LM head, so there is no logit lens. Shown instead, from its "
            f"own numbers: the vocabulary pieces whose rows of its word-embedding table are nearest, by cosine, to "
            f"the token's vector after the embeddings and after each layer. Not a prediction: no head turns these "
            f"vectors into probabilities.", icon=":material/info:")
    near = guarded.computed_or_stop("The nearest vocabulary pieces of every hidden state …",
                                    lambda: cached_nearest_pieces(key, position),
                                    ":material/error:")
    with figure, lecture.point():
        charts.chart(lens_grid(shown(near.layers), f"Nearest vocabulary pieces at position {near.position} "
                                            f"({near.tokens[near.position]}), by cosine", "cosine"), width=FIGURE_PX)
    rows = [{"hidden state": state_name(i), "rank": k + 1, "piece": piece, "cosine": c}
            for i, nearest in enumerate(near.layers) for k, (piece, c) in enumerate(nearest)]
    with side:
        charts.csv_download(lambda: pd.DataFrame(rows), "nearest_pieces.csv")


masked_lm = guarded.load_or_stop(task="masked-lm")  # whatever task the sidebar names: the lens needs the head
lecture.page_title("Logit lens")
figure, side = st.columns([8, 4], gap="medium") if state.lecture_mode() else (st.container(), st.container())
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
        chosen = st.selectbox("Position", range(len(tokens)), format_func=lambda i: f"{i} {tokens[i]}",
                              **state.bind("position"))
        st.caption(f"The lens looks at the position picked here. Put {mask} where a word should be predicted (e.g. "
                   f"'the cat {mask} on the mat') and it looks there, to watch the model predict it.")
(show_nearest_pieces if problem else show_lens)(chosen)
state.sync_url()
del t, masked_lm  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
