"""The analyses against independent computations from transformers' own outputs (output_attentions,
output_hidden_states, forward hooks on the model's modules, its masked-LM logits), never from our step-through;
on the tiny models of all five families and on the bundled real model."""
import unicodedata

import numpy as np
import pytest
import torch

from bertviz_lite.closeness import ANOTHER_ROUTE
from bertviz_lite import (BUNDLED_MODEL, InputError, attention_rollout, head_fingerprints, layer_contributions,
                          load_model, logit_lens, merge_to_words, mixing_ratios, trace, word_groups)
from bertviz_lite.analyses.contributions import decompose
from references import array, hooked_outputs, reference_forward
from tiny_models import FAMILY_SPECS

TEXT, PAIR = "the cat sat on the mat, this is a test.", "hello world!"
MODELS = [*FAMILY_SPECS, "bundled"]


def named(tokenizer, ids: list[int]) -> list[str]:
    """The pieces of ids as the tokenizer names them; a row of the word table past its pieces by its id."""
    return [t if t is not None else f"[id {i}]" for i, t in zip(ids, tokenizer.convert_ids_to_tokens(ids))]


@pytest.fixture(scope="module")
def models(tiny_loaded):
    return {**tiny_loaded, "bundled": load_model(BUNDLED_MODEL)}


def punctuation(token):
    for marker in ("##", "Ġ", "▁"):
        token = token.removeprefix(marker)
    return bool(token) and all(unicodedata.category(c).startswith("P") for c in token)


@pytest.mark.parametrize("name", MODELS)
def test_head_fingerprints_equal_the_statistics_of_transformers_attentions(models, name):
    loaded = models[name]
    t = trace(loaded, TEXT, PAIR)
    attentions, _, _ = reference_forward(loaded, t)
    L, H, T, _ = attentions.shape
    sep = [j for j, tok in enumerate(t.tokens) if tok == loaded.tokenizer.sep_token]
    punct = [j for j, tok in enumerate(t.tokens) if punctuation(tok)]
    assert sep and punct
    ours = head_fingerprints(t).stats
    for layer in range(L):
        for head in range(H):
            a = attentions[layer, head]
            expected = {
                "entropy": np.mean([-sum(p * np.log(p) for p in row if p > 0) for row in a]),
                "cls": np.mean([a[i, 0] for i in range(T)]),
                "sep": np.mean([sum(a[i, j] for j in sep) for i in range(T)]),
                "punct": np.mean([sum(a[i, j] for j in punct) for i in range(T)]),
                "self": np.mean([a[i, i] for i in range(T)]),
                "prev": np.mean([a[i, i - 1] for i in range(1, T)]),
                "next": np.mean([a[i, i + 1] for i in range(T - 1)]),
            }
            for stat, value in expected.items():
                assert abs(ours[stat][layer, head] - value) <= 1e-5, (stat, layer, head)


