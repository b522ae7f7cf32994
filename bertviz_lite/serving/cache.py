"""The app's caches: the one module of bertviz_lite that imports Streamlit.

Cached functions depend only on their arguments. Models are shared by every session (`cache_resource`), a few
at a time; traces are shared read-only objects too, bounded in number and age. A cached trace is kept without
its model and joined to the model cached now when it is handed out, so a trace never keeps an evicted model
alive: memory stays at most MAX_MODELS models plus MAX_TRACES traces, however many visitors come. Everything
computed from a model is keyed by what its weights are (`LoadedModel.weights_id`), not by its name alone. What a view
draws is shared the same way, so that a lecture hall opening one link computes it once: the most recent
layers' sub-steps (MAX_LAYER_STEPS), styled figures (MAX_FIGURES) and the attention views' lines and
thumbnails (MAX_VIEWS), bounded in number and age too.
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
from ..analyses.logit_lens import LogitLens, logit_lens
from ..analyses.nearest_pieces import nearest_pieces

from ..introspection.task_heads import TaskHead, task_heads
from ..intervening.edits import Edits
from ..intervening.run import Intervened, intervene
from ..intervening.value_zeroing import value_zeroing
from ..loading.limits import Limits
from ..loading.loader import LoadedModel, load_model, load_skeleton
from ..analyses.similarity import SentenceVectors, sentence_vectors
from ..analyses.similarity_split import SimilaritySplit, explain_similarity
from ..attributing.deletion import Faithfulness, faithfulness, method_scores
from ..attributing.gradients import Attribution, attribute
from ..attributing.targets import target_for
from ..stepthrough.trace import Trace, trace
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


@st.cache_resource(max_entries=MAX_TRACES, ttl=3600, show_spinner=False)
def _cached_forward(source: str, task: str, weights: str, text: str, pair: str | None, _model: LoadedModel) -> Trace:
    return dataclasses.replace(trace(_model, text, pair), loaded=None)


def trace_of(model: LoadedModel, text: str, pair: str | None) -> Trace:
    """The cached trace of text (and pair) through `model`, joined to it. It is keyed by what the weights are
    (`weights_id`), not by the model's name alone: a trace of random weights is never joined to pretrained weights
    that arrived later under the same name, nor the other way round."""
    forward = _cached_forward(model.source, model.task, model.weights_id, text, pair, model)
    return dataclasses.replace(forward, loaded=model)


def cached_trace(source: str, task: str, text: str, pair: str | None) -> Trace:
    """The trace of text (and pair), joined to the model cached now (reloaded if it was evicted)."""
    return trace_of(cached_model(source, task), text, pair)


@st.cache_resource(max_entries=MAX_FIGURES, ttl=3600, show_spinner=False)
def cached_figure(key: tuple, _build: Callable[[], Any]) -> Any:
    """The figure `key` names, built by `_build()` once for every session of this server. Building and styling a
    Plotly figure is most of what a cached view costs; `key` must name everything the figure depends on (the
    weights too: see `weights_id`), and the figure must not be changed after it is handed out (Streamlit copies
    it before sending it)."""
    return _build()


@st.cache_resource(max_entries=MAX_INTERVENED, ttl=3600, show_spinner=False)
def _intervened(source: str, task: str, weights: str, text: str, pair: str | None, edits: Edits,
                _model: LoadedModel) -> Intervened:
    run = intervene(trace_of(_model, text, pair), edits)
    return dataclasses.replace(run, trace=dataclasses.replace(run.trace, loaded=None))  # kept without its model,
    # as a cached trace is (the module docstring)


def cached_intervened(source: str, task: str, text: str, pair: str | None, edits: Edits) -> Intervened:
    """The sentence run again with `edits` (`Intervened`: its own trace and the shift of every hidden state),
    computed once for every session, a few at a time (each keeps a trace of its own, at most 64 MB), and joined to
    the model cached now."""
    model = cached_model(source, task)
    run = _intervened(source, task, model.weights_id, text, pair, edits, _model=model)
    return dataclasses.replace(run, trace=dataclasses.replace(run.trace, loaded=model))


def run_of(model: LoadedModel, text: str, pair: str | None, edits: Edits | None) -> Trace:
    """The trace of text (and pair), or of its intervened run where `edits` name an intervention."""
    if not edits:
        return trace_of(model, text, pair)
    run = _intervened(model.source, model.task, model.weights_id, text, pair, edits, _model=model)
    return dataclasses.replace(run.trace, loaded=model)


def _per_trace(name: str, compute: Callable[..., Any], max_entries: int, doc: str) -> Callable[..., Any]:
    """`cached(source, task, text, pair, *args, edits=None)`: `compute(trace, *args)` for the trace of text (and
    pair) through the model cached now (or of its intervened run, `edits`), computed once for every session and
    keyed by what the weights are (`weights_id`); the model travels unhashed. Streamlit names a store by its
    function's module, qualified name and source; every store made here has the same source, so each is given its
    own name (`name`), or all would share one store."""
    def stored(source: str, task: str, weights: str, text: str, pair: str | None, edits: Edits | None, *args,
               _model: LoadedModel):
        return compute(run_of(_model, text, pair, edits), *args)

    stored.__name__ = stored.__qualname__ = name
    store = st.cache_resource(max_entries=max_entries, ttl=3600, show_spinner=False)(stored)

    def cached(source: str, task: str, text: str, pair: str | None, *args, edits: Edits | None = None) -> Any:
        model = cached_model(source, task)
        return store(source, task, model.weights_id, text, pair, edits or None, *args, _model=model)

    cached.__name__ = cached.__qualname__ = f"cached_{name}"
    cached.__doc__, cached.clear = doc, store.clear
    return cached


cached_layer = _per_trace("layer", lambda t, layer: t.layer(layer), MAX_LAYER_STEPS, """One layer's sub-steps
(`Steps`), stepped through once for every tab showing that layer (a lecture hall all looks at the same one); the
few most recent only, as one layer at 512 tokens is several times its trace.""")
cached_layerwise = _per_trace("layerwise", all_layers, MAX_ANALYSES, """Fingerprints, rollout and mixing ratios
(`LayerwiseAnalyses`) in one pass, shared by the Heads, Rollout and Contributions pages.""")
cached_contributions = _per_trace("contributions", layer_contributions, MAX_ANALYSES, """A layer's norm-based
contributions (`LayerContributions`): four T × T matrices.""")
cached_head_view = _per_trace("head_view", lambda t, layer, heads, *rest: head_view_of(t, layer, list(heads), *rest),
                              MAX_VIEWS, """The head view's lines (`HeadView`) of a layer, heads (a tuple: hashed
