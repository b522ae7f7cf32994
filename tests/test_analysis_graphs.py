"""The analyses a live site's browser runs (export/analysis_graphs.py: the package's own torch functions as ONNX
graphs), run by onnxruntime in Python as the manifest says to feed them, on a sentence of another length than the one
they were exported with, against the app's own analyses of that sentence (analyses/all_layers.py, contributions.py,
nearest_pieces.py, similarity.py, similarity_split.py): within closeness.ANOTHER_ROUTE on every family's tiny model,
the bundled model and a tiny sentence-transformers checkpoint of every pooling mode. The browser's own run of them is
tests/test_export_live.py's."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.analyses.all_layers import all_layers
from bertviz_lite.analyses.contributions import layer_contributions
from bertviz_lite.analyses.residual_stream import layer_changes
from bertviz_lite.analyses.head_fingerprints import STATS, STRIKING, striking_heads
from bertviz_lite.analyses.nearest_pieces import narrower_table, nearest_pieces
from bertviz_lite.analyses.pieces import piece_names
from bertviz_lite.analyses.similarity import vectors_of
from bertviz_lite.analyses.similarity_split import split_traces
from bertviz_lite.closeness import ANOTHER_ROUTE
from bertviz_lite.export.analysis_graphs import write_graphs
from bertviz_lite.export.attention import attention_templates, attention_views
from bertviz_lite.analyses.page_views import fingerprint_grid
from bertviz_lite.export.analyses import heads_templates
from bertviz_lite.export.screens import SCREENS, for_screens
from bertviz_lite.figures.style import plotly_text
from bertviz_lite.figures.template import filled, value_of
from bertviz_lite.export.every_step import run_values
from figure_json import differences, plain_figure
from tiers import each_family, slow

ort = pytest.importorskip("onnxruntime")
EXPORTED = "the bank of the river"
OTHER = "a longer sentence, which the graphs were not exported with: they take any length!"
POSITION = 3
COMPARED = ["the cat sat on the mat", "rivers and banks, and a bank of the river"]  # a site's sentences to compare


def run(loaded, graph: dict, folder, values: dict, weights: dict | None = None) -> dict[str, np.ndarray]:
    """A graph run as the browser runs it: each input from where its manifest says (`weights` in place of the
    model's own where given)."""
    feeds = {}
    for name, (kind, *where) in graph["inputs"].items():
        if kind == "weight":
            own = getattr(loaded.base.get_submodule(where[0]), where[1]).detach().float().numpy()
            feeds[name] = (weights or {}).get(name, own)
        elif kind == "given":
            feeds[name] = np.array(POSITION, dtype=np.int64)
        else:
            feeds[name] = values[where[0]].numpy()
    session = ort.InferenceSession(str(folder / graph["graph"]), providers=["CPUExecutionProvider"])
    return dict(zip(graph["outputs"], session.run(None, feeds)))


def graphs_and_run(loaded, tmp_path, compared: list = ()):
    manifest = write_graphs(loaded, run_values(loaded, trace(loaded, EXPORTED)), tmp_path, lambda path: path.name,
                            compared)
    return manifest, run_values(loaded, trace(loaded, OTHER)), trace(loaded, OTHER)


def check_similarity(loaded, tmp_path) -> None:
    """The sentence vector and a typed sentence's cosines and splits with the site's sentences, against the app's
    `vectors_of` and `split_traces` (the split cell by cell, the rows it reads, the strongest pairs' order)."""
    most = loaded.sentence_pooling and loaded.sentence_pooling.max_tokens
    compared = [trace(loaded, text, max_tokens=most) for text in COMPARED]
    manifest, values, t = graphs_and_run(loaded, tmp_path, compared)
    ways = vectors_of(loaded, [t, *compared])
    ANOTHER_ROUTE.assert_close(run(loaded, manifest["vector"], tmp_path, values)["vector"], ways[0].vectors[0],
                               "the sentence vector")
    got = run(loaded, manifest["similarity"], tmp_path, values)
    assert got["cosines"].shape == (len(ways), len(compared))
    for w, way in enumerate(ways):
        ANOTHER_ROUTE.assert_close(got["cosines"][w], way.cosine()[0, 1:], way.name)
    for k, theirs in enumerate(compared, start=1):
        split = split_traces(t, theirs)
        ANOTHER_ROUTE.assert_close(got[f"split.{k}.cells"], split.pairs, f"split {k}")
        assert got[f"split.{k}.rows"].tolist() == split.positions_a
        ANOTHER_ROUTE.assert_close(got[f"split.{k}.cosine"], split.cosine, "cosine")
        ANOTHER_ROUTE.assert_close(got[f"split.{k}.total"], split.total, "total")
        cells = got[f"split.{k}.cells"]
        strongest = [(split.tokens_a[i], split.tokens_b[j]) for i, j in
                     zip(*np.unravel_index(got[f"split.{k}.by_size"][:3], cells.shape))]
        assert strongest == [(a, b) for a, b, _ in split.strongest()]


def check_against_the_app(loaded, tmp_path) -> None:
    manifest, values, t = graphs_and_run(loaded, tmp_path)
    app = all_layers(t)
    got = run(loaded, manifest["attention"], tmp_path, values)
    for k, stat in enumerate(STATS):
        ANOTHER_ROUTE.assert_close(got["fingerprints"][k], app.fingerprints.stats[stat], stat)
    ANOTHER_ROUTE.assert_close(got["rollout"], app.rollout, "rollout")
    stream = run(loaded, manifest["stream"], tmp_path, values)  # the tour's residual stream
    ANOTHER_ROUTE.assert_close(stream["cosines"], layer_changes(t), "how much each layer turns each vector")
    ANOTHER_ROUTE.assert_close(stream["lengths"], np.linalg.norm(t.hidden_states.astype(np.float64), axis=-1),
                               "each vector's length")
    heads = got["fingerprints"].shape[2]  # the heads in order of their strongest statistic: the striking ones first
    striking = [(int(i) // heads, int(i) % heads, STATS[s]) for i, s, v in
                zip(got["striking_order"], got["striking_stat"], got["striking_value"]) if v >= STRIKING][:12]
    assert striking == [(layer, head, stat) for layer, head, stat, _ in striking_heads(app.fingerprints, most=12)]

    spec = manifest["contributions"]
    got = run(loaded, spec, tmp_path, values)
    for row, name in enumerate(spec["matrices"]):
        ANOTHER_ROUTE.assert_close(got["mixing"][row], app.mixing.ratios[name], f"mixing ratio, {name}")
    assert app.mixing.ratios["norm_residual_ln"] is None or "norm_residual_ln" in spec["matrices"]
    for layer, checks in enumerate(spec["checks"]):
        own = layer_contributions(t, layer)
        for name in spec["matrices"]:
            ANOTHER_ROUTE.assert_close(got[f"contributions.{layer}.{name}"], getattr(own, name), f"{layer}: {name}")
        for rebuilt, step in checks:  # what the browser's check lines compare
            assert ANOTHER_ROUTE.holds(got[rebuilt], values[step].numpy()), (rebuilt, step)

    if narrower_table(loaded) is None:
        got = run(loaded, manifest["nearest"], tmp_path, values)
        app_nearest = nearest_pieces(t, POSITION).layers
        ANOTHER_ROUTE.assert_close(got["cosines"], [[c for _, c in layer] for layer in app_nearest], "cosines")
        assert [piece_names(loaded.tokenizer, ids.tolist()) for ids in got["ids"]] == \
               [[piece for piece, _ in layer] for layer in app_nearest]
    else:
        assert "nearest" not in manifest
    check_similarity(loaded, tmp_path)
    own = {feed[1]: torch.from_numpy(t.attention(layer))  # the trace's own attention: the figures' numbers exactly
           for layer, feed in enumerate(manifest["views"]["inputs"].values())}
    check_views(loaded, t, run(loaded, manifest["views"], tmp_path, own))
    check_heads_figures(t, run(loaded, manifest["attention"], tmp_path, {**values, **own})["fingerprints"], app)


def check_heads_figures(t, fingerprints: np.ndarray, app) -> None:
    """A typed sentence's Heads grids, their templates (export/analyses.py heads_templates) filled in Python with
    the attention graph's fingerprints (7, L, H), are the figures the app draws for each statistic, on every screen
    (colour range included: the entropy's runs past 1)."""
    templates = heads_templates(t.num_layers, t.num_heads)
    for k, stat in enumerate(STATS):
        drawn = for_screens(lambda lecture: fingerprint_grid(app.fingerprints, stat))
        for screen in SCREENS:
            found = differences(plain_figure(filled(templates[stat][screen], {"z": fingerprints[k]})),
                                plain_figure(drawn[screen]))
            assert not found, (stat, screen, found[:8])


def check_views(loaded, t, got: dict) -> None:
    """A typed sentence's head and model views, their templates (export/attention.py attention_templates) filled in
    Python with what the `views` graph gives, are the figures the app draws for an exported sentence: leaf for leaf,
    for every screen and layer. The browser's filling is test_export_live.py's."""
    views, config = attention_views(t), loaded.base.config
    templates = attention_templates(config.num_hidden_layers, config.num_attention_heads)
    names = {"n": len(t.tokens), "labels": [plotly_text(token) for token in t.tokens]}
    for screen in SCREENS:
        for layer, drawn in enumerate(views["head"]):
            lines = {name: got[f"{name}.{layer}"] for name in ("x", "y", "points")}
            found = differences(plain_figure(filled(templates["head"][screen], {**names, "layer": layer, **lines})),
                                plain_figure(drawn[screen]))
            assert not found, (screen, layer, found[:8])
            assert value_of(templates["scrolls"], names) == drawn["scrolls"]
        thumbnails = {"canvas": got["canvas"], "placing": got["placing"], "side": float(got["side"])}
        found = differences(plain_figure(filled(templates["model"][screen], {**names, **thumbnails})),
                            plain_figure(views["model"][screen]))
        assert not found, (screen, found[:8])


@pytest.mark.parametrize("family", each_family())
def test_each_familys_analysis_graphs_give_the_apps_numbers_on_another_length(family, every_tiny_dir, tmp_path):
    check_against_the_app(load_model(every_tiny_dir[family]), tmp_path)


@slow
def test_the_bundled_models_analysis_graphs_give_the_apps_numbers(tmp_path):
    check_against_the_app(load_model(BUNDLED_MODEL), tmp_path)


def test_the_contributions_checks_fail_when_the_browser_reads_another_w_o(every_tiny_dir, tmp_path):
    """The checks the browser shows are real: W_O read wrong, and neither rebuilt sum equals the run's."""
    loaded = load_model(every_tiny_dir["bert"])
    manifest, values, _ = graphs_and_run(loaded, tmp_path)
    spec = manifest["contributions"]
    w_o = next(name for name, (kind, *_) in spec["inputs"].items() if kind == "weight" and name.endswith(".weight"))
    own = dict(run(loaded, spec, tmp_path, values))
    weight = own_weight(loaded, w_o)  # changed by noise: a constant shift of every output would cancel in LayerNorm
    wrong = run(loaded, spec, tmp_path, values, {w_o: weight + 0.05 * np.random.default_rng(0).standard_normal(
        weight.shape, dtype=np.float32)})
    (rebuilt_out, step_out), (rebuilt_norm, step_norm) = spec["checks"][0]
    assert ANOTHER_ROUTE.holds(own[rebuilt_out], values[step_out].numpy())
    assert not ANOTHER_ROUTE.holds(wrong[rebuilt_out], values[step_out].numpy())
    assert not ANOTHER_ROUTE.holds(wrong[rebuilt_norm], values[step_norm].numpy())


def own_weight(loaded, name: str) -> np.ndarray:
    module, kind = name.rsplit(".", 1)
    return getattr(loaded.base.get_submodule(module), kind).detach().float().numpy()


MODES = [("mean",), ("cls",), ("max",), ("lasttoken",), ("weightedmean",), ("mean_sqrt_len_tokens",),
         ("cls", "mean", "max")]


@pytest.mark.parametrize("modes", MODES, ids="+".join)
def test_the_similarity_graphs_pool_as_each_pooling_mode(tiny_dirs, tmp_path, modes):
    """A sentence-transformers checkpoint of each pooling mode (Normalize after it): the typed sentence's vector,
    cosines and splits as the app makes them, for a length the graphs were not exported with."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer

    encoder = Transformer(tiny_dirs["bert"], max_seq_length=24)
    pooling = Pooling(encoder.get_embedding_dimension(), list(modes) if len(modes) > 1 else modes[0])
    SentenceTransformer(modules=[encoder, pooling, Normalize()], device="cpu").save(str(tmp_path / "model"))
    (tmp_path / "graphs").mkdir()
    check_similarity(load_model(str(tmp_path / "model")), tmp_path / "graphs")
