"""The app's caches: the one module of bertviz_lite that imports Streamlit.

Cached functions depend only on their arguments: a model's source and task, or a page run's key (`RunKey`: the
model, the sentence and any intervention) and what else the result reads. Models are shared by every session
(`cache_resource`), a few at a time; traces are shared read-only objects too, bounded in number and age. A cached
trace is kept without its model and joined to the model cached now when it is handed out, so a trace never keeps an
evicted model alive: memory stays at most MAX_MODELS models plus MAX_TRACES traces, however many visitors come.
Everything computed from a model is keyed by what its weights are (`LoadedModel.weights_id`), not by its name
alone. What a view draws is shared the same way, so that a lecture hall opening one link computes it once: the most
recent layers' sub-steps (MAX_LAYER_STEPS), styled figures (MAX_FIGURES) and the attention views' lines and
thumbnails (MAX_VIEWS), bounded in number and age too. Every store but the models', the traces' and the figures' is
made by one helper (`_store`), each with its own name and bound.
"""
from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from ..analyses.all_layers import all_layers
from ..analyses.attention_views import head_view_of, thumbnails
from ..analyses.contributions import layer_contributions
from ..analyses.logit_lens import logit_lens
from ..analyses.nearest_pieces import nearest_pieces

from ..introspection.task_heads import TaskHead, task_heads
from ..intervening.run import Intervened, intervene
from ..intervening.value_zeroing import value_zeroing
from ..loading.limits import Limits
from ..loading.loader import LoadedModel, load_model, load_skeleton
from ..analyses.similarity import sentence_vectors
from ..asking.hall import Hall, hall_for
from ..analyses.similarity_split import explain_similarity
from ..attributing.deletion import Faithfulness, faithfulness, method_scores
from ..attributing.gradients import attribute
from ..attributing.targets import target_for
from ..stepthrough.trace import Trace, trace
from .run_key import RunKey
from ..introspection.tree import ModuleNode, module_tree

MAX_MODELS = 3  # bert-base is about 0.45 GB in float32; bert-large 1.3 GB
MAX_TRACES = 16  # a trace keeps at most 64 MB with the sub-steps it computed (its hidden states + 8 MB if more)
MAX_ANALYSES = 8  # a 512-token rollout keeps L × T × T floats: 12 MB for bert-base, 25 MB for bert-large
MAX_LAYER_STEPS = 4  # one layer's sub-steps: 8 MB for bert-base at 128 tokens, 66 MB at 512
MAX_FIGURES = 64  # figures pool long inputs to at most 64 cells a side: well under 1 MB each
MAX_VIEWS = 16  # a head view's lines or a model view's thumbnails: at most about 1 MB at 512 tokens
MAX_INTERVENED = 8  # an intervened run keeps a trace of its own (at most 64 MB, as a trace), not its model

_one_load_at_a_time = threading.Lock()  # a crowd asking for different models cannot hold many half-loaded ones


@st.cache_resource(max_entries=MAX_MODELS, show_spinner=False)
def _load(source: str, task: str, limits: Limits) -> LoadedModel:
    with _one_load_at_a_time:
        return load_model(source, task, limits)


def cached_model(source: str, task: str) -> LoadedModel:
    """The model under the environment's rules (part of the key: a model loaded locally is not handed out to a
    hosted session)."""
    return _load(source, task, Limits.from_env())


@st.cache_resource(max_entries=MAX_MODELS * 3, show_spinner=False)
def _skeleton(source: str, task: str, limits: Limits) -> LoadedModel:
    return load_skeleton(source, task, limits)


def cached_skeleton(source: str, task: str) -> LoadedModel:
    """The architecture alone, on the meta device (no weights: a few MB of module objects), for the pages that
    show only names, shapes and counts; under the environment's rules, like cached_model."""
    return _skeleton(source, task, Limits.from_env())


def model_of(key: RunKey) -> LoadedModel:
    """The model a run key names, as cached_model gives it."""
    return cached_model(*key.model)


