"""The app's caches stay bounded: a cached trace must not keep a model alive after the model cache let it go."""
from __future__ import annotations

import gc
import weakref

from bertviz_lite.serving import cache


def test_cached_traces_do_not_keep_evicted_models_alive(tiny_dirs):
    cache._load.clear()
    cache._cached_forward.clear()
    sources = list(tiny_dirs.values())
    assert len(sources) > cache.MAX_MODELS
    first = cache.cached_trace(sources[0], "base", "the cat sat", None)
    first_model = weakref.ref(first.loaded)
    first_steps = first.layer(0)
    del first
    for source in sources[1:]:
        assert cache.cached_trace(source, "base", "the cat sat", None).layer(0).max_abs_diff < 1e-5
    gc.collect()
    assert first_model() is None, "an evicted model is still held by the trace cache"
    again = cache.cached_trace(sources[0], "base", "the cat sat", None)  # trace from the cache, model reloaded
    assert again.loaded is not None and again.layer(0).max_abs_diff < 1e-5
    assert (again.layer(0)["attn.probs"] == first_steps["attn.probs"]).all()
