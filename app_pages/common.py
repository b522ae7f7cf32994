"""What every page shares: the state that lives in the URL, the sidebar, and guarded loading.

The URL holds model, text, pair, task, layer, head, step, the similarity page's sentences, the head statistic
(stat), the rollout's token, the word-level toggle (words), the lens position, and the contexts page's two
sentences and word (sentence_a, sentence_b, word), and the comparison's second model and relative depth
(model_b, depth), the cell of the Layers page's step that is explained (cell), and the Attention page's view, heads,
focused token, sentence-pair filter and layout (view, heads, focus, filter, horizontal), and the tour's chapter
(chapter), so a link reopens exactly that view; values equal to their defaults stay out of it. Widgets
keep their own keys (`_w_<name>`) and copy into the state on change, so a page that does not draw a widget
does not lose its value.
"""
from __future__ import annotations

import html
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from bertviz_lite import BUNDLED_MODEL, DEFAULT_MODEL, PRESETS, TASKS, BertvizLiteError, LoadedModel, Trace
from bertviz_lite.loading.loader import fetch_weights
from bertviz_lite.loading.bundled import bundled_directory
from bertviz_lite.serving.cache import (cached_contributions, cached_figure, cached_head_view, cached_layer,
                                        cached_layerwise, cached_model, cached_sentence_vectors, cached_skeleton,
                                        cached_thumbnails, cached_trace)
from bertviz_lite.serving.process import page_queue, warming
from bertviz_lite.analyses.similarity import SentenceVectors
from bertviz_lite.figures import layer_diagram
from bertviz_lite.figures.fit import fit, keeps_height
from bertviz_lite.graph.layout import diagram_layout
from bertviz_lite.serving.hosting import Limits
from bertviz_lite.tour import lecture

DEFAULT_TEXT = "this is a 12212121 test sentence"
DEFAULT_SENTENCES = "\n".join(("the cat sat on the mat", "a kitten was sitting on the rug",
                               "the stock market fell sharply today", "shares dropped on wall street",
                               "i really enjoyed this film", "the movie was wonderful"))
DEFAULTS = {"model": DEFAULT_MODEL, "task": "base", "text": DEFAULT_TEXT, "pair": "", "layer": 0, "head": 0,
            "step": "attn.probs", "sentences": DEFAULT_SENTENCES, "stat": "prev", "token": 1, "words": False,
            "position": 1, "sentence_a": "i sat on the bank of the river", "sentence_b": "i deposited money at the bank",
            "word": "bank", "model_b": "distilbert-base-uncased", "depth": "0.5", "cell": "", "view": "head", "heads": "", "focus": "", "filter": "All",
            "horizontal": False, "chapter": "1", "lecture": False}
PAGE_CSS = Path(__file__).with_name("page.css")
LECTURE_CSS = Path(__file__).with_name("lecture.css")
LECTURE_FONT_PX = 20  # chart text in lecture mode (16 otherwise)
LECTURE_CHART_PX = 560  # tallest chart in lecture mode: it sits beside its controls on a 720-pixel screen
CHART_WIDTH_PX = 560  # the width a chart's labels are fitted to (figures/fit.py), unless its page says: about half
# a 1280-pixel screen, where most charts sit beside their controls or their explanation
PAGE_WIDTH_PX = 1180  # a 1280-pixel screen less lecture mode's margins: what a page's columns share
PRINT_SCALE = 4  # PNG downloads at 4× the chart's size on screen: about 300 dpi for a figure 8 cm wide
DOWNLOAD_FORMATS = {"PNG (print resolution)": "png", "SVG (vector)": "svg"}
TASK_LABELS = {"base": "base model (no task head)", "sequence-classification": "sequence classification",
               "masked-lm": "masked language model"}
OTHER = "other: a Hub id or a local directory"
HOSTED_OTHER = "other: a Hugging Face Hub id"


