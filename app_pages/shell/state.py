"""The view in the URL: every page's keys with their defaults, read from a link on a session's first run,
written back as the reader changes them (values equal to their defaults stay out of the link, the model never),
and widgets bound to them.

Each page declares the keys it reads, with their defaults (pages.py); the model, text, pair, task and lecture
mode are every page's. Widgets keep their own keys (`_w_<name>`) and copy into the state
on change, so a page that does not draw a widget does not lose its value.
"""
from __future__ import annotations

import streamlit as st

from bertviz_lite import BUNDLED_MODEL, BertvizLiteError, DEFAULT_MODEL, TASKS
from bertviz_lite.graph.names import canonical_step_name
from bertviz_lite.loading.bundled import bundled_directory
from bertviz_lite.serving.cache import cached_skeleton

from .pages import url_keys
from .screen import narrow

DEFAULTS = {**url_keys(), "model": DEFAULT_MODEL}  # every page's URL keys (pages.py), each with its default


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


def from_url(key: str, value):
    """A URL key's text as the state holds it: the type of its default (a bad number gives the default)."""
    default = DEFAULTS[key]
    if key == "step":  # a saved link may spell a step as it was once named (encoder.rel_norm)
        return canonical_step_name(str(value))
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
    """Widget key and on_change callback that keep st.session_state[key] the source of truth. The widget is set from
    the state at every run, so that the browser is told its value every run: where a run is cut short by the next
    (a phone's first run, rerun as soon as the phone says its width), a widget set only once was drawn at its
    default (Lecture mode off, layer 0, an empty sentence) over a figure of the link's view."""
    widget = f"_w_{key}"
    st.session_state[widget] = st.session_state[key]

    def copy():
        st.session_state[key] = st.session_state[widget]

    return {"key": widget, "on_change": copy}


def bind_list(key: str, options: list[str]) -> dict:
    """Widget key and on_change callback for a multiselect whose value the state keeps as comma-separated text, as
    the URL writes it ("2.3,4.1"). The widget is set from the text at every run, so the text stays the source of
    truth (a link, a reset); a part that is not among `options` is not shown, and the page says why."""
    widget = f"_wl_{key}"
    st.session_state[widget] = [part for part in str(st.session_state[key]).split(",") if part in options]

    def copy():
        st.session_state[key] = ",".join(st.session_state[widget])

    return {"key": widget, "on_change": copy}


def set_value(key: str, value) -> None:
    """Change a state value and its widget together (for buttons such as previous/next)."""
    st.session_state[key] = value
    st.session_state[f"_w_{key}"] = value


def lecture_mode() -> bool:
    """Whether the link is a lecture's (`lecture=1`): the lecture's order and its Next, on any screen."""
    return bool(st.session_state.get("lecture"))


def projector() -> bool:
    """Lecture mode on a screen wider than a phone's: the projector's layout and type (controls in a row beside the
    figure, numbers read from the back row). A lecture's link opened on a phone is drawn as the phone draws any
    link, the figure first in the phone's own type; it keeps the lecture's Next."""
    return lecture_mode() and not narrow()


def opening_model() -> str:
    """The model a link that names none opens: bert-base-uncased where its weights can be had (the Hub answers, or
    the local cache holds it), else the bundled real model, so that a first visit with no network shows real
    numbers rather than a random-weights warning (it says why, with bert-base-uncased one click away)."""
    if bundled_directory(BUNDLED_MODEL) is None:
        return DEFAULT_MODEL
    try:
        return DEFAULT_MODEL if cached_skeleton(DEFAULT_MODEL, "base").weights_kind != "random-init" else BUNDLED_MODEL
    except BertvizLiteError:
        return DEFAULT_MODEL
