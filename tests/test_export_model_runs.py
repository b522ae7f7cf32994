"""The site's Interventions, Attributions and Contexts pages (issue 55: a lecture with no dead ends), computed when
the site is written (bertviz_lite/export/model_runs.py), against computations of the test's own on transformers'
modules: the heads offered are each layer's strongest by a head switched off with a hook, and each shift and value
zeroing map is the hooked model's; the contexts' cosines are transformers' hidden states'; the attributions are the
app's own (tests/test_attribution.py checks those against Captum)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model, trace
from bertviz_lite.analyses.contexts import DEFAULT_CONTEXTS
from bertviz_lite.attributing.deletion import faithfulness, method_scores
from bertviz_lite.attributing.gradients import METHODS, attribute
from bertviz_lite.attributing.targets import target_for
from bertviz_lite.tour.lecture import DEFAULT_OTHER
from bertviz_lite.export.model_runs import STRONGEST, attributions_page, contexts_page, interventions_page
from figure_json import plain_figure
from test_interventions import head_off_hook, transformers_states, value_zero_hook

TEXT = "the old man walked slowly along the river bank"
LECTURE_HEAD = (0, 2)  # the lecture's Interventions stop: off=0.2


@pytest.fixture(scope="module")
def loaded():
    return load_model(BUNDLED_MODEL)


@pytest.fixture(scope="module")
def t(loaded):
    return trace(loaded, TEXT)


def cosine_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = a.astype(np.float64), b.astype(np.float64)
    return 1 - (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


def shown(item: dict, screen: str = "browse") -> list[dict]:
    return plain_figure(item["figure"][screen])["data"]


def test_the_heads_offered_are_each_layers_strongest_and_each_shift_is_the_hooked_models(t):
    page, apart = interventions_page(t)
    parts = dict(apart)
    before = transformers_states(t)  # (L + 1, T, d)
    shifts = {(layer, head): cosine_distance(before, transformers_states(t, hooks=[head_off_hook(t, layer, head)]))
              for layer in range(t.num_layers) for head in range(t.num_heads)}  # each (L + 1, T)
    offered = [tuple(int(n) for n in value.split(".")) for value, _ in page["pickers"][0]["options"]]
    for layer in range(t.num_layers):
        moved = sorted(((shifts[layer, h][-1].mean(), h) for h in range(t.num_heads)), reverse=True)
        assert moved[STRONGEST - 1][0] - moved[STRONGEST][0] > 1e-6, "a tie: the test cannot tell the strongest"
        strongest = {(layer, h) for _, h in moved[:STRONGEST]}
        assert strongest <= set(offered) and {o for o in offered if o[0] == layer} <= strongest | {LECTURE_HEAD}
    assert LECTURE_HEAD in offered and page["pickers"][0]["value"] == "0.2"
    for layer, head in offered:
        item = parts[page["panels"][0]["items"][f"{layer}.{head}"]["part"]]
        z = np.array(shown(item)[0]["z"], dtype=np.float64)  # (L + 1, T)
        np.testing.assert_allclose(z, shifts[layer, head], atol=2e-5)
        assert f"Head {head} of layer {layer} off." in item["said"][0]
        assert all(figure for figure in item["figure"].values())  # a figure for each screen


def test_each_value_zeroing_map_is_the_hooked_models(t):
    page, apart = interventions_page(t)
    parts = dict(apart)
    layer, tokens = 1, len(t.tokens)
    before = transformers_states(t)[layer + 1]  # (T, d): layer 1's output
    moved = np.stack([cosine_distance(before, transformers_states(t, hooks=[value_zero_hook(t, layer, j)])[layer + 1])
                      for j in range(tokens)], axis=1)  # (T, T): row i, column j: token i moved by zeroing j
    expected = moved / moved.sum(axis=1, keepdims=True)
    item = parts[page["panels"][1]["items"][str(layer)]["part"]]
    np.testing.assert_allclose(np.array(shown(item)[0]["z"], dtype=np.float64), expected, atol=2e-5)
    assert sorted(page["panels"][1]["items"], key=int) == [str(k) for k in range(t.num_layers)]  # every layer's


def test_the_attributions_are_the_apps_at_its_defaults(loaded, t):
    page, _ = attributions_page(loaded, t)
    target = target_for(loaded, TEXT, "similarity", DEFAULT_OTHER)
    bars = page["panels"][0]["items"]
    assert sorted(bars) == sorted(METHODS) and page["pickers"][0]["value"] == "ig"
    for method in METHODS:
        result = attribute(target, method)
        np.testing.assert_allclose(shown(bars[method])[0]["y"], result.scores, rtol=1e-6, atol=1e-9)
        assert f"Σ attributions {result.total:.4f}".replace("-", "−") in bars[method]["said"][0]
    found = faithfulness(target, method_scores(target), "pad")
    drawn = [np.array(line["y"], dtype=np.float64) for line in shown(page["panels"][1]["items"][""])]
    assert len(drawn) == len(found.curves)
    for curve in found.curves.values():  # each method's deletion curve drawn
        assert any(len(y) == len(curve) and np.allclose(y, curve, atol=1e-9) for y in drawn)
    assert "most faithful" in page["panels"][1]["items"][""]["said"][0]


def test_the_contexts_cosines_are_transformers_hidden_states(loaded):
    page, _ = contexts_page(loaded)
    a, b, word = DEFAULT_CONTEXTS
    tokenizer = loaded.tokenizer

    def vectors(sentence: str) -> np.ndarray:  # (L + 1, d): the word's first occurrence, its pieces' mean
        encoded = tokenizer(sentence, return_tensors="pt")
        with torch.inference_mode():
            states = torch.stack(loaded.base(**encoded, output_hidden_states=True).hidden_states)[:, 0].numpy()
        words = encoded.word_ids()
        first = next(w for w in words if w is not None and sentence.split()[w] == word)
        return states[:, [i for i, w in enumerate(words) if w == first]].mean(axis=1)

    va, vb = vectors(a), vectors(b)
    expected = (va * vb).sum(-1) / (np.linalg.norm(va, axis=-1) * np.linalg.norm(vb, axis=-1))
    line = shown(page["panels"][0]["items"][""])[0]
    np.testing.assert_allclose(line["y"], expected, atol=1e-5)
    assert line["name"] == word
