"""The sidebar every page shares: the model, the task head, the sentence (and a second one), the figure
download format and lecture mode."""
from __future__ import annotations

import io
import threading
import zipfile

import streamlit as st

from bertviz_lite import PRESETS, TASKS, BertvizLiteError
from bertviz_lite.export import site_zip
from bertviz_lite.serving.cache import cached_model
from bertviz_lite.serving.hosting import Limits

from .cell_keys import walkable_figures
from .charts import DOWNLOAD_FORMATS
from .models import other_label, preset_caption, preset_label
from .screen import report_width
from .scroll_boxes import reachable_scroll_boxes
from .state import bind
from .turns import redraw_on_reconnect


TASK_LABELS = {"base": "base model (no task head)", "sequence-classification": "sequence classification",
               "masked-lm": "masked language model"}


def _choose_model() -> None:
    choice = st.session_state["_w_model_choice"]
    st.session_state._default_unavailable = False
    if choice != other_label(Limits.from_env()):
        st.session_state.model = choice
    elif st.session_state.get("_w_model_custom", "").strip():
        st.session_state.model = st.session_state["_w_model_custom"].strip()


def sidebar() -> None:
    with st.sidebar:
        report_width()  # the figures are drawn for the reader's screen (screen.py)
        reachable_scroll_boxes()  # a box that scrolls takes the keyboard's focus (scroll_boxes.py)
        walkable_figures()  # every heatmap walked by keys and read as a grid (cell_keys.py)
    current, limits = st.session_state.model, Limits.from_env()
    other = other_label(limits)
    st.session_state["_w_model_choice"] = current if current in PRESETS else other  # told every run (state.bind)
    if current not in PRESETS or "_w_model_custom" not in st.session_state:  # a Hub id being typed is kept
        st.session_state["_w_model_custom"] = "" if current in PRESETS else current
    with st.sidebar:
        st.selectbox("Model", [*PRESETS, other], key="_w_model_choice", on_change=_choose_model,
                     format_func=lambda s: s if s == other else preset_label(s))
        if st.session_state["_w_model_choice"] in PRESETS:
            st.caption(preset_caption(st.session_state["_w_model_choice"]))
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
        if st.session_state.lecture:
            lecture_download()
        redraw_on_reconnect()  # in the sidebar: its empty block takes no room on a page


EXPORTING = threading.Lock()  # one lecture's site made at a time by this server: a hall's clicks wait in turn


def lecture_download() -> None:
    """The lecture as a static site (a .zip of its folder, `bertviz_lite.export`), made when clicked, one at a time:
    its sentence (and the second one, alone and read with it as a pair) on this model, to open from disk or push as
    a free static Space; without the weights' scripts and at most `zipped.MOST_BYTES` of scripts, which keeps it a
    few megabytes (`bertviz-lite export` writes the weights too). What stops it is said in a README.txt in the .zip."""
    source, task = st.session_state.model, st.session_state.task
    text, pair = st.session_state.text, st.session_state.pair
    texts = [t for t in (text, pair) if t.strip()]  # each alone, compared
    pairs = [(text, pair)] if len(texts) == 2 else []  # and read together, as the lecture's views read them

    def zipped() -> bytes:
        with EXPORTING:
            try:
                return site_zip(cached_model(source, task), texts, pairs=pairs,  # the Lens page's model, as the
                                masked_lm=lambda: cached_model(source, "masked-lm"))  # page has it
            except BertvizLiteError as error:  # a download cannot show a message in the page: the .zip says it
                return said_in_a_zip(f"No site was written: {error}\n")

    st.download_button("Download this lecture as a site", data=zipped, file_name="lecture-site.zip",
                       mime="application/zip", on_click="ignore", icon=":material/download:",
                       help="A static site of this sentence on this model: the stepper, the tour, the attention "
                            "views, the heads, rollout, contributions and lens, and the similarity, in any browser "
                            "with no server (a double click on index.html), or pushed as a free static Space.")


def said_in_a_zip(text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", text)
    return buffer.getvalue()
