"""The architecture without weights (load_skeleton): what the Overview and Architecture pages show at once. It
must be the very model load_model gives, less the numbers: same names, shapes, counts, banner and origin."""
from __future__ import annotations

import pytest

from bertviz_lite import BUNDLED_MODEL, LoadError, load_model
from bertviz_lite.introspection.params import parameter_table
from bertviz_lite.loading.limits import Limits
from bertviz_lite.loading.loader import load_skeleton
from bertviz_lite.serving import cache, process
from bertviz_lite.serving.run_key import RunKey
from app_pages.shell import turns
from apptest import open_page


def _same_architecture(skeleton, loaded) -> None:
    assert not skeleton.has_weights and loaded.has_weights
    assert parameter_table(skeleton.model).equals(parameter_table(loaded.model))
    assert type(skeleton.model) is type(loaded.model) and skeleton.family is loaded.family
    for what in ("weights_kind", "origin", "vocabulary", "warning", "bundled", "max_tokens"):
        assert getattr(skeleton, what) == getattr(loaded, what), what


@pytest.mark.parametrize("task", ["base", "masked-lm", "sequence-classification"])
def test_a_preset_skeleton_is_the_loaded_preset_less_its_numbers(task):
    _same_architecture(load_skeleton("bert-base-uncased", task), load_model("bert-base-uncased", task))


def test_the_bundled_model_and_local_directories_as_skeletons(tiny_dirs, new_tiny_dirs):
    _same_architecture(load_skeleton(BUNDLED_MODEL), load_model(BUNDLED_MODEL))
    for directory in [*tiny_dirs.values(), *new_tiny_dirs.values()]:
        _same_architecture(load_skeleton(directory, "masked-lm"), load_model(directory, "masked-lm"))


def test_a_skeleton_refuses_what_load_model_refuses(tmp_path):
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')  # a config but no weights
    for source in ("", str(tmp_path / "missing"), str(tmp_path), "no-such-org/no-such-model"):
        with pytest.raises(LoadError) as from_load:
            load_model(source)
        with pytest.raises(LoadError) as from_skeleton:
            load_skeleton(source)
        assert str(from_skeleton.value) == str(from_load.value)
    with pytest.raises(LoadError, match="does not open directories on its server"):
        load_skeleton(str(tmp_path), limits=Limits(allow_local_dirs=False, max_parameters=None))
    with pytest.raises(LoadError, match="parameters"):
        load_skeleton("bert-large-uncased", limits=Limits(max_parameters=200_000_000))


def test_overview_and_architecture_read_no_weights(monkeypatch):
    def no_weights(*args, **kwargs):
        raise AssertionError("a page that shows only the architecture loaded weights")

    cache._load.clear()
    process.warming.cache_clear()
    monkeypatch.setattr(cache, "load_model", no_weights)
    monkeypatch.setattr(turns, "warming", lambda *args: None)  # the background warm-up loads, by design
    for page in ("overview", "architecture"):
        at = open_page(page, model="bert-large-uncased")
        assert not at.exception and not at.error, (page, [e.value for e in at.error])
        assert any("Random weights" in w.value for w in at.warning), "the banner of the weights to come is missing"


def test_the_first_run_warms_the_default_view_in_the_background(monkeypatch):
    traced = []
    original = cache.trace
    monkeypatch.setattr(cache, "trace", lambda *args: traced.append(args[1:]) or original(*args))
    process.warming.cache_clear()
    cache._cached_forward.clear()
    open_page("overview")
    from app_pages.shell.state import DEFAULTS, opening_model
    model = opening_model()  # what a link naming no model opens (offline here: the bundled model)
    warm_up = process.warming(model, DEFAULTS["task"], DEFAULTS["text"])  # the thread the run started
    warm_up.join(120)
    assert traced == [(DEFAULTS["text"], None)]
    cache.cached_trace(RunKey(model, DEFAULTS["task"], DEFAULTS["text"]))
    assert len(traced) == 1, "the default view was traced again: the warm-up did not fill the cache"