def init_state() -> None:
    """On a session's first run, take the view from the URL (and remember which keys it named); later runs keep
    what the user chose."""
    if "_named_in_url" not in st.session_state:
        st.session_state._named_in_url = frozenset(st.query_params.keys())
    if "model" not in st.session_state and "model" not in st.query_params:
        st.session_state.model = opening_model()
        st.session_state._default_unavailable = st.session_state.model != DEFAULT_MODEL
    for key, default in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = from_url(key, st.query_params.get(key, default))
    if st.session_state.task not in TASKS:
        st.session_state.task = "base"


def column_px(widths: list[float], i: int) -> int:
    """About how wide column i of st.columns(widths) is on a 1280-pixel screen (a chart's `width`)."""
    return int(PAGE_WIDTH_PX * widths[i] / sum(widths)) - 20  # less the gap between columns


def opening_model() -> str:
    """The model a link that names none opens: bert-base-uncased where its weights can be had (the Hub answers, or
    the local cache holds it), else the bundled real model, so that a first visit with no network shows real
    numbers rather than a random-weights warning (it says why, with bert-base-uncased one click away)."""
    if bundled_directory(BUNDLED_MODEL) is None:
        return DEFAULT_MODEL
    try:
        return DEFAULT_MODEL if cached_skeleton(DEFAULT_MODEL, "base").weights != "random-init" else BUNDLED_MODEL
    except BertvizLiteError:
        return DEFAULT_MODEL


def from_url(key: str, value):
    """A URL key's text as the state holds it: the type of its default (a bad number gives the default)."""
    default = DEFAULTS[key]
    if isinstance(default, bool):
        return str(value).lower() in {"1", "true", "yes", "on"}
    if isinstance(default, int):
        return int(value) if str(value).isdigit() else default
    return value


def sync_url() -> None:
    """The view in the URL: every key that differs from its default, and always the model, so that a shared link
    opens the same model everywhere (where a link names none, what opens depends on the network: opening_model)."""
    for key, default in DEFAULTS.items():
        value = st.session_state[key]
        text = str(int(value)) if isinstance(value, bool) else str(value)
        if value == default and key != "model":
            st.query_params.pop(key, None)
        elif st.query_params.get(key) != text:
            st.query_params[key] = text


def bind(key: str):
    """Widget key and on_change callback that keep st.session_state[key] the source of truth."""
    widget = f"_w_{key}"
    if widget not in st.session_state:
        st.session_state[widget] = st.session_state[key]

    def copy():
        st.session_state[key] = st.session_state[widget]

    return {"key": widget, "on_change": copy}


def set_value(key: str, value) -> None:
    """Change a state value and its widget together (for buttons such as previous/next)."""
    st.session_state[key] = value
    st.session_state[f"_w_{key}"] = value


def other_label(limits: Limits) -> str:
    return OTHER if limits.allow_local_dirs else HOSTED_OTHER


def preset_label(source: str) -> str:
    """The model's own name first, so that a narrow sidebar cuts the organisation, not the name:
    "all-MiniLM-L6-v2 (22.7M) · sentence-transformers"."""
    organisation, _, name = source.rpartition("/")
    return f"{name} ({PRESETS[source].parameters})" + (f" · {organisation}" if organisation else "")


def _choose_model() -> None:
    choice = st.session_state["_w_model_choice"]
    st.session_state._default_unavailable = False
    if choice != other_label(Limits.from_env()):
        st.session_state.model = choice
    elif st.session_state.get("_w_model_custom", "").strip():
        st.session_state.model = st.session_state["_w_model_custom"].strip()


