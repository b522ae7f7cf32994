"""The comparison pages in AppTest: a word in two contexts (and, below, two models side by side), their deep
links and hostile links."""
import numpy as np
import pytest

from bertviz_lite import BUNDLED_MODEL, load_model, trace, word_in_contexts
from apptest import decode_typed_array, open_page, specs


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
    assert line["x"][0] == "embeddings" and line["x"][-1] == "layer 5"  # layers count from 0, as everywhere
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


# --- two models side by side -------------------------------------------------------------------------------------


def test_compare_shows_both_models_at_the_same_depth(tiny_dirs):
    at = open_page("compare", model=tiny_dirs["bert"], model_b=tiny_dirs["albert"], text="the cat sat on the mat",
                   depth="0.67", head=1)
    assert not at.exception and not at.error
    frame = at.dataframe[0].value
    assert "model_type" in frame.index and "parameters" in frame.index
    heatmaps = [s for s in specs(at) if s["data"][0]["type"] == "heatmap"]
    assert len(heatmaps) == 2
    titles = [h["layout"]["title"]["text"] for h in heatmaps]
    assert titles == [f"A: {tiny_dirs['bert']}<br>layer 1 (2 of 3), head 1",  # each model named over its own
                      f"B: {tiny_dirs['albert']}<br>layer 1 (2 of 3), head 1"]
    bert, albert = load_model(tiny_dirs["bert"]), load_model(tiny_dirs["albert"])
    for heatmap, loaded in zip(heatmaps, (bert, albert)):
        expected = trace(loaded, "the cat sat on the mat").attention(1)[1]
        np.testing.assert_allclose(decode_typed_array(heatmap["data"][0]["z"]), expected, atol=1e-6)
    bars = [s for s in specs(at) if s["data"][0]["type"] == "bar"]
    assert [d["name"] for d in bars[0]["data"]] == [f"A: {tiny_dirs['bert']}", f"B: {tiny_dirs['albert']}"]


def test_compare_new_families_and_the_mixing_chart(tiny_dirs, new_tiny_dirs):
    at = open_page("compare", model=tiny_dirs["roberta"], model_b=new_tiny_dirs["modernbert"], text="the cat sat")
    assert not at.exception and not at.error
    at.toggle(key="compare_mixing").set_value(True).run()
    assert not at.exception
    (lines,) = [s for s in specs(at) if s["data"][0]["type"] == "scatter"]
    names = [d["name"] for d in lines["data"]]
    assert len(names) == 4 and any("‖g(c + x)‖" in n for n in names) and any("‖c + x‖" in n for n in names)


@pytest.mark.parametrize("params,says", [
    (dict(model_b="bert-base-uncased", model="bert-base-uncased"), "both bert-base-uncased"),
    (dict(model_b="no-such/model-xyz"), "Model B: 'no-such/model-xyz'"),
    (dict(model_b="bert-base-uncased", model=BUNDLED_MODEL, depth="abc"), None),
    (dict(model_b="bert-base-uncased", model=BUNDLED_MODEL, depth="7"), None),
    (dict(model_b="bert-base-uncased", model=BUNDLED_MODEL, head="99", text="<b>" * 50), None),
])
def test_compare_hostile_links(params, says):
    at = open_page("compare", **params)
    assert not at.exception
    if says:
        assert any(says in m.value for m in [*at.error, *at.info]), [m.value for m in [*at.error, *at.info]]
    else:
        assert not at.error and len([s for s in specs(at) if s["data"][0]["type"] == "heatmap"]) == 2


def test_a_hosted_pair_must_fit_the_budget_together(monkeypatch):
    monkeypatch.setenv("BVL_HOSTED", "1")
    monkeypatch.setenv("BVL_MAX_PARAMETERS", "200000000")  # bert-base (109 M) fits alone, bert-base + roberta do not
    at = open_page("compare", model="bert-base-uncased", model_b="roberta-base")
    assert not at.exception
    assert any("needs 234,127,872 parameters at once" in e.value for e in at.error), [e.value for e in at.error]


def test_compare_at_512_tokens_sends_at_most_2_mb_per_model():
    from apptest import payload_bytes

    text = " ".join(["the bank of the river"] * 120)  # more than 512 tokens: each model reads its own maximum
    at = open_page("compare", model="bert-base-uncased", model_b="distilbert-base-uncased", text=text)
    assert not at.exception and not at.error
    assert payload_bytes(at) <= 2 * 2 * 1024 * 1024


def test_hosted_compare_refuses_a_local_model_b_before_reading_it(monkeypatch, tmp_path):
    (tmp_path / "config.json").write_text('{"model_type": "bert"}')
    monkeypatch.setenv("BVL_HOSTED", "1")
    at = open_page("compare", model="bert-base-uncased", model_b=str(tmp_path))
    assert not at.exception
    assert any("does not open directories on its server" in e.value for e in at.error), [e.value for e in at.error]
