"""Every page through Streamlit's AppTest: no exception, the expected elements, deep links, bad inputs."""
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from bertviz_lite import BUNDLED_MODEL, load_model, sentence_vectors

from apptest import APP, PAGES, decode_typed_array, open_page, payload_bytes, specs, undescribed
from tiers import each_family
from app_pages.shell.pages import DEFAULT_TEXT


@pytest.mark.parametrize("family", each_family())
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_for_every_family(page, family, every_tiny_dir):
    at = open_page(page, model=every_tiny_dir[family], pair="the cat sat")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert not undescribed(at)  # each figure's name and point, for a screen reader (issue 56)


def test_overview_shows_exact_total_and_random_banner():
    at = open_page("overview", model="bert-base-uncased")
    assert not at.exception
    assert at.metric[0].value == "109,482,240"
    assert any("Random weights" in w.value for w in at.warning)
    assert any("hidden size 768 = 12 heads × 64" in m.value for m in at.markdown)


def test_architecture_sunburst_total_and_table():
    at = open_page("architecture", model="bert-base-uncased")
    assert not at.exception
    (sunburst,) = [s for s in specs(at) if s["data"][0]["type"] == "sunburst"]
    trace = sunburst["data"][0]
    assert trace["branchvalues"] == "total" and trace["ids"][0] == "BertModel"
    assert any("109,482,240 parameters" in m.value for m in at.markdown)
    assert len(at.dataframe[0].value) == 199
    heads = at.table[0].value  # a few rows whose long cells wrap
    assert list(heads["class"]) == ["BertModel", "BertForSequenceClassification", "BertForMaskedLM"]
    assert "Linear(in_features=768, out_features=2" in heads["head modules"].iloc[1]


def test_tokens_page_colours_a_pair(tiny_dirs):
    at = open_page("tokens", model=tiny_dirs["bert"], text="this is a test", pair="the cat")
    table = at.dataframe[0].value
    assert list(table["sentence"])[:2] == ["special", "A"] and "B" in list(table["sentence"])
    assert list(table["token type"])[-1] == 1


def test_layers_deep_link_is_honoured(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["bert"], layer=2, head=3, step="attn.probs")
    assert not at.exception
    assert at.slider(key="_w_layer").value == 2
    assert at.selectbox(key="_w_head").value == 3
    heatmap = specs(at)[0]
    assert heatmap["data"][0]["type"] == "heatmap" and "layer 2, head 3" in heatmap["layout"]["title"]["text"]
    assert any("max |Δ|" in s.value for s in at.success)
    assert at.query_params["layer"] == "2" and at.query_params["head"] == "3"


@pytest.mark.parametrize("step,needle", [("embed.sum", "hidden_states[0]"), ("ffn.norm", "hidden_states[3]"),
                                         ("attn.q", "hidden_states[1]")])
def test_layers_sub_steps_from_links(tiny_dirs, step, needle):
    at = open_page("layers", model=tiny_dirs["electra"], step=step, layer=0 if step == "attn.q" else 2)
    assert not at.exception
    assert any(needle in s.value for s in at.success)


def test_pooler_and_similarity(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["bert"], step="pooler.out", pair="the cat sat on the mat")
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert labels == ["cosine of mean token vectors", "cosine of pooled [CLS] outputs"]
    assert any("not trained for sentence similarity" in c.value for c in at.caption)
    assert all(-1.0 <= float(m.value) <= 1.0 for m in at.metric)


def test_defaults_stay_out_of_the_url_and_the_model_is_always_in_it(tiny_dirs):
    at = open_page("layers")
    assert dict(at.query_params) == {"model": BUNDLED_MODEL}  # what opened here (offline): a shared link says so
    at = open_page("layers", model=tiny_dirs["bert"], layer=0)
    assert dict(at.query_params) == {"model": tiny_dirs["bert"]}


