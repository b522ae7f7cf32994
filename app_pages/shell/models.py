"""The model a page shows, as the reader chooses it: the presets' labels, and the buttons that switch to
another model keeping everything else of the view."""
from __future__ import annotations

import streamlit as st

from bertviz_lite import BUNDLED_MODEL, PRESETS
from bertviz_lite.loading.bundled import bundled_directory
from bertviz_lite.serving.hosting import Limits

from .state import projector


OTHER = "other: a Hub id or a local directory"


HOSTED_OTHER = "other: a Hugging Face Hub id"


def other_label(limits: Limits) -> str:
    return OTHER if limits.allow_local_dirs else HOSTED_OTHER


def preset_label(source: str) -> str:
    """The model's own name, short enough for the sidebar's box: "all-MiniLM-L6-v2". Its whole id and size are said
    under the box (`preset_caption`); in the box they were cut ("electra-small-discriminator (14M" )."""
    return source.rpartition("/")[2]


def preset_caption(source: str) -> str:
    """What the sidebar says under a chosen preset: its Hub id and size, then what it is."""
    return f"{source}, {PRESETS[source].parameters} parameters. {PRESETS[source].description}"


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
    if label is None and projector():  # a long label is cut in a narrow column on a projector: the hover has it
        label = why
    where.button(label or f"{why}: switch to {about}", icon=":material/swap_horiz:", on_click=switch_model,
                 args=(BUNDLED_MODEL,), help=f"{about}, keeping the sentence and the view" if label else None,
                 width="stretch" if label else "content")
