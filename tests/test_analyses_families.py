"""The analyses on the families beyond BERT's layer, against independent computations from transformers' own
outputs (output_attentions, hooks on the model's own modules, its masked-LM logits), as test_analyses.py does for
the older families."""
import numpy as np
import pytest
import torch

from bertviz_lite.closeness import ANOTHER_ROUTE
from bertviz_lite import attention_rollout, head_fingerprints, layer_contributions, load_model, logit_lens, trace
from tiny_models import NEW_FAMILY_SPECS
from references import array, hooked_outputs, reference_forward

TEXT, PAIR = "the cat sat on the mat, this is a test.", "hello world!"


def named(tokenizer, ids: list[int]) -> list[str]:
    """The pieces of ids as the tokenizer names them; a row of the word table past its pieces by its id."""
    return [t if t is not None else f"[id {i}]" for i, t in zip(ids, tokenizer.convert_ids_to_tokens(ids))]


@pytest.mark.parametrize("name", NEW_FAMILY_SPECS)
def test_fingerprints_and_rollout_from_transformers_attentions(new_tiny_loaded, name):
    loaded = new_tiny_loaded[name]
    t = trace(loaded, TEXT, PAIR)
    attentions, _, _ = reference_forward(loaded, t)
    L, H, T, _ = attentions.shape
    stats, rollout, product = head_fingerprints(t).stats, attention_rollout(t), np.eye(T)
    for layer, a in enumerate(attentions):
        assert np.abs(stats["cls"][layer] - a[:, :, 0].mean(axis=1)).max() <= 1e-5
        assert np.abs(stats["self"][layer] - np.einsum("hii->hi", a).mean(axis=1)).max() <= 1e-5
        assert np.abs(stats["prev"][layer] - np.array([np.mean([a[h, i, i - 1] for i in range(1, T)])
                                                       for h in range(H)])).max() <= 1e-5
        mixed = 0.5 * a.mean(axis=0) + 0.5 * np.eye(T)
        product = (mixed / mixed.sum(axis=1, keepdims=True)) @ product
        assert np.abs(rollout[layer] - product).max() <= 1e-5


def contributions_by_hand(x, a, w_v, b_v, w_o, values_from):
    """c_ij = Σ_h α^h_ij f^h(x_j) as (T, T, d) vectors, f^h from `values_from` (x, or LN(x) in a pre-norm layer)."""
    H = a.shape[0]
    d_h = x.shape[1] // H
    f = [(values_from @ w_v.T + b_v)[:, h * d_h:(h + 1) * d_h] @ w_o[:, h * d_h:(h + 1) * d_h].T for h in range(H)]
    return sum(a[h][:, :, None] * f[h][None, :, :] for h in range(H))


@pytest.mark.parametrize("name", ["mpnet", "deberta-v2"])
def test_post_norm_contributions_against_the_models_own_modules(new_tiny_loaded, name):
    loaded = new_tiny_loaded[name]
    t = trace(loaded, TEXT)
    attentions, hidden, _ = reference_forward(loaded, t)
    parts = [t.layer_parts(i) for i in range(t.num_layers)]
    outs = hooked_outputs(loaded, t, {p.attn_out for p in parts} | {p.attn_norm for p in parts})
    for layer, p in enumerate(parts):
        x, a = hidden[layer], attentions[layer]
        c = contributions_by_hand(x, a, array(p.value.weight), array(p.value.bias), array(p.attn_out.weight), x)
        residual = c + np.eye(len(x))[:, :, None] * x[None]
        attn_out, attn_norm = outs[id(p.attn_out)][0].numpy(), outs[id(p.attn_norm)][0].numpy()
        ANOTHER_ROUTE.assert_close(c.sum(axis=1) + array(p.attn_out.bias), attn_out)
        gamma, eps = array(p.attn_norm.weight), p.attn_norm.eps
        s = np.sqrt((x + attn_out).var(axis=1) + eps)[:, None, None]
        g = gamma * (residual - residual.mean(axis=-1, keepdims=True)) / s
        ours = layer_contributions(t, layer)
        assert np.abs(ours.norm - np.linalg.norm(c, axis=-1)).max() <= 1e-4
        assert np.abs(ours.norm_residual - np.linalg.norm(residual, axis=-1)).max() <= 1e-4
        assert np.abs(ours.norm_residual_ln - np.linalg.norm(g, axis=-1)).max() <= 1e-4
        assert ours.out_holds and ours.norm_holds
        b_o = array(p.attn_out.bias)
        rebuilt = g.sum(axis=1) + gamma * (b_o - b_o.mean()) / s[:, 0] + array(p.attn_norm.bias)
        ANOTHER_ROUTE.assert_close(rebuilt, attn_norm)  # the identity, against the model's own LayerNorm