def test_with_no_network_the_first_page_is_the_bundled_real_model_and_says_why():
    """No model in the link, bert-base-uncased's weights not to be had (offline, an empty cache): the app opens on
    the bundled real model, says why, and offers bert-base-uncased's exact architecture in one click."""
    at = open_page("overview")
    assert not at.exception and not at.warning  # no random-weights banner on the first page
    assert at.session_state.model == BUNDLED_MODEL and at.metric[0].value == "22,713,216"
    assert any("opened on" in c.value and "bert-base-uncased's weights cannot be had" in c.value for c in at.caption)
    (switch,) = [b for b in at.button if b.label == "Open bert-base-uncased"]
    switch.click().run()
    assert at.session_state.model == "bert-base-uncased" and at.query_params["model"] == "bert-base-uncased"
    assert any("Random weights" in w.value for w in at.warning) and at.metric[0].value == "109,482,240"
    assert not any("opened on" in c.value for c in at.caption)


@pytest.mark.parametrize("params,fragment", [
    ({"model": "nobody/no-such-model"}, "not in the local cache"),
    ({"model": "/no/such/dir"}, "no directory"),
    ({"text": "   "}, "empty"),
])
def test_bad_inputs_show_an_error_and_keep_the_text(params, fragment):
    for page in PAGES if "model" in params else ("tokens", "layers"):  # the overview does not read the text
        at = open_page(page, **params)
        assert not at.exception
        assert any(fragment in e.value for e in at.error), (page, [e.value for e in at.error])
        assert at.session_state["text"] == params.get("text", DEFAULT_TEXT)


def test_sidebar_shows_what_the_link_says():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(model="nobody/no-such-model", text="my own words", pair="second one")
    at.run()
    assert at.text_area(key="_w_text").value == "my own words"
    assert at.text_area(key="_w_pair").value == "second one"
    assert at.text_input(key="_w_model_custom").value == "nobody/no-such-model"
    assert "not in the local cache" in at.error[0].value


def test_unsupported_model_names_supported_families(tmp_path):
    from transformers import GPT2Config, GPT2LMHeadModel

    GPT2LMHeadModel(GPT2Config(n_embd=16, n_layer=1, n_head=2, vocab_size=50)).save_pretrained(tmp_path)
    at = open_page("overview", model=str(tmp_path))
    assert not at.exception and "supported encoder" in at.error[0].value


def test_long_text_emoji_and_cjk(tiny_dirs):
    at = open_page("tokens", model=tiny_dirs["bert"], text=" ".join(["hello 😀 漢字 world"] * 50))
    assert not at.exception
    assert any("tokens were dropped" in i.value for i in at.info)


def test_layer_view_payload_at_512_tokens_stays_under_2_mb():
    """A bert-base-sized layer view at 512 tokens (bertviz's head view: 1.71 GB)."""
    words = ("the cat sat on the mat and the dog sat on the log " * 60).split()[:510]
    at = open_page("layers", text=" ".join(words), step="attn.probs")
    assert not at.exception
    size = payload_bytes(at)
    assert 100_000 < size < 2_000_000, size


@pytest.mark.parametrize("page,params", [("heads", {}), ("rollout", {"words": 1}), ("contributions", {"layer": 3}),
                                         ("similarity", {})])
def test_analysis_views_at_512_tokens_stay_under_2_mb(page, params):
    words = ("the cat sat on the mat, and the dog sat on the log. " * 60).split()[:500]
    at = open_page(page, text=" ".join(words), sentences=" ".join(words[:400]) + "\nthe cat", **params)
    assert not at.exception and not at.error
    assert payload_bytes(at) < 2_000_000


def test_hosted_mode_refuses_a_directory_and_says_why(tiny_dirs, monkeypatch):
    monkeypatch.setenv("BVL_HOSTED", "1")
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(model=tiny_dirs["bert"], text="my own words")
    at.run()
    assert not at.exception
    assert "does not open directories on its server" in at.error[0].value
    assert at.text_area(key="_w_text").value == "my own words"
    assert at.text_input(key="_w_model_custom").label == "Hub id"
    assert "up to 400,000,000 parameters" in at.sidebar.caption[0].value


def test_lecture_mode_link_steps_through_a_layer(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["bert"], layer=1, step="attn.probs", lecture=1)
    assert not at.exception and at.session_state["lecture"] is True
    assert not at.title  # every line counts on a projector
    picker = at.selectbox(key="_w_stepper_Sub-step")
    assert picker.value == "attn.probs" and picker.format_func("attn.probs") == "7/17 Attention (softmax)"
    assert specs(at)[0]["layout"]["font"]["size"] == 20
    at.button(key="next_Sub-step").click().run()
    assert not at.exception
    assert at.session_state["step"] == "attn.head_context"
    assert at.selectbox(key="_w_stepper_Sub-step").value == "attn.head_context"
    assert any("step 8 of 17: Context per head" in m.value for m in at.markdown)
    assert at.query_params["step"] == "attn.head_context" and at.query_params["lecture"] == "1"
    at.selectbox(key="_w_stepper_Sub-step").set_value("ffn.norm").run()
    assert at.session_state["step"] == "ffn.norm" and at.button(key="next_Sub-step").disabled