def sidebar() -> None:
    current, limits = st.session_state.model, Limits.from_env()
    other = other_label(limits)
    if "_w_model_choice" not in st.session_state:
        st.session_state["_w_model_choice"] = current if current in PRESETS else other
        st.session_state["_w_model_custom"] = "" if current in PRESETS else current
    with st.sidebar:
        st.selectbox("Model", [*PRESETS, other], key="_w_model_choice", on_change=_choose_model,
                     format_func=lambda s: s if s == other else preset_label(s))
        if st.session_state["_w_model_choice"] in PRESETS:
            st.caption(PRESETS[st.session_state["_w_model_choice"]].description)
        if st.session_state["_w_model_choice"] == other:
            if limits.allow_local_dirs:
                st.text_input("Hub id or local directory", key="_w_model_custom", on_change=_choose_model,
                              placeholder="e.g. bert-base-cased or ./my-model")
            else:
                st.text_input("Hub id", key="_w_model_custom", on_change=_choose_model,
                              placeholder="e.g. bert-base-cased")
                st.caption(f"This hosted app loads BERT-family models from the Hub up to "
                           f"{limits.max_parameters:,} parameters; for local models, run bertviz-lite yourself.")
        st.selectbox("Task head", list(TASKS), format_func=TASK_LABELS.get, **bind("task"))
        st.text_area("Sentence", height=90, **bind("text"))
        st.text_area("Second sentence (optional)", height=70, **bind("pair"),
                     help="A sentence pair: [CLS] A [SEP] B [SEP], with token types 0 and 1.")
        st.selectbox("Figure downloads (the camera above each chart)", list(DOWNLOAD_FORMATS),
                     key="_figure_format")
        st.toggle("Lecture mode", **bind("lecture"),
                  help="Large type and less chrome for a projector; a link with lecture=1 opens this way, with the "
                       "sidebar closed.")
        redraw_on_reconnect()  # in the sidebar: its empty block takes no room on a page


_holding = threading.local()  # whether this script thread's run already holds its turn in line


@contextmanager
def in_line() -> Iterator[None]:
    """Run the page when it is this tab's turn: first come, first served (serving/queue.py). While it waits, the
    page says how many are ahead; if the tab closes meanwhile, Streamlit stops the run at that message, which
    frees its place in line. A fragment's rerun (the Layers stepper's ▶) waits in the same line; a fragment drawn
    within a full run is already in its turn. A run that does not wait sends nothing for the notice: every element
    is a message that the server's one event loop sends, and when a hall presses ▶ at once, that loop taking in
    every click is what the first tabs wait for."""
    if getattr(_holding, "turn", False):
        yield
        return
    notice = None  # made only when there is something to say: the first message of a run that waits

    def waiting(ahead: int) -> None:
        nonlocal notice
        if notice is None:
            notice = st.empty()  # where the page would begin: nothing is drawn while a run waits
        people = "1 person" if ahead == 1 else f"{ahead} people"
        notice.info(f"Many people opened this app at once: {people} ahead of you. Your page is drawn as soon as it "
                    f"is your turn (first come, first served); keep this tab open.", icon=":material/hourglass_top:")

    with page_queue().turn(waiting):
        if notice is not None:
            notice.empty()
        _holding.turn = True
        try:
            yield
        finally:
            _holding.turn = False


@st.fragment(run_every=3600)
def redraw_on_reconnect() -> None:
    """Nothing, every hour: a page with a timed fragment is one that Streamlit's frontend asks to run again when
    its connection comes back (see its handleConnectionStateChanged). So a tab whose server is gone (a replica
    lost behind a balancer) redraws its view from its URL on the live server it reconnects to, at once, rather
    than spend the reader's next click on starting a new session (which would lose that click's callback)."""


def warm_default_view() -> None:
    """The default model and sentence, traced in the background once per server (see serving.process.warming)."""
    warming(opening_model(), DEFAULTS["task"], DEFAULTS["text"])


def lecture_mode() -> bool:
    return bool(st.session_state.get("lecture"))


def lecture_bar(page: str) -> None:
    """In lecture mode, under the page: the link to this very view (Streamlit's copy button on hover) and "Next",
    the following view of the default lecture (tour/lecture.py), on the same model and sentence."""
    if not lecture_mode():
        return
    ahead = lecture.following(page, st.session_state)
    link, onward = st.columns([3, 2], vertical_alignment="center")
    query = urllib.parse.urlencode(st.query_params.to_dict())
    here = (st.context.url or "").split("?")[0]  # None where no browser asked (a test)
    link.code(here + (f"?{query}" if query else ""), language=None, wrap_lines=True)
    inside = st.session_state.pop("_lecture_within_page", False)  # the page has its own ▶ still to press (the tour)
    if ahead is not None:
        onward.button(f"Leave for: {ahead.title}" if inside else f"Next: {ahead.title}",
                      icon=":material/arrow_forward:", type="secondary" if inside else "primary",
                      on_click=_show_view, args=(ahead,))