@st.cache_resource(max_entries=MAX_TRACES, ttl=3600, show_spinner=False)
def _cached_forward(key: RunKey, weights: str, _model: LoadedModel) -> Trace:
    return dataclasses.replace(trace(_model, key.text, key.pair), loaded=None)


@st.cache_resource(max_entries=MAX_INTERVENED, ttl=3600, show_spinner=False)
def _intervened(key: RunKey, weights: str, _model: LoadedModel) -> Intervened:
    run = intervene(run_of(_model, key.own), key.edits)
    return dataclasses.replace(run, trace=dataclasses.replace(run.trace, loaded=None))  # kept without its model,
    # as a cached trace is (the module docstring)


def run_of(model: LoadedModel, key: RunKey) -> Trace:
    """The trace of the run `key` names through `model`, joined to it: the model's own run of the sentence, or its
    intervened run where the key has edits. It is keyed by what the weights are (`weights_id`), not by the model's
    name alone: a trace of random weights is never joined to pretrained weights that arrived later under the same
    name, nor the other way round."""
    if key.edits:
        return dataclasses.replace(_intervened(key, model.weights_id, _model=model).trace, loaded=model)
    return dataclasses.replace(_cached_forward(key.own, model.weights_id, _model=model), loaded=model)


def cached_trace(key: RunKey) -> Trace:
    """The trace of the run `key` names, joined to the model cached now (reloaded if it was evicted)."""
    return run_of(model_of(key), key)


def cached_intervened(key: RunKey) -> Intervened:
    """The sentence run again with the key's edits (`Intervened`: its own trace and the shift of every hidden
    state), computed once for every session, a few at a time (each keeps a trace of its own, at most 64 MB), and
    joined to the model cached now."""
    model = model_of(key)
    run = _intervened(key, model.weights_id, _model=model)
    return dataclasses.replace(run, trace=dataclasses.replace(run.trace, loaded=model))


@st.cache_resource(max_entries=MAX_FIGURES, ttl=3600, show_spinner=False)
def cached_figure(key: tuple, _build: Callable[[], Any]) -> Any:
    """The figure `key` names, built by `_build()` once for every session of this server. Building and styling a
    Plotly figure is most of what a cached view costs; `key` must name everything the figure depends on (the
    weights too: see `weights_id`), and the figure must not be changed after it is handed out (Streamlit copies
    it before sending it)."""
    return _build()


def _store(name: str, compute: Callable[..., Any], max_entries: int, doc: str, reads_text: bool = True):
    """The one cache helper: `cached(key, *args)` is `compute(model, key, *args)` for the model the run key names
    (the one cached now), computed once for every session and keyed by the run (by the model alone where the result
    does not read the key's text: `reads_text=False`), what the weights are (`weights_id`) and the arguments; the
    model travels unhashed. Each store keeps its own name and bound: Streamlit names a store by its function's
    module, qualified name and source, and every store made here has the same source, so each is given its own
    name (`name`), or all would share one store."""
    def stored(hashed: RunKey | tuple, weights: str, *args, _model: LoadedModel, _key: RunKey):
        return compute(_model, _key, *args)

    stored.__name__ = stored.__qualname__ = name
    store = st.cache_resource(max_entries=max_entries, ttl=3600, show_spinner=False)(stored)

    def cached(key: RunKey, *args) -> Any:
        model = model_of(key)
        return store(key if reads_text else key.model, model.weights_id, *args, _model=model, _key=key)

    cached.__name__ = cached.__qualname__ = f"cached_{name}"
    cached.__doc__, cached.clear = doc, store.clear
    return cached


def _per_run(name: str, compute: Callable[..., Any], max_entries: int, doc: str) -> Callable[..., Any]:
    """`cached(key, *args)`: `compute(trace, *args)` for the trace of the run `key` names (`run_of`)."""
    return _store(name, lambda model, key, *args: compute(run_of(model, key), *args), max_entries, doc)