def test_pre_norm_contributions_against_the_models_own_modules(new_tiny_loaded):
    """ModernBERT: values from the model's own attention LayerNorm output, the sum against its own Wo output."""
    loaded = new_tiny_loaded["modernbert"]
    t = trace(loaded, TEXT)
    attentions, hidden, _ = reference_forward(loaded, t)
    layers = loaded.base.layers
    outs = hooked_outputs(loaded, t, {m.attn.Wo for m in layers} | {m.attn_norm for m in layers[1:]})
    d = hidden.shape[-1]
    for i, module in enumerate(layers):
        x, a = hidden[i], attentions[i]
        normed = x if i == 0 else outs[id(module.attn_norm)][0].numpy()  # layer 0: an identity
        w = array(module.attn.Wqkv.weight)
        c = contributions_by_hand(x, a, w[2 * d:], np.zeros(d), array(module.attn.Wo.weight), normed)
        residual = c + np.eye(len(x))[:, :, None] * x[None]
        attn_out = outs[id(module.attn.Wo)][0].numpy()
        ANOTHER_ROUTE.assert_close(c.sum(axis=1), attn_out)  # no bias in ModernBERT
        ours = layer_contributions(t, i)
        assert ours.norm_residual_ln is None
        assert np.abs(ours.norm - np.linalg.norm(c, axis=-1)).max() <= 1e-4
        assert np.abs(ours.norm_residual - np.linalg.norm(residual, axis=-1)).max() <= 1e-4
        assert np.abs(residual.sum(axis=1) - (x + attn_out)).max() <= 1e-4  # the block's output
        assert ours.out_holds and ours.norm_holds


HEADS = {  # each family's masked-LM head as its transformers forward applies it, written out independently
    "xlm-roberta": lambda m, h, last: m.lm_head(h), "camembert": lambda m, h, last: m.lm_head(h),
    "mpnet": lambda m, h, last: m.lm_head(h), "deberta-v2": lambda m, h, last: m.cls(h),
    # ModernBERT's last hidden state is already final-normed; the earlier ones go through the final norm first
    "modernbert": lambda m, h, last: m.decoder(m.head(h if last else m.model.final_norm(h))),
    "eurobert": lambda m, h, last: m.lm_head(h if last else m.model.norm(h)),  # the same, with one linear map
    "nomic_bert": lambda m, h, last: m.cls(h), "gte": lambda m, h, last: m.lm_head(h),
    "jina_embeddings_v3": lambda m, h, last: m.lm_head(h),
}


@pytest.mark.parametrize("name", NEW_FAMILY_SPECS)
def test_logit_lens_through_the_models_own_head(new_tiny_dirs, name):
    loaded = load_model(new_tiny_dirs[name], "masked-lm")
    mask = loaded.tokenizer.mask_token
    t = trace(loaded, f"the cat {mask} on the mat")
    _, _, inputs = reference_forward(loaded, t)
    with torch.inference_mode():
        out = loaded.model(**inputs, output_hidden_states=True)
    position = t.tokens.index(mask)
    lens = logit_lens(t)
    assert lens.holds and len(lens.layers) == t.num_layers + 1
    for layer, hidden in enumerate(out.hidden_states):
        with torch.inference_mode():
            logits = HEADS[name](loaded.model, hidden[0, position], layer == t.num_layers)
        best = torch.softmax(logits, dim=-1).topk(5)
        assert [tok for tok, _ in lens.layers[layer]] == named(loaded.tokenizer, best.indices.tolist())
        assert np.allclose([p for _, p in lens.layers[layer]], best.values.numpy(), atol=1e-5)
    assert torch.allclose(logits, out.logits[0, position], atol=1e-4)  # the last layer is the model's own


@pytest.mark.parametrize("name", ["modernbert", "eurobert"])  # a final norm before the head
def test_every_positions_lens_from_one_forward_is_the_models_own_head_at_that_position(new_tiny_dirs, name):
    """lenses_at (an exported site's Lens: every position at once) against the head applied by hand to the
    reference forward's hidden states at each position, and the last layer against the model's logits there."""
    from bertviz_lite.analyses.logit_lens import lenses_at

    loaded = load_model(new_tiny_dirs[name], "masked-lm")
    t = trace(loaded, "the cat sat on the mat")
    _, _, inputs = reference_forward(loaded, t)
    with torch.inference_mode():
        out = loaded.model(**inputs, output_hidden_states=True)
    lenses = lenses_at(t, list(range(len(t.tokens))))
    assert [lens.position for lens in lenses] == list(range(len(t.tokens)))
    for lens in lenses:
        assert lens.holds
        for layer, hidden in enumerate(out.hidden_states):
            with torch.inference_mode():
                logits = HEADS[name](loaded.model, hidden[0, lens.position], layer == t.num_layers)
            best = torch.softmax(logits, dim=-1).topk(5)
            assert [tok for tok, _ in lens.layers[layer]] == named(loaded.tokenizer, best.indices.tolist())
            assert np.allclose([p for _, p in lens.layers[layer]], best.values.numpy(), atol=1e-5)


@pytest.mark.parametrize("name", ["mpnet", "modernbert", "deberta-v2", "eurobert", "nomic_bert", "gte",
                                  "jina_embeddings_v3"])
def test_sentence_vectors_of_a_sentence_transformers_model_of_the_family(new_tiny_dirs, tmp_path, name):
    """A sentence-transformers checkpoint built on the family's tiny model: our vectors against encode()."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer

    from bertviz_lite import sentence_vectors

    encoder = Transformer(new_tiny_dirs[name], max_seq_length=24)
    reference = SentenceTransformer(modules=[encoder, Pooling(encoder.get_embedding_dimension(), "mean"),
                                             Normalize()], device="cpu")
    reference.save(str(tmp_path))
    loaded = load_model(str(tmp_path))
    assert loaded.sentence_pooling is not None and loaded.family.name != "BERT"
    sentences = ["the cat sat on the mat", "hello world, this is a test", " ".join(["the dog sat"] * 12)]
    (ours,) = sentence_vectors(loaded, sentences)
    expected = reference.encode(sentences, convert_to_numpy=True)
    np.testing.assert_allclose(ours.vectors, expected, atol=1e-5)