def _show_view(view: lecture.LectureView) -> None:
    """Set a lecture view's URL keys (in a callback: before this run's widgets exist) and ask for its page, which
    the next run opens before drawing anything (`go_to_pending_page`)."""
    for key, value in view.keys:
        set_value(key, from_url(key, value))
    st.session_state._pending_page = view.page


def go_to_pending_page() -> None:
    """Open the page a click asked for (the lecture's Next), before the current page draws anything."""
    if page := st.session_state.pop("_pending_page", None):
        st.switch_page(f"app_pages/{page}.py")


def page_title(title: str) -> None:
    """The page's title, outside lecture mode only: one rule for every page (a projector keeps the room for the
    figure; the lecture's link and Next name the view)."""
    if not lecture_mode():
        st.title(title)


def point(name: str = "figure"):
    """A container for what makes the page's point (its figure; on Layers the step's own figure and an
    explanation's result): in lecture mode it starts above a 720-pixel fold. The readability check
    (tests/test_readability.py) finds it by its key, `point-<name>`, and holds every page to that."""
    return st.container(key=f"point-{name}")


def controls_and_canvas(title: str, lecture_widths: list[int], gap: str = "medium"):
    """(controls, canvas): side by side in lecture mode, so that both fit a 1280×720 projector (the page is named
    in the navigation there); one below the other under the page's title otherwise."""
    page_title(title)
    if lecture_mode():
        return tuple(st.columns(lecture_widths, gap=gap))
    return st.container(), st.container()


def apply_style() -> None:
    """The page's own spacing, then lecture mode's larger type where it is on."""
    st.html(PAGE_CSS)
    if lecture_mode():
        st.html(LECTURE_CSS)


def chart(fig: go.Figure, width: int = CHART_WIDTH_PX, **kwargs) -> None:
    """st.plotly_chart across the page's width (about `width` px on a 1280-pixel screen), with larger chart text in
    lecture mode."""
    send_chart(styled(fig, width), **kwargs)


def cached_chart(view: tuple, build: Callable[[], go.Figure | None], width: int = CHART_WIDTH_PX, **kwargs) -> None:
    """chart(build()), with the styled figure built once per `view` (and mode) for every tab of this server: a
    lecture hall opening one link then sends a figure it already has. `view` names all that the figure shows;
    `kwargs` go to st.plotly_chart (a widget key, on_select). A build that gives None draws nothing."""
    fig = cached_figure((*view, lecture_mode(), width),
                        lambda: None if (built := build()) is None else styled(built, width))
    if fig is not None:
        send_chart(fig, **kwargs)


def block_diagram(loaded: LoadedModel, graph, lit: str, **kwargs) -> None:
    """A block's data-flow diagram with step `lit` lit: one cached figure per block and step for every sentence
    (it does not depend on the text). `kwargs` go to st.plotly_chart (a widget key, on_select)."""
    cached_chart((loaded.source, loaded.task, loaded.weights_id, "diagram", graph.name(lit)),
                 lambda: layer_diagram(diagram_layout(graph), lit), selection_mode="points", **kwargs)


def styled(fig: go.Figure, width: int = CHART_WIDTH_PX) -> go.Figure:
    """The figure as this session shows it: larger text and a shorter chart in lecture mode; its labels and cell
    numbers fitted to its size (`width` px wide), never under 12 px."""
    if lecture_mode():
        height = fig.layout.height or LECTURE_CHART_PX
        fig.update_layout(font_size=LECTURE_FONT_PX, height=height if keeps_height(fig) else min(height,
                                                                                                   LECTURE_CHART_PX))
        for axes in (fig.update_xaxes, fig.update_yaxes):  # the Streamlit theme sets its own, smaller tick font
            axes(tickfont_size=LECTURE_FONT_PX - 2, title_font_size=LECTURE_FONT_PX)
    return fit(fig, width)