def test_lecture_mode_is_off_and_out_of_the_url_by_default(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["bert"])
    assert at.session_state["lecture"] is False and "lecture" not in at.query_params
    assert at.title[0].value == "Layers" and specs(at)[0]["layout"]["font"]["size"] == 16


def test_lecture_mode_steps_through_the_embeddings(tiny_dirs):
    at = open_page("layers", model=tiny_dirs["roberta"], step="embed.word", lecture=1)
    at.button(key="next_Embedding step").click().run()
    assert not at.exception and at.session_state["step"] == "embed.position"


def test_random_weights_offer_the_bundled_model_and_keep_the_view():
    at = open_page("layers", model="bert-base-uncased", text="the bank of the river", layer=5, head=3,
                   step="attn.probs")
    assert any("Random weights" in w.value for w in at.warning)
    (switch,) = [b for b in at.button if BUNDLED_MODEL in b.label]
    switch.click().run()
    assert not at.exception and not at.warning
    assert at.session_state.model == BUNDLED_MODEL
    assert (at.session_state.text, at.session_state.layer, at.session_state.head, at.session_state.step) == \
        ("the bank of the river", 5, 3, "attn.probs")
    assert (at.query_params["model"], at.query_params["layer"]) == (BUNDLED_MODEL, "5")
    assert any("bundled" in c.value and "no network" in c.value for c in at.caption)


def test_pair_similarity_deep_link_uses_sentence_transformers_pooling():
    a, b = "the cat sat on the mat", "a kitten was sitting on the rug"
    at = open_page("layers", model=BUNDLED_MODEL, step="pooler.out", text=a, pair=b)
    assert not at.exception
    (metric,) = [m for m in at.metric if "sentence-transformers" in m.label]
    (expected,) = sentence_vectors(load_model(BUNDLED_MODEL), [a, b])
    assert metric.value == f"{expected.cosine()[0, 1]:.4f}"


def test_similarity_matrix_of_the_bundled_model_from_a_deep_link():
    sentences = ["the cat sat on the mat", "a kitten was sitting on the rug", "shares dropped on wall street"]
    at = open_page("similarity", model=BUNDLED_MODEL, sentences="\n".join(sentences))
    assert not at.exception and not at.warning
    (heatmap,) = specs(at)
    z = heatmap["data"][0]["z"]
    z = decode_typed_array(z) if isinstance(z, dict) else np.array(z)
    (expected,) = sentence_vectors(load_model(BUNDLED_MODEL), sentences)
    np.testing.assert_allclose(z, expected.cosine(), atol=1e-6)
    assert "sentence-transformers" in heatmap["layout"]["title"]["text"]


def test_similarity_of_a_plain_bert_says_it_was_not_trained_for_it():
    at = open_page("similarity", model="bert-base-uncased")
    assert not at.exception
    assert len(specs(at)) == 2  # the mean of token vectors and the pooled [CLS] output
    assert any("not trained for sentence similarity" in i.value for i in at.info)
    assert any(BUNDLED_MODEL in b.label for b in at.button)


@pytest.mark.parametrize("sentences,fragment,charts", [
    ("\n".join(f"sentence number {i}" for i in range(11)), "first 8 of your 11", 1),
    ("  \n \n", "Type a few sentences", 0)])
def test_similarity_bad_inputs_get_a_message_and_keep_the_text(sentences, fragment, charts):
    at = open_page("similarity", model=BUNDLED_MODEL, sentences=sentences)
    assert not at.exception
    assert any(fragment in i.value for i in at.info)
    assert len(specs(at)) == charts
    assert [a.value for a in at.text_area if a.label.startswith("Sentences")] == [sentences]



