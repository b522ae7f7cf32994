"""The comparison pages in AppTest: a word in two contexts (and, below, two models side by side), their deep
links and hostile links."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace, word_in_contexts
from test_app import decode_typed_array, open_page, specs


def test_contexts_page_shows_the_bank_pair_on_the_bundled_model():
    at = open_page("contexts", model=BUNDLED_MODEL)
    assert not at.exception and not at.error
    (chart,) = specs(at)
    (line,) = chart["data"]
    loaded = load_model(BUNDLED_MODEL)
    expected = word_in_contexts(trace(loaded, "i sat on the bank of the river"),
                                trace(loaded, "i deposited money at the bank"), "bank").cosines
    np.testing.assert_allclose(decode_typed_array(line["y"]) if isinstance(line["y"], dict) else line["y"], expected,
                               atol=1e-6)
    assert line["x"][0] == "embeddings" and line["x"][-1] == "layer 6"
    assert any("Ethayarajh (2019)" in c.value for c in at.caption)


def test_contexts_page_several_words_from_the_link():
    at = open_page("contexts", model=BUNDLED_MODEL, sentence_a="the bank of the river was muddy",
                   sentence_b="the river bank was muddy", word="bank river")
    assert not at.exception and not at.error
    assert [trace_["name"] for trace_ in specs(at)[0]["data"]] == ["bank", "river"]


@pytest.mark.parametrize("word,says", [("zebra", "Words both sentences share: i, the, bank"),
                                       ("x" * 10_000, "Words both sentences share"),
                                       ("(ba|nk)*<script>", "Words both sentences share"),
                                       ("", "Type a word")])
def test_contexts_hostile_words_get_a_message(word, says):
    at = open_page("contexts", model=BUNDLED_MODEL, word=word)
    assert not at.exception
    assert any(says in e.value for e in at.error), [e.value for e in at.error]


def test_contexts_empty_sentence_gets_a_message():
    at = open_page("contexts", model=BUNDLED_MODEL, sentence_b="   ")
    assert not at.exception
    assert any("empty" in e.value for e in at.error)