def send_chart(fig: go.Figure, **kwargs) -> None:
    """Draw a styled figure, with the chosen download format on its camera button; the figure is not changed."""
    fmt = DOWNLOAD_FORMATS[st.session_state.get("_figure_format", next(iter(DOWNLOAD_FORMATS)))]
    name = (fig.layout.title.text or "bertviz-lite").split("<")[0][:60].strip().replace(" ", "_")
    config = {"toImageButtonOptions": {"format": fmt, "filename": name, "scale": PRINT_SCALE if fmt == "png" else 1},
              "displaylogo": False}
    st.plotly_chart(fig, width="stretch", config=config, **kwargs)


def csv_download(frame: Callable[[], pd.DataFrame], filename: str, label: str = "Download the numbers (CSV)") -> None:
    """The numbers behind a view, for a spreadsheet or a paper. `frame` runs only when the button is clicked
    (a 512 × 3072 activation is megabytes of CSV), and the click does not rerun the page."""
    st.download_button(label, lambda: frame().to_csv(index=False), file_name=filename, mime="text/csv",
                       icon=":material/download:", key=f"csv_{filename}", on_click="ignore")


def matrix_frame(matrix, rows: list[str], columns: list[str], row_name: str = "to", column_name: str = "from"):
    """A (rows × columns) matrix in long form: one line per cell, with both labels."""
    return pd.DataFrame({row_name: np.repeat(rows, len(columns)), column_name: np.tile(columns, len(rows)),
                         "value": np.asarray(matrix, dtype=np.float64).ravel()})


def switch_model(source: str) -> None:
    """Change the model and keep everything else of the view (a button's on_click)."""
    st.session_state.model = source
    st.session_state._default_unavailable = False  # the reader chose: no more word on why the app opened as it did
    st.session_state["_w_model_choice"] = source if source in PRESETS else other_label(Limits.from_env())
    st.session_state["_w_model_custom"] = "" if source in PRESETS else source


def offer_bundled_model(why: str = "Show real attention patterns", label: str | None = None, where=st) -> None:
    """One click to the bundled pretrained model, keeping the sentence, layer, head and step; `label` instead of
    the long one where room is short (lecture mode's banner)."""
    if bundled_directory(BUNDLED_MODEL) is None:
        return
    about = f"{BUNDLED_MODEL}, a pretrained BERT bundled with the app"
    if label is None and lecture_mode():  # a long label is cut in a narrow column on a projector: the hover has it
        label = why
    where.button(label or f"{why}: switch to {about}", icon=":material/swap_horiz:", on_click=switch_model,
                 args=(BUNDLED_MODEL,), help=f"{about}, keeping the sentence and the view" if label else None,
                 width="stretch" if label else "content")


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
        text = f"Downloading the weights of {source}: {done / mb:,.1f}" + (f" of {total / mb:,.1f} MB" if total else " MB")
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
    if loaded.warning and lecture_mode():  # one line on a projector: the figure needs the room
        words, switch = st.columns([3, 1], vertical_alignment="center") if needs_weights else (st.container(), None)
        words.warning(f"{label}Random weights ({loaded.source} could not be downloaded): the numbers are exact, "
                      f"the patterns mean nothing.", icon=":material/warning:")
        if switch is not None:
            offer_bundled_model(label="Real weights", where=switch)
    elif loaded.warning:
        st.warning(label + loaded.warning, icon=":material/warning:")
        if needs_weights:
            offer_bundled_model()
    elif loaded.bundled and st.session_state.get("_default_unavailable") and not label:
        opened_offline_notice(loaded)
    elif loaded.bundled:
        st.caption(f"{label}Real pretrained weights, read from the {loaded.origin}: no network needed.")


def opened_offline_notice(loaded: LoadedModel) -> None:
    """Why a link that named no model opened the bundled one (opening_model): one line on a projector; elsewhere
    with bert-base-uncased's exact architecture one click away."""
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