cached_layer = _per_run("layer", lambda t, layer: t.layer(layer), MAX_LAYER_STEPS, """One layer's sub-steps
(`Steps`), stepped through once for every tab showing that layer (a lecture hall all looks at the same one); the
few most recent only, as one layer at 512 tokens is several times its trace.""")
cached_layerwise = _per_run("layerwise", all_layers, MAX_ANALYSES, """Fingerprints, rollout and mixing ratios
(`LayerwiseAnalyses`) in one pass, shared by the Heads, Rollout and Contributions pages.""")
cached_contributions = _per_run("contributions", layer_contributions, MAX_ANALYSES, """A layer's norm-based
contributions (`LayerContributions`): four T × T matrices.""")
cached_head_view = _per_run("head_view", lambda t, layer, heads, *rest: head_view_of(t, layer, list(heads), *rest),
                            MAX_VIEWS, """The head view's lines (`HeadView`) of a layer, heads (a tuple: hashed as
part of the key), pair filter, words or pieces, and focus.""")
cached_thumbnails = _per_run("thumbnails", thumbnails, MAX_VIEWS, """The model view's thumbnails, (L, h, n, n) at
`side` cells a side.""")
cached_nearest_pieces = _per_run("nearest_pieces", nearest_pieces, MAX_TRACES, """The vocabulary pieces nearest
each layer's vector at a position (`NearestPieces`): (L + 1) × 5 pieces.""")
cached_lens = _per_run("lens", logit_lens, MAX_TRACES, """The logit lens (`LogitLens`) at a position, through the
model's own masked-LM head (a key for the masked-LM task): (L + 1) × 5 tokens.""")
cached_value_zeroing = _per_run("value_zeroing", lambda t, layer: value_zeroing(t, layer), MAX_ANALYSES, """A
layer's value-zeroing map (T × T, Mohebbi et al. 2023): T runs of the layer, batched.""")
cached_sentence_vectors = _store("sentence_vectors", lambda model, key, sentences: sentence_vectors(
    model, list(sentences)), MAX_TRACES, """The vectors of a few sentences (a tuple) through the key's model: a
few hundred numbers per sentence, shared by every session.""", reads_text=False)
cached_similarity_split = _store("similarity_split", lambda model, key, words: explain_similarity(
    model, key.text, key.pair, words), MAX_TRACES, """The cosine of the key's two sentences (its text and pair)
split into token pairs: at most 256 × 256 numbers (the bundled model's limit), shared by every session.""")
cached_attribution = _store("attribution", lambda model, key, spec, method, steps, baseline: attribute(
    target_for(model, key.text, *spec), method, steps, baseline), MAX_ANALYSES, """One method's attributions
(`Attribution`) of the key's text to the target `spec` names (`targets.target_for`'s arguments after the text): T
numbers and a few more, shared by every session.""")
cached_faithfulness = _store("faithfulness", lambda model, key, spec, steps, baseline: _faithful(
    target_for(model, key.text, *spec), steps, baseline), MAX_ANALYSES, """Every method's deletion curve
(`Faithfulness`) on the target `spec` names: (methods × T) numbers.""")


def _faithful(target, steps: int, baseline: str) -> Faithfulness:
    return faithfulness(target, method_scores(target, steps, baseline), baseline)


@st.cache_resource(show_spinner=False)
def cached_hall() -> Hall:
    """This server's count of a hall's answers (asking/hall.py): one for every session, in Redis where replicas
    share one."""
    return hall_for()


def cached_tree(skeleton: LoadedModel) -> ModuleNode:
    """The module tree of a model's architecture (cached_skeleton's), once per model for every session."""
    return _tree(skeleton.source, skeleton.task, _skeleton=skeleton)


@st.cache_resource(max_entries=MAX_MODELS * 3, show_spinner=False)
def _tree(source: str, task: str, _skeleton: LoadedModel) -> ModuleNode:
    return module_tree(_skeleton.model)


def cached_task_heads(skeleton: LoadedModel) -> list[TaskHead]:
    """What each task's head adds to the architecture, once per model for every session."""
    return _task_heads(skeleton.source, skeleton.task, _skeleton=skeleton)


@st.cache_resource(max_entries=MAX_MODELS, show_spinner=False)
def _task_heads(source: str, task: str, _skeleton: LoadedModel) -> list[TaskHead]:
    return task_heads(_skeleton.config)