def test_heads_deep_link_reopens_the_statistic_and_opens_a_head_in_the_stepper():
    at = open_page("heads", model=BUNDLED_MODEL, stat="cls", text="the quick brown fox jumps over the lazy dog")
    assert not at.exception and at.session_state.stat == "cls"
    (grid,) = specs(at)
    assert "[CLS]" in grid["layout"]["title"]["text"]
    assert any("layer 0, head 2 attends to the previous token" in m.value for m in at.markdown)
    (opener,) = [b for b in at.button if b.label.startswith("Open layer 0, head 2")]
    opener.click().run()
    assert not at.exception
    assert (at.session_state.layer, at.session_state.head, at.session_state.step) == (0, 2, "attn.probs")
    assert any("Layer 0 · step 7 of 17" in m.value for m in at.markdown)


def test_rollout_and_contributions_deep_links(tiny_dirs):
    at = open_page("rollout", model=BUNDLED_MODEL, layer=3, token=2, words=1, text="this is a 12212121 test")
    assert not at.exception and at.query_params["words"] == "1"
    titles = [spec["layout"]["title"]["text"] for spec in specs(at)]
    assert titles[0] == "Rollout after layer 3" and "Where 'is' comes from" in titles[1]
    assert "12212121" in specs(at)[0]["data"][0]["x"][4]  # word level: the pieces of 12212121 merged
    at = open_page("contributions", model=tiny_dirs["albert"], layer=2)
    assert not at.exception and len(at.success) == 2 and not at.error
    assert at.slider[0].value == 2


def test_lens_deep_link_and_refusals(tiny_dirs):
    at = open_page("lens", model=tiny_dirs["bert"], text="the cat [MASK] on the mat")
    assert not at.exception and len(at.success) == 1 and "position 3" in specs(at)[0]["layout"]["title"]["text"]
    at = open_page("lens", model=BUNDLED_MODEL, text="the cat [MASK] on the mat")  # real weights, no head
    assert not at.exception and not at.error and any("no trained masked-LM head" in i.value for i in at.info)
    (grid,) = specs(at)
    assert "Nearest vocabulary pieces at position 3" in grid["layout"]["title"]["text"]
    assert grid["data"][0]["colorbar"]["title"]["text"] == "cosine"
    at = open_page("lens", model="distilbert-base-uncased", text="the cat [MASK] on the mat")  # random offline
    assert not at.exception and not at.error and any("random weights" in i.value for i in at.info)
    assert any(BUNDLED_MODEL in b.label for b in at.button)
    at = open_page("lens", model=tiny_dirs["roberta"], text="the cat sat", position=2)
    assert not at.exception and at.selectbox[0].value == 2  # the position set, said as set (no
    assert any("position picked here" in c.value and "Put <mask>" in c.value for c in at.caption)  # "no <mask>")
    assert "position 2" in specs(at)[0]["layout"]["title"]["text"]


def test_every_chart_downloads_as_print_png_or_svg_and_views_offer_csv():
    at = open_page("contributions", model=BUNDLED_MODEL, layer=1)
    configs = [json.loads(el.proto.config) for el in at.get("plotly_chart")]
    assert configs and all(c["toImageButtonOptions"] == {**c["toImageButtonOptions"], "format": "png", "scale": 4}
                           for c in configs)
    assert any(b.proto.label.startswith("Download the numbers") for b in at.get("download_button"))
    at.selectbox(key="_figure_format").set_value("SVG (vector)").run()
    assert all(json.loads(el.proto.config)["toImageButtonOptions"]["format"] == "svg"
               for el in at.get("plotly_chart"))


def test_lens_on_a_model_whose_table_is_narrower_than_its_layers_is_a_notice_not_an_error(tmp_path):
    """An ELECTRA discriminator (no masked-LM head, 16-number word pieces under 32-number layers): no lens and no
    nearest pieces, said in a notice, with the bundled model one click away."""
    import transformers

    from tiny_models import FAMILY_SPECS

    make_config, make_tokenizer = FAMILY_SPECS["electra"]
    transformers.ElectraModel(make_config()).save_pretrained(tmp_path)  # the base model only: no masked-LM head
    make_tokenizer().save_pretrained(tmp_path)
    at = open_page("lens", model=str(tmp_path), text="the cat [MASK] on the mat")
    assert not at.exception and not at.error
    assert any("projects its embeddings up" in i.value for i in at.info)
    assert any(BUNDLED_MODEL in b.label for b in at.button)