@pytest.mark.parametrize("name", MODELS)
def test_rollout_equals_the_product_of_transformers_attentions(models, name):
    loaded = models[name]
    t = trace(loaded, TEXT, PAIR)
    attentions, _, _ = reference_forward(loaded, t)
    T = attentions.shape[-1]
    product = np.eye(T)
    ours = attention_rollout(t)
    for layer, a in enumerate(attentions):
        mixed = 0.5 * a.mean(axis=0) + 0.5 * np.eye(T)
        product = (mixed / mixed.sum(axis=1, keepdims=True)) @ product
        assert np.abs(ours[layer] - product).max() <= 1e-5
    assert np.allclose(ours[-1].sum(axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_contributions_equal_an_independent_computation_and_the_identities_hold(models, name):
    loaded = models[name]
    t = trace(loaded, TEXT)
    attentions, hidden, _ = reference_forward(loaded, t)
    family = loaded.family
    layers = [family.layer_parts(m) for m in family.layer_modules(loaded.base)]
    outs = hooked_outputs(loaded, t, {p.attn_out for p in layers} | {p.attn_norm for p in layers})
    runs = {}  # ALBERT runs one module L times: take its outputs in order
    for layer, parts in enumerate(layers):
        x, a = hidden[layer], attentions[layer]  # (T, d), (H, T, T)
        H, T, _ = a.shape
        d_h = x.shape[1] // H
        w_v, b_v = array(parts.value.weight), array(parts.value.bias)
        w_o, b_o = array(parts.attn_out.weight), array(parts.attn_out.bias)
        gamma, beta, eps = array(parts.attn_norm.weight), array(parts.attn_norm.bias), parts.attn_norm.eps
        f = [(x @ w_v.T + b_v)[:, h * d_h:(h + 1) * d_h] @ w_o[:, h * d_h:(h + 1) * d_h].T for h in range(H)]
        c = sum(a[h][:, :, None] * f[h][None, :, :] for h in range(H))  # (T, T, d)
        residual = c + np.eye(T)[:, :, None] * x[None, :, :]
        attn_out = outs[id(parts.attn_out)][runs.get(id(parts.attn_out), 0)].numpy()
        attn_norm = outs[id(parts.attn_norm)][runs.get(id(parts.attn_norm), 0)].numpy()
        runs[id(parts.attn_out)] = runs.get(id(parts.attn_out), 0) + 1
        runs[id(parts.attn_norm)] = runs.get(id(parts.attn_norm), 0) + 1
        y = x + attn_out
        s = np.sqrt(y.var(axis=1) + eps)[:, None, None]  # biased variance, as LayerNorm
        g = lambda z: gamma * (z - z.mean(axis=-1, keepdims=True)) / s  # noqa: E731
        # the identities, against the model's own module outputs in transformers' forward
        ANOTHER_ROUTE.assert_close(c.sum(axis=1) + b_o, attn_out)
        rebuilt = g(residual).sum(axis=1) + gamma * (b_o - b_o.mean()) / s[:, 0] + beta
        ANOTHER_ROUTE.assert_close(rebuilt, attn_norm)
        ours = layer_contributions(t, layer)
        scale = np.abs(np.linalg.norm(residual, axis=-1)).max()
        assert np.abs(ours.norm - np.linalg.norm(c, axis=-1)).max() <= 1e-5 * scale
        assert np.abs(ours.norm_residual - np.linalg.norm(residual, axis=-1)).max() <= 1e-5 * scale
        assert np.abs(ours.norm_residual_ln - np.linalg.norm(g(residual), axis=-1)).max() <= 1e-5 * np.abs(
            np.linalg.norm(g(residual), axis=-1)).max()
        assert np.abs(ours.attention - a.mean(axis=0)).max() <= 1e-6
        assert ours.out_holds and ours.norm_holds
        m = np.linalg.norm(g(residual), axis=-1)
        expected = np.mean([(m[i].sum() - m[i, i]) / m[i].sum() for i in range(T)])
        assert abs(ours.mixing()["norm_residual_ln"] - expected) <= 1e-5


def test_the_checks_fail_when_a_weight_is_changed(models):
    """The identities are real checks: change one weight in the decomposition and they no longer hold."""
    t = trace(models["bundled"], TEXT)
    parts, layer = t.layer_parts(1), 1
    x, probs = torch.from_numpy(t.hidden_states[layer]), torch.from_numpy(t.attention(layer))
    steps = t.layer(layer)
    refs = (torch.from_numpy(steps["attn.out"]), torch.from_numpy(steps["attn.norm"]))
    ln = parts.attn_norm
    weights = dict(w_v=parts.value.weight, b_v=parts.value.bias, w_o=parts.attn_out.weight,
                   b_o=parts.attn_out.bias, gamma=ln.weight, beta=ln.bias)
    honest = decompose(x, probs, **weights, eps=ln.eps, attn_out=refs[0], attn_norm=refs[1])
    assert honest.out_holds and honest.norm_holds
    for name in weights:
        changed = dict(weights, **{name: weights[name] + 0.05})
        broken = decompose(x, probs, **changed, eps=ln.eps, attn_out=refs[0], attn_norm=refs[1])
        assert max(broken.out_diff, broken.norm_diff) > 1e-3 and not (broken.out_holds and broken.norm_holds), name


def test_mixing_ratios_cover_every_layer_and_raw_attention_overstates_mixing(models):
    result = mixing_ratios(trace(models["bundled"], "the quick brown fox jumps over the lazy dog."))
    assert all(len(v) == 6 for v in result.ratios.values()) and result.max_abs_diff <= 1e-4
    assert all(ln < att for ln, att in zip(result.ratios["norm_residual_ln"], result.ratios["attention"]))


HEADS = {  # each family's masked-LM head as its transformers forward applies it, written out independently
    "bert": lambda m, h: m.cls(h), "roberta": lambda m, h: m.lm_head(h), "albert": lambda m, h: m.predictions(h),
    "electra": lambda m, h: m.generator_lm_head(m.generator_predictions(h)),
    "distilbert": lambda m, h: m.vocab_projector(m.vocab_layer_norm(m.activation(m.vocab_transform(h)))),
}


@pytest.mark.parametrize("name", FAMILY_SPECS)
def test_logit_lens_through_the_models_own_head(tiny_dirs, name):
    loaded = load_model(tiny_dirs[name], "masked-lm")
    mask = loaded.tokenizer.mask_token
    t = trace(loaded, f"the cat {mask} on the mat")
    _, _, inputs = reference_forward(loaded, t)
    with torch.inference_mode():
        out = loaded.model(**inputs, output_hidden_states=True)
    position = t.tokens.index(mask)
    lens = logit_lens(t)
    assert lens.position == position and len(lens.layers) == t.num_layers + 1
    assert lens.holds
    for layer, hidden in enumerate(out.hidden_states):
        with torch.inference_mode():
            probs = torch.softmax(HEADS[name](loaded.model, hidden[0, position]), dim=-1)
        best = probs.topk(5)
        assert [tok for tok, _ in lens.layers[layer]] == named(loaded.tokenizer, best.indices.tolist())
        assert np.allclose([p for _, p in lens.layers[layer]], best.values.numpy(), atol=1e-5)
    top_of_model = torch.softmax(out.logits[0, position], -1).argmax().item()
    assert lens.layers[-1][0][0] == named(loaded.tokenizer, [top_of_model])[0]


def test_logit_lens_refuses_a_head_that_is_not_trained(tiny_dirs):
    with pytest.raises(InputError, match="no trained masked-LM head"):
        logit_lens(trace(load_model(BUNDLED_MODEL, "masked-lm"), "the cat [MASK] on the mat"))
    with pytest.raises(InputError, match="random weights"):
        logit_lens(trace(load_model("distilbert-base-uncased", "masked-lm"), "the cat [MASK] on the mat"))
    with pytest.raises(InputError, match="masked-LM task"):
        logit_lens(trace(load_model(tiny_dirs["bert"]), "the cat [MASK] sat"))


def test_logit_lens_position_without_a_mask(tiny_dirs):
    t = trace(load_model(tiny_dirs["bert"], "masked-lm"), "the cat sat")
    with pytest.raises(InputError, match="no \\[MASK\\] token"):
        logit_lens(t)
    with pytest.raises(InputError, match="no position 9"):
        logit_lens(t, position=9)
    assert logit_lens(t, position=2).position == 2


def test_word_level_merges_pieces_sum_to_and_mean_from():
    t = trace(load_model("bert-base-uncased"), "this is a 12212121 test", "second one")
    groups, labels = word_groups(t)
    assert labels == ["[CLS]", "this", "is", "a", "12212121", "test", "[SEP]", "second", "one", "[SEP]"]
    probs = t.attention(0)[3]  # (T, T)
    words = merge_to_words(probs, groups)
    w = labels.index("12212121")
    pieces = groups[w]
    assert np.isclose(words[1, w], probs[1, pieces].sum())  # to a word: the sum over its pieces
    assert np.isclose(words[w, 1], probs[pieces, 1].mean())  # from a word: the mean over its pieces
    assert np.allclose(words.sum(axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("name", ["albert", "bundled"])
def test_one_pass_over_the_layers_gives_the_same_analyses(models, name):
    from bertviz_lite import all_layers

    t = trace(models[name], TEXT, PAIR)
    together = all_layers(t)
    assert np.array_equal(together.rollout, attention_rollout(t))
    alone = head_fingerprints(t).stats
    assert all(np.array_equal(together.fingerprints.stats[s], alone[s]) for s in alone)
    assert together.mixing.ratios == mixing_ratios(t).ratios
