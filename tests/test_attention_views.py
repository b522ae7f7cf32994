"""BertViz's head and model views: the lines and thumbnails are the model's own attention (output_attentions),
the long-text cut keeps the strongest lines and counts the rest, a 512-token view stays under 2 MB, and a hostile
URL gets a message."""
import numpy as np
import pytest
import torch

from bertviz_lite import BUNDLED_MODEL, load_model
from bertviz_lite.analyses.attention_views import pair_masks, pooled_shares, sentence_of
from bertviz_lite.attention_lines import FULL_LENGTH, MIN_WEIGHT, MOST_PER_QUERY, attention_lines
from bertviz_lite.figures import head_view, model_view
from bertviz_lite.figures.attention_views import head_colours, head_grid, model_view_px, tiled
from bertviz_lite.figures.template import template_of

from apptest import decode_typed_array, open_page, payload_bytes, specs
from tiers import each_family, slow

TEXT = "the bank of the river was steep"


def own_attentions(source: str, text: str, pair: str | None = None) -> np.ndarray:
    """(L, H, T, T) from transformers itself, eager attention (token types asked for, as a pair needs them)."""
    loaded = load_model(source)
    enc = loaded.tokenizer(text, pair, return_tensors="pt", return_token_type_ids=True)
    with torch.no_grad():
        out = loaded.base(**enc, output_attentions=True)
    return torch.stack(out.attentions)[:, 0].numpy()


def test_every_weight_of_at_least_the_threshold_is_a_line_with_its_value():
    probs = np.random.default_rng(0).dirichlet(np.ones(20) * 0.3, size=(4, 20)).astype(np.float32)  # (4, 20, 20)
    lines = attention_lines(probs, heads=[1, 3])
    assert len(lines.weight) == int((probs[[1, 3]] >= MIN_WEIGHT).sum()) and lines.left_out == 0
    np.testing.assert_array_equal(lines.weight, probs[lines.head, lines.query, lines.key])
    assert set(lines.head.tolist()) == {1, 3}


def test_a_long_text_keeps_the_strongest_lines_per_query_and_counts_the_rest():
    n = FULL_LENGTH + 36
    probs = np.random.default_rng(1).dirichlet(np.ones(n) * 0.05, size=(2, n)).astype(np.float32)
    lines = attention_lines(probs, heads=[0, 1])
    strong = int((probs >= MIN_WEIGHT).sum())
    assert lines.most_per_query == MOST_PER_QUERY and lines.left_out == strong - len(lines.weight) > 0
    for h in (0, 1):
        for q in range(n):
            kept = lines.weight[(lines.head == h) & (lines.query == q)]
            assert len(kept) <= MOST_PER_QUERY
            dropped = np.setdiff1d(probs[h, q][probs[h, q] >= MIN_WEIGHT], kept)
            assert not len(dropped) or dropped.max() <= kept.min()


def test_pair_filters_split_where_bertviz_does(tiny_loaded):
    from bertviz_lite import trace
    t = trace(tiny_loaded["bert"], "the cat sat", "on the mat")
    sentences = sentence_of(t.sequence_ids)
    first_b = t.sequence_ids.index(1)
    assert (sentences[:first_b] == "A").all() and (sentences[first_b:] == "B").all()
    queries, keys = pair_masks(sentences, "A→B")
    lines = attention_lines(t.attention(0), [0], queries, keys)
    assert (lines.query < first_b).all() and (lines.key >= first_b).all()


def test_equal_weights_at_a_long_rows_cut_keep_the_earlier_keys():
    """Past FULL_LENGTH tokens a query keeps its MOST_PER_QUERY strongest lines; where weights tie at the cut, the
    earlier keys (one rule in the app and in a live site's graph: attention_lines.kept_lines)."""
    n = FULL_LENGTH + 6
    probs = np.zeros((1, n, n), np.float32)
    probs[0, :, :] = 0.1  # every key alike
    probs[0, 3, 40] = 0.3  # one stronger key for query 3
    lines = attention_lines(probs, [0])
    assert lines.key[lines.query == 0].tolist() == list(range(MOST_PER_QUERY))
    assert lines.key[lines.query == 3].tolist() == [*range(MOST_PER_QUERY - 1), 40]
    assert lines.left_out == n * (n - MOST_PER_QUERY)


