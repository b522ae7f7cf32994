"""A cached view costs little: one layer's sub-steps and each figure are computed once for every tab that shows
them, and a tab gets exactly the figure it would have got from scratch."""
from __future__ import annotations

import numpy as np

import bertviz_lite.figures
from bertviz_lite.serving import cache, process
from bertviz_lite.serving.run_key import RunKey
from apptest import open_page, specs

LINK = dict(model="bert-base-uncased", text="the bank of the river", layer=2, head=3, step="attn.probs")


def test_a_layer_is_stepped_through_once_for_every_tab(tiny_dirs):
    source = next(iter(tiny_dirs.values()))
    cache.cached_layer.clear()
    first = cache.cached_layer(RunKey(source, "base", "the cat sat"), 1)
    assert cache.cached_layer(RunKey(source, "base", "the cat sat"), 1) is first
    fresh = cache.cached_trace(RunKey(source, "base", "the cat sat")).layer(1)
    assert list(first) == list(fresh)
    assert all(np.array_equal(first[k], fresh[k]) for k in fresh)
    assert cache.cached_layer(RunKey(source, "base", "the cat sat"), 2) is not first


def test_each_cached_analysis_keeps_its_own_store(tiny_dirs):
    """The cached analyses are made by one factory, from functions of the same source: asked with the same
    arguments (and the same bounds, which Streamlit also keys by), each still answers with its own result (one
    shared store would hand out the first one's)."""
    from bertviz_lite.analyses.logit_lens import LogitLens
    from bertviz_lite.analyses.nearest_pieces import NearestPieces

    source = next(iter(tiny_dirs.values()))
    assert isinstance(cache.cached_nearest_pieces(RunKey(source, "masked-lm", "the cat sat"), 2), NearestPieces)
    assert isinstance(cache.cached_lens(RunKey(source, "masked-lm", "the cat sat"), 2), LogitLens)
    assert isinstance(cache.cached_nearest_pieces(RunKey(source, "masked-lm", "the cat sat"), 2), NearestPieces)


def test_a_figure_is_built_once_per_key():
    built = []

    def build():
        built.append(1)
        return object()

    cache.cached_figure.clear()
    one = cache.cached_figure(("a view", 1), build)
    assert cache.cached_figure(("a view", 1), build) is one and len(built) == 1
    assert cache.cached_figure(("a view", 2), build) is not one and len(built) == 2


def _counting(monkeypatch, name: str) -> list:
    """Count the calls of figure `name`, wherever the app took it from (bertviz_lite.figures, or a module of the
    Layers stepper that imported it once)."""
    import app_pages.stepper.canvas
    import app_pages.stepper.stages

    calls, original = [], getattr(bertviz_lite.figures, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    for module in (bertviz_lite.figures, app_pages.stepper.canvas, app_pages.stepper.stages):
        if getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, counted)
    return calls


def test_tabs_opening_one_link_share_its_figures_and_see_the_same_view(monkeypatch):
    cache.cached_figure.clear()
    heatmaps, grids = _counting(monkeypatch, "attention_heatmap"), _counting(monkeypatch, "head_grid")
    first = open_page("layers", **LINK, lecture=1)
    second = open_page("layers", **LINK, lecture=1)
    assert not first.exception and not second.exception
    assert len(heatmaps) == 1 and len(grids) == 1, "the second tab rebuilt a figure it could have reused"
    assert specs(first) == specs(second)
    other_head = open_page("layers", **{**LINK, "head": 4}, lecture=1)
    assert len(heatmaps) == 2 and specs(other_head) != specs(first)


def test_a_cached_figure_is_styled_for_the_mode_it_is_shown_in(monkeypatch):
    cache.cached_figure.clear()
    lecture = specs(open_page("layers", **LINK, lecture=1))[0]["layout"]
    browsing = specs(open_page("layers", **LINK))[0]["layout"]
    lecture_again = specs(open_page("layers", **LINK, lecture=1))[0]["layout"]
    assert lecture["font"]["size"] > browsing.get("font", {}).get("size", 16)
    assert lecture_again == lecture, "styling a figure for one tab changed the cached figure of another"


def test_a_tab_waits_its_turn_in_line_then_draws_its_page():
    import threading
    import time

    queue = process.page_queue()
    places = [queue.turn() for _ in range(queue.capacity)]
    for place in places:  # every place taken, as by runs of other tabs
        place.__enter__()
    opened = {}
    tab = threading.Thread(target=lambda: opened.setdefault("at", open_page("tokens", text="the cat sat")))
    try:
        tab.start()
        deadline = time.time() + 60
        while queue.waiting() == 0:  # the tab's first page run is in line
            assert time.time() < deadline and tab.is_alive(), "the page never queued"
            time.sleep(0.01)
        time.sleep(0.3)
        assert "at" not in opened, "a page ran while every place was taken"
    finally:
        for place in places:
            place.__exit__(None, None, None)
    tab.join(120)
    assert queue.running() == 0 and queue.waiting() == 0
    page = opened["at"]
    assert not page.exception and any(">cat<" in chip.proto.body for chip in page.get("html")), "no token chips"


def test_a_full_run_of_layers_loads_the_model_once_and_traces_the_sentence_once(monkeypatch, tiny_dirs):
    """The page builds its run's key once and asks the caches by it: one model and one trace per full run, the
    stepper's included (it is handed the page's), with a cell explained."""
    import collections

    from streamlit.testing.v1 import AppTest

    from apptest import APP, PAGES
    from app_pages.shell import guarded

    calls = collections.Counter()
    for name in ("cached_model", "cached_trace"):
        real = getattr(guarded, name)
        monkeypatch.setattr(guarded, name, lambda *a, real=real, name=name: calls.update([name]) or real(*a))
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in dict(model=tiny_dirs["bert"], text="the cat sat", layer=1, step="attn.scores",
                           cell="1,2").items():
        at.query_params[key] = str(value)
    at.run()
    calls.clear()
    at.switch_page(PAGES["layers"]).run()
    assert not at.exception and not at.error
    assert calls == {"cached_model": 1, "cached_trace": 1}
