"""The pages for the families beyond BERT's layer, in AppTest (every page of every family renders:
`test_app.test_every_page_renders_for_every_family`): each family's own view is there (DeBERTa's three terms and relative positions, ModernBERT's window and pre-norm
contributions, MPNet's position bias, EuroBERT's shared key/value heads)."""
import numpy as np
import pytest

from apptest import decode_typed_array, open_page, payload_bytes, specs
from tiers import slow


def test_deberta_shows_its_three_terms_side_by_side(new_tiny_dirs):
    at = open_page("layers", model=new_tiny_dirs["deberta-v2"], layer=1, head=2, step="attn.c2p")
    assert not at.exception
    assert any("step 8 of 21: Content → position" in m.value for m in at.markdown)
    (terms,) = [s for s in specs(at) if len(s["data"]) == 4]
    assert [a["text"] for a in terms["layout"]["annotations"][:4]] == ["c2c", "<b>▸ c2p ◂</b>", "p2c", "scores"]
    assert terms["layout"]["coloraxis"]["cmin"] == -terms["layout"]["coloraxis"]["cmax"]  # signed: one scale about 0
    c2c, c2p, p2c, scores = (decode_typed_array(d["z"]) for d in terms["data"])
    np.testing.assert_allclose(c2c + c2p + p2c, scores, atol=1e-5)


def test_deberta_relative_positions_stage(new_tiny_dirs):
    at = open_page("layers", model=new_tiny_dirs["deberta-v2"], step="positions.relative_positions",
                   text="the cat sat on the mat this is a test sentence")
    assert not at.exception
    assert any("Relative positions" in m.value for m in at.markdown)
    (heatmap,) = specs(at)
    distances = decode_typed_array(heatmap["data"][0]["z"])
    assert distances[0, 1] == -1 and distances[1, 0] == 1 and np.abs(distances).max() < len(distances) - 1


def test_deberta_embeddings_say_what_v3_leaves_out(new_tiny_dirs):
    at = open_page("layers", model=new_tiny_dirs["deberta-v2"], step="embed.norm")
    assert any("position_biased_input: false" in i.value for i in at.info)
    assert any("type_vocab_size: 0" in i.value for i in at.info)


def test_modernbert_local_layer_is_a_band_and_the_last_layer_ends_with_the_final_norm(new_tiny_dirs):
    text = "the cat sat on the mat this is a test sentence"
    at = open_page("layers", model=new_tiny_dirs["modernbert"], layer=1, step="attn.scores", text=text)
    assert not at.exception
    assert any("Layer 1 is local" in c.value for c in at.caption)
    heatmap = specs(at)[0]
    scores = decode_typed_array(heatmap["data"][0]["z"])
    T = len(scores)
    far = np.abs(np.subtract.outer(np.arange(T), np.arange(T))) > 2
    assert np.isnan(scores[far]).all() and not np.isnan(scores[~far]).any()  # masked keys are blank
    last = open_page("layers", model=new_tiny_dirs["modernbert"], layer=2, step="final.norm", text=text)
    assert any("step 22 of 22: Final LayerNorm" in m.value for m in last.markdown)
    assert any("this layer's output: Final LayerNorm = model output" in s.value for s in last.success)


def test_modernbert_contributions_say_why_there_is_no_layernorm_view(new_tiny_dirs):
    at = open_page("contributions", model=new_tiny_dirs["modernbert"], layer=1)
    assert not at.exception
    assert any("pre-norm" in i.value for i in at.info)
    assert all("LayerNorm output" not in s.value for s in at.success)
    heatmaps, lines = ([s for s in specs(at) if s["data"][0]["type"] == kind] for kind in ("heatmap", "scatter"))
    assert [len(s["data"]) for s in heatmaps] == [1, 1]  # attention beside the fullest norm there is: ‖c + x‖
    assert [s["layout"]["annotations"][0]["text"] for s in heatmaps] == ["attention (mean of heads)",
                                                                         "‖c + x‖ (residual)"]
    assert [len(s["data"]) for s in lines] == [3]  # and no mixing ratio line for it