def trace_or_stop(loaded: LoadedModel, text: str | None = None, pair: str | None = "",
                  notice: bool = True) -> Trace:
    """The current sentence's trace, from the cache. A page that keeps it in its namespace lets go of it at its
    end, and of its model (`del t, loaded`): Streamlit keeps a page's namespace for as long as the tab is open
    (the page's callbacks, fragments and downloads hold it), and a trace kept there would outlive the trace
    cache's bound, one per open tab (a soak of 160 sentences held 45 traces alive with 16 cached, 2026-11-23); a
    model, the model cache's. Callbacks that run after the page read what they need from plain values, and a
    fragment takes both again (`notice=False`: the page's full run showed it)."""
    text = st.session_state.text if text is None else text
    pair = st.session_state.pair if pair == "" else pair
    layers = loaded.config.num_hidden_layers
    doing = (f"Running {loaded.source} on your text: word pieces, embeddings, then {layers} layers, keeping each "
             f"layer's output (a long text on a large model takes seconds) …")
    result = computed_or_stop(doing, lambda: cached_trace(loaded.source, loaded.task, text, pair or None),
                              show_time=True)
    if notice and result.notice:
        st.info(result.notice, icon=":material/content_cut:")
    return result


def layer_steps(loaded: LoadedModel, layer: int):
    """One layer's sub-steps of the current sentence (and pair), shared by every tab that shows them."""
    return cached_layer(loaded.source, loaded.task, st.session_state.text, st.session_state.pair or None, layer)


def view_key(loaded: LoadedModel, *parts) -> tuple:
    """What names a view of the current model and sentence: a key for cached_chart, with the page's own parts."""
    return (loaded.source, loaded.task, loaded.weights_id, st.session_state.text, st.session_state.pair, *parts)


def computed_or_stop(doing: str, compute: Callable, icon: str = ":material/edit:", show_time: bool = False):
    """compute() under a spinner that says what runs; a BertvizLiteError becomes its message and a stop."""
    try:
        with st.spinner(doing, show_time=show_time):
            return compute()
    except BertvizLiteError as error:
        st.error(f"{error}", icon=icon)
        end_page()


def sentence_vectors_or_stop(loaded: LoadedModel, sentences: list[str]) -> list[SentenceVectors]:
    return computed_or_stop("Running the model on each sentence …",
                            lambda: cached_sentence_vectors(loaded.source, loaded.task, tuple(sentences)))


ANALYSES = {"layerwise": cached_layerwise, "contributions": cached_contributions, "head view": cached_head_view,
            "thumbnails": cached_thumbnails}


def analysis_or_stop(kind: str, loaded: LoadedModel, *args):
    """One of the cached analyses of the current sentence (and pair), or a message and a stop."""
    compute = ANALYSES[kind]
    return computed_or_stop("Computing every layer …", lambda: compute(
        loaded.source, loaded.task, st.session_state.text, st.session_state.pair or None, *args), ":material/error:")


CHIP_COLOURS = {None: "#e0e0e0", 0: "#cfe3ff", 1: "#ffd9b3"}  # special tokens, sentence A, sentence B


def token_chips(tokens: list[str], ids: list[int], sequence_ids: list[int | None]) -> None:
    """The word pieces as chips with their ids below, special tokens grey, sentence A blue, sentence B orange."""
    chips = "".join(
        f'<span style="display:inline-block;margin:3px;padding:4px 8px;border-radius:6px;'
        f'background:{CHIP_COLOURS[s]};font-family:monospace;font-size:1.15rem;color:#111">'
        f'{html.escape(tok)}<sub style="color:#555;margin-left:4px">{tid}</sub></span>'
        for tok, tid, s in zip(tokens, ids, sequence_ids))
    st.html(f'<div style="line-height:2.2">{chips}</div>')


def word_toggle() -> bool:
    """The word-level switch; True when word pieces are merged into words."""
    st.toggle("Words, not word pieces", help="Attention to a word is the sum over its pieces, attention from a word "
              "the mean over its pieces (Clark et al. 2019).", **bind("words"))
    return bool(st.session_state.words)