def test_each_thumbnail_is_centred_on_its_head_and_layer():
    """The model view's canvas (figures/attention_views.py tiled) places tile (layer, head) with its middle cell's
    centre at x = head, y = layer, whatever the tiles' side, so that the axes' numbers mark every tile."""
    for side in (1, 3, 4, 12, 34):
        shares = torch.rand(2, 3, side, side)
        canvas, (start, spacing) = tiled(shares)
        step = side + max(1, side // 5)
        assert canvas.shape == (2 * step - (step - side), 3 * step - (step - side))
        for layer, head in ((0, 0), (1, 2)):
            first = (layer * step, head * step)  # the tile's first cell in the canvas
            assert torch.equal(canvas[first[0]: first[0] + side, first[1]: first[1] + side], shares[layer, head])
            centre = [float(start + (f + (side - 1) / 2) * spacing) for f in first]
            assert centre == pytest.approx([layer, head], abs=1e-5)
        assert torch.isnan(canvas[side: step, :]).all()  # the gap between the first and second layer's tiles


def test_a_template_picks_by_case_and_refuses_to_lose_a_fill():
    """figures/template.py template_of: a leaf that differs between the cases' figures is picked by the case; a part
    whose shape differs is picked whole; a part that differs in shape where a leaf is filled is an error."""
    cases = [{"layout": {"title": {"text": "a"}, "height": 1}, "data": [{"y": []}]},
             {"layout": {"title": {"text": "b", "y": 1}, "height": 1}, "data": [{"y": []}]}]
    made = template_of(cases, ["v", "k"], {("data", 0, "y"): ["v", "y"]})
    assert made["fills"][0] == [["layout", "title"], ["pick", ["v", "k"], ["quote", {"text": "a"}],
                                                     ["quote", {"text": "b", "y": 1}]]]
    with pytest.raises(ValueError, match="filled"):
        template_of(cases, ["v", "k"], {("layout", "title", "text"): "x"})


def test_pooled_thumbnails_keep_rows_summing_to_one():
    probs = np.random.default_rng(2).dirichlet(np.ones(37), size=(3, 37))  # (3, 37, 37)
    pooled = pooled_shares(probs, side=8)
    assert pooled.shape == (3, 8, 8)
    np.testing.assert_allclose(pooled.sum(-1), 1, atol=1e-5)
    np.testing.assert_allclose(pooled_shares(probs, side=40), probs, atol=1e-7)  # short enough: unchanged


def test_sixteen_or_more_heads_get_distinct_colours():
    for heads in (12, 16, 23):
        assert len(set(head_colours(heads))) == heads


def test_head_view_numbers_are_the_models_own_attention():
    """Query 2 ('bank') of layer 1, head 3 alone: every number written is output_attentions' weight."""
    at = open_page("attention", model=BUNDLED_MODEL, text=TEXT, layer=1, heads="3", focus="q2")
    assert not at.exception and not at.error and not at.warning
    own = own_attentions(BUNDLED_MODEL, TEXT)[1, 3, 2]  # (T,)
    (figure,) = specs(at)
    written = {a["y"]: float(a["text"]) for a in figure["layout"]["annotations"] if a["x"] == 1}
    assert written and all(abs(own[k] - w) <= 0.005 for k, w in written.items())
    assert set(written) == set(np.nonzero(own >= MIN_WEIGHT)[0].tolist())
    (table,) = at.dataframe
    np.testing.assert_allclose(table.value["head 3"].to_numpy(), own, atol=5e-4)


def test_model_view_tiles_are_every_layer_and_head():
    at = open_page("attention", model=BUNDLED_MODEL, text=TEXT, view="model")
    assert not at.exception and not at.error
    own = own_attentions(BUNDLED_MODEL, TEXT)  # (L, H, T, T)
    (figure,) = specs(at)
    heatmap, targets = figure["data"]
    assert len(targets["customdata"]) == own.shape[0] * own.shape[1]
    z = decode_typed_array(heatmap["z"])
    T, step = own.shape[-1], own.shape[-1] + max(1, own.shape[-1] // 5)
    np.testing.assert_allclose(z[2 * step: 2 * step + T, 5 * step: 5 * step + T], own[2, 5], atol=1e-5)


def test_head_and_model_views_at_512_tokens_send_at_most_2_mb():
    words = ("the cat sat on the mat and the dog sat on the log " * 60).split()[:510]
    for view in ("head", "model"):
        at = open_page("attention", text=" ".join(words), view=view)
        assert not at.exception and not at.error
        assert 20_000 < payload_bytes(at) <= 2 * 1024 * 1024, view
    assert any("left out" in c.value for c in open_page("attention", text=" ".join(words)).caption)


@slow
def test_bert_large_model_view_at_512_tokens_sends_at_most_2_mb():
    words = ("the cat sat on the mat and the dog sat on the log " * 60).split()[:510]
    at = open_page("attention", model="bert-large-uncased", text=" ".join(words), view="model")
    assert not at.exception and not at.error
    assert len(specs(at)[0]["data"][1]["customdata"]) == 24 * 16
    assert payload_bytes(at) <= 2 * 1024 * 1024


@pytest.mark.parametrize("params,fragment", [
    ({"view": "nonsense"}, "no view 'nonsense'"), ({"heads": "abc"}, "not a list of this model's heads"),
    ({"heads": "1,99"}, "not a list of this model's heads"), ({"focus": "q999"}, "not a token of this view"),
    ({"focus": "zz"}, "not a token of this view"), ({"view": "model", "head": 99}, "Head 99 does not exist")])
def test_hostile_links_get_a_message_and_a_view(params, fragment, tiny_dirs):
    at = open_page("attention", model=tiny_dirs["bert"], text=TEXT, layer=999, **params)
    assert not at.exception
    assert any(fragment in w.value for w in at.warning), [w.value for w in at.warning]
    assert len(specs(at)) == 1


def test_pair_filter_and_words_from_a_link(tiny_dirs):
    at = open_page("attention", model=tiny_dirs["bert"], text="the cat sat", pair="on the mat", filter="B→A",
                   words=1, horizontal=1)
    assert not at.exception and not at.error
    (figure,) = specs(at)
    assert "top reads below" in figure["layout"]["title"]["text"]  # across: the tokens in two rows
    ends = np.concatenate([decode_typed_array(d["x"]).reshape(-1, 3) for d in figure["data"]
                           if d["mode"] == "lines" and d.get("showlegend") is False])  # not the legend's entries
    first_b = 5  # [CLS] the cat sat [SEP] | on the mat [SEP], as words
    assert len(ends) and (ends[:, 0] >= first_b).all() and (ends[:, 1] < first_b).all()


def test_figures_are_pure_and_mark_the_focused_token():
    probs = np.full((2, 3, 3), 1 / 3, np.float32)
    lines = attention_lines(probs, [0], queries=np.array([False, True, False]))
    fig = head_view(lines, ["a", "b", "c"], ["a", "b", "c"], 2, "t", focus=("q", 1), numbers=True)
    assert [a.text for a in fig.layout.annotations] == ["0.33"] * 3
    assert model_view(np.full((2, 2, 3, 3), 1 / 3, np.float32), "m").data[1].customdata[3] == [1, 1]


@pytest.mark.parametrize("family", each_family())
def test_model_view_and_a_focused_head_view_for_every_family(every_tiny_dir, family):
    model_dir = every_tiny_dir[family]
    own = own_attentions(model_dir, "the cat sat", "on the mat")
    for params in ({"view": "model"}, {"heads": "1", "focus": "q2", "lecture": 1}):
        at = open_page("attention", model=model_dir, text="the cat sat", pair="on the mat", layer=1, **params)
        assert not at.exception and not at.error and not at.warning, params
    (table,) = at.dataframe  # the focused query's weights under head 1 of layer 1
    np.testing.assert_allclose(table.value["head 1"].to_numpy(), own[1, 1, 2], atol=5e-4)


def test_the_legend_shows_every_drawn_head_at_full_strength_and_an_empty_view_says_why():
    probs = np.zeros((2, 3, 3), np.float32)
    probs[0, :, 0], probs[1] = 0.12, np.eye(3)  # head 0 reads weakly, head 1 strongly
    fig = head_view(attention_lines(probs, [0, 1]), ["a", "b", "c"], ["a", "b", "c"], 2, "t")
    entries = [d for d in fig.data if d.showlegend is not False and d.mode == "lines"]
    assert [(d.name, d.opacity) for d in entries] == [("head 0", None), ("head 1", None)]  # full strength
    assert {d.legendgroup for d in fig.data if d.mode == "lines"} == {"head 0", "head 1"}
    assert not [a for a in fig.layout.annotations if "No weight" in a.text]
    empty = head_view(attention_lines(probs, [0], keys=np.array([False, True, True])), ["a", "b", "c"],
                      ["a", "b", "c"], 2, "t")
    assert [a.text.replace("<br>", " ") for a in empty.layout.annotations if "No weight" in a.text] == [
        "No weight here reaches 0.05: no line to draw"]  # in short lines between the columns


def test_the_head_grid_is_small_multiples_sized_to_its_width():
    """Thumbnails as large as the width allows, six a row (four on a phone), their titles clear of the row above,
    one colour bar under them all; declared small multiples for the readability check (issue 44)."""
    probs = np.full((12, 9, 9), 1 / 9, np.float32)
    wide, phone = head_grid(probs, 2, width=808), head_grid(probs, 2, width=358)
    for fig, columns in ((wide, 6), (phone, 4)):
        assert fig.layout.meta["small_multiples"] and fig.data[0].colorbar.orientation == "h"
        assert len({a.x for a in fig.layout.annotations}) == columns
        assert [a.text for a in fig.layout.annotations][:3] == ["0", "1", "2 ◀"]
    rows = {a.y for a in wide.layout.annotations}
    assert len(rows) == 2 and wide.layout.height < phone.layout.height * 1.5  # two rows of larger tiles, three of smaller


def test_a_projector_holds_every_layer_of_the_model_view_down_to_24_px_tiles():
    assert model_view_px(12, 12) == 800 and model_view_px(12, 12, most_px=580) == 580  # smaller tiles, whole
    assert model_view_px(22, 12, most_px=580) == 160 + 24 * 22 > 580  # ModernBERT: a scrolling box instead
    assert model_view_px(6, 12, most_px=580) == 480  # short enough already