as part of the key), pair filter, words or pieces, and focus.""")
cached_thumbnails = _per_trace("thumbnails", thumbnails, MAX_VIEWS, """The model view's thumbnails, (L, h, n, n)
at `side` cells a side.""")
cached_nearest_pieces = _per_trace("nearest_pieces", nearest_pieces, MAX_TRACES, """The vocabulary pieces
nearest each layer's vector at a position (`NearestPieces`): (L + 1) × 5 pieces.""")
_lens = _per_trace("lens", logit_lens, MAX_TRACES, "")
cached_value_zeroing = _per_trace("value_zeroing", lambda t, layer: value_zeroing(t, layer), MAX_ANALYSES, """A
layer's value-zeroing map (T × T, Mohebbi et al. 2023): T runs of the layer, batched.""")


def cached_lens(source: str, text: str, pair: str | None, position: int | None) -> LogitLens:
    """The logit lens (`LogitLens`) at a position, through the model's own masked-LM head: (L + 1) × 5 tokens."""
    return _lens(source, "masked-lm", text, pair, position)


def cached_sentence_vectors(source: str, task: str, sentences: tuple[str, ...]) -> list[SentenceVectors]:
    """A few vectors of a few hundred numbers per sentence: small, and shared by every session."""
    model = cached_model(source, task)
    return _sentence_vectors(source, task, model.weights_id, sentences, model)


@st.cache_resource(max_entries=MAX_TRACES, ttl=3600, show_spinner=False)
def _sentence_vectors(source: str, task: str, weights: str, sentences: tuple[str, ...], _model: LoadedModel):
    return sentence_vectors(_model, list(sentences))


def cached_similarity_split(source: str, task: str, a: str, b: str, words: bool) -> SimilaritySplit:
    """Two sentences' cosine split into token pairs: at most 256 × 256 numbers (the bundled model's limit),
    shared by every session."""
    model = cached_model(source, task)
    return _similarity_split(source, task, model.weights_id, a, b, words, model)


@st.cache_resource(max_entries=MAX_TRACES, ttl=3600, show_spinner=False)
def _similarity_split(source: str, task: str, weights: str, a: str, b: str, words: bool, _model: LoadedModel):
    return explain_similarity(_model, a, b, words)


def cached_attribution(source: str, task: str, text: str, spec: tuple, method: str, steps: int,
                       baseline: str) -> Attribution:
    """One method's attributions (`Attribution`) of the target `spec` names (`targets.target_for`'s arguments after
    the text): T numbers and a few more, shared by every session."""
    model = cached_model(source, task)
    return _attribution(source, task, model.weights_id, text, spec, method, steps, baseline, _model=model)


@st.cache_resource(max_entries=MAX_ANALYSES, ttl=3600, show_spinner=False)
def _attribution(source: str, task: str, weights: str, text: str, spec: tuple, method: str, steps: int,
                 baseline: str, _model: LoadedModel) -> Attribution:
    return attribute(target_for(_model, text, *spec), method, steps, baseline)


def cached_faithfulness(source: str, task: str, text: str, spec: tuple, steps: int, baseline: str) -> Faithfulness:
    """Every method's deletion curve (`Faithfulness`) on the target `spec` names: (methods × T) numbers."""
    model = cached_model(source, task)
    return _faithfulness(source, task, model.weights_id, text, spec, steps, baseline, _model=model)


@st.cache_resource(max_entries=MAX_ANALYSES, ttl=3600, show_spinner=False)
def _faithfulness(source: str, task: str, weights: str, text: str, spec: tuple, steps: int, baseline: str,
                  _model: LoadedModel) -> Faithfulness:
    target = target_for(_model, text, *spec)
    return faithfulness(target, method_scores(target, steps, baseline), baseline)


@st.cache_resource(max_entries=MAX_MODELS * 3, show_spinner=False)
def cached_tree(source: str, task: str) -> ModuleNode:
    return module_tree(cached_skeleton(source, task).model)


@st.cache_resource(max_entries=MAX_MODELS, show_spinner=False)
def cached_task_heads(source: str, task: str) -> list[TaskHead]:
    return task_heads(cached_skeleton(source, task).config)
