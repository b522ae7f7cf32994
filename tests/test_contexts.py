"""A word in two contexts against an independent computation from transformers' own hidden states (words found
from the tokenizer's character offsets, not from our word grouping), on tiny models and the bundled real model."""
import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, InputError, load_model, shared_words, trace, word_in_contexts, words_in_contexts

BANK_RIVER, BANK_MONEY = "i sat on the bank of the river", "i deposited money at the bank"


def independent_vectors(loaded, text, word):
    """(L + 1, d): the mean over the word's pieces of transformers' hidden states, the word found by its
    characters in the text (first occurrence)."""
    enc = loaded.tokenizer(text, return_tensors="pt", return_offsets_mapping=True)
    offsets, word_ids = enc["offset_mapping"][0].tolist(), enc.word_ids(0)
    pieces = {}
    for position, w in enumerate(word_ids):
        if w is not None:
            pieces.setdefault(w, []).append(position)
    found = next(p for p in pieces.values() if text[offsets[p[0]][0]:offsets[p[-1]][1]].strip().lower() == word)
    inputs = {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}
    with torch.inference_mode():
        out = loaded.base(**inputs, output_hidden_states=True)
    return torch.stack(out.hidden_states)[:, 0, found].mean(dim=1).double().numpy()


def independent_cosines(loaded, a, b, word):
    va, vb = independent_vectors(loaded, a, word), independent_vectors(loaded, b, word)
    return (va * vb).sum(axis=1) / np.linalg.norm(va, axis=1) / np.linalg.norm(vb, axis=1)


@pytest.fixture(scope="module")
def bundled():
    return load_model(BUNDLED_MODEL)


@pytest.mark.parametrize("a,b,word,first,last", [
    (BANK_RIVER, BANK_MONEY, "bank", 0.988, 0.786),  # two senses: the cosine falls layer by layer
    ("the bank of the river was muddy", "the river bank was muddy", "bank", None, 0.96),  # one sense: it stays high
    ("he will play the piano", "they watched a play at the theatre", "play", 0.986, 0.663),
])
def test_the_bundled_models_words_in_context(bundled, a, b, word, first, last):
    result = word_in_contexts(trace(bundled, a), trace(bundled, b), word)
    assert len(result.cosines) == bundled.config.num_hidden_layers + 1
    np.testing.assert_allclose(result.cosines, independent_cosines(bundled, a, b, word), atol=1e-6)
    if first is not None:
        assert abs(result.cosines[0] - first) <= 1e-3
    assert abs(result.cosines[-1] - last) <= (1e-3 if first is not None else 5e-3)  # "stays at 0.96": two digits


def test_two_senses_end_further_apart_than_one(bundled):
    two = word_in_contexts(trace(bundled, BANK_RIVER), trace(bundled, BANK_MONEY), "bank").cosines
    one = word_in_contexts(trace(bundled, "the bank of the river was muddy"),
                           trace(bundled, "the river bank was muddy"), "bank").cosines
    assert two[-1] < one[-1] - 0.1


@pytest.mark.parametrize("model_type", ["bert", "albert", "roberta"])
def test_tiny_models_against_transformers(tiny_loaded, model_type):
    loaded = tiny_loaded[model_type]
    a, b = "the cat sat on the mat", "this is a small cat"
    result = word_in_contexts(trace(loaded, a), trace(loaded, b), "cat")
    np.testing.assert_allclose(result.cosines, independent_cosines(loaded, a, b, "cat"), atol=1e-6)


def test_new_families_against_transformers(new_tiny_loaded):
    for name in ("modernbert", "deberta-v2", "mpnet"):
        loaded = new_tiny_loaded[name]
        a, b = "the cat sat on the mat", "this is a small cat"
        result = word_in_contexts(trace(loaded, a), trace(loaded, b), "cat")
        np.testing.assert_allclose(result.cosines, independent_cosines(loaded, a, b, "cat"), atol=1e-6)


def test_a_word_in_pieces_is_the_mean_of_its_pieces(bundled):
    a, b = trace(bundled, "this is a 12212121 test"), trace(bundled, "12212121 again")
    result = word_in_contexts(a, b, "12212121")
    assert [a.tokens[i] for i in result.pieces_a] == ["122", "##12", "##12", "##1"]
    np.testing.assert_allclose(result.cosines, independent_cosines(bundled, a.text, b.text, "12212121"), atol=1e-6)


def test_several_words_and_case(bundled):
    a, b = trace(bundled, "The bank of the river"), trace(bundled, "the river bank")
    results = words_in_contexts(a, b, ["Bank", "river", "bank"])
    assert [r.word for r in results] == ["bank", "river"]
    assert shared_words(a, b) == ["the", "bank", "river"]


@pytest.mark.parametrize("word,says", [
    ("money", "not a word of the first sentence"), ("zebra", "not a word of either sentence"),
    ("x" * 10_000, "at most 100 characters"), ("(ba|nk)*", "not a word of either"), ("<b>bank</b>", "either"),
    ("", "Type a word"), ("two words", "no spaces")])
def test_missing_words_get_a_message_naming_the_shared_words(bundled, word, says):
    a, b = trace(bundled, BANK_RIVER), trace(bundled, BANK_MONEY)
    with pytest.raises(InputError, match=says) as error:
        word_in_contexts(a, b, word)
    assert "i, the, bank" in str(error.value)
    assert len(str(error.value)) < 300
