"""The pages that say why the model gives its output, through Streamlit's AppTest: the similarity split from a
deep link, its numbers against the API, the word level, hostile URL keys."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model
from bertviz_lite.analyses.similarity_split import explain_similarity
from tests.test_app import decode_typed_array, open_page, specs

SENTENCES = ["the cat sat on the mat", "a kitten was sitting on the rug", "shares dropped on wall street"]


def z_of(figure: dict) -> np.ndarray:
    z = figure["data"][0]["z"]
    return decode_typed_array(z) if isinstance(z, dict) else np.array(z, dtype=np.float64)


@pytest.mark.parametrize("words", [False, True])
def test_the_split_of_two_sentences_from_a_deep_link(words):
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="\n".join(SENTENCES), why="2,1", words=words)
    assert not at.exception and not at.warning
    split, matrix = specs(at)
    expected = explain_similarity(load_model(BUNDLED_MODEL), SENTENCES[0], SENTENCES[1], words)
    np.testing.assert_allclose(z_of(split), expected.pairs, atol=1e-6)
    assert "Why 1 and 2 are similar" in split["layout"]["title"]["text"]
    (check,) = [m.value for m in at.markdown if "cells add up to" in m.value]
    assert f"add up to {expected.total:.4f}; the cosine is {expected.cosine:.4f}" in check
    assert ("'cat' ↔ 'kitten'" in check) and at.query_params["why"] == "1,2"
    assert z_of(matrix).shape == (3, 3)


def test_a_plain_model_splits_its_mean_token_vectors():
    at = open_page("similarity", model="bert-base-uncased", why="1,2")
    assert not at.exception
    assert len(specs(at)) == 3  # the split, then both untrained vectors' matrices
    assert any("of the mean token vectors" in m.value for m in at.markdown)


@pytest.mark.parametrize("why", ["99,1", "abc", "2,2", "1", "-1,2"])
def test_a_link_naming_sentences_that_are_not_there_says_so(why):
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="\n".join(SENTENCES), why=why)
    assert not at.exception
    assert any(f"why={why} does not name two of the 3 sentences" in i.value for i in at.info)
    assert len(specs(at)) == 1 and at.session_state.why == ""