def test_eurobert_key_step_shows_the_key_head_that_a_query_head_reads(new_tiny_dirs):
    at = open_page("layers", model=new_tiny_dirs["eurobert"], layer=1, head=3, step="attn.k", cell="2,5")
    assert not at.exception and not at.error
    assert any("Query head 3 reads key/value head 1 of 2, shared by query heads 2–3" in c.value for c in at.caption)
    assert any(s["layout"].get("title", {}).get("text") == "layer 1 key/value head 1: Keys K" for s in specs(at))
    assert any("Keys K, key/value head 1 of 2, shared by query heads 2–3, row 2" in m.value
               for m in at.markdown)  # the cell of the head shown
    scores = open_page("layers", model=new_tiny_dirs["eurobert"], layer=1, head=3, step="attn.dots", cell="2,5")
    assert any("(key/value head 1 of 2, shared by query heads 2–3)" in m.value for m in scores.markdown)
    contributions = open_page("contributions", model=new_tiny_dirs["eurobert"], layer=1)
    assert any("Query head h reads value head ⌊h / 2⌋" in i.value for i in contributions.info)
    assert all(s.value.endswith(tuple("0123456789")) for s in contributions.success) and not contributions.error


def test_a_key_step_is_drawn_as_vectors_when_the_sentence_is_as_long_as_a_head_is_wide(new_tiny_dirs):
    """T == d_h: a (h_kv, T, d_h) array is square, but it is keys, not a token-by-token matrix."""
    from transformers import AutoTokenizer

    text = "the cat sat on the mat"
    assert len(AutoTokenizer.from_pretrained(new_tiny_dirs["eurobert"])(text)["input_ids"]) == 8  # d_h of the tiny one
    for step in ("attn.k", "attn.k_rot", "attn.v"):
        at = open_page("layers", model=new_tiny_dirs["eurobert"], layer=1, head=3, step=step, text=text)
        assert not at.exception and not at.error, step
        assert any(s["layout"].get("title", {}).get("text", "").startswith("layer 1 key/value head 1:")
                   for s in specs(at)), step


def test_mpnet_position_bias_view(new_tiny_dirs):
    at = open_page("layers", model=new_tiny_dirs["mpnet"], step="attn.position_bias", head=1)
    assert not at.exception
    assert any("Relative-position bias" in m.value for m in at.markdown)


@slow
@pytest.mark.parametrize("source", ["answerdotai/ModernBERT-base", "EuroBERT/EuroBERT-210m",
                                    "nomic-ai/nomic-embed-text-v1.5"])
def test_a_preset_layer_view_at_its_cap_sends_at_most_2_mb(source):
    text = " ".join(["word"] * 1500)  # more than the cap: read 1,024 tokens
    at = open_page("layers", model=source, layer=1, step="attn.probs", text=text)
    assert not at.exception
    assert any("1,024" in w.value for w in [*at.warning, *at.info])
    assert payload_bytes(at) <= 2 * 1024 * 1024


@pytest.mark.parametrize("model_type, heads, cap", [("gte", 12, 1024), ("jina_embeddings_v3", 16, 512)])
def test_a_layer_view_of_a_family_without_a_preset_at_its_cap_sends_at_most_2_mb(tmp_path, model_type, heads, cap):
    """GTE and Jina-v3 have no preset (their published configs do not load natively): a model with their head
    counts and their cap, narrow (what a layer view sends depends on the tokens and heads; a vector is shown 64
    numbers at a time)."""
    import transformers
    from tiny_models import sentencepiece_roberta_tokenizer

    config = transformers.AutoConfig.for_model(model_type, hidden_size=4 * heads, num_hidden_layers=2,
                                               num_attention_heads=heads, intermediate_size=64, vocab_size=120,
                                               max_position_embeddings=cap + 8, type_vocab_size=1, pad_token_id=1)
    transformers.AutoModel.from_config(config).save_pretrained(tmp_path)
    tokenizer = sentencepiece_roberta_tokenizer(transformers.XLMRobertaTokenizer)
    tokenizer.model_max_length = cap + 8  # the model's own length: the family's cap is what limits it
    tokenizer.save_pretrained(tmp_path)
    at = open_page("layers", model=str(tmp_path), layer=1, step="attn.probs", text=" ".join(["cat"] * (cap + 200)))
    assert not at.exception
    assert any(f"{cap:,}" in w.value for w in [*at.warning, *at.info])  # read up to the cap, and said so
    assert payload_bytes(at) <= 2 * 1024 * 1024


@pytest.mark.parametrize("name", ["modernbert", "deberta-v2", "mpnet"])
def test_word_level_views_and_hostile_steps(new_tiny_dirs, name):
    for page, params in (("rollout", dict(words=1, layer=2)), ("contributions", dict(words=1)),
                         ("layers", dict(words=1, step="attn.probs")),
                         ("layers", dict(step="final.norm", layer=0)), ("layers", dict(step="encoder.rel_norm")),
                         ("layers", dict(step="attn.c2p", layer=99))):
        at = open_page(page, model=new_tiny_dirs[name], text="the cat sat on the mat, this is a test", **params)
        assert not at.exception, (page, params, [e.value for e in at.exception])
        assert not at.error, (page, params)
