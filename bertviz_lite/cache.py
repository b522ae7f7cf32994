"""The app's caches: the one module of bertviz_lite that imports Streamlit.

Cached functions depend only on their arguments. Models are shared by every session (`cache_resource`), a few
at a time; traces are shared read-only objects too (they hold a reference to their model, so they cannot be
pickled for `cache_data`), bounded in number and age so that a crowd cannot exhaust memory.
"""
from __future__ import annotations

import streamlit as st

from .heads import TaskHead, task_heads
from .loading import LoadedModel, load_model
from .trace import Trace, trace
from .tree import ModuleNode, module_tree

MAX_MODELS = 3  # bert-base is about 0.45 GB in float32; bert-large 1.3 GB
MAX_TRACES = 32  # a 512-token bert-base trace keeps about 20 MB


@st.cache_resource(max_entries=MAX_MODELS, show_spinner=False)
def cached_model(source: str, task: str) -> LoadedModel:
    return load_model(source, task)


@st.cache_resource(max_entries=MAX_TRACES, ttl=3600, show_spinner=False)
def cached_trace(source: str, task: str, text: str, pair: str | None) -> Trace:
    return trace(cached_model(source, task), text, pair)


@st.cache_resource(max_entries=MAX_MODELS * 3, show_spinner=False)
def cached_tree(source: str, task: str) -> ModuleNode:
    return module_tree(cached_model(source, task).model)


@st.cache_resource(max_entries=MAX_MODELS, show_spinner=False)
def cached_task_heads(source: str, task: str) -> list[TaskHead]:
    return task_heads(cached_model(source, task).config)
