"""The app's caches stay bounded: a cached trace must not keep a model alive after the model cache let it go."""
from __future__ import annotations

import gc
import weakref

from bertviz_lite.serving import cache
from bertviz_lite.serving.run_key import RunKey


def test_cached_traces_do_not_keep_evicted_models_alive(tiny_dirs):
    cache._load.clear()
    cache._cached_forward.clear()
    sources = list(tiny_dirs.values())
    assert len(sources) > cache.MAX_MODELS
    first = cache.cached_trace(RunKey(sources[0], "base", "the cat sat"))
    first_model = weakref.ref(first.loaded)
    first_steps = first.layer(0)
    del first
    for source in sources[1:]:
        assert cache.cached_trace(RunKey(source, "base", "the cat sat")).layer(0).holds
    gc.collect()
    assert first_model() is None, "an evicted model is still held by the trace cache"
    again = cache.cached_trace(RunKey(sources[0], "base", "the cat sat"))  # trace from the cache, model reloaded
    assert again.loaded is not None and again.layer(0).holds
    assert (again.layer(0)["attn.probs"] == first_steps["attn.probs"]).all()


def test_a_cached_trace_is_never_joined_to_other_weights_under_the_same_name(tmp_path):
    """Weights that change under one name (random weights first, the real ones once they could be downloaded) get
    their own trace: the cache is keyed by what the weights are, not by the model's name alone."""
    from tiny_models import save_tiny_model

    directory = save_tiny_model("bert", str(tmp_path / "model"), seed=0)
    cache._load.clear()
    first = cache.cached_trace(RunKey(directory, "base", "the cat sat"))
    first_id = first.loaded.weights_id
    save_tiny_model("bert", directory, seed=1)  # other weights under the same name
    cache._load.clear()  # the model is evicted and read again
    second = cache.cached_trace(RunKey(directory, "base", "the cat sat"))
    assert second.loaded.weights_id != first_id
    assert not (second.hidden_states == first.hidden_states).all()
    assert second.layer(1).holds  # its own forward, checked against its own weights
    assert cache.cached_layer(RunKey(directory, "base", "the cat sat"), 1).holds
