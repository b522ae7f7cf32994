"""Loading and computing with every failure said in the page: a model that cannot be loaded, a text that
cannot be traced, an analysis that does not apply become a message and the page's end (`PageEnds`), never a
traceback; random weights get their banner."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

import streamlit as st

from bertviz_lite import BertvizLiteError, DEFAULT_MODEL, LoadedModel, Trace
from bertviz_lite.analyses.similarity import SentenceVectors
from bertviz_lite.loading.loader import fetch_weights
from bertviz_lite.serving.cache import (cached_contributions, cached_head_view, cached_layer, cached_layerwise,
                                        cached_model, cached_sentence_vectors, cached_similarity_split,
                                        cached_skeleton, cached_thumbnails, cached_trace)
from bertviz_lite.serving.run_key import RunKey

from .models import offer_bundled_model, switch_model
from .screen import narrow
from .state import init_state, lecture_mode, projector


def load_or_stop(needs_weights: bool = False, task: str | None = None, source: str | None = None,
                 label: str = "", banner: bool = True) -> LoadedModel:
    """The chosen model (`source`, default the sidebar's; for `task`, default the sidebar's), or an error in the
    page and a stop; a random-weights model gets its banner (prefixed by `label`; none where the page has shown
    it already), and on a page whose meaning depends on learnt weights (`needs_weights`) the offer to switch to
    real ones."""
    init_state()  # idempotent; lets a page also run on its own (AppTest.switch_page)
    source, task = source or st.session_state.model, task or st.session_state.task
    progress = st.empty()

    def downloading(done: int, total: int | None) -> None:  # a real bar, in bytes, while weights download
        mb = 1024 * 1024
        text = (f"Downloading the weights of {source}: {done / mb:,.1f}"
                + (f" of {total / mb:,.1f} MB" if total else " MB"))
        progress.progress(min(done / total, 1.0) if total else 0.0, text=text)

    with explained_load_errors(source, label):
        fetch_weights(source, downloading, task)  # outside the cache: a cached function cannot draw in the page
        progress.empty()
        with st.spinner(f"Loading {source} ({task}) …"):
            loaded = cached_model(source, task)
    if banner:
        weights_banner(loaded, label, needs_weights)
    return loaded


def skeleton_or_stop() -> LoadedModel:
    """The sidebar's model as an architecture without weights (names, shapes, counts: see load_skeleton), at once,
    with the banner its weights will get; or an error in the page and a stop."""
    init_state()
    source, task = st.session_state.model, st.session_state.task
    with explained_load_errors(source):
        with st.spinner(f"Reading the config of {source} …"):
            skeleton = cached_skeleton(source, task)
    weights_banner(skeleton)
    return skeleton


def weights_banner(loaded: LoadedModel, label: str = "", needs_weights: bool = False) -> None:
    """Random weights said plainly (with, where learnt weights matter, the offer of real ones); bundled real
    weights said too. `label` names the model where a page shows two."""
    if loaded.warning and (projector() or narrow()):  # one line on a projector or a phone: the figure first
        words, switch = st.columns([3, 1], vertical_alignment="center") if needs_weights else (st.container(), None)
        words.warning(f"{label}Random weights ({loaded.source} could not be downloaded): the numbers are exact, "
                      f"the patterns mean nothing.{stand_in_pieces(loaded)}", icon=":material/warning:")
        if switch is not None:
            offer_bundled_model(label="Real weights", where=switch)
    elif loaded.warning:
        st.warning(label + loaded.warning + stand_in_pieces(loaded), icon=":material/warning:")
        if needs_weights:
            offer_bundled_model()
    elif loaded.bundled and st.session_state.get("_default_unavailable") and not label:
        opened_offline_notice(loaded)
    elif loaded.bundled:
        st.caption(f"{label}Real pretrained weights, read from the {loaded.origin}: no network needed.")


def stand_in_pieces(loaded: LoadedModel) -> str:
    """Where the tokenizer is a stand-in, how many pieces it cuts this text into (a sentence of 23 words into 61
    letters and fragments, which the real tokenizer would not): said in the banner, not left to the Tokens page."""
    if loaded.vocabulary != "stand-in" or loaded.tokenizer is None:
        return ""
    text = st.session_state.get("text", "")
    pieces = len(loaded.tokenizer(text, add_special_tokens=False)["input_ids"])
    return f" Its tokenizer is a stand-in: this text's {len(text.split())} words became {pieces} pieces."


def opened_offline_notice(loaded: LoadedModel) -> None:
    """Why a link that named no model opened the bundled one (opening_model): one line in a lecture (on a projector,
    and on a student's phone, where the figure or the question comes first); elsewhere with bert-base-uncased's
    exact architecture one click away."""
    if lecture_mode():
        st.caption(f"Opened on the bundled real model: {DEFAULT_MODEL}'s weights cannot be had here.")
        return
    words, switch = st.columns([3, 1], vertical_alignment="center")
    words.caption(f"Real pretrained weights, read from the {loaded.origin}: no network needed. The app opened on "
                  f"{loaded.source} because {DEFAULT_MODEL}'s weights cannot be had here (no network, not in the "
                  f"local cache).")
    switch.button(f"Open {DEFAULT_MODEL}", icon=":material/swap_horiz:", on_click=switch_model, args=(DEFAULT_MODEL,),
                  help=f"{DEFAULT_MODEL}'s exact architecture with random weights, keeping the sentence and the view")


class PageEnds(BaseException):
    """Raised by end_page(): the page has said why it cannot go on. app.py catches it (and the Layers stepper, a
    fragment) and still draws what goes under every page (the lecture bar), which st.stop() would not let it draw.
    A BaseException, as Streamlit's own stop is, so that no `except Exception` on the way reports it as an error;
    raise it only from a page's body, never from a callback or a cached function."""


def end_page() -> NoReturn:
    """End the page here, after a message that says why (in place of st.stop())."""
    raise PageEnds


@contextmanager
def explained_load_errors(source: str, label: str = "") -> Iterator[None]:
    """A model that cannot be loaded becomes its message in the page and a stop, never a traceback."""
    try:
        yield
    except BertvizLiteError as error:
        st.error(f"{label}{error}", icon=":material/error:")
        st.caption("Pick a preset in the sidebar, or fix the model id or path; your sentence is kept.")
        end_page()
    except Exception as error:  # a bug or an unforeseen file problem: still a message, not a traceback
        st.error(f"Loading '{source}' failed unexpectedly: {type(error).__name__}: {error}", icon=":material/error:")
        end_page()


def trace_or_stop(key: RunKey, notice: bool = True) -> Trace:
    """The trace of the run `key` names, from the cache. A page that keeps it in its namespace lets go of it at its
    end, and of its model (`del t, loaded`): Streamlit keeps a page's namespace for as long as the tab is open
    (the page's callbacks, fragments and downloads hold it), and a trace kept there would outlive the trace
    cache's bound, one per open tab (a soak of 160 sentences held 45 traces alive with 16 cached, 2026-11-23); a
    model, the model cache's. Callbacks that run after the page read what they need from plain values (a run key
    is one)."""
    doing = (f"Running {key.source} on your text: word pieces, embeddings, then every layer, keeping each layer's "
             f"output (a long text on a large model takes seconds) …")
    result = computed_or_stop(doing, lambda: cached_trace(key), show_time=True)
    if notice and result.notice:
        st.info(result.notice, icon=":material/content_cut:")
    return result


def layer_steps(key: RunKey, layer: int):
    """One layer's sub-steps of the run `key` names (the model's own, or an intervened one), shared by every tab
    that shows them."""
    return cached_layer(key, layer)


def computed_or_stop(doing: str, compute: Callable, icon: str = ":material/edit:", show_time: bool = False):
    """compute() under a spinner that says what runs; a BertvizLiteError becomes its message and a stop."""
    try:
        with st.spinner(doing, show_time=show_time):
            return compute()
    except BertvizLiteError as error:
        st.error(f"{error}", icon=icon)
        end_page()


def sentence_vectors_or_stop(key: RunKey, sentences: list[str]) -> list[SentenceVectors]:
    return computed_or_stop("Running the model on each sentence …",
                            lambda: cached_sentence_vectors(key, tuple(sentences)))


def similarity_split_or_stop(key: RunKey, words: bool):
    """The cosine of the key's text and pair, split into token pairs."""
    return computed_or_stop("Splitting the cosine into token pairs …", lambda: cached_similarity_split(key, words))


ANALYSES = {"layerwise": cached_layerwise, "contributions": cached_contributions, "head view": cached_head_view,
            "thumbnails": cached_thumbnails}


def analysis_or_stop(kind: str, key: RunKey, *args):
    """One of the cached analyses of the run `key` names, or a message and a stop."""
    compute = ANALYSES[kind]
    return computed_or_stop("Computing every layer …", lambda: compute(key, *args), ":material/error:")
